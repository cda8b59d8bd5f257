/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inotify.c - inotify instances (Linux 5.15's fs/notify/inotify/
 * inotify_user.c and inotify_fsnotify.c): each an anonymous file holding
 * watches (a watch descriptor per inode, cyclic from 1) and a queue of
 * struct inotify_event records that read() takes. fsnotify.c finds what the
 * guest's file-system calls change and calls fsnotify_deliver(). */
#include "abi.h"
#include "emu.h"
#include "file.h"
#include "kmem.h"
#include "fsnotify.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>

/* include/linux/inotify.h's ALL_INOTIFY_BITS: the bits add_watch takes. */
#define ALL_INOTIFY_BITS                                                                     \
    (IN_ALL_EVENTS | IN_UNMOUNT | IN_Q_OVERFLOW | IN_IGNORED | IN_ONLYDIR | IN_DONT_FOLLOW | \
     IN_EXCL_UNLINK | IN_MASK_ADD | IN_MASK_CREATE | IN_ISDIR | IN_ONESHOT)
/* What a watch keeps of add_watch's mask (inotify_arg_to_mask). */
#define INOTIFY_USER_MASK (IN_ALL_EVENTS | IN_ONESHOT | IN_EXCL_UNLINK)
/* FS_EVENT_ON_CHILD: a directory's watch hears its children. */
#define WATCH_ON_CHILD 0x08000000u

/* INOTIFY_WATCH_COST, sizeof(struct inotify_inode_mark) + 2 *
 * sizeof(struct inode) on arm64 5.15 (an estimate of the slab sizes). */
#define INOTIFY_WATCH_COST 1272u

struct in_event {
    struct in_event *next;
    uint32_t mask, cookie;
    int32_t wd;
    uint32_t name_len; /* strlen(name), 0 for none */
    char name[];
};

struct in_watch {
    struct in_watch *next;
    uint64_t dev, ino;
    uint32_t mask; /* INOTIFY_USER_MASK bits, WATCH_ON_CHILD */
    int wd;
};

struct inotify {
    struct machine *machine;
    struct inotify *next; /* machine->inotifies */
    struct in_watch *watches;
    unsigned nwatches;
    struct in_event *head, **tail, *last;
    unsigned queued;      /* q_len: the overflow event counts */
    unsigned max_events;  /* max_queued_events when it was made (inotify_new_group) */
    bool overflow_queued; /* group->overflow_event is on the list */
    int last_wd;
    uint32_t uid;         /* the user charged (struct ucounts) */
};

/* The size read() gives an event: the header and the name with its NUL,
 * padded with NULs to the header's size (round_event_name_len). */
static size_t event_size(const struct in_event *e)
{
    size_t hdr = sizeof(struct inotify_event);
    return hdr + (e->name_len ? (e->name_len + 1 + hdr - 1) / hdr * hdr : 0);
}

/* event_compare: the same mask, wd and name as the last one queued, which
 * is not an IN_IGNORED. */
static bool merges(const struct in_event *old, uint32_t mask, int wd, const char *name, size_t len)
{
    if (!old || (old->mask & IN_IGNORED))
        return false;
    return old->mask == mask && old->wd == wd && old->name_len == len &&
           (!len || memcmp(old->name, name, len) == 0);
}

/* fsnotify_add_event with inotify_merge: a full queue gets one
 * IN_Q_OVERFLOW (wd -1) instead, until it is read. */
static void queue_event(struct inotify *in, uint32_t mask, int wd, uint32_t cookie,
                        const char *name)
{
    size_t len = name ? strlen(name) : 0;
    bool overflow = in->queued >= in->max_events;
    if (overflow) {
        if (in->overflow_queued)
            return;
        mask = IN_Q_OVERFLOW, wd = -1, cookie = 0, len = 0;
    } else if (in->head && merges(in->last, mask, wd, name, len)) {
        return;
    }
    /* Events, watches and instances are kernel memory (kmem.h), as Linux
     * takes them from its slab caches. */
    struct in_event *e = kmem_alloc(in->machine, sizeof *e + len + 1);
    if (!e)
        return; /* Linux drops it too when it has no memory (inotify_handle_inode_event) */
    *e = (struct in_event){NULL, mask, cookie, wd, (uint32_t)len};
    memcpy(e->name, name ? name : "", len);
    e->name[len] = '\0';
    *in->tail = e;
    in->tail = &e->next;
    in->last = e;
    in->queued++;
    in->overflow_queued |= overflow;
    file_notify_events(in->machine, in, POLLIN);
}

