/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file_access.h - what a descriptor lets the guest do: I/O needs a real open
 * file (not O_PATH), and changing a host file needs a writable mount, the
 * same rule the path-based calls meet in sysfs-fs/vfs_parent(). */
#ifndef ASYMU_FILE_ACCESS_H
#define ASYMU_FILE_ACCESS_H

#include "syscalls.h"

struct file;
struct task;

/* The open file behind fd for I/O and for changes through the descriptor:
 * NULL (EBADF) when fd is not open or is an O_PATH descriptor, which Linux
 * accepts only as a directory, for fstat, fcntl, dup and close. */
struct file *file_get_io(struct task *t, int fd);

/* Whether the guest may change f's host file (mode, times, owner, size):
 * 0, -EROFS for a file of a read-only place (the root without --rw, -L, the
 * sysroot's /tmp under the private one), -EPERM for the files of the
 * virtual trees, pipes and kernel objects. */
int file_may_change(const struct file *f);

SYSCALL_DECL(fallocate);

#endif
