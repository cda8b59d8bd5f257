/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_path.c - syscalls that change the file tree: mkdir, unlink, rename,
 * symlink, link, utimens, chmod, chown, truncate. They act on host
 * directories confined to their mount (sysfs-fs/vfs_parent); the root is
 * read-only without --rw, /tmp is always writable, and the virtual trees
 * refuse them. */
#include "abi.h"
#include "abi_user.h"
#include "fd_unshare.h"
#include "file.h"
#include "file_access.h"
#include "file_limits.h"
#include "fs_calls.h"
#include "fsnotify.h"
#include "machine.h"
#include "mm.h"
#include "mqueue.h"
#include "owner.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GUEST_AT_FDCWD (-100)
#define GUEST_AT_REMOVEDIR 0x200
#define GUEST_AT_SYMLINK_NOFOLLOW 0x100
#define GUEST_AT_EMPTY_PATH 0x1000
#define GUEST_RENAME_NOREPLACE 1

/* Resolves (dirfd, upath) to a host parent directory fd and a name,
 * refusing the virtual trees; *mount (unless NULL) is the VFS_MOUNT_* it
 * lies in, -1 on an error. */
static int parent_in(struct task *t, int dirfd, uint64_t upath, char *name, size_t namelen,
                     int *mount)
{
    if (mount)
        *mount = -1;
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, dirfd, upath, path, sizeof path);
    if (err < 0)
        return (int)err;
    struct vfs_node node;
    err = vfs_lookup_virtual(&t->machine->vfs, t, path, &node);
    if (err > 0)
        return -EPERM;
    if (err < 0)
        return err;
    if (mount)
        *mount = vfs_mount_index(&t->machine->vfs, path);
    return vfs_parent(&t->machine->vfs, path, true, name, namelen);
}

static int parent_of(struct task *t, int dirfd, uint64_t upath, char *name, size_t namelen)
{
    return parent_in(t, dirfd, upath, name, namelen, NULL);
}

/* What a path names in an mqueue mount (mqueue_dir_inode_operations have
 * create, lookup and unlink alone): the mount's root, a queue, or a name
 * that is free. */
enum mq_entry { MQ_ROOT, MQ_QUEUE, MQ_FREE };

/* 1 with *e and the queue's name when (dirfd, upath) lies in an mqueue
 * mount, or with *err a lookup's error there (a path below a queue,
 * an overlong name); 0 elsewhere. *ro (unless NULL): the mount is
 * read-only, which a change then meets as EROFS (mnt_want_write). */
static int mqueue_entry_ro(struct task *t, int dirfd, uint64_t upath, char name[256],
                           enum mq_entry *e, int64_t *err, bool *ro)
{
    char path[VFS_PATH_MAX], real[VFS_PATH_MAX];
    if (path_from_guest(t, dirfd, upath, path, sizeof path) < 0 ||
        vfs_resolve(&t->machine->vfs, t, "/", path, real, sizeof real) < 0)
        return 0;
    const char *rel = vfs_mqueue_rel(&t->machine->vfs, real);
    if (!rel)
        return 0;
    if (ro)
        *ro = vfs_mqueue_readonly(&t->machine->vfs, real);
    *err = 0;
    *e = MQ_ROOT;
    if (!*rel)
        return 1;
    const char *slash = strchr(rel, '/');
    size_t len = slash ? (size_t)(slash - rel) : strlen(rel);
    if (len > 255) {
        *err = -ENAMETOOLONG; /* simple_lookup */
        return 1;
    }
    memcpy(name, rel, len);
    name[len] = '\0';
    struct stat st;
    *e = mq_fs_stat(t->machine, name, &st) == 0 ? MQ_QUEUE : MQ_FREE;
    if (slash)
        *err = *e == MQ_QUEUE ? -ENOTDIR : -ENOENT;
    return 1;
}

static int mqueue_entry(struct task *t, int dirfd, uint64_t upath, char name[256],
                        enum mq_entry *e, int64_t *err)
{
    return mqueue_entry_ro(t, dirfd, upath, name, e, err, NULL);
}

/* mkdir, symlink and mknod of a FIFO or socket in an mqueue mount: the
 * directory has no such operation (vfs_mkdir: EPERM), after
 * filename_create's EEXIST. 1 with *r when path is there. */
static int mqueue_no_make(struct task *t, int dirfd, uint64_t upath, int64_t *r)
{
    char name[256];
    enum mq_entry e;
    bool ro;
    if (!mqueue_entry_ro(t, dirfd, upath, name, &e, r, &ro))
        return 0;
    if (*r == 0)
        *r = e != MQ_FREE ? -EEXIST : ro ? -EROFS : -EPERM;
    return 1;
}

/* The parents of a rename's or link's two paths: 0 with both fds set, or
 * -errno with none open; -EXDEV when they lie in different mounts (/tmp
 * and /dev/shm share a host file system, the guest's mounts do not). */
