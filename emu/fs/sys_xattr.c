/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_xattr.c - extended attributes: getxattr, setxattr, listxattr,
 * removexattr and their l (no symlink following) and f (descriptor)
 * variants. A file of a writable place (the private /tmp, the root with
 * --rw) has the host file's own attributes, changed under the write rule
 * of file_access.h; the read-only places and the virtual trees support
 * none (EOPNOTSUPP; an empty list), as a file system without them; pipes
 * and sockets have none, and take none of the user namespace (EPERM). The
 * host's calls are the f* ones on a descriptor open for real (vfs_reopen):
 * the sandbox allows no path-based change (docs/security.md). So a
 * symlink itself (the l variants on a link) has none and takes none, as
 * for user.* on Linux (the trusted.* and security.* a link could carry on
 * Linux would need the host's path-based *xattrat); a socket node, which
 * cannot be opened, is answered as a socket. */
#include "file.h"
#include "file_access.h"
#include "fs_calls.h"
#include "fsnotify.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#define GUEST_XATTR_CREATE 1
#define GUEST_XATTR_REPLACE 2
#define NAME_MAX_XATTR 255
#define SIZE_MAX_XATTR 65536

enum xattr_op { XA_GET, XA_SET, XA_LIST, XA_REMOVE };

/* How the target is named: a path (following a symlink at the end, or
 * not) or a descriptor. */
enum xattr_target { BY_PATH, BY_LINK, BY_FD };

/* The attribute name at uname: 0, or -ERANGE (empty or too long), -EFAULT. */
static int name_from_guest(struct task *t, uint64_t uname, char name[NAME_MAX_XATTR + 1])
{
    int64_t n = strncpy_from_guest(task_mm(t), name, uname, NAME_MAX_XATTR + 1);
    if (n == -ENAMETOOLONG || n == 0)
        return -ERANGE;
    return n < 0 ? (int)n : 0;
}

/* A host descriptor open on the file (close it) on which the host's
 * f*xattr calls work, or -errno; -EOPNOTSUPP where the guest's file has
 * no attributes, -EPIPE for a descriptor of no file system's file (a
 * pipe, a socket, a socket node) and -ELOOP for a symlink itself. */
static int open_target(struct task *t, enum xattr_target how, uint64_t arg)
{
    if (how == BY_FD) {
        struct file *f = file_get_io(t, (int)arg);
        if (!f)
            return -EBADF;
        if (f->kind == FILE_PIPE || f->kind == FILE_OBJECT)
            return -EPIPE;
        if (f->kind != FILE_HOST || !f->writable_mount)
            return -EOPNOTSUPP;
        int fd = fcntl(f->host_fd, F_DUPFD_CLOEXEC, 0);
        return fd < 0 ? -errno : fd;
    }
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, -100, arg, path, sizeof path);
    if (err >= 0 && how == BY_PATH)
        err = vfs_follow(&t->machine->vfs, t, path, path, sizeof path);
    if (err < 0)
        return (int)err;
    struct vfs_node node;
    if ((err = vfs_lookup_virtual(&t->machine->vfs, t, path, &node)) != 0)
        return err > 0 ? -EOPNOTSUPP : (int)err;
    bool writable;
    int opath = vfs_open_host_writable(&t->machine->vfs, path,
                                       O_PATH | (how == BY_LINK ? O_NOFOLLOW : 0), 0, &writable);
    if (opath < 0)
        return opath;
    struct stat st;
    int refuse = !writable ? -EOPNOTSUPP : fstat(opath, &st) < 0 ? -errno : 0;
    if (refuse < 0) {
        close(opath);
        return refuse;
    }
    int fd = S_ISLNK(st.st_mode)    ? -ELOOP
             : S_ISSOCK(st.st_mode) ? -EPIPE
                                    : vfs_reopen(&t->machine->vfs, opath);
    close(opath);
    return fd;
}

/* The answer for a file without attributes (open_target's error). */
static int64_t without_xattrs(enum xattr_op op, int err)
{
    if (op == XA_LIST && (err == -EOPNOTSUPP || err == -EPIPE))
        return 0;
    if (err == -ELOOP) /* a symlink itself: none, and none taken */
        return op == XA_LIST ? 0 : op == XA_GET ? -ENODATA : -EPERM;
    if (err == -EPIPE) /* a pipe, a socket: user.* only on files */
        return op == XA_GET ? -ENODATA : -EPERM;
    return err;
}

