/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fsnotify.h - the file layer's events for inotify (inotify.c,
 * fsnotify.c), after Linux 5.15's include/linux/fsnotify.h: the guest's own
 * file-system calls tell them as they succeed. A watched file is its host
 * inode (st_dev, st_ino), as flock identifies one; changes made on the host
 * by anything else than the guest are not seen. Every hook first asks
 * fsnotify_active(), one load, so that a machine without a watch pays
 * nothing. */
#ifndef ASYMU_FSNOTIFY_H
#define ASYMU_FSNOTIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "machine.h"
#include "syscalls.h"

struct file;
struct task;

/* Whether the machine has an inotify watch at all. */
static inline bool fsnotify_active(const struct machine *m)
{
    return m->fsnotify_marks != 0;
}

/* A watched object: a host inode, and whether it is a directory (IN_ISDIR)
 * and has no name left (IN_EXCL_UNLINK). */
struct fsn_obj {
    uint64_t dev, ino;
    bool dir;
    bool unlinked;
};

static inline struct fsn_obj fsn_obj_of(const struct stat *st)
{
    return (struct fsn_obj){(uint64_t)st->st_dev, (uint64_t)st->st_ino, S_ISDIR(st->st_mode),
                            st->st_nlink == 0};
}

/* Delivers mask (IN_* bits) to the watches of the directory parent, with
 * the child's name, then to those of self without a name (fsnotify() with
 * fsnotify_handle_event's order); either may be NULL. path_event: the event
 * comes through an open file (fsnotify_file), which IN_EXCL_UNLINK skips
 * once self has no name left. */
void fsnotify_deliver(struct machine *m, const struct fsn_obj *parent, const char *name,
                      const struct fsn_obj *self, uint32_t mask, uint32_t cookie,
                      bool path_event);

/* self's inode lost its last link and its last open file: IN_DELETE_SELF,
 * then every watch on it goes (IN_IGNORED), as fsnotify_inoderemove. */
void fsnotify_inode_gone(struct machine *m, const struct fsn_obj *self);

/* A new cookie for a rename's IN_MOVED_FROM and IN_MOVED_TO
 * (fsnotify_get_cookie). */
uint32_t fsnotify_cookie(struct machine *m);

/* ---- hooks (fsnotify.c) ---- */

/* An event of an open guest file f (read, write, open, getdents): for
 * files of the host, to its watches and to those of the directory of the
 * path it was opened by, with its name, while that name leads to it.
 * IN_EXCL_UNLINK skips it once the file has no name left. */
void fsnotify_file(struct machine *m, struct file *f, uint32_t mask);
/* The same for a change by path (chmod, chown, utimensat, truncate): the
 * file is host fd, at guest path (absolute), or at name in host directory
 * dfd. */
void fsnotify_path_fd(struct machine *m, const char *path, int fd, uint32_t mask);
void fsnotify_at_fd(struct machine *m, int dfd, const char *name, int fd, uint32_t mask);
/* An entry event on name in host directory dfd: IN_CREATE (with IN_ISDIR
 * when isdir) of mkdir, mknod, symlink and link. */
void fsnotify_name(struct machine *m, int dfd, const char *name, uint32_t mask, bool isdir);

/* unlink and rmdir: fsnotify_entry_prepare before, with what it recorded
 * fsnotify_unlinked after a success (fsnotify_link_count, d_delete_notify:
 * IN_ATTRIB for a file, IN_DELETE_SELF when its inode goes, then IN_DELETE
 * on the directory). */
struct fsn_entry {
    bool valid;
    struct fsn_obj dir, obj;
    unsigned long nlink;
};
void fsnotify_entry_prepare(struct machine *m, int dfd, const char *name, struct fsn_entry *e);
void fsnotify_unlinked(struct machine *m, const struct fsn_entry *e, const char *name);
/* rename: the source and the target (valid only when it existed), then
 * fsnotify_move's events and the target's end. */
void fsnotify_renamed(struct machine *m, const struct fsn_entry *src, const char *oname,
                      const struct fsn_entry *dst, const struct fsn_obj *ndir, const char *nname);
/* link: IN_ATTRIB on the inode, IN_CREATE in the new directory. */
void fsnotify_linked(struct machine *m, int nfd, const char *nname);
/* open(O_CREAT) made the file at guest path: IN_CREATE in its directory. */
void fsnotify_created_path(struct machine *m, const char *path, bool isdir);

/* The last reference to a host file open(2) opened went (__fput's
 * fsnotify_close; f->notify_machine set by openat):
 * IN_CLOSE_WRITE or IN_CLOSE_NOWRITE, and IN_DELETE_SELF when it held the
 * last of an unlinked inode. */
void fsnotify_file_closing(struct file *f);

/* Whether a guest file still has the inode open (other than skip). */
bool fsnotify_inode_open(struct machine *m, const struct fsn_obj *o, const struct file *skip);

/* Whether some watch is on this inode (hooks skip their work otherwise). */
bool fsnotify_watched(struct machine *m, const struct fsn_obj *o);

/* The defaults of /proc/sys/fs/inotify (inotify_user_setup); the
 * machine's values are m->limits' (sysctl.h). max_user_watches' default:
 * 1% of the machine's memory in watches, within [8192, 1048576]. */
#define INOTIFY_MAX_USER_INSTANCES 128
#define INOTIFY_MAX_QUEUED_EVENTS 16384
uint64_t inotify_default_watches(const struct machine *m);

SYSCALL_DECL(inotify_init1);
SYSCALL_DECL(inotify_init);
SYSCALL_DECL(inotify_add_watch);
SYSCALL_DECL(inotify_rm_watch);

#endif