static int two_parents(struct task *t, const uint64_t *a, char *oname, char *nname, int *ofd,
                       int *nfd, int *mount)
{
    int64_t err1, err2;
    enum mq_entry e1, e2;
    bool ro = false;
    int in1 = mqueue_entry_ro(t, (int)a[0], a[1], oname, &e1, &err1, &ro);
    int in2 = mqueue_entry(t, (int)a[2], a[3], nname, &e2, &err2);
    if (in1 || in2) {
        /* an mqueue mount has neither rename nor link: EXDEV across mounts
         * (do_renameat2 and do_linkat compare them first), then the
         * lookups' errors, then EPERM */
        if ((in1 && !err1 && e1 == MQ_ROOT) || (in2 && !err2 && e2 == MQ_ROOT))
            return -EBUSY; /* the mount point itself (is_local_mountpoint) */
        char p1[VFS_PATH_MAX], p2[VFS_PATH_MAX], r1[VFS_PATH_MAX], r2[VFS_PATH_MAX];
        struct vfs *v = &t->machine->vfs;
        if (path_from_guest(t, (int)a[0], a[1], p1, sizeof p1) < 0 ||
            path_from_guest(t, (int)a[2], a[3], p2, sizeof p2) < 0 ||
            vfs_resolve(v, t, "/", p1, r1, sizeof r1) < 0 ||
            vfs_resolve(v, t, "/", p2, r2, sizeof r2) < 0)
            return -ENOENT;
        if (!in1 || !in2 || strcmp(vfs_mount_point(v, r1), vfs_mount_point(v, r2)) != 0)
            return -EXDEV;
        if (ro)
            return -EROFS;
        if (err1 || err2)
            return err1 ? (int)err1 : (int)err2;
        return e1 == MQ_FREE ? -ENOENT : -EPERM;
    }
    int omount, nmount;
    *ofd = parent_in(t, (int)a[0], a[1], oname, 256, &omount);
    if (*ofd < 0)
        return *ofd;
    *nfd = parent_in(t, (int)a[2], a[3], nname, 256, &nmount);
    int err = *nfd < 0 ? *nfd : omount != nmount ? -EXDEV : 0;
    *mount = nmount;
    if (err < 0) {
        close(*ofd);
        if (*nfd >= 0)
            close(*nfd);
    }
    return err;
}

static int64_t result(int r)
{
    return r < 0 ? -errno : 0;
}

/* The entry count of a size-limited mount (budget.h, tmpfs's nr_inodes):
 * one entry taken before name is made in dfd, *b set to give it back if
 * the host call fails. Full: ENOSPC, but EEXIST first when the name is
 * there, as Linux's filename_create looks before shmem_reserve_inode. */
static int take_entry(struct task *t, int mount, int dfd, const char *name,
                      struct vfs_budget **b)
{
    *b = mount >= 0 && mount < VFS_NMOUNTS ? t->machine->vfs.mounts[mount].budget : NULL;
    int err = *b ? budget_create(*b) : 0;
    if (err < 0) {
        struct stat st;
        *b = NULL;
        return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -EEXIST : err;
    }
    return 0;
}

static int64_t entry_made(struct vfs_budget *b, int64_t r)
{
    if (r < 0 && b)
        budget_uncreate(b);
    return r;
}

/* mkdir and rmdir inside /sys/fs/cgroup make and remove groups (cgroup.h):
 * 1 with *r the result when path is there, else 0. */
static int cgroup_dir_op(struct task *t, int dirfd, uint64_t upath, bool make, int64_t *r)
{
    char path[VFS_PATH_MAX], real[VFS_PATH_MAX];
    if (path_from_guest(t, dirfd, upath, path, sizeof path) < 0 ||
        vfs_resolve(&t->machine->vfs, t, "/", path, real, sizeof real) < 0)
        return 0;
    unsigned hier;
    const char *rel = vfs_cgroup_rel(&t->machine->vfs, real, &hier);
    if (!rel)
        return 0;
    *r = make ? cgroup_mkdir(t->machine, hier, rel) : cgroup_rmdir(t->machine, hier, rel);
    t->stop = true;
    return 1;
}

/* mkdir (op 1) and rmdir (op 0) inside tracefs make and remove instances
 * (tracefs.h); unlink (op -1) is not there (tracefs_dir_inode_operations
 * has none): EPERM, EISDIR for a directory. 1 with *r the result when
 * path is in tracefs, else 0. */
static int tracefs_dir_op(struct task *t, int dirfd, uint64_t upath, int op, int64_t *r)
{
    char path[VFS_PATH_MAX], real[VFS_PATH_MAX];
    if (path_from_guest(t, dirfd, upath, path, sizeof path) < 0 ||
        vfs_resolve(&t->machine->vfs, t, "/", path, real, sizeof real) < 0)
        return 0;
    const char *rel = vfs_tracefs_rel(real);
    const struct vfs_provider *p = t->machine->vfs.provider;
    unsigned mode;
    bool dir;
    if (!rel || !p || !p->tracefs_dir)
        return 0;
    if (op >= 0)
        *r = p->tracefs_dir(t, rel, op == 1);
    else
        *r = p->tracefs_lookup(t, rel, &mode, &dir) < 0 ? -ENOENT : dir ? -EISDIR : -EPERM;
    return 1;
}