/* __vfs_setxattr_noperm's and vfs_removexattr's fsnotify_xattr: IN_ATTRIB on
 * the file open_target opened as host fd. */
static void xattr_told(struct task *t, enum xattr_target how, uint64_t arg, int fd)
{
    char path[VFS_PATH_MAX];
    const char *at = path;
    if (how == BY_FD) {
        struct file *f = file_get_io(t, (int)arg);
        at = f ? f->path : NULL;
    } else if (path_from_guest(t, -100, arg, path, sizeof path) < 0 ||
               (how == BY_PATH && vfs_follow(&t->machine->vfs, t, path, path, sizeof path) < 0)) {
        at = NULL;
    }
    fsnotify_path_fd(t->machine, at, fd, IN_ATTRIB);
}

static int64_t do_xattr(struct task *t, enum xattr_op op, enum xattr_target how,
                        const uint64_t a[6])
{
    char name[NAME_MAX_XATTR + 1] = "";
    uint64_t value = op == XA_LIST ? a[1] : a[2], size = op == XA_LIST ? a[2] : a[3];
    if (op == XA_SET && (a[4] & ~(uint64_t)(GUEST_XATTR_CREATE | GUEST_XATTR_REPLACE)))
        return -EINVAL;
    if (op != XA_LIST) {
        int err = name_from_guest(t, a[1], name);
        if (err < 0)
            return err;
    }
    if (op == XA_SET && size > SIZE_MAX_XATTR)
        return -E2BIG;
    if (size > SIZE_MAX_XATTR)
        size = SIZE_MAX_XATTR;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return -ENOMEM;
    int64_t r = 0;
    if (op == XA_SET && size && copy_from_guest(task_mm(t), buf, value, size) < 0)
        r = -EFAULT;
    int fd = r < 0 ? -1 : open_target(t, how, a[0]);
    if (r == 0 && fd < 0)
        r = without_xattrs(op, fd);
    int set_flags = (a[4] & GUEST_XATTR_CREATE ? XATTR_CREATE : 0) |
                    (a[4] & GUEST_XATTR_REPLACE ? XATTR_REPLACE : 0);
    if (fd >= 0) {
        ssize_t n = 0;
        switch (op) {
        case XA_GET:
            n = fgetxattr(fd, name, buf, size);
            break;
        case XA_SET:
            n = fsetxattr(fd, name, buf, size, set_flags);
            break;
        case XA_LIST:
            n = flistxattr(fd, (char *)buf, size);
            break;
        case XA_REMOVE:
            n = fremovexattr(fd, name);
            break;
        }
        r = n < 0 ? -errno : n;
        if (r >= 0 && (op == XA_SET || op == XA_REMOVE) && fsnotify_active(t->machine))
            xattr_told(t, how, a[0], fd);
        close(fd);
    }
    /* get and list with a size of 0 ask for the size only. */
    if (r > 0 && (op == XA_GET || op == XA_LIST) && size &&
        copy_to_guest(task_mm(t), value, buf, (size_t)r) < 0)
        r = -EFAULT;
    free(buf);
    return r;
}

SYSCALL_DECL(getxattr) { return do_xattr(t, XA_GET, BY_PATH, a); }
SYSCALL_DECL(lgetxattr) { return do_xattr(t, XA_GET, BY_LINK, a); }
SYSCALL_DECL(fgetxattr) { return do_xattr(t, XA_GET, BY_FD, a); }
SYSCALL_DECL(setxattr) { return do_xattr(t, XA_SET, BY_PATH, a); }
SYSCALL_DECL(lsetxattr) { return do_xattr(t, XA_SET, BY_LINK, a); }
SYSCALL_DECL(fsetxattr) { return do_xattr(t, XA_SET, BY_FD, a); }
SYSCALL_DECL(listxattr) { return do_xattr(t, XA_LIST, BY_PATH, a); }
SYSCALL_DECL(llistxattr) { return do_xattr(t, XA_LIST, BY_LINK, a); }
SYSCALL_DECL(flistxattr) { return do_xattr(t, XA_LIST, BY_FD, a); }
SYSCALL_DECL(removexattr) { return do_xattr(t, XA_REMOVE, BY_PATH, a); }
SYSCALL_DECL(lremovexattr) { return do_xattr(t, XA_REMOVE, BY_LINK, a); }
SYSCALL_DECL(fremovexattr) { return do_xattr(t, XA_REMOVE, BY_FD, a); }
