/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fsnotify.c - what the file layer's calls tell inotify (Linux 5.15's
 * include/linux/fsnotify.h): the inode an event is about and, for the
 * events a directory hears of its children, the directory and the name.
 * Objects are host inodes; a file's directory is found from the guest path
 * it was opened by, and only while that name still leads to it (a dentry
 * follows renames, the path does not: see docs/filesystems.md). Only called
 * when fsnotify_active(). */
#include "file.h"
#include "fsnotify.h"
#include "machine.h"
#include "task.h"
#include "vfs.h"

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t with_isdir(uint32_t mask, const struct fsn_obj *o)
{
    return o->dir ? mask | IN_ISDIR : mask;
}

/* The event on the file of host fd, its directory being host dfd (or -1)
 * where it is called name. */
static void deliver_at(struct machine *m, int dfd, const char *name, int fd, uint32_t mask,
                       bool path_event)
{
    struct stat st, pst, cst;
    if (fstat(fd, &st) < 0)
        return;
    struct fsn_obj self = fsn_obj_of(&st), parent;
    bool have_parent = false;
    if (dfd >= 0 && fstat(dfd, &pst) == 0 &&
        (self.unlinked || (fstatat(dfd, name, &cst, AT_SYMLINK_NOFOLLOW) == 0 &&
                           cst.st_dev == st.st_dev && cst.st_ino == st.st_ino))) {
        parent = fsn_obj_of(&pst);
        have_parent = true;
    }
    fsnotify_deliver(m, have_parent ? &parent : NULL, name, &self, with_isdir(mask, &self), 0,
                     path_event);
}

/* The same for the file at guest path (absolute) open as host fd. */
static void deliver_path(struct machine *m, const char *path, int fd, uint32_t mask,
                         bool path_event)
{
    char name[256] = "";
    int dfd = path ? vfs_parent(&m->vfs, path, false, name, sizeof name) : -1;
    deliver_at(m, dfd, name, fd, mask, path_event);
    if (dfd >= 0)
        close(dfd);
}

void fsnotify_file(struct machine *m, struct file *f, uint32_t mask)
{
    if (f->kind == FILE_HOST && f->host_fd >= 0)
        deliver_path(m, f->path, f->host_fd, mask, true);
}

void fsnotify_path_fd(struct machine *m, const char *path, int fd, uint32_t mask)
{
    deliver_path(m, path, fd, mask, false);
}

void fsnotify_at_fd(struct machine *m, int dfd, const char *name, int fd, uint32_t mask)
{
    deliver_at(m, dfd, name, fd, mask, false);
}

void fsnotify_name(struct machine *m, int dfd, const char *name, uint32_t mask, bool isdir)
{
    struct stat pst;
    if (fstat(dfd, &pst) < 0)
        return;
    struct fsn_obj parent = fsn_obj_of(&pst);
    fsnotify_deliver(m, &parent, name, NULL, isdir ? mask | IN_ISDIR : mask, 0, false);
}

void fsnotify_created_path(struct machine *m, const char *path, bool isdir)
{
    char name[256];
    int dfd = vfs_parent(&m->vfs, path, false, name, sizeof name);
    if (dfd < 0)
        return;
    fsnotify_name(m, dfd, name, IN_CREATE, isdir);
    close(dfd);
}

bool fsnotify_inode_open(struct machine *m, const struct fsn_obj *o, const struct file *skip)
{
    struct stat st;
    for (struct task *t = m->tasks; t; t = t->next_all) {
        if (!t->proc || !t->proc->files)
            continue;
        for (int fd = 0; fd < FD_MAX; fd++) {
            const struct file *f = t->proc->files->fd[fd];
            if (f && f != skip && f->kind == FILE_HOST && f->host_fd >= 0 &&
                fstat(f->host_fd, &st) == 0 && (uint64_t)st.st_dev == o->dev &&
                (uint64_t)st.st_ino == o->ino)
                return true;
        }
    }
    return false;
}

void fsnotify_entry_prepare(struct machine *m, int dfd, const char *name, struct fsn_entry *e)
{
    (void)m;
    struct stat st, pst;
    e->valid = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && fstat(dfd, &pst) == 0;
    if (!e->valid)
        return;
    e->dir = fsn_obj_of(&pst);
    e->obj = fsn_obj_of(&st);
    e->nlink = (unsigned long)st.st_nlink;
}