SYSCALL_DECL(mkdirat)
{
    char name[256];
    struct vfs_budget *b;
    int64_t cr;
    if (cgroup_dir_op(t, (int)a[0], a[1], true, &cr) ||
        tracefs_dir_op(t, (int)a[0], a[1], 1, &cr) || mqueue_no_make(t, (int)a[0], a[1], &cr))
        return cr;
    int mount, dfd = parent_in(t, (int)a[0], a[1], name, sizeof name, &mount);
    if (dfd == -EBUSY)
        return -EEXIST; /* a mount point ("/", "/tmp"): filename_create finds it */
    if (dfd < 0)
        return dfd;
    int64_t r = take_entry(t, mount, dfd, name, &b);
    if (r == 0)
        r = entry_made(b, result(mkdirat(dfd, name, creation_mode(t, a[2]))));
    if (r == 0)
        owner_created_at(t, dfd, name);
    if (r == 0 && fsnotify_active(t->machine)) /* vfs_mkdir's fsnotify_mkdir */
        fsnotify_name(t->machine, dfd, name, IN_CREATE, true);
    close(dfd);
    return r;
}

/* An unlink or a rename over a file may free space the size limits of
 * mounts count (budget.h): they recount when next short of it. */
static int64_t may_free_space(struct task *t, int64_t r)
{
    if (r == 0)
        budget_mark_stale(&t->machine->vfs.tmp_budget);
    return r;
}

SYSCALL_DECL(unlinkat)
{
    if (a[2] & ~(uint64_t)GUEST_AT_REMOVEDIR)
        return -EINVAL;
    int64_t cr;
    if (cgroup_dir_op(t, (int)a[0], a[1], !!0, &cr))
        return (a[2] & GUEST_AT_REMOVEDIR) ? cr : -EPERM;
    if (tracefs_dir_op(t, (int)a[0], a[1], (a[2] & GUEST_AT_REMOVEDIR) ? 0 : -1, &cr))
        return cr;
    char name[256];
    enum mq_entry e;
    bool ro;
    if (mqueue_entry_ro(t, (int)a[0], a[1], name, &e, &cr, &ro)) {
        /* mqueue_unlink, with mq_unlink's rules; rmdir finds no directory
         * but the mount's root, which is busy */
        bool rmdir = a[2] & GUEST_AT_REMOVEDIR;
        if (e == MQ_ROOT && !cr)
            return rmdir ? -EBUSY : -EISDIR;
        if (ro) /* do_unlinkat's mnt_want_write comes before the lookup */
            return -EROFS;
        if (cr)
            return cr;
        if (e == MQ_FREE)
            return -ENOENT;
        return rmdir ? -ENOTDIR : mq_fs_unlink(t, name);
    }
    int dfd = parent_of(t, (int)a[0], a[1], name, sizeof name);
    if (dfd < 0)
        return dfd;
    struct fsn_entry gone = {0};
    if (fsnotify_active(t->machine))
        fsnotify_entry_prepare(t->machine, dfd, name, &gone);
    int64_t r = result(unlinkat(dfd, name, (a[2] & GUEST_AT_REMOVEDIR) ? AT_REMOVEDIR : 0));
    if (r == 0 && gone.valid)
        fsnotify_unlinked(t->machine, &gone, name);
    close(dfd);
    return may_free_space(t, r);
}

/* a: olddirfd, oldpath, newdirfd, newpath. */
static int64_t do_rename(struct task *t, const uint64_t *a, unsigned flags)
{
    if (flags & ~(unsigned)GUEST_RENAME_NOREPLACE)
        return -EINVAL;
    char oname[256], nname[256];
    int mount, ofd, nfd, err = two_parents(t, a, oname, nname, &ofd, &nfd, &mount);
    if (err < 0)
        return err;
    struct fsn_entry src = {0}, dst = {0};
    struct stat nst;
    bool told = fsnotify_active(t->machine) && fstat(nfd, &nst) == 0;
    if (told) {
        fsnotify_entry_prepare(t->machine, ofd, oname, &src);
        fsnotify_entry_prepare(t->machine, nfd, nname, &dst);
    }
    /* The syscall itself: glibc's renameat2() with no flags calls renameat,
     * which the sandbox does not need. */
    int64_t r = result((int)syscall(SYS_renameat2, ofd, oname, nfd, nname, flags));
    if (r == 0 && told) {
        struct fsn_obj ndir = fsn_obj_of(&nst);
        /* renaming a name onto the same inode (a hard link) does nothing */
        if (!(dst.valid && dst.obj.dev == src.obj.dev && dst.obj.ino == src.obj.ino))
            fsnotify_renamed(t->machine, &src, oname, &dst, &ndir, nname);
    }
    close(ofd);
    close(nfd);
    return may_free_space(t, r);
}

