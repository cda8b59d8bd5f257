/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_stat.c - what a file is: fstat, newfstatat, statx, readlinkat,
 * faccessat. */
#include "abi.h"
#include "file.h"
#include "fs_calls.h"
#include "machine.h"
#include "mm.h"
#include "owner.h"
#include "reopen.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define GUEST_AT_FDCWD (-100)
#define GUEST_AT_SYMLINK_NOFOLLOW 0x100
#define GUEST_AT_EMPTY_PATH 0x1000

int file_stat(struct task *t, struct file *f, struct stat *st)
{
    if (f->kind == FILE_CONSOLE && f->node.kind == VNODE_CONSOLE) {
        vfs_stat_virtual(&f->node, st);
        return 0;
    }
    if (f->kind == FILE_PIPE) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFIFO | 0600;
        st->st_nlink = 1;
        st->st_blksize = 4096;
        st->st_dev = 0xc;
        st->st_ino = (ino_t)((uintptr_t)f->pipe >> 4 & 0xffffff);
        return 0;
    }
    if (f->kind == FILE_OBJECT && f->ops->stat)
        return f->ops->stat(f, st);
    if (f->kind == FILE_OBJECT) {
        memset(st, 0, sizeof *st);
        st->st_mode = f->ops->mode;
        st->st_nlink = 1;
        st->st_blksize = 4096;
        st->st_dev = S_ISSOCK(f->ops->mode) ? 0x8 : 0xe;
        st->st_ino = (ino_t)f->ino;
        return 0;
    }
    if (f->kind == FILE_VIRTUAL) {
        vfs_stat_virtual(&f->node, st);
        if (f->node.kind != VNODE_DIR) /* an mqueue root has a size */
            st->st_size = (off_t)f->size;
        return 0;
    }
    if (fstat(f->host_fd, st) < 0)
        return -errno;
    if (f->kind == FILE_HOST)
        owner_apply(t->machine, st);
    return 0;
}

int stat_at(struct task *t, int dirfd, uint64_t upath, int flags, struct stat *st)
{
    char path[VFS_PATH_MAX];
    char rel[2] = "";
    if (upath && strncpy_from_guest(task_mm(t), rel, upath, sizeof rel) == -EFAULT)
        return -EFAULT;
    if ((!upath || rel[0] == '\0') && (flags & GUEST_AT_EMPTY_PATH)) {
        if (dirfd == GUEST_AT_FDCWD) {
            int err = vfs_stat(&t->machine->vfs, t, t->proc->cwd, true, st);
            if (err == 0)
                owner_apply(t->machine, st);
            return err;
        }
        struct file *f = file_get(t, dirfd);
        return f ? file_stat(t, f, st) : -EBADF;
    }
    int64_t err = path_from_guest(t, dirfd, upath, path, sizeof path);
    if (err < 0)
        return (int)err;
    bool follow = !(flags & GUEST_AT_SYMLINK_NOFOLLOW);
    struct vfs_node node;
    err = follow_virtual(t, path, follow, &node);
    if (err < 0)
        return (int)err;
    /* /proc/PID/fd/N: the file the descriptor has open. */
    if (err == 1 && follow && vfs_is_fd_link(&node)) {
        struct file *f = file_of_process(t, node.arg, node.arg2);
        return f ? file_stat(t, f, st) : -ENOENT;
    }
    err = vfs_stat(&t->machine->vfs, t, path, follow, st);
    if (err < 0)
        return (int)err;
    owner_apply(t->machine, st);
    return !S_ISDIR(st->st_mode) && names_a_directory(t, upath) ? -ENOTDIR : 0;
}

int64_t do_fstatat(struct task *t, int dirfd, uint64_t upath, uint64_t statbuf, int flags)
{
    struct stat st;
    int err = stat_at(t, dirfd, upath, flags, &st);
    if (err < 0)
        return err;
    return task_abi(t)->put_stat(t, statbuf, &st);
}