/* The entry's inode lost a link (fsnotify_link_count: IN_ATTRIB, for files
 * only, as vfs_rmdir tells none) and, when that was its last and no guest
 * file holds it, goes (dentry_unlink_inode's fsnotify_inoderemove). */
static void lost_link(struct machine *m, const struct fsn_entry *e)
{
    if (!e->obj.dir)
        fsnotify_deliver(m, NULL, NULL, &e->obj, IN_ATTRIB, 0, false);
    bool last = e->obj.dir || e->nlink <= 1;
    if (last && fsnotify_watched(m, &e->obj) && !fsnotify_inode_open(m, &e->obj, NULL))
        fsnotify_inode_gone(m, &e->obj);
}

/* vfs_unlink and vfs_rmdir with d_delete_notify (5.15.y): the inode's end
 * first, then IN_DELETE on the directory. */
void fsnotify_unlinked(struct machine *m, const struct fsn_entry *e, const char *name)
{
    if (!e->valid)
        return;
    lost_link(m, e);
    fsnotify_deliver(m, &e->dir, name, NULL, with_isdir(IN_DELETE, &e->obj), 0, false);
}

/* vfs_rename's fsnotify_move: IN_MOVED_FROM and IN_MOVED_TO with one
 * cookie, the replaced target's link count, IN_MOVE_SELF; the target's
 * inode goes when its dentry is put, after. */
void fsnotify_renamed(struct machine *m, const struct fsn_entry *src, const char *oname,
                      const struct fsn_entry *dst, const struct fsn_obj *ndir, const char *nname)
{
    if (!src->valid)
        return;
    uint32_t cookie = fsnotify_cookie(m);
    fsnotify_deliver(m, &src->dir, oname, NULL, with_isdir(IN_MOVED_FROM, &src->obj), cookie,
                     false);
    fsnotify_deliver(m, ndir, nname, NULL, with_isdir(IN_MOVED_TO, &src->obj), cookie, false);
    if (dst->valid) /* a replaced directory too (fsnotify_inode adds IN_ISDIR) */
        fsnotify_deliver(m, NULL, NULL, &dst->obj, with_isdir(IN_ATTRIB, &dst->obj), 0, false);
    fsnotify_deliver(m, NULL, NULL, &src->obj, IN_MOVE_SELF, 0, false);
    if (dst->valid && (dst->obj.dir || dst->nlink <= 1) && fsnotify_watched(m, &dst->obj) &&
        !fsnotify_inode_open(m, &dst->obj, NULL))
        fsnotify_inode_gone(m, &dst->obj);
}

/* fsnotify_link: IN_ATTRIB on the inode, IN_CREATE in the new directory. */
void fsnotify_linked(struct machine *m, int nfd, const char *nname)
{
    struct stat st;
    if (fstatat(nfd, nname, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        struct fsn_obj o = fsn_obj_of(&st);
        fsnotify_deliver(m, NULL, NULL, &o, IN_ATTRIB, 0, false);
    }
    fsnotify_name(m, nfd, nname, IN_CREATE, false);
}

/* __fput's fsnotify_close, then the end of an unlinked inode this file was
 * the last to hold (dput of its dentry). */
void fsnotify_file_closing(struct file *f)
{
    struct machine *m = f->notify_machine;
    /* No task left: the machine is shutting down (machine_shutdown), its
     * file tree may be gone and nobody reads events. */
    if (!fsnotify_active(m) || !m->tasks || f->kind != FILE_HOST || f->host_fd < 0)
        return;
    bool wrote = (f->flags & O_ACCMODE) != O_RDONLY && !(f->flags & O_PATH);
    deliver_path(m, f->path, f->host_fd, wrote ? IN_CLOSE_WRITE : IN_CLOSE_NOWRITE, true);
    struct stat st;
    if (fstat(f->host_fd, &st) < 0 || st.st_nlink != 0)
        return;
    struct fsn_obj o = fsn_obj_of(&st);
    if (fsnotify_watched(m, &o) && !fsnotify_inode_open(m, &o, f))
        fsnotify_inode_gone(m, &o);
}