SYSCALL_DECL(renameat2)
{
    return do_rename(t, a, (unsigned)a[4]);
}

SYSCALL_DECL(renameat)
{
    return do_rename(t, a, 0);
}

SYSCALL_DECL(symlinkat)
{
    char target[VFS_PATH_MAX], name[256];
    int64_t n = strncpy_from_guest(task_mm(t), target, a[0], sizeof target);
    if (n < 0)
        return n;
    if (n == 0)
        return -ENOENT;
    int64_t mr;
    if (mqueue_no_make(t, (int)a[1], a[2], &mr))
        return mr;
    struct vfs_budget *b;
    int mount, dfd = parent_in(t, (int)a[1], a[2], name, sizeof name, &mount);
    if (dfd < 0)
        return dfd;
    n = take_entry(t, mount, dfd, name, &b);
    int64_t r = n < 0 ? n : entry_made(b, result(symlinkat(target, dfd, name)));
    if (r == 0)
        owner_created_at(t, dfd, name);
    if (r == 0 && fsnotify_active(t->machine)) /* vfs_symlink's fsnotify_create */
        fsnotify_name(t->machine, dfd, name, IN_CREATE, false);
    close(dfd);
    return r;
}

SYSCALL_DECL(linkat)
{
    char oname[256], nname[256];
    struct vfs_budget *b;
    int mount, ofd, nfd, err = two_parents(t, a, oname, nname, &ofd, &nfd, &mount);
    if (err < 0)
        return err;
    int64_t r = take_entry(t, mount, nfd, nname, &b);
    if (r == 0)
        r = entry_made(b, result(linkat(ofd, oname, nfd, nname, 0)));
    if (r == 0 && fsnotify_active(t->machine)) /* vfs_link's fsnotify_link */
        fsnotify_linked(t->machine, nfd, nname);
    close(ofd);
    close(nfd);
    return r;
}

/* notify_change's fsnotify_change after a change of metadata by descriptor
 * fd (ev: IN_* bits, 0 for none). */
static int64_t fd_told(struct task *t, int fd, int64_t r, uint32_t ev)
{
    struct file *f;
    if (r == 0 && ev && fsnotify_active(t->machine) && (f = file_get(t, fd)) &&
        f->kind == FILE_HOST)
        fsnotify_path_fd(t->machine, f->path, f->host_fd, ev);
    return r;
}

/* The host fd of descriptor fd for a change of its file's metadata, or
 * -EBADF, -EROFS, -EPERM (file_may_change). An O_PATH descriptor is taken
 * only where Linux takes one (AT_EMPTY_PATH). */
static int changeable_fd(struct task *t, int fd, bool allow_opath)
{
    struct file *f = allow_opath ? file_get(t, fd) : file_get_io(t, fd);
    if (!f)
        return -EBADF;
    int err = file_may_change(f);
    return err < 0 ? err : f->host_fd;
}

/* The same on the file a path names after its symlinks: /tmp's followed as
 * guest paths, the root's by the confined host lookup (never the host's
 * own lookup, which would read an absolute target as a host path). */
static int64_t on_followed_path(struct task *t, int dirfd, uint64_t upath,
                                int64_t (*op)(struct task *t, int fd, const uint64_t *a),
                                const uint64_t *a, uint32_t ev)
{
    char path[VFS_PATH_MAX];
    struct vfs *v = &t->machine->vfs;
    int64_t err = path_from_guest(t, dirfd, upath, path, sizeof path);
    if (err >= 0)
        err = vfs_follow(v, t, path, path, sizeof path);
    struct vfs_node node;
    if (err >= 0 && (err = vfs_lookup_virtual(v, t, path, &node)) > 0)
        err = -EPERM;
    if (err < 0)
        return err;
    bool writable;
    int fd = vfs_open_host_writable(v, path, O_PATH, 0, &writable);
    if (fd < 0)
        return fd;
    err = writable ? op(t, fd, a) : -EROFS;
    if (err == 0 && ev && fsnotify_active(t->machine))
        fsnotify_path_fd(t->machine, path, fd, ev);
    close(fd);
    return err;
}

/* Operations on an existing path, or with an empty path and AT_EMPTY_PATH
 * on dirfd itself: run `op` on a host fd of the file, on a writable mount;
 * ev (IN_* bits) is the event a success makes. */
