/* SPDX-License-Identifier: GPL-2.0-or-later */
/* openat2.c - openat2(2) as Linux 5.15's fs/open.c (SYSCALL openat2,
 * do_sys_openat2(), build_open_flags()) checks it, with the walk of
 * fs/namei.c under its RESOLVE_* flags done by sysfs-fs/
 * (vfs_resolve_how()); and chroot(2) (fs/open.c), the per-process root
 * directory every walk starts an absolute path at. */
#include "fs_calls.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "owner.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#define GUEST_AT_FDCWD (-100)

/* struct open_how: flags, mode, resolve (include/uapi/linux/openat2.h). */
#define OPEN_HOW_SIZE_VER0 24
#define GUEST_PAGE_SIZE 4096

/* The guest's O_* bits (the generic ones, with arm's and arm64's
 * O_DIRECTORY, O_NOFOLLOW, O_DIRECT, O_LARGEFILE). */
#define G_O_ACCMODE 03u
#define G_O_CREAT 0100u
#define G_O_TRUNC 01000u
#define G_O_DIRECTORY 040000u
#define G_O_NOFOLLOW 0100000u
#define G_O_CLOEXEC 02000000u
#define G_O_PATH 010000000u
#define G_O_TMPFILE_BIT 020000000u /* __O_TMPFILE */
#define G_O_TMPFILE (G_O_TMPFILE_BIT | G_O_DIRECTORY)
#define G_O_TMPFILE_MASK (G_O_TMPFILE_BIT | G_O_DIRECTORY | G_O_CREAT)
/* VALID_OPEN_FLAGS: the access mode, O_CREAT, O_EXCL, O_NOCTTY, O_TRUNC,
 * O_APPEND, O_NONBLOCK, O_DSYNC, FASYNC, O_DIRECTORY, O_NOFOLLOW, O_DIRECT,
 * O_LARGEFILE, O_NOATIME, O_CLOEXEC, __O_SYNC, O_PATH, __O_TMPFILE. */
#define G_VALID_OPEN_FLAGS 037777703u
#define G_O_PATH_FLAGS (G_O_DIRECTORY | G_O_NOFOLLOW | G_O_PATH | G_O_CLOEXEC)
#define G_FMODE_NONOTIFY 0x4000000u /* stripped, never refused */

/* copy_struct_from_user(): the first sizeof how bytes, and the rest of a
 * larger struct must be zero (E2BIG); a fault before a non-zero byte is
 * EFAULT (check_zeroed_user() reads in order). */
static int copy_how(struct task *t, uint64_t uhow, uint64_t usize, uint64_t how[3])
{
    struct mm *mm = task_mm(t);
    memset(how, 0, 3 * sizeof *how);
    if (copy_from_guest(mm, how, uhow, OPEN_HOW_SIZE_VER0) < 0)
        return -EFAULT;
    for (uint64_t at = OPEN_HOW_SIZE_VER0; at < usize;) {
        /* chunks never cross a 256-byte line, so never a page */
        uint8_t chunk[256];
        size_t n = sizeof chunk - (size_t)((uhow + at) % sizeof chunk);
        if (n > usize - at)
            n = (size_t)(usize - at);
        if (copy_from_guest(mm, chunk, uhow + at, n) < 0)
            return -EFAULT;
        for (size_t i = 0; i < n; i++)
            if (chunk[i])
                return -E2BIG;
        at += n;
    }
    return 0;
}

/* build_open_flags(): 0 or the error openat2 gives before any lookup. */
static int check_how(const uint64_t how[3])
{
    uint64_t flags = how[0] & ~(uint64_t)(G_FMODE_NONOTIFY | G_O_CLOEXEC);
    uint64_t mode = how[1], resolve = how[2];
    if (flags & ~(uint64_t)G_VALID_OPEN_FLAGS)
        return -EINVAL;
    if (resolve & ~(uint64_t)VFS_RESOLVE_ALL)
        return -EINVAL;
    if ((resolve & VFS_RESOLVE_SCOPED) == VFS_RESOLVE_SCOPED)
        return -EINVAL; /* the scoping flags exclude each other */
    if (flags & (G_O_CREAT | G_O_TMPFILE_BIT) ? (mode & ~(uint64_t)07777) : mode != 0)
        return -EINVAL; /* a mode only for what creates, and S_IALLUGO's bits only */
    if (flags & G_O_TMPFILE_BIT) {
        if ((flags & G_O_TMPFILE_MASK) != G_O_TMPFILE)
            return -EINVAL;
        if ((flags & G_O_ACCMODE) == O_RDONLY)
            return -EINVAL; /* ACC_MODE() without MAY_WRITE */
    }
    if ((flags & G_O_PATH) && (flags & ~(uint64_t)G_O_PATH_FLAGS))
        return -EINVAL;
    /* "Don't bother even trying for create/truncate/tmpfile open": 5.15
     * tested O_TMPFILE, which holds O_DIRECTORY, until the 5.15.y stable
     * fix (Linux 6.5's) made it __O_TMPFILE: asymu follows the fix. */
    if ((resolve & VFS_RESOLVE_CACHED) && (flags & (G_O_TRUNC | G_O_CREAT | G_O_TMPFILE_BIT)))
        return -EAGAIN;
    return 0;
}

