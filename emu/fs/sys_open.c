/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_open.c - paths from the guest (path_at), open and close, dup and
 * fcntl. Paths resolve through sysfs-fs/ (the confined root plus the
 * virtual /dev, /proc and /sys). */
#include "abi.h"
#include "fifo.h"
#include "file.h"
#include "flock.h"
#include "fs_calls.h"
#include "fsnotify.h"
#include "kvm.h"
#include "machine.h"
#include "mm.h"
#include "mqueue.h"
#include "owner.h"
#include "pty.h"
#include "reopen.h"
#include "rlimit.h"
#include "syscalls.h"
#include "task.h"
#include "tracefs.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#define GUEST_AT_FDCWD (-100)
#define GUEST_F_NOTIFY 1026
#define GUEST_F_DUPFD_CLOEXEC 1030
#define GUEST_F_SETPIPE_SZ 1031
#define GUEST_F_GETPIPE_SZ 1032

int path_at(struct task *t, int dirfd, const char *path, char *out, size_t len)
{
    if (path[0] == '/' || dirfd == GUEST_AT_FDCWD)
        return vfs_resolve(&t->machine->vfs, t, t->proc->cwd, path, out, len);
    struct file *f = file_get(t, dirfd);
    if (!f)
        return -EBADF;
    if (!f->path)
        return -ENOTDIR;
    return vfs_resolve(&t->machine->vfs, t, f->path, path, out, len);
}

int64_t path_from_guest(struct task *t, int dirfd, uint64_t upath, char *out, size_t len)
{
    char path[VFS_PATH_MAX];
    int64_t n = strncpy_from_guest(task_mm(t), path, upath, sizeof path);
    if (n < 0)
        return n;
    return path_at(t, dirfd, path, out, len);
}