static int64_t on_path(struct task *t, int dirfd, uint64_t upath, bool follow, bool empty_path,
                       int64_t (*op)(struct task *t, int fd, const uint64_t *a), const uint64_t *a,
                       uint32_t ev)
{
    char rel[2] = "";
    int64_t n = strncpy_from_guest(task_mm(t), rel, upath, sizeof rel);
    if (n == -EFAULT)
        return -EFAULT;
    if (!rel[0] && empty_path && dirfd != GUEST_AT_FDCWD) {
        int fd = changeable_fd(t, dirfd, true);
        return fd < 0 ? fd : fd_told(t, dirfd, op(t, fd, a), ev);
    }
    if (follow)
        return on_followed_path(t, dirfd, upath, op, a, ev);
    char name[256];
    int dfd = parent_of(t, dirfd, upath, name, sizeof name);
    if (dfd < 0)
        return dfd;
    int fd = openat(dfd, name, O_PATH | O_CLOEXEC | O_NOFOLLOW);
    int64_t r = fd < 0 ? -errno : op(t, fd, a);
    if (r == 0 && ev && fsnotify_active(t->machine))
        fsnotify_at_fd(t->machine, dfd, name, fd, ev);
    if (fd >= 0)
        close(fd);
    close(dfd);
    return r;
}

/* A queue of an mqueue mount (the path (dirfd, upath)) or of an mq
 * descriptor (fd >= 0), whose inode chmod, chown and utimensat change in
 * emu/ipc/mqueue.c: 1 with *f (the descriptor's file) or name set, and *ro
 * when the mount is read-only (mnt_want_write's EROFS); 0 for other files. */
static int mqueue_target(struct task *t, int dirfd, uint64_t upath, int fd, bool follow,
                         struct file **f, char name[256], bool *ro)
{
    char path[VFS_PATH_MAX];
    struct vfs *v = &t->machine->vfs;
    *f = NULL;
    if (fd >= 0) {
        struct file *file = file_get(t, fd);
        if (!file || file->kind != FILE_OBJECT || !file->ops->name ||
            strcmp(file->ops->name, "mqueue") != 0)
            return 0;
        *f = file;
        *ro = file->path && vfs_mqueue_readonly(v, file->path);
        return 1;
    }
    if (path_from_guest(t, dirfd, upath, path, sizeof path) < 0 ||
        (follow && vfs_follow(v, t, path, path, sizeof path) < 0))
        return 0;
    const char *rel = vfs_mqueue_rel(v, path);
    struct vfs_node node;
    if (!rel || !*rel || strlen(rel) > 255 || vfs_lookup_virtual(v, t, path, &node) <= 0 ||
        node.kind != VNODE_MQUEUE)
        return 0;
    snprintf(name, 256, "%s", rel);
    *ro = vfs_mqueue_readonly(v, path);
    return 1;
}

/* chmod or chown (mode -1) of such a queue: 1 with *r, else 0. */
static int mqueue_setattr(struct task *t, int dirfd, uint64_t upath, int fd, bool follow,
                          int64_t mode, uint32_t uid, uint32_t gid, int64_t *r)
{
    struct file *f;
    char name[256];
    bool ro;
    if (!mqueue_target(t, dirfd, upath, fd, follow, &f, name, &ro))
        return 0;
    *r = ro ? -EROFS : mq_fs_setattr(t, f, name, mode, uid, gid);
    return 1;
}

/* Mode and times change by descriptor only (fchmod, futimens): the sandbox
 * allows no path-based change (docs/security.md), so the file is opened
 * again for real under Landlock (vfs_reopen). What cannot be opened, a
 * symlink itself (utimensat with AT_SYMLINK_NOFOLLOW) or a socket node,
 * answers EOPNOTSUPP, as a file system that cannot change it. */
static int64_t unopenable(int err)
{
    return err == -ELOOP || err == -ENXIO ? -EOPNOTSUPP : err;
}

/* "Now" is the guest's clock (virtual CLOCK_REALTIME), not the host's:
 * a NULL times and UTIME_NOW become that time. */
static int64_t op_utimens(struct task *t, int fd, const uint64_t *a)
{
    uint64_t now = machine_realtime_ns(t->machine);
    struct timespec ts[2];
    for (int i = 0; i < 2; i++) {
        ts[i].tv_sec = (time_t)a[3 + 2 * i], ts[i].tv_nsec = (long)a[4 + 2 * i];
        if (!a[2] || ts[i].tv_nsec == UTIME_NOW)
            ts[i].tv_sec = (time_t)(now / 1000000000), ts[i].tv_nsec = (long)(now % 1000000000);
    }
    int rfd = vfs_reopen(&t->machine->vfs, fd);
    if (rfd < 0)
        return unopenable(rfd);
    int64_t r = result(futimens(rfd, ts));
    close(rfd);
    return r;
}

/* fsnotify_change of utimes: both times IN_ATTRIB, the access time alone
 * IN_ACCESS, the modification time alone IN_MODIFY. b as op_utimens takes it. */
static uint32_t utimens_event(const uint64_t *b)
{
    bool at = !b[2] || (long)b[4] != UTIME_OMIT, mt = !b[2] || (long)b[6] != UTIME_OMIT;
    return at && mt ? IN_ATTRIB : at ? IN_ACCESS : mt ? IN_MODIFY : 0;
}

