/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_mount_api.c - the new mount API (fs/namespace.c, fs/fsopen.c of
 * 5.15): open_tree, move_mount, fsopen, fsconfig, fsmount, fspick,
 * mount_setattr. Without CAP_SYS_ADMIN they answer EPERM where Linux does
 * (may_mount()), after the flag checks that come first. For root they
 * answer as mount(2) does here (sys_mount.c): the guest's mounts are
 * fixed, so what needs an existing mount (a clone, a move, a pick, a
 * change of attributes) is EINVAL after the lookups, and there are no
 * file system contexts: fsopen is ENODEV, fsconfig and fsmount find no
 * context in any descriptor (EINVAL). open_tree without OPEN_TREE_CLONE
 * needs no privilege: an O_PATH descriptor of the file. */
#include "file.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#define GUEST_AT_FDCWD (-100)
#define GUEST_AT_SYMLINK_NOFOLLOW 0x100
#define GUEST_AT_NO_AUTOMOUNT 0x800
#define GUEST_AT_EMPTY_PATH 0x1000
#define GUEST_AT_RECURSIVE 0x8000
#define OPEN_TREE_CLONE 1u
#define GUEST_O_CLOEXEC 02000000u
#define GUEST_O_PATH 010000000u

static bool may_mount(const struct task *t)
{
    return capable(t, CAP_SYS_ADMIN);
}

/* user_path_at(): "" is ENOENT unless AT_EMPTY_PATH names dirfd's file. */
static int lookup(struct task *t, int dirfd, uint64_t upath, int at_flags)
{
    char first[2] = "";
    if (strncpy_from_guest(task_mm(t), first, upath, sizeof first) == -EFAULT)
        return -EFAULT;
    if (first[0] == '\0' && !(at_flags & GUEST_AT_EMPTY_PATH))
        return -ENOENT;
    struct stat st;
    return stat_at(t, dirfd, upath, at_flags, &st);
}

SYSCALL_DECL(open_tree)
{
    uint32_t flags = (uint32_t)a[2];
    if (flags & ~(GUEST_AT_EMPTY_PATH | GUEST_AT_NO_AUTOMOUNT | GUEST_AT_RECURSIVE |
                  GUEST_AT_SYMLINK_NOFOLLOW | OPEN_TREE_CLONE | GUEST_O_CLOEXEC))
        return -EINVAL;
    if ((flags & (GUEST_AT_RECURSIVE | OPEN_TREE_CLONE)) == GUEST_AT_RECURSIVE)
        return -EINVAL;
    if ((flags & OPEN_TREE_CLONE) && !may_mount(t))
        return -EPERM;
    int err = lookup(t, (int)a[0], a[1], (int)(flags & (GUEST_AT_EMPTY_PATH | GUEST_AT_SYMLINK_NOFOLLOW)));
    if (err < 0)
        return err;
    if (flags & OPEN_TREE_CLONE)
        return -EINVAL; /* no mount tree to copy */
    char first[2] = "";
    strncpy_from_guest(task_mm(t), first, a[1], sizeof first);
    bool cloexec = flags & GUEST_O_CLOEXEC;
    if (first[0] == '\0' && (int)a[0] != GUEST_AT_FDCWD) /* AT_EMPTY_PATH: dirfd's file */
        return sys_fcntl(t, (uint64_t[6]){a[0], cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 0});
    uint64_t oflags = GUEST_O_PATH | ((flags & GUEST_AT_SYMLINK_NOFOLLOW) ? GUEST_O_NOFOLLOW : 0) |
                      (cloexec ? GUEST_O_CLOEXEC : 0);
    return sys_openat(t, (uint64_t[6]){a[0], a[1], oflags, 0});
}

#define MOVE_MOUNT_MASK 0x177u

SYSCALL_DECL(move_mount)
{
    uint32_t flags = (uint32_t)a[4];
    if (!may_mount(t))
        return -EPERM;
    if (flags & ~MOVE_MOUNT_MASK)
        return -EINVAL;
    int from = ((flags & 1) ? 0 : GUEST_AT_SYMLINK_NOFOLLOW) | ((flags & 4) ? GUEST_AT_EMPTY_PATH : 0);
    int to = ((flags & 0x10) ? 0 : GUEST_AT_SYMLINK_NOFOLLOW) |
             ((flags & 0x40) ? GUEST_AT_EMPTY_PATH : 0);
    int err = lookup(t, (int)a[0], a[1], from);
    if (err == 0)
        err = lookup(t, (int)a[2], a[3], to);
    return err < 0 ? err : -EINVAL; /* do_move_mount(): not a mount */
}

