/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dirpos.h - directory positions a 32-bit guest can hold. A host
 * filesystem's d_off (ext4: a 63-bit hash) does not fit the 32-bit off_t of
 * an AArch32 program, and glibc's readdir then fails with EOVERFLOW; Linux
 * gives compat tasks 32-bit positions. asymu numbers the entries of each
 * open directory 1, 2, 3... instead (deterministic as well), and a seek to
 * such a number walks the directory from its start. */
#ifndef ASYMU_DIRPOS_H
#define ASYMU_DIRPOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;
struct task;

/* Rewrites the d_off of the n bytes of linux_dirent64 records in buf (just
 * read from f's host directory) to entry numbers, continuing f->pos. */
void dirpos_renumber(struct file *f, uint8_t *buf, size_t n);

/* Whether f is a host directory whose positions are entry numbers for t. */
bool dirpos_applies(struct task *t, const struct file *f);

/* lseek on such a directory: SEEK_SET or SEEK_CUR to an entry number. */
int64_t dirpos_seek(struct file *f, int64_t off, int whence);

#endif