SYSCALL_DECL(fstat)
{
    return do_fstatat(t, (int)a[0], 0, a[1], GUEST_AT_EMPTY_PATH);
}

SYSCALL_DECL(newfstatat)
{
    return do_fstatat(t, (int)a[0], a[1], a[2], (int)a[3]);
}

SYSCALL_DECL(statx)
{
    struct stat st;
    int err = stat_at(t, (int)a[0], a[1], (int)a[2], &st);
    if (err < 0)
        return err;
    struct statx sx;
    memset(&sx, 0, sizeof sx);
    sx.stx_mask = STATX_BASIC_STATS;
    sx.stx_blksize = (uint32_t)st.st_blksize;
    sx.stx_nlink = (uint32_t)st.st_nlink;
    sx.stx_uid = st.st_uid;
    sx.stx_gid = st.st_gid;
    sx.stx_mode = (uint16_t)st.st_mode;
    sx.stx_ino = st.st_ino;
    sx.stx_size = (uint64_t)st.st_size;
    sx.stx_blocks = (uint64_t)st.st_blocks;
    sx.stx_atime.tv_sec = st.st_atim.tv_sec, sx.stx_atime.tv_nsec = (uint32_t)st.st_atim.tv_nsec;
    sx.stx_mtime.tv_sec = st.st_mtim.tv_sec, sx.stx_mtime.tv_nsec = (uint32_t)st.st_mtim.tv_nsec;
    sx.stx_ctime.tv_sec = st.st_ctim.tv_sec, sx.stx_ctime.tv_nsec = (uint32_t)st.st_ctim.tv_nsec;
    sx.stx_rdev_major = major(st.st_rdev), sx.stx_rdev_minor = minor(st.st_rdev);
    sx.stx_dev_major = major(st.st_dev), sx.stx_dev_minor = minor(st.st_dev);
    return copy_to_guest(task_mm(t), a[4], &sx, sizeof sx);
}

SYSCALL_DECL(readlinkat)
{
    char path[VFS_PATH_MAX], target[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, (int)a[0], a[1], path, sizeof path);
    if (err < 0)
        return err;
    if (abi_long(task_abi(t), a[3]) <= 0) /* bufsiz, positive in the ABI's long */
        return -EINVAL;
    int n = vfs_readlink(&t->machine->vfs, t, path, target, sizeof target);
    if (n < 0)
        return n;
    size_t len = (size_t)n < a[3] ? (size_t)n : (size_t)a[3];
    err = copy_to_guest(task_mm(t), a[2], target, len);
    return err < 0 ? err : (int64_t)len;
}

SYSCALL_DECL(faccessat)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, (int)a[0], a[1], path, sizeof path);
    if (err < 0)
        return err;
    int mode = (int)a[2];
    if (mode & ~(R_OK | W_OK | X_OK))
        return -EINVAL;
    if ((err = vfs_follow(&t->machine->vfs, t, path, path, sizeof path)) < 0)
        return err;
    struct stat st;
    err = vfs_stat(&t->machine->vfs, t, path, true, &st);
    if (err < 0)
        return err;
    struct vfs_node node;
    bool virtual = vfs_lookup_virtual(&t->machine->vfs, t, path, &node) > 0;
    /* proc_sys_permission(): by the euid, which access(2) keeps */
    if (virtual && node.sysctl && (((mode & W_OK) && sysctl_test_perm(t, node.mode, true) < 0) ||
                                   ((mode & R_OK) && sysctl_test_perm(t, node.mode, false) < 0)))
        return -EACCES;
    if ((mode & W_OK) && !virtual && !S_ISCHR(st.st_mode)) {
        /* The guest is root: only a read-only place refuses it. */
        bool writable;
        int fd = vfs_open_host_writable(&t->machine->vfs, path, O_PATH, 0, &writable);
        if (fd >= 0)
            close(fd);
        if (!writable)
            return -EROFS;
    }
    if ((mode & X_OK) && !(st.st_mode & 0111))
        return -EACCES;
    return 0;
}
