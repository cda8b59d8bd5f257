/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reopen.h - opening /proc/PID/fd/N (and so /dev/stdin, /dev/fd/N): Linux
 * follows such a link to the open file itself, not to its text, and opens
 * that file again (reopen.c). */
#ifndef ASYMU_REOPEN_H
#define ASYMU_REOPEN_H

struct file;
struct task;

/* What descriptor fd of process pid has open, or NULL. */
struct file *file_of_process(struct task *t, int pid, int fd);
/* A new open file description of what descriptor fd of process pid has
 * open, with host O_* flags: 0 and *out, or -errno (ENOENT when there is
 * no such descriptor, ENXIO for sockets and other kernel objects). */
int file_reopen(struct task *t, int pid, int fd, int flags, int mode, struct file **out);

#endif