static void event_free(struct machine *m, struct in_event *e)
{
    kmem_free(m, e, sizeof *e + e->name_len + 1);
}

static struct in_watch *watch_by_inode(struct inotify *in, uint64_t dev, uint64_t ino)
{
    for (struct in_watch *w = in->watches; w; w = w->next)
        if (w->dev == dev && w->ino == ino)
            return w;
    return NULL;
}

static struct in_watch *watch_by_wd(struct inotify *in, int wd)
{
    for (struct in_watch *w = in->watches; w; w = w->next)
        if (w->wd == wd)
            return w;
    return NULL;
}

/* fsnotify_destroy_mark, inotify_freeing_mark: IN_IGNORED, then the wd
 * goes from the table. */
static void watch_destroy(struct inotify *in, struct in_watch *w, bool tell)
{
    if (tell)
        queue_event(in, IN_IGNORED, w->wd, 0, NULL);
    for (struct in_watch **pp = &in->watches; *pp; pp = &(*pp)->next) {
        if (*pp == w) {
            *pp = w->next;
            break;
        }
    }
    in->nwatches--;
    in->machine->fsnotify_marks--;
    kmem_free(in->machine, w, sizeof *w);
}

/* inotify_handle_inode_event for one watch (fsnotify_handle_inode_event's
 * checks first). */
static void handle(struct inotify *in, struct in_watch *w, uint32_t mask, const char *name,
                   uint32_t cookie, bool unlinked)
{
    if ((w->mask & IN_EXCL_UNLINK) && unlinked)
        return;
    if (!(mask & w->mask & (IN_ALL_EVENTS | IN_UNMOUNT)))
        return;
    /* inotify never reported IN_ISDIR with these two */
    if (mask & (IN_MOVE_SELF | IN_DELETE_SELF))
        mask &= ~IN_ISDIR;
    queue_event(in, mask, w->wd, cookie, name);
    if (w->mask & IN_ONESHOT)
        watch_destroy(in, w, true);
}

void fsnotify_deliver(struct machine *m, const struct fsn_obj *parent, const char *name,
                      const struct fsn_obj *self, uint32_t mask, uint32_t cookie, bool path_event)
{
    bool unlinked = path_event && self && self->unlinked;
    for (struct inotify *in = m->inotifies; in; in = in->next) {
        struct in_watch *pw = parent ? watch_by_inode(in, parent->dev, parent->ino) : NULL;
        if (pw && (pw->mask & WATCH_ON_CHILD))
            handle(in, pw, mask, name, cookie, unlinked);
        struct in_watch *sw = self ? watch_by_inode(in, self->dev, self->ino) : NULL;
        if (sw)
            handle(in, sw, mask, NULL, cookie, unlinked);
    }
}

void fsnotify_inode_gone(struct machine *m, const struct fsn_obj *self)
{
    fsnotify_deliver(m, NULL, NULL, self, IN_DELETE_SELF, 0, false);
    for (struct inotify *in = m->inotifies; in; in = in->next) {
        struct in_watch *w = watch_by_inode(in, self->dev, self->ino);
        if (w)
            watch_destroy(in, w, true);
    }
}

bool fsnotify_watched(struct machine *m, const struct fsn_obj *o)
{
    for (struct inotify *in = m->inotifies; in; in = in->next)
        if (watch_by_inode(in, o->dev, o->ino))
            return true;
    return false;
}

uint32_t fsnotify_cookie(struct machine *m)
{
    return ++m->fsnotify_cookie;
}

/* ---- the file ---- */

/* inotify_read: whole events while they fit; EINVAL when the first does
 * not (get_one_event), EAGAIN or a wait when there is none. */
