/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fs_calls.h - the file calls beyond reading, writing and naming files:
 * file system statistics (sys_statfs.c), extended attributes
 * (sys_xattr.c), truncate and mknod (sys_path.c), vectored I/O at an
 * offset (sys_rw.c), and the guest's umask every creation applies. */
#ifndef ASYMU_FS_CALLS_H
#define ASYMU_FS_CALLS_H

#include <stdint.h>

#include "syscalls.h"
#include "task.h"
#include "vfs.h"

/* The mode a created file or directory gets: the guest's own umask taken
 * from the permission bits, as Linux does (the host's is 0 inside asymu). */
static inline unsigned creation_mode(const struct task *t, uint64_t mode)
{
    return (unsigned)mode & 07777 & ~t->proc->umask;
}

/* truncate(path, len): the write rule applies as to open(O_WRONLY). */
int64_t do_truncate(struct task *t, uint64_t upath, int64_t len);
SYSCALL_DECL(truncate);
SYSCALL_DECL(mknodat);
/* posix_fadvise: arm's arm_fadvise64_64 (arch/arm/sys32.c) puts advice
 * second and splits the offset and length in register pairs. */
int64_t do_fadvise(struct task *t, int fd, int64_t len, int advice);
SYSCALL_DECL(fadvise64);
SYSCALL_DECL(readahead);
SYSCALL_DECL(sync_file_range);
/* sync_file_range's checks; arm's takes its 64-bit halves in other
 * registers (arch/arm/sys32.c). */
int64_t do_sync_file_range(struct task *t, int fd, int64_t offset, int64_t nbytes,
                           unsigned flags);

/* statfs(path, buf), fstatfs(fd, buf) in the ABI's struct statfs, and
 * arm's statfs64(path, size, buf), fstatfs64(fd, size, buf). */
SYSCALL_DECL(statfs);
SYSCALL_DECL(fstatfs);
SYSCALL_DECL(statfs64);
SYSCALL_DECL(fstatfs64);
/* arm's ustat(dev, buf): a mounted file system's free blocks and inodes. */
SYSCALL_DECL(ustat);

SYSCALL_DECL(getxattr);
SYSCALL_DECL(lgetxattr);
SYSCALL_DECL(fgetxattr);
SYSCALL_DECL(setxattr);
SYSCALL_DECL(lsetxattr);
SYSCALL_DECL(fsetxattr);
SYSCALL_DECL(listxattr);
SYSCALL_DECL(llistxattr);
SYSCALL_DECL(flistxattr);
SYSCALL_DECL(removexattr);
SYSCALL_DECL(lremovexattr);
SYSCALL_DECL(fremovexattr);

/* preadv(fd, iov, cnt, pos_l, pos_h) and friends: the offset whole in
 * pos_l, as arm64 passes it (arm's two 32-bit halves are joined in
 * arch/arm/sys32.c). The *v2 calls take flags (RWF_*) and an offset of -1
 * for the file position. */
SYSCALL_DECL(preadv);
SYSCALL_DECL(pwritev);
SYSCALL_DECL(preadv2);
SYSCALL_DECL(pwritev2);

/* sched_rr_get_interval(pid, tp): field is the timespec member size. */
int64_t do_sched_rr_get_interval(struct task *t, int pid, uint64_t tp, unsigned field);
SYSCALL_DECL(sched_rr_get_interval);

struct file;
struct stat;
/* fstat's answer for an open file (sys_stat.c). */
int file_stat(struct task *t, struct file *f, struct stat *st);

/* For stat (sys_open.c): follows the virtual symlinks at the end of path
 * as open does: 0 when it ends on the host, 1 with *node on a virtual
 * node, or -errno. */
int follow_virtual(struct task *t, char path[VFS_PATH_MAX], bool follow, struct vfs_node *node);
/* Whether the guest's path at upath ends with "/" after a name. */
bool names_a_directory(struct task *t, uint64_t upath);

#endif