static int open_virtual(struct task *t, const struct vfs_node *node, const char *abspath,
                        int flags, struct file **out)
{
    if (node->kind == VNODE_DIR && (flags & O_ACCMODE) != O_RDONLY)
        return -EISDIR;
    if (node->kind != VNODE_DIR && (flags & O_DIRECTORY))
        return -ENOTDIR;
    if ((flags & O_ACCMODE) != O_RDONLY && !(node->mode & 0222))
        return -EACCES;
    /* proc_sys_permission(): euid 0 or not, whatever the capabilities */
    int perm = node->sysctl ? sysctl_test_perm(t, node->mode, (flags & O_ACCMODE) != O_RDONLY) : 0;
    if (perm < 0)
        return perm;
    bool opens = !(flags & O_PATH); /* O_PATH only names the node */
    if (opens && (node->kind == VNODE_PTMX || node->kind == VNODE_PTS))
        return pty_open_node(t, node, flags, out);
    if (opens && node->kind == VNODE_KVM)
        return kvm_open(t, flags, out);
    int err = 0;
    if (opens && node->kind == VNODE_CONSOLE && strcmp(abspath, "/dev/tty") == 0 &&
        pty_open_ctty(t, flags, out, &err))
        return err; /* a process on a pty: /dev/tty is its slave */
    struct file *f = file_new(FILE_VIRTUAL);
    if (!f)
        return -ENOMEM;
    f->node = *node;
    f->flags = flags & (O_ACCMODE | O_NONBLOCK | O_APPEND | O_PATH);
    f->path = strdup(abspath);
    if (node->kind == VNODE_CONSOLE) {
        /* /dev/tty and /dev/console are otherwise the emulator's own terminal. */
        f->kind = FILE_CONSOLE;
        f->host_fd = (flags & O_ACCMODE) == O_RDONLY ? STDIN_FILENO : STDOUT_FILENO;
    }
    if (node->kind == VNODE_GENERATED) {
        if (opens && (flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY)
            vfs_truncate_virtual(&t->machine->vfs, t, node);
        /* trace_pipe and trace_pipe_raw: the first read takes the first
         * records, not the open (tracing_open_pipe()) */
        err = node->pages || node->pipe ? 0
                                         : vfs_generate(&t->machine->vfs, t, node, &f->data, &f->size);
        /* the lookup made the machine's tracefs */
        if ((node->pages || node->pipe) && t->machine->tracefs)
            f->poll_key = tracefs_wait_key(t->machine->tracefs, tracing_rel(abspath));
        const char *trel = vfs_tracefs_rel(abspath);
        if (opens && err == 0 && trel && t->machine->tracefs)
            f->tracefs_pin = tracefs_pin(t->machine->tracefs, trel);
        if (err < 0) {
            file_put(f);
            return err;
        }
    }
    *out = f;
    return 0;
}

/* Follows the virtual symlinks at the end of path (whose targets are guest
 * paths) a bounded number of times, rewriting path: 0 when it ends on the
 * host, 1 with *node when it ends on a virtual node, which is a symlink
 * only when it is a /proc/PID/fd/N link or follow is false. */
int follow_virtual(struct task *t, char path[VFS_PATH_MAX], bool follow,
                   struct vfs_node *node)
{
    char target[VFS_PATH_MAX];
    for (int hops = 0; hops < 40; hops++) {
        int err = vfs_lookup_virtual(&t->machine->vfs, t, path, node);
        if (err == 0 && follow) {
            /* On the host: its symlinks are guest paths too, which may
             * lead into the virtual trees. */
            char followed[VFS_PATH_MAX];
            if ((err = vfs_follow(&t->machine->vfs, t, path, followed, sizeof followed)) < 0)
                return err;
            if (strcmp(followed, path) == 0)
                return 0;
            snprintf(path, VFS_PATH_MAX, "%s", followed);
            continue;
        }
        if (err <= 0 || node->kind != VNODE_SYMLINK || !follow || vfs_is_fd_link(node))
            return err;
        int n = vfs_readlink_virtual(&t->machine->vfs, t, node, target, sizeof target - 1);
        if (n < 0)
            return n;
        target[n] = '\0';
        char dir[VFS_PATH_MAX + 4];
        snprintf(dir, sizeof dir, "%s/..", path);
        if ((err = vfs_join(dir, target, path, VFS_PATH_MAX)) < 0)
            return err;
    }
    return -ELOOP;
}

/* Whether the guest's path at upath ends with "/" (after a name): it must
 * then name a directory, which the resolved path no longer says. */
bool names_a_directory(struct task *t, uint64_t upath)
{
    char raw[VFS_PATH_MAX];
    int64_t n = strncpy_from_guest(task_mm(t), raw, upath, sizeof raw);
    return n > 1 && raw[n - 1] == '/';
}

/* A path ending with "/" names a directory: ENOTDIR for another file, and
 * EISDIR for an O_CREAT of a missing one (it cannot make a directory). */
static int check_trailing_slash(struct task *t, uint64_t upath, const char *path, int flags)
{
    if (!names_a_directory(t, upath))
        return 0;
    struct stat st;
    int err = vfs_stat(&t->machine->vfs, t, path, true, &st);
    if (err == -ENOENT && (flags & O_CREAT))
        return -EISDIR;
    if (err < 0)
        return err;
    return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* Whether an O_CREAT open of path finds a file there: it creates one,
 * which the guest then owns (owner.h), only when not. */
static bool host_file_exists(struct task *t, const char *path, bool follow)
{
    struct stat st;
    return vfs_stat(&t->machine->vfs, t, path, follow, &st) != -ENOENT;
}

/* The file an open just created on host fd fd, at guest path, belongs to
 * the guest process (the group of its directory when that is set-group-ID). */
static void owner_created_fd(struct task *t, int fd, const char *path)
{
    char dotdot[VFS_PATH_MAX + 4], dir[VFS_PATH_MAX];
    struct stat st, dst;
    snprintf(dotdot, sizeof dotdot, "%s/..", path);
    bool have_dir = vfs_join("/", dotdot, dir, sizeof dir) == 0 &&
                    vfs_stat(&t->machine->vfs, t, dir, true, &dst) == 0;
    if (fstat(fd, &st) == 0)
        owner_created(t, &st, have_dir ? &dst : NULL);
}

/* lookup_open's fsnotify_create for a file open(O_CREAT) made, or
 * handle_truncate's IN_MODIFY for an O_TRUNC of a regular file there
 * (before IN_OPEN, as 5.15's do_sys_openat2 tells it after do_filp_open). */
static void open_told(struct task *t, const char *path, int fd, bool created, int flags)
{
    struct stat st;
    if (created)
        fsnotify_created_path(t->machine, path, false);
    else if ((flags & O_TRUNC) && !(flags & O_PATH) && fstat(fd, &st) == 0 &&
             S_ISREG(st.st_mode)) /* O_RDONLY | O_TRUNC truncates too (do_open) */
        fsnotify_path_fd(t->machine, path, fd, IN_MODIFY);
}

/* Opens an absolute guest path with host O_* flags, following virtual
 * symlinks; /proc/PID/fd/N opens that descriptor's file again. */
int file_open_path(struct task *t, const char *abspath, int flags, int mode, struct file **out)
{
    char path[VFS_PATH_MAX];
    snprintf(path, sizeof path, "%s", abspath);
    /* O_PATH names a file without opening it: Linux ignores the other flags. */
    if (flags & O_PATH)
        flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    /* O_CREAT | O_EXCL never follows a symlink at the end: EEXIST. */
    bool follow = !(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
    struct vfs_node node;
    int err = follow_virtual(t, path, follow, &node);
    /* A queue of an mqueue mount opens as an mq descriptor
     * (mqueue_file_operations); O_CREAT makes a missing one (mqueue_create). */
    const char *mq = vfs_mqueue_rel(&t->machine->vfs, path);
    if (mq && *mq && !(flags & O_PATH) &&
        ((err == -ENOENT && (flags & O_CREAT)) || (err > 0 && node.kind == VNODE_MQUEUE))) {
        /* a read-only mount: mnt_want_write's EROFS for a creation or a write */
        if (vfs_mqueue_readonly(&t->machine->vfs, path) &&
            (err < 0 || (flags & O_ACCMODE) != O_RDONLY))
            return -EROFS;
        return flags & O_DIRECTORY ? -ENOTDIR : mq_fs_open(t, mq, path, flags, (unsigned)mode, out);
    }
    if (err < 0)
        return err;
    if (err == 0) {
        bool writable, created = (flags & O_CREAT) && !host_file_exists(t, path, follow);
        /* A new file is an entry of a size-limited mount (budget.h). */
        struct vfs_budget *entries = created ? vfs_budget_of(&t->machine->vfs, path) : NULL;
        if (entries && (err = budget_create(entries)) < 0)
            return err;
        int fd = vfs_open_host_writable(&t->machine->vfs, path, flags, mode, &writable);
        if (fd < 0 && entries)
            budget_uncreate(entries);
        if (fd < 0)
            return fd;
        if (created && writable)
            owner_created_fd(t, fd, path);
        if (fsnotify_active(t->machine))
            open_told(t, path, fd, created, flags);
        struct file *f = file_new(FILE_HOST);
        if (!f) {
            close(fd);
            return -ENOMEM;
        }
        f->host_fd = fd;
        f->writable_mount = writable;
        if (writable && (f->budget = vfs_budget_of(&t->machine->vfs, path)) && (flags & O_TRUNC))
            budget_mark_stale(f->budget);
        f->flags = flags & ~(O_CLOEXEC | O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY);
        f->path = strdup(path);
        *out = f;
        return 0;
    }
    /* O_PATH | O_NOFOLLOW names a symlink itself (do_open() refuses a link
     * only when it opens one) */
    if (node.kind != VNODE_SYMLINK || (flags & (O_PATH | O_NOFOLLOW)) == (O_PATH | O_NOFOLLOW))
        return open_virtual(t, &node, path, flags, out);
    if (flags & O_NOFOLLOW)
        return -ELOOP;
    if (!vfs_is_fd_link(&node))
        return -EEXIST; /* O_CREAT | O_EXCL of an existing link */
    return file_reopen(t, node.arg, node.arg2, flags, mode, out);
}

int64_t open_resolved(struct task *t, uint64_t upath, const char *path, int flags, int mode)
{
    int64_t err = check_trailing_slash(t, upath, path, flags);
    if (err < 0)
        return err;
    struct file *f;
    err = fifo_open(t, path, flags, mode, &f, file_open_path(t, path, flags, mode, &f));
    if (err < 0)
        return err;
    /* do_sys_openat2's fsnotify_open; __fput tells the close. */
    if (f->kind == FILE_HOST) {
        f->notify_machine = t->machine;
        if (fsnotify_active(t->machine))
            fsnotify_file(t->machine, f, IN_OPEN);
    }
    return fd_install_new(t, f, flags & O_CLOEXEC);
}

SYSCALL_DECL(openat)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, (int)a[0], a[1], path, sizeof path);
    if (err < 0)
        return err;
    int flags = open_flags_to_host((uint32_t)a[2]);
    return open_resolved(t, a[1], path, flags, (int)creation_mode(t, a[3]));
}

SYSCALL_DECL(close)
{
    return fd_close(t, (int)a[0]);
}

SYSCALL_DECL(dup)
{
    struct file *f = file_get(t, (int)a[0]);
    if (!f)
        return -EBADF;
    file_ref(f);
    return fd_install_new(t, f, false);
}

SYSCALL_DECL(dup3)
{
    int oldfd = (int)a[0], newfd = (int)a[1];
    struct file *f = file_get(t, oldfd);
    if (!f)
        return -EBADF;
    if (newfd < 0 || newfd >= rlimit_nofile(t))
        return -EBADF;
    if (oldfd == newfd || (a[2] & ~(uint64_t)O_CLOEXEC))
        return -EINVAL;
    file_ref(f);
    fd_close(t, newfd);
    t->proc->files->fd[newfd] = f;
    t->proc->files->cloexec[newfd] = a[2] & O_CLOEXEC;
    return newfd;
}

SYSCALL_DECL(fcntl)
{
    int fd = (int)a[0], cmd = (int)a[1];
    struct file *f = file_get(t, fd);
    if (!f)
        return -EBADF;
    switch (cmd) {
    case F_DUPFD:
    case GUEST_F_DUPFD_CLOEXEC: {
        if (a[2] >= (uint64_t)rlimit_nofile(t))
            return -EINVAL;
        file_ref(f);
        int nfd = fd_install(t, f, (int)a[2], cmd == GUEST_F_DUPFD_CLOEXEC);
        if (nfd < 0)
            file_put(f);
        return nfd;
    }
    case F_GETFD:
        return t->proc->files->cloexec[fd] ? FD_CLOEXEC : 0;
    case F_SETFD:
        t->proc->files->cloexec[fd] = a[2] & FD_CLOEXEC;
        return 0;
    case GUEST_F_GETPIPE_SZ:
        return f->kind == FILE_PIPE ? (int64_t)f->pipe->capacity : -EBADF;
    case GUEST_F_SETPIPE_SZ: {
        uint64_t want = abi_ulong(task_abi(t), a[2]);
        return f->kind == FILE_PIPE ? pipe_set_capacity(t->machine, f->pipe, want,
                                                                capable(t, CAP_SYS_RESOURCE))
                                            : -EBADF;
    }
    case GUEST_F_NOTIFY: {
        /* dnotify: accepted on a directory, as Linux does; no change is
         * ever signalled (the files are the host's). */
        struct stat st;
        bool dir = f->kind == FILE_VIRTUAL ? f->node.kind == VNODE_DIR
                                           : f->kind == FILE_HOST && fstat(f->host_fd, &st) == 0 &&
                                                 S_ISDIR(st.st_mode);
        return dir ? 0 : -ENOTDIR;
    }
    case F_GETFL:
        return open_flags_to_guest(f->flags);
    case F_SETFL: {
        int settable = O_APPEND | O_NONBLOCK;
        f->flags = (f->flags & ~settable) | (open_flags_to_host((uint32_t)a[2]) & settable);
        return 0;
    }
    default:
        return fcntl_is_lock_cmd(t, cmd) ? fcntl_lock(t, fd, cmd, a[2]) : -EINVAL;
    }
}