static int64_t inotify_read(struct task *t, struct file *f, void *buf, size_t len)
{
    struct inotify *in = f->priv;
    if (!in->head) {
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        t->wait_obj = in;
        return -EBLOCK;
    }
    size_t done = 0;
    while (in->head) {
        struct in_event *e = in->head;
        size_t size = event_size(e);
        if (size > len - done)
            return done ? (int64_t)done : -EINVAL;
        struct inotify_event hdr = {e->wd, e->mask, e->cookie, (uint32_t)(size - sizeof hdr)};
        memcpy((char *)buf + done, &hdr, sizeof hdr);
        memset((char *)buf + done + sizeof hdr, 0, hdr.len);
        memcpy((char *)buf + done + sizeof hdr, e->name, e->name_len);
        done += size;
        in->head = e->next;
        if (!in->head) {
            in->tail = &in->head;
            in->last = NULL;
        }
        in->queued--;
        if (e->mask == IN_Q_OVERFLOW && e->wd == -1)
            in->overflow_queued = false;
        event_free(in->machine, e);
    }
    return (int64_t)done;
}

static short inotify_poll(struct task *t, struct file *f)
{
    (void)t;
    const struct inotify *in = f->priv;
    return in->head ? POLLIN | POLLRDNORM : 0;
}

/* inotify_ioctl: FIONREAD, the bytes of every queued event. */
static int64_t inotify_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    const struct inotify *in = f->priv;
    if (req != FIONREAD)
        return -ENOTTY;
    uint32_t n = 0;
    for (const struct in_event *e = in->head; e; e = e->next)
        n += (uint32_t)event_size(e);
    return copy_to_guest(task_mm(t), arg, &n, sizeof n) < 0 ? -EFAULT : 0;
}

/* inotify_release: the watches go without events (nobody can read them). */
static void inotify_release(struct file *f)
{
    struct inotify *in = f->priv;
    struct machine *m = in->machine;
    while (in->watches)
        watch_destroy(in, in->watches, false);
    while (in->head) {
        struct in_event *e = in->head;
        in->head = e->next;
        event_free(m, e);
    }
    for (struct inotify **pp = &m->inotifies; *pp; pp = &(*pp)->next) {
        if (*pp == in) {
            *pp = in->next;
            break;
        }
    }
    kmem_free(m, in, sizeof *in);
}

static const struct file_ops inotify_ops = {
    .name = "anon_inode:inotify",
    .read = inotify_read,
    .poll = inotify_poll,
    .ioctl = inotify_ioctl,
    .release = inotify_release,
    .mode = 0600,
    .noop_llseek = true, /* inotify_fops */
};

static uint32_t user_of(const struct task *t)
{
    return t->proc->cred.u.eff;
}

/* ---- limits (/proc/sys/fs/inotify) ---- */

/* inotify_user_setup: 1% of the RAM in watches, within [8192, 1048576];
 * the RAM is --max-mem, or AArch64's default (the machine's kernel is an
 * arm64 one). */
uint64_t inotify_default_watches(const struct machine *m)
{
    uint64_t ram = m->cfg->max_mem ? m->cfg->max_mem : abi_aarch64.default_max_mem;
    uint64_t n = ram / 100 / INOTIFY_WATCH_COST;
    return n < 8192 ? 8192 : n > 1048576 ? 1048576 : n;
}

/* ---- syscalls ---- */

/* inotify_init1(flags) */
SYSCALL_DECL(inotify_init1)
{
    int flags = (int)a[0];
    if (flags & ~(IN_CLOEXEC | IN_NONBLOCK))
        return -EINVAL;
    struct machine *m = t->machine;
    uint32_t uid = user_of(t);
    uint64_t instances = 0;
    for (struct inotify *in = m->inotifies; in; in = in->next)
        instances += in->uid == uid;
    /* inc_ucount() against max_user_instances: root has no exception */
    if (instances >= m->limits.inotify_max_user_instances) {
        t->fd_table_full = true; /* the guest's own EMFILE, not the host's ENFILE (syscall.c) */
        return -EMFILE;
    }
    struct inotify *in = kmem_alloc(m, sizeof *in);
    if (!in)
        return -ENOMEM;
    *in = (struct inotify){
        .machine = m, .uid = uid, .max_events = (unsigned)m->limits.inotify_max_queued_events};
    in->tail = &in->head;
    struct file *f = file_new_object(m, &inotify_ops, in, O_RDONLY | (flags & O_NONBLOCK));
    if (!f) {
        kmem_free(m, in, sizeof *in);
        return -ENOMEM;
    }
    /* At the end of the list: events reach instances in creation order. */
    struct inotify **pp = &m->inotifies;
    while (*pp)
        pp = &(*pp)->next;
    *pp = in;
    return fd_install_new(t, f, flags & IN_CLOEXEC);
}