/* openat2(dirfd, path, how, size) */
SYSCALL_DECL(openat2)
{
    int dirfd = (int)a[0];
    uint64_t how[3];
    if (a[3] < OPEN_HOW_SIZE_VER0)
        return -EINVAL;
    /* 5.15 read on to the first fault or non-zero byte; later kernels
     * (the host's here) refuse more than a page first, as clone3 does:
     * asymu takes the bound, which also bounds its own reading. */
    if (a[3] > GUEST_PAGE_SIZE)
        return -E2BIG;
    int64_t err = copy_how(t, a[2], a[3], how);
    if (err == 0)
        err = check_how(how);
    if (err < 0)
        return err;
    char raw[VFS_PATH_MAX], path[VFS_PATH_MAX];
    if ((err = strncpy_from_guest(task_mm(t), raw, a[1], sizeof raw)) < 0)
        return err;
    int flags = open_flags_to_host((uint32_t)how[0]);
    int mode = (int)creation_mode(t, how[1]);
    unsigned resolve = (unsigned)how[2];
    if (!resolve) /* openat's own walk */
        return (err = path_at(t, dirfd, raw, path, sizeof path)) < 0
                   ? err
                   : open_resolved(t, a[1], path, flags, mode);
    /* path_init(): an absolute path needs the dirfd only as IN_ROOT's root */
    const char *start = t->proc->cwd;
    if ((raw[0] != '/' || (resolve & VFS_RESOLVE_IN_ROOT)) && dirfd != GUEST_AT_FDCWD) {
        struct file *f = file_get(t, dirfd);
        if (!f)
            return -EBADF;
        if (!f->path)
            return -ENOTDIR;
        start = f->path;
    }
    /* O_CREAT | O_EXCL never follows the last component (build_open_flags()
     * adds O_NOFOLLOW) */
    bool follow = !(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
    err = vfs_resolve_how(&t->machine->vfs, t, start, raw, resolve, follow, path, sizeof path);
    if (err < 0)
        return err;
    return open_resolved(t, a[1], path, flags, mode);
}

/* path_permission(MAY_EXEC) of a directory: search permission for the
 * caller's fsuid and groups (generic_permission(); CAP_DAC_READ_SEARCH or
 * CAP_DAC_OVERRIDE, which a non-zero fsuid takes out of the effective set). */
static bool may_search(const struct task *t, const struct stat *st)
{
    const struct cred *c = &t->proc->cred;
    if (cred_capable(c, CAP_DAC_READ_SEARCH) || cred_capable(c, CAP_DAC_OVERRIDE))
        return true;
    if (c->u.fs == st->st_uid)
        return st->st_mode & S_IXUSR;
    if (cred_in_group(c, st->st_gid))
        return st->st_mode & S_IXGRP;
    return st->st_mode & S_IXOTH;
}

/* chroot(path) (fs/open.c): the lookup (ENOENT, ENOTDIR, ELOOP...), search
 * permission on the directory (EACCES), then CAP_SYS_CHROOT (EPERM); the
 * process's root becomes the directory, its symlinks resolved. The cwd
 * stays where it is, even outside the new root (getcwd then says
 * "(unreachable)"). The walks keep every lookup under the guest's own
 * namespace, so a chroot only narrows what the guest reaches. */
SYSCALL_DECL(chroot)
{
    char path[VFS_PATH_MAX], real[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, GUEST_AT_FDCWD, a[0], path, sizeof path);
    if (err < 0)
        return err;
    struct vfs *v = &t->machine->vfs;
    if ((err = vfs_directory(v, t, path, real, sizeof real)) < 0)
        return err;
    struct stat st;
    struct vfs_node node;
    if ((err = vfs_stat(v, t, real, true, &st)) < 0)
        return err;
    if (vfs_lookup_virtual(v, t, real, &node) == 0)
        owner_apply(t->machine, &st);
    if (!may_search(t, &st))
        return -EACCES;
    if (!capable(t, CAP_SYS_CHROOT))
        return -EPERM;
    snprintf(t->proc->root, sizeof t->proc->root, "%s", real);
    return 0;
}