/* utimensat(dirfd, path, times[2], flags); times in guest timespecs. A NULL
 * path means dirfd itself (futimens), which must be a real open file. */
int64_t do_utimes(struct task *t, int dirfd, uint64_t upath, const int64_t *times,
                  uint64_t flags)
{
    uint64_t b[7] = {0};
    if (times) {
        for (int i = 0; i < 4; i++)
            b[3 + i] = (uint64_t)times[i];
        b[2] = 1;
    }
    struct file *mf;
    char mname[256];
    bool ro;
    if (!(flags & ~(uint64_t)(GUEST_AT_SYMLINK_NOFOLLOW | GUEST_AT_EMPTY_PATH)) &&
        (upath || !flags) &&
        mqueue_target(t, dirfd, upath, !upath ? dirfd : -1,
                      !(flags & GUEST_AT_SYMLINK_NOFOLLOW), &mf, mname, &ro))
        return ro ? -EROFS : mq_fs_times(t, mf, mname, times); /* a queue's inode */
    if (!upath && dirfd != GUEST_AT_FDCWD) {
        if (flags)
            return -EINVAL;
        int fd = changeable_fd(t, dirfd, false);
        return fd < 0 ? fd : fd_told(t, dirfd, op_utimens(t, fd, b), utimens_event(b));
    }
    if (flags & ~(uint64_t)(GUEST_AT_SYMLINK_NOFOLLOW | GUEST_AT_EMPTY_PATH))
        return -EINVAL;
    return on_path(t, dirfd, upath, !(flags & GUEST_AT_SYMLINK_NOFOLLOW),
                   flags & GUEST_AT_EMPTY_PATH, op_utimens, b, utimens_event(b));
}

int64_t do_utimensat(struct task *t, const uint64_t a[6], unsigned field)
{
    int64_t times[4];
    if (a[2]) {
        uint8_t buf[32];
        if (copy_from_guest(task_mm(t), buf, a[2], 4 * field) < 0)
            return -EFAULT;
        for (int i = 0; i < 4; i++) {
            int64_t v = 0;
            if (field == 8)
                memcpy(&v, buf + 8 * i, 8);
            else {
                int32_t v32;
                memcpy(&v32, buf + 4 * i, 4);
                v = v32;
            }
            times[i] = v;
        }
    }
    return do_utimes(t, (int)a[0], a[1], a[2] ? times : NULL, a[3]);
}

SYSCALL_DECL(utimensat)
{
    return do_utimensat(t, a, abi_time_field(t));
}

static int64_t op_chmod(struct task *t, int fd, const uint64_t *a)
{
    /* /tmp and /dev/shm keep their host mode 0700 (vfs.h). */
    struct stat st;
    if (fstat(fd, &st) == 0 && vfs_private_root_chmod(&t->machine->vfs, &st, (mode_t)a[2]))
        return 0;
    int rfd = vfs_reopen(&t->machine->vfs, fd);
    if (rfd < 0)
        return unopenable(rfd);
    int64_t r = result(fchmod(rfd, (mode_t)(a[2] & 07777)));
    close(rfd);
    return r;
}

/* fchmodat has no flags on Linux 5.15: an empty path is ENOENT. */
SYSCALL_DECL(fchmodat)
{
    int64_t r;
    if (mqueue_setattr(t, (int)a[0], a[1], -1, true, (int64_t)(a[2] & 07777), 0, 0, &r))
        return r;
    return on_path(t, (int)a[0], a[1], true, false, op_chmod, a, IN_ATTRIB);
}

SYSCALL_DECL(fchmod)
{
    int64_t r;
    if (mqueue_setattr(t, -1, 0, (int)a[0], true, (int64_t)(a[1] & 07777), 0, 0, &r))
        return r;
    int fd = changeable_fd(t, (int)a[0], false);
    return fd < 0 ? fd : fd_told(t, (int)a[0], op_chmod(t, fd, (uint64_t[]){0, 0, a[1]}), IN_ATTRIB);
}

/* chown(dirfd, path, uid, gid): the owner is the guest's, kept beside
 * the host file (owner.h); a read-only mount is EROFS, as on Linux. */
static int64_t op_chown(struct task *t, int fd, const uint64_t *a)
{
    return owner_chown(t, fd, (uint32_t)a[2], (uint32_t)a[3]);
}

SYSCALL_DECL(fchownat)
{
    uint64_t flags = a[4];
    if (flags & ~(uint64_t)(GUEST_AT_SYMLINK_NOFOLLOW | GUEST_AT_EMPTY_PATH))
        return -EINVAL;
    char empty[2] = "";
    int64_t r;
    bool on_fd = (flags & GUEST_AT_EMPTY_PATH) && (int)a[0] != GUEST_AT_FDCWD &&
                 strncpy_from_guest(task_mm(t), empty, a[1], sizeof empty) == 0;
    if (mqueue_setattr(t, (int)a[0], a[1], on_fd ? (int)a[0] : -1,
                       !(flags & GUEST_AT_SYMLINK_NOFOLLOW), -1, (uint32_t)a[2], (uint32_t)a[3], &r))
        return r;
    return on_path(t, (int)a[0], a[1], !(flags & GUEST_AT_SYMLINK_NOFOLLOW),
                   flags & GUEST_AT_EMPTY_PATH, op_chown, a, IN_ATTRIB);
}