SYSCALL_DECL(fsopen)
{
    if (!may_mount(t))
        return -EPERM;
    if ((uint32_t)a[1] & ~1u /* FSOPEN_CLOEXEC */)
        return -EINVAL;
    char name[4096];
    int64_t n = strncpy_from_guest(task_mm(t), name, a[0], sizeof name);
    if (n < 0)
        return n;
    return -ENODEV; /* get_fs_type(): no type has a context here */
}

enum { FSCONFIG_SET_FLAG, FSCONFIG_SET_STRING, FSCONFIG_SET_BINARY, FSCONFIG_SET_PATH,
       FSCONFIG_SET_PATH_EMPTY, FSCONFIG_SET_FD, FSCONFIG_CMD_CREATE, FSCONFIG_CMD_RECONFIGURE };

/* fsconfig(fd, cmd, key, value, aux): no capability check; the
 * arguments' shape per command, then the descriptor. */
SYSCALL_DECL(fsconfig)
{
    int fd = (int)a[0], aux = (int)a[4];
    bool key = a[2] != 0, value = a[3] != 0;
    if (fd < 0)
        return -EINVAL;
    switch ((uint32_t)a[1]) {
    case FSCONFIG_SET_FLAG:
        if (!key || value || aux)
            return -EINVAL;
        break;
    case FSCONFIG_SET_STRING:
        if (!key || !value || aux)
            return -EINVAL;
        break;
    case FSCONFIG_SET_BINARY:
        if (!key || !value || aux <= 0 || aux > 1024 * 1024)
            return -EINVAL;
        break;
    case FSCONFIG_SET_PATH:
    case FSCONFIG_SET_PATH_EMPTY:
        if (!key || !value || (aux != GUEST_AT_FDCWD && aux < 0))
            return -EINVAL;
        break;
    case FSCONFIG_SET_FD:
        if (!key || value || aux < 0)
            return -EINVAL;
        break;
    case FSCONFIG_CMD_CREATE:
    case FSCONFIG_CMD_RECONFIGURE:
        if (key || value || aux)
            return -EINVAL;
        break;
    default:
        return -EOPNOTSUPP;
    }
    return file_get(t, fd) ? -EINVAL : -EBADF;
}

SYSCALL_DECL(fsmount)
{
    uint32_t flags = (uint32_t)a[1], attr = (uint32_t)a[2];
    if (!may_mount(t))
        return -EPERM;
    if (flags & ~1u /* FSMOUNT_CLOEXEC */)
        return -EINVAL;
    if (attr & ~0xffu)
        return -EINVAL;
    if ((attr & 0x70) != 0 && (attr & 0x70) != 0x10 && (attr & 0x70) != 0x20)
        return -EINVAL; /* MOUNT_ATTR__ATIME: one of relatime, noatime, strictatime */
    return file_get(t, (int)a[0]) ? -EINVAL : -EBADF;
}

/* fspick(dfd, path, flags): FSPICK_CLOEXEC 1, SYMLINK_NOFOLLOW 2,
 * NO_AUTOMOUNT 4, EMPTY_PATH 8. */
SYSCALL_DECL(fspick)
{
    uint32_t flags = (uint32_t)a[2];
    if (!may_mount(t))
        return -EPERM;
    if (flags & ~0xfu)
        return -EINVAL;
    int at = ((flags & 2) ? GUEST_AT_SYMLINK_NOFOLLOW : 0) | ((flags & 8) ? GUEST_AT_EMPTY_PATH : 0);
    int err = lookup(t, (int)a[0], a[1], at);
    return err < 0 ? err : -EINVAL; /* no super block to reconfigure */
}

#define MOUNT_ATTR_SIZE_VER0 32u

/* mount_setattr(dfd, path, flags, attr, size) */
SYSCALL_DECL(mount_setattr)
{
    uint32_t flags = (uint32_t)a[2];
    uint64_t size = a[4];
    if (flags & ~(GUEST_AT_EMPTY_PATH | GUEST_AT_RECURSIVE | GUEST_AT_SYMLINK_NOFOLLOW |
                  GUEST_AT_NO_AUTOMOUNT))
        return -EINVAL;
    if (size > 4096)
        return -E2BIG;
    if (size < MOUNT_ATTR_SIZE_VER0)
        return -EINVAL;
    if (!may_mount(t))
        return -EPERM;
    uint64_t attr[4]; /* attr_set, attr_clr, propagation, userns_fd */
    if (copy_from_guest(task_mm(t), attr, a[3], sizeof attr) < 0)
        return -EFAULT;
    if (!attr[0] && !attr[1] && !attr[2])
        return 0; /* a no-op is not looked at further */
    int err = lookup(t, (int)a[0], a[1], (int)(flags & 0x1100));
    return err < 0 ? err : -EINVAL;
}