SYSCALL_DECL(inotify_init)
{
    (void)a;
    return sys_inotify_init1(t, (uint64_t[6]){0});
}

static struct inotify *instance_of(struct task *t, int fd, int *err)
{
    struct file *f = file_get(t, fd);
    *err = !f ? -EBADF : f->kind != FILE_OBJECT || f->ops != &inotify_ops ? -EINVAL : 0;
    return *err ? NULL : f->priv;
}

/* idr_alloc_cyclic from last_wd + 1, wrapping to 1. */
static int next_wd(struct inotify *in)
{
    int wd = in->last_wd;
    for (;;) {
        wd = wd == INT32_MAX ? 1 : wd + 1;
        if (!watch_by_wd(in, wd))
            return wd;
    }
}

/* inotify_add_watch(fd, path, mask): inotify_update_existing_watch or
 * inotify_new_watch on the inode the path names. */
SYSCALL_DECL(inotify_add_watch)
{
    uint32_t mask = (uint32_t)a[2];
    if (mask & ~(uint32_t)ALL_INOTIFY_BITS)
        return -EINVAL;
    if (!(mask & ALL_INOTIFY_BITS))
        return -EINVAL;
    int err;
    struct inotify *in = instance_of(t, (int)a[0], &err);
    if (!in && err == -EBADF)
        return err;
    if ((mask & IN_MASK_ADD) && (mask & IN_MASK_CREATE))
        return -EINVAL;
    if (!in)
        return err;
    char path[VFS_PATH_MAX];
    int64_t r = path_from_guest(t, -100 /* AT_FDCWD */, a[1], path, sizeof path);
    if (r < 0)
        return r;
    struct stat st;
    if ((err = vfs_stat(&t->machine->vfs, t, path, !(mask & IN_DONT_FOLLOW), &st)) < 0)
        return err;
    if ((mask & IN_ONLYDIR) && !S_ISDIR(st.st_mode))
        return -ENOTDIR;
    uint32_t wmask = (mask & INOTIFY_USER_MASK) | (S_ISDIR(st.st_mode) ? WATCH_ON_CHILD : 0);
    struct in_watch *w = watch_by_inode(in, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
    if (w) {
        if (mask & IN_MASK_CREATE)
            return -EEXIST;
        w->mask = (mask & IN_MASK_ADD) ? w->mask | wmask : wmask;
        return w->wd;
    }
    uint64_t charged = 0;
    for (struct inotify *o = t->machine->inotifies; o; o = o->next)
        charged += o->uid == in->uid ? o->nwatches : 0;
    if (charged >= t->machine->limits.inotify_max_user_watches)
        return -ENOSPC;
    if (!(w = kmem_alloc(t->machine, sizeof *w)))
        return -ENOMEM;
    *w = (struct in_watch){in->watches, (uint64_t)st.st_dev, (uint64_t)st.st_ino, wmask,
                           next_wd(in)};
    in->last_wd = w->wd;
    in->watches = w;
    in->nwatches++;
    t->machine->fsnotify_marks++;
    return w->wd;
}

/* inotify_rm_watch(fd, wd): IN_IGNORED tells the watch went. */
SYSCALL_DECL(inotify_rm_watch)
{
    int err;
    struct inotify *in = instance_of(t, (int)a[0], &err);
    if (!in)
        return err;
    struct in_watch *w = watch_by_wd(in, (int)(int32_t)a[1]);
    if (!w)
        return -EINVAL;
    watch_destroy(in, w, true);
    return 0;
}