SYSCALL_DECL(fchown)
{
    int64_t r;
    if (mqueue_setattr(t, -1, 0, (int)a[0], true, -1, (uint32_t)a[1], (uint32_t)a[2], &r))
        return r;
    int fd = changeable_fd(t, (int)a[0], false);
    return fd < 0 ? fd
                  : fd_told(t, (int)a[0], owner_chown(t, fd, (uint32_t)a[1], (uint32_t)a[2]),
                            IN_ATTRIB);
}

static int truncate_to(int fd, const uint64_t arg[4])
{
    return (int)result(ftruncate(fd, (off_t)arg[0]));
}

SYSCALL_DECL(ftruncate)
{
    struct file *f = file_get_io(t, (int)a[0]);
    if (!f)
        return -EBADF;
    int64_t len = (int64_t)a[1]; /* arm's ftruncate and ftruncate64: arch/arm/ */
    if (len < 0 || f->kind != FILE_HOST || (f->flags & O_ACCMODE) == O_RDONLY)
        return -EINVAL;
    int err = file_may_change(f);
    uint64_t arg[4] = {(uint64_t)len};
    /* do_truncate's notify_change(ATTR_SIZE): IN_MODIFY */
    return err < 0 ? err
                   : fd_told(t, (int)a[0],
                             file_limited_resize(t, f, (uint64_t)len, false, truncate_to, arg),
                             IN_MODIFY);
}

int64_t do_truncate(struct task *t, uint64_t upath, int64_t len)
{
    if (len < 0)
        return -EINVAL;
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, GUEST_AT_FDCWD, upath, path, sizeof path);
    struct stat st;
    if (err >= 0)
        err = vfs_stat(&t->machine->vfs, t, path, true, &st);
    if (err < 0)
        return err;
    if (S_ISDIR(st.st_mode))
        return -EISDIR;
    if (!S_ISREG(st.st_mode))
        return -EINVAL;
    /* Opening it for writing applies the write rule (EROFS) and follows
     * /tmp's symlinks as the guest's paths. */
    struct file *f;
    if ((err = file_open_path(t, path, O_WRONLY, 0, &f)) < 0)
        return err;
    uint64_t arg[4] = {(uint64_t)len};
    err = f->kind == FILE_HOST ? file_limited_resize(t, f, (uint64_t)len, false, truncate_to, arg)
                               : 0; /* a writable file of /sys: nothing to cut */
    if (err == 0 && f->kind == FILE_HOST && fsnotify_active(t->machine))
        fsnotify_path_fd(t->machine, path, f->host_fd, IN_MODIFY);
    file_put(f);
    return err;
}

/* truncate(path, long length): arm's is 32 bits (truncate64 calls
 * do_truncate). */
SYSCALL_DECL(truncate)
{
    return do_truncate(t, a[0], abi_long(task_abi(t), a[1]));
}

/* mknodat(dirfd, path, mode, dev): regular files, FIFOs and socket nodes.
 * Device nodes fail with EPERM, as for a root without CAP_MKNOD: the files
 * are the host's. */
SYSCALL_DECL(mknodat)
{
    unsigned type = (unsigned)a[2] & S_IFMT;
    if (type != 0 && type != S_IFREG && type != S_IFIFO && type != S_IFSOCK && type != S_IFCHR &&
        type != S_IFBLK)
        return -EINVAL;
    char name[256];
    enum mq_entry e;
    int64_t mr;
    bool ro;
    if ((type == 0 || type == S_IFREG) && mqueue_entry_ro(t, (int)a[0], a[1], name, &e, &mr, &ro)) {
        /* do_mknodat's vfs_create: mqueue_create makes a queue */
        struct file *f;
        if (mr == 0 && e != MQ_FREE)
            mr = -EEXIST;
        if (mr == 0 && ro)
            mr = -EROFS;
        if (mr == 0 && (mr = mq_fs_open(t, name, "", O_CREAT | O_EXCL, (unsigned)a[2], &f)) == 0)
            file_put(f);
        return mr;
    }
    if (mqueue_no_make(t, (int)a[0], a[1], &mr))
        return type == S_IFCHR || type == S_IFBLK ? -EPERM : mr; /* vfs_mknod: CAP_MKNOD first */
    struct vfs_budget *b;
    int mount, dfd = parent_in(t, (int)a[0], a[1], name, sizeof name, &mount);
    if (dfd < 0)
        return dfd;
    int64_t r = type == S_IFCHR || type == S_IFBLK ? -EPERM : take_entry(t, mount, dfd, name, &b);
    if (r == 0)
        r = entry_made(b, result(mknodat(dfd, name, (type ? type : S_IFREG) |
                                                        creation_mode(t, a[2]), 0)));
    if (r == 0)
        owner_created_at(t, dfd, name);
    if (r == 0 && fsnotify_active(t->machine)) /* vfs_mknod's fsnotify_create */
        fsnotify_name(t->machine, dfd, name, IN_CREATE, false);
    close(dfd);
    return r;
}

