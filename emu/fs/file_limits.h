/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file_limits.h - how large the guest may make regular files
 * (file_limits.c): RLIMIT_FSIZE (EFBIG and SIGXFSZ) and the size limit of
 * the mount the file is on (--tmp-size: EFBIG past it, ENOSPC when full). */
#ifndef ASYMU_FILE_LIMITS_H
#define ASYMU_FILE_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;
struct task;

/* write/pwrite of a FILE_HOST file (off < 0: at its position): the bytes
 * written, what fits when the limits cut it short, or -errno. */
int64_t file_limited_write(struct task *t, struct file *f, const void *buf, size_t len,
                           int64_t off);
/* ftruncate (keep_size false) or fallocate of a FILE_HOST file to end at
 * `end`: runs `change` on the host fd within the limits, and counts it. */
int file_limited_resize(struct task *t, struct file *f, uint64_t end, bool keep_size,
                        int (*change)(int fd, const uint64_t arg[4]), const uint64_t arg[4]);

#endif