static bool file_is_fifo(const struct file *f)
{
    if (f->kind == FILE_PIPE)
        return true;
    struct stat st;
    return (f->kind == FILE_HOST || f->kind == FILE_CONSOLE) && fstat(f->host_fd, &st) == 0 &&
           S_ISFIFO(st.st_mode);
}

/* posix_fadvise: advice the emulated kernel keeps no cache to act on;
 * checked as Linux checks it (a pipe or fifo: ESPIPE). */
int64_t do_fadvise(struct task *t, int fd, int64_t len, int advice)
{
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    if (file_is_fifo(f))
        return -ESPIPE;
    if (len < 0 || advice < POSIX_FADV_NORMAL || advice > POSIX_FADV_NOREUSE)
        return -EINVAL;
    return 0;
}

/* fadvise64(fd, offset, len, advice): arm64's. */
SYSCALL_DECL(fadvise64)
{
    return do_fadvise(t, (int)a[0], (int64_t)a[2], (int)a[3]);
}

/* readahead(fd, offset, count) (mm/readahead.c ksys_readahead()): a
 * readable regular file, nothing to do (no page cache); EBADF for a
 * descriptor not open for reading, EINVAL for anything else. */
SYSCALL_DECL(readahead)
{
    struct file *f = file_get_io(t, (int)a[0]);
    if (!f || (f->flags & O_ACCMODE) == O_WRONLY)
        return -EBADF;
    struct stat st;
    if (f->kind != FILE_HOST || fstat(f->host_fd, &st) < 0 || !S_ISREG(st.st_mode))
        return -EINVAL;
    return 0;
}

/* sync_file_range(fd, offset, nbytes, flags) (fs/sync.c): flags within
 * WAIT_BEFORE|WRITE|WAIT_AFTER, no negative range nor one past the end of
 * loff_t (EINVAL); a pipe or socket ESPIPE; the host writes through. */
#define SYNC_FILE_RANGE_ALL 7u
int64_t do_sync_file_range(struct task *t, int fd, int64_t offset, int64_t nbytes,
                           unsigned flags)
{
    if (flags & ~SYNC_FILE_RANGE_ALL)
        return -EINVAL;
    if (offset < 0 || nbytes < 0 || (nbytes && offset > INT64_MAX - nbytes))
        return -EINVAL;
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    struct stat st;
    if (f->kind != FILE_HOST || fstat(f->host_fd, &st) < 0 ||
        !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode) ||
          S_ISBLK(st.st_mode)))
        return -ESPIPE;
    return 0;
}

SYSCALL_DECL(sync_file_range)
{
    return do_sync_file_range(t, (int)a[0], (int64_t)a[1], (int64_t)a[2], (unsigned)a[3]);
}

SYSCALL_DECL(fsync)
{
    return file_get_io(t, (int)a[0]) ? 0 : -EBADF;
}

SYSCALL_DECL(fchdir)
{
    struct file *f = file_get(t, (int)a[0]);
    if (!f)
        return -EBADF;
    struct stat st;
    int err = f->path ? vfs_stat(&t->machine->vfs, t, f->path, true, &st) : -ENOTDIR;
    if (err < 0)
        return err;
    if (!S_ISDIR(st.st_mode))
        return -ENOTDIR;
    snprintf(t->proc->cwd, sizeof t->proc->cwd, "%s", f->path);
    return 0;
}

#define GUEST_CLOSE_RANGE_UNSHARE 2
#define GUEST_CLOSE_RANGE_CLOEXEC 4

SYSCALL_DECL(close_range)
{
    unsigned first = (unsigned)a[0], last = (unsigned)a[1];
    if (first > last || (a[2] & ~(uint64_t)(GUEST_CLOSE_RANGE_CLOEXEC | GUEST_CLOSE_RANGE_UNSHARE)))
        return -EINVAL;
    if (a[2] & GUEST_CLOSE_RANGE_UNSHARE) {
        int err = fdtable_unshare(t->proc);
        if (err < 0)
            return err;
    }
    for (unsigned fd = first; fd <= last && fd < FD_MAX; fd++) {
        if (!t->proc->files->fd[fd])
            continue;
        if (a[2] & GUEST_CLOSE_RANGE_CLOEXEC)
            t->proc->files->cloexec[fd] = true;
        else
            fd_close(t, (int)fd);
    }
    return 0;
}
