/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mqueue.c - POSIX message queues: mq_open, mq_unlink, mq_timedsend,
 * mq_timedreceive, mq_notify, mq_getsetattr (Linux's ipc/mqueue.c).
 *
 * A queue lives while it has a name or an open descriptor. Messages are
 * kept highest priority first, FIFO within a priority. As in Linux, a
 * message sent while a receiver waits goes straight to the oldest
 * receiver (pipelined_send), and a receive that frees room takes the
 * oldest blocked sender's message into the queue (pipelined_receive). A
 * descriptor is a file: poll sees POLLIN with a message queued, POLLOUT
 * with room; read gives the QSIZE line /dev/mqueue shows. */
#include "mqueue.h"

#include "abi.h"
#include "abi_user.h"
#include "cred.h"
#include "file.h"
#include "kmem.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "rlimit.h"
#include "signals.h"
#include "socket.h"
#include "sysv_ipc.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#define WAITING 1 /* a waiter's status until it is settled */
#define NAME_MAX_LINUX 255
#define PATH_MAX_LINUX 4096
#define FILENT_SIZE 80 /* a queue's st_size */
#define KMSG_SIZE 48   /* arm64's struct msg_msg, what RLIMIT_MSGQUEUE counts */
#define KNODE_SIZE 48  /* arm64's struct posix_msg_tree_node */
#define GUEST_SIGEV_SIGNAL 0
#define GUEST_SIGEV_NONE 1
#define GUEST_SIGEV_THREAD 2
#define GUEST_SI_MESGQ (-3)
#define NOTIFY_COOKIE_LEN 32
#define NOTIFY_WOKENUP 1
#define NOTIFY_REMOVED 2
#define GUEST_NSIG 64

struct mq_msg {
    struct mq_msg *next;
    unsigned prio;
    size_t size;
    uint8_t text[];
};

struct mqueue {
    struct mqueue *next; /* the machine's queues, by name */
    struct machine *machine;
    char *name; /* without its '/'; NULL once unlinked */
    int refs;   /* the name and each open file */
    uint32_t uid, gid;
    unsigned mode;
    uint64_t ino;
    int64_t maxmsg, msgsize, curmsgs;
    uint64_t qsize;                     /* bytes of the queued messages */
    struct mq_msg *head;                /* highest priority first */
    struct ipc_link senders, receivers; /* struct mq_waiter, in the order they are served */
    uint64_t atime_ns, mtime_ns, ctime_ns;
    uint32_t charge_uid; /* whose RLIMIT_MSGQUEUE bytes it holds */
    uint64_t charged;
    /* mq_notify: the registered process (0: none) and how to tell it */
    int notify_pid;
    int notify;
    int signo;
    uint64_t value;
    struct file *notify_sock; /* SIGEV_THREAD: a netlink socket's file, one reference */
    struct file **files;      /* its open files, whose /proc/PID/fd links unlink changes */
    int nfiles;
    uint8_t cookie[NOTIFY_COOKIE_LEN];
};

/* A blocked send (msg: what it sends) or receive (msg: what a sender
 * handed it). status: WAITING, or 0 once settled. */
struct mq_waiter {
    struct ipc_link link;
    struct task *task;
    struct mqueue *q;
    bool linked;
    int status;
    struct mq_msg *msg;
    uint64_t ubuf, uprio; /* a receiver's buffer and priority pointer */
};

struct mq_user {
    uint32_t uid;
    uint64_t bytes;
};

struct mq_ns {
    struct mqueue *queues;
    int count;
    struct mq_user *users; /* RLIMIT_MSGQUEUE bytes by real uid (Linux's ucounts) */
    int nusers;
    struct file **mounted; /* files open(2) opened in an mount, which keep it busy */
    int nmounted;
};

static struct mq_ns *ns_of(struct machine *m)
{
    if (!m->mq)
        m->mq = calloc(1, sizeof(struct mq_ns));
    return m->mq;
}

static uint64_t *user_bytes(struct mq_ns *ns, uint32_t uid)
{
    for (int i = 0; i < ns->nusers; i++)
        if (ns->users[i].uid == uid)
            return &ns->users[i].bytes;
    struct mq_user *u = realloc(ns->users, (size_t)(ns->nusers + 1) * sizeof *u);
    if (!u)
        return NULL;
    ns->users = u;
    u[ns->nusers] = (struct mq_user){uid, 0};
    return &u[ns->nusers++].bytes;
}

/* ---- messages: kernel memory (kmem.h), as Linux's load_msg ---- */

static struct mq_msg *msg_alloc(struct machine *m, size_t size)
{
    return kmem_alloc(m, sizeof(struct mq_msg) + size);
}

static void msg_release(struct machine *m, struct mq_msg *msg)
{
    if (msg)
        kmem_free(m, msg, sizeof *msg + msg->size);
}

/* msg_insert: after the messages of its priority and higher. */
static void msg_insert(struct mqueue *q, struct mq_msg *msg)
{
    struct mq_msg **p = &q->head;
    while (*p && (*p)->prio >= msg->prio)
        p = &(*p)->next;
    msg->next = *p;
    *p = msg;
    q->curmsgs++;
    q->qsize += msg->size;
}

static struct mq_msg *msg_get(struct mqueue *q)
{
    struct mq_msg *msg = q->head;
    q->head = msg->next;
    q->curmsgs--;
    q->qsize -= msg->size;
    return msg;
}

/* ---- notification ---- */

static void notify_sock_send(struct mqueue *q, uint8_t code)
{
    struct sock *s = q->notify_sock->priv;
    struct sock_msg *msg = sock_msg_alloc(q->machine, NOTIFY_COOKIE_LEN);
    if (msg) {
        memcpy(msg->data, q->cookie, NOTIFY_COOKIE_LEN);
        msg->data[NOTIFY_COOKIE_LEN - 1] = code; /* set_cookie */
        msg->len = NOTIFY_COOKIE_LEN;
        msg->from.len = sizeof msg->from.nl;
        msg->from.nl.nl_family = AF_NETLINK;
        sock_queue(s, msg);
    }
}

static void notify_clear(struct mqueue *q)
{
    if (q->notify_sock)
        file_put(q->notify_sock);
    q->notify_sock = NULL;
    q->notify_pid = 0;
}

/* remove_notification */
static void notify_remove(struct mqueue *q)
{
    if (q->notify_pid && q->notify == GUEST_SIGEV_THREAD)
        notify_sock_send(q, NOTIFY_REMOVED);
    notify_clear(q);
}

/* __do_notify: the queue went from empty to one message with no receiver
 * waiting. The registration is used up. */
static void do_notify(struct task *t, struct mqueue *q)
{
    if (q->notify_pid && q->curmsgs == 1) {
        if (q->notify == GUEST_SIGEV_SIGNAL && q->signo) {
            struct process *p = process_find(q->machine, q->notify_pid);
            struct siginfo_lite info = {.code = GUEST_SI_MESGQ,
                                        .pid = t->proc->pid,
                                        .uid = (int)t->proc->cred.u.real,
                                        .value = q->value};
            if (p && !p->zombie)
                signal_queue_process(p, q->signo, &info);
        } else if (q->notify == GUEST_SIGEV_THREAD) {
            notify_sock_send(q, NOTIFY_WOKENUP);
        }
        notify_clear(q);
    }
    file_notify_events(q->machine, q, POLLIN);
}

/* ---- queue lifetime ---- */

static void waiter_settle(struct mq_waiter *w)
{
    if (w->linked)
        ipc_list_del(&w->link);
    w->linked = false;
    w->status = 0;
    task_wake(w->task);
}

static void queue_put(struct mqueue *q)
{
    if (--q->refs > 0)
        return;
    struct mq_ns *ns = q->machine->mq;
    notify_clear(q);
    while (q->head)
        msg_release(q->machine, msg_get(q));
    uint64_t *bytes = ns ? user_bytes(ns, q->charge_uid) : NULL;
    if (bytes)
        *bytes -= q->charged;
    if (ns)
        ns->count--;
    kmem_uncharge(q->machine, sizeof *q);
    free(q->files);
    free(q);
}

/* The queue named name, and the link that points at it (or where it goes). */
static struct mqueue **lookup(struct mq_ns *ns, const char *name)
{
    struct mqueue **p = &ns->queues;
    while (*p && strcmp((*p)->name, name) < 0)
        p = &(*p)->next;
    return p;
}

/* lookup_one_len's checks of a name, and simple_lookup's length. */
static int name_check(const char *name, size_t len)
{
    if (len == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/'))
        return -EACCES;
    return len > NAME_MAX_LINUX ? -ENAMETOOLONG : 0;
}

/* getname: an empty name is ENOENT (no LOOKUP_EMPTY); the length, or an errno. */
static int64_t getname(struct task *t, uint64_t uname, char *name)
{
    int64_t len = strncpy_from_guest(task_mm(t), name, uname, PATH_MAX_LINUX);
    return len == 0 ? -ENOENT : len;
}

/* generic_permission with the fs ids: CAP_DAC_OVERRIDE may read and write
 * any queue, CAP_DAC_READ_SEARCH read one (a non-zero fsuid takes both out
 * of the effective set, cap_fix_setuid()). */
static bool may_access(struct task *t, const struct mqueue *q, unsigned want)
{
    const struct cred *c = &t->proc->cred;
    if (cred_capable(c, CAP_DAC_OVERRIDE) || (!(want & 2) && cred_capable(c, CAP_DAC_READ_SEARCH)))
        return true;
    unsigned granted = q->mode;
    if (c->u.fs == q->uid)
        granted >>= 6;
    else if (cred_in_group(c, q->gid))
        granted >>= 3;
    return !(want & ~granted & 7);
}

/* ---- the descriptor ---- */

static struct mqueue *queue_of_file(const struct file *f);

/* mqueue_read_file: the line /dev/mqueue/NAME shows. */
static int64_t mq_file_read(struct task *t, struct file *f, void *buf, size_t len)
{
    (void)t;
    struct mqueue *q = f->priv;
    char line[128];
    int n =
        snprintf(line, sizeof line, "QSIZE:%-10llu NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n",
                 (unsigned long long)q->qsize, q->notify_pid ? q->notify : 0,
                 q->notify_pid && q->notify == GUEST_SIGEV_SIGNAL ? q->signo : 0, q->notify_pid);
    if (f->pos >= (uint64_t)n)
        return 0;
    size_t k = (size_t)n - (size_t)f->pos < len ? (size_t)n - (size_t)f->pos : len;
    memcpy(buf, line + f->pos, k);
    f->pos += k;
    q->atime_ns = machine_realtime_ns(q->machine);
    return (int64_t)k;
}

/* mqueue_poll_file: whatever the descriptor's access mode. */
static short mq_file_poll(struct task *t, struct file *f)
{
    (void)t;
    const struct mqueue *q = f->priv;
    return (short)((q->curmsgs ? POLLIN | POLLRDNORM : 0) |
                   (q->curmsgs < q->maxmsg ? POLLOUT | POLLWRNORM : 0));
}

static int mq_file_stat(struct file *f, struct stat *st)
{
    const struct mqueue *q = f->priv;
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFREG | q->mode;
    st->st_nlink = q->name ? 1 : 0;
    st->st_uid = q->uid;
    st->st_gid = q->gid;
    st->st_size = FILENT_SIZE;
    st->st_blksize = 4096;
    st->st_dev = 0x13; /* the mqueue filesystem's anonymous device */
    st->st_ino = (ino_t)q->ino;
    /* whole seconds: mqueue_fill_super leaves s_time_gran at 1 s, so
     * current_time() and setattr_copy() truncate every time (the memset
     * zeroed the nanoseconds) */
    st->st_atim.tv_sec = (time_t)(q->atime_ns / 1000000000u);
    st->st_mtim.tv_sec = (time_t)(q->mtime_ns / 1000000000u);
    st->st_ctim.tv_sec = (time_t)(q->ctime_ns / 1000000000u);
    return 0;
}

/* Takes f off the files that keep a mount busy: 1 if it was there. */
static int unmount_file(struct mq_ns *ns, struct file *f)
{
    for (int i = 0; ns && i < ns->nmounted; i++) {
        if (ns->mounted[i] == f) {
            ns->mounted[i] = ns->mounted[--ns->nmounted];
            return 1;
        }
    }
    return 0;
}

static void mq_file_release(struct file *f)
{
    struct mqueue *q = f->priv;
    unmount_file(q->machine->mq, f);
    for (int i = 0; i < q->nfiles; i++) {
        if (q->files[i] == f) {
            q->files[i] = q->files[--q->nfiles];
            break;
        }
    }
    queue_put(q);
}

/* mq_open's /proc/PID/fd link: "/NAME" (d_path in the internal mount). */
static char *link_of(const char *name)
{
    size_t len = strlen(name) + 2;
    char *path = malloc(len);
    if (path)
        snprintf(path, len, "/%s", name);
    return path;
}

static const struct file_ops mq_file_ops = {
    .name = "mqueue",
    .read = mq_file_read,
    .poll = mq_file_poll,
    .stat = mq_file_stat,
    .release = mq_file_release,
    .mode = S_IFREG | 0600,
    .seekable = true, /* default_llseek; pread reads the line at an offset */
};

static struct mqueue *queue_of_file(const struct file *f)
{
    return f && f->kind == FILE_OBJECT && f->ops == &mq_file_ops ? f->priv : NULL;
}

void mq_process_closed(struct process *p, struct file *f)
{
    struct mq_ns *ns = p->machine->mq;
    if (!ns)
        return;
    if (f) {
        struct mqueue *q = queue_of_file(f);
        if (q && q->notify_pid == p->pid)
            notify_remove(q);
        return;
    }
    for (struct mqueue *q = ns->queues; q; q = q->next)
        if (q->notify_pid == p->pid)
            notify_remove(q);
}

/* ---- mq_open ---- */

/* struct mq_attr: eight longs of the task's ABI (mq_flags, mq_maxmsg,
 * mq_msgsize, mq_curmsgs, four reserved). */
static int attr_from_guest(struct task *t, uint64_t uattr, int64_t v[8])
{
    return get_user_longs(t, uattr, v, 8);
}

static int attr_to_guest(struct task *t, uint64_t uattr, const int64_t v[8])
{
    return put_user_longs(t, uattr, v, 8);
}

/* mqueue_create_attr and mqueue_get_inode: a new queue, or an errno. */
static int queue_create(struct task *t, struct mq_ns *ns, struct mqueue **at, const char *name,
                        unsigned mode, const int64_t *attr, struct mqueue **out)
{
    bool resource = capable(t, CAP_SYS_RESOURCE);
    const struct sysctl_limits *l = &t->machine->limits;
    if (ns->count >= l->mq_queues_max && !resource)
        return -ENOSPC;
    int64_t maxmsg = l->mq_msg_default, msgsize = l->mq_msgsize_default;
    if (attr) {
        maxmsg = attr[1];
        msgsize = attr[2];
    }
    if (maxmsg <= 0 || msgsize <= 0)
        return -EINVAL;
    if (resource ? maxmsg > MQ_HARD_MSGMAX || msgsize > MQ_HARD_MSGSIZEMAX
                 : maxmsg > l->mq_msg_max || msgsize > l->mq_msgsize_max)
        return -EINVAL;
    uint64_t bytes =
        (uint64_t)maxmsg * (uint64_t)msgsize + (uint64_t)maxmsg * KMSG_SIZE +
        (uint64_t)(maxmsg < MQ_PRIO_MAX_LINUX ? maxmsg : MQ_PRIO_MAX_LINUX) * KNODE_SIZE;
    uint32_t uid = t->proc->cred.u.real;
    uint64_t *used = user_bytes(ns, uid);
    if (!used)
        return -ENOMEM;
    if (*used + bytes > t->proc->rlim[RLIMIT_MSGQUEUE].cur) {
        t->fd_table_full = true; /* the guest's own EMFILE, not the host's (syscall.c) */
        return -EMFILE;
    }
    if (!kmem_charge(t->machine, sizeof(struct mqueue)))
        return -ENOMEM;
    struct mqueue *q = calloc(1, sizeof *q);
    char *copy = strdup(name);
    if (!q || !copy) {
        free(q);
        free(copy);
        kmem_uncharge(t->machine, sizeof(struct mqueue));
        return -ENOMEM;
    }
    *used += bytes;
    uint64_t now = machine_realtime_ns(t->machine);
    /* the mode keeps vfs_mkobj's S_IALLUGO bits */
    *q = (struct mqueue){.next = *at,
                         .machine = t->machine,
                         .name = copy,
                         .refs = 1,
                         .uid = t->proc->cred.u.fs,
                         .gid = t->proc->cred.g.fs,
                         .mode = mode & 07777 & ~t->proc->umask,
                         .ino = ++t->machine->next_ino,
                         .maxmsg = maxmsg,
                         .msgsize = msgsize,
                         .atime_ns = now,
                         .mtime_ns = now,
                         .ctime_ns = now,
                         .charge_uid = uid,
                         .charged = bytes};
    ipc_list_init(&q->senders);
    ipc_list_init(&q->receivers);
    *at = q;
    ns->count++;
    *out = q;
    return 0;
}

/* A file of queue q (its reference taken here) opened with oflag; path
 * is its /proc/PID/fd link. */
static int queue_file(struct task *t, struct mqueue *q, int oflag, char *path, struct file **out)
{
    q->refs++; /* the file's */
    struct file **files = realloc(q->files, (size_t)(q->nfiles + 1) * sizeof *files);
    struct file *f =
        files ? file_new_object(t->machine, &mq_file_ops, q, oflag & (O_ACCMODE | O_NONBLOCK))
              : NULL;
    if (files)
        q->files = files;
    if (!f || !path) {
        if (f)
            file_put(f); /* gives the reference back (mq_file_release) */
        else
            queue_put(q);
        free(path);
        return -ENOMEM;
    }
    files[q->nfiles++] = f;
    f->path = path;
    f->ino = q->ino;
    *out = f;
    return 0;
}

/* prepare_open and do_create of a checked name: the queue (made when
 * missing and O_CREAT), a file of it in *out. fs: an open(2) in an mqueue
 * mount (may_open: O_RDWR|O_WRONLY asks both, no EINVAL), whose link is
 * path. */
static int open_name(struct task *t, const char *name, int oflag, unsigned mode,
                     const int64_t *attr, bool fs, const char *path, struct file **out)
{
    struct mq_ns *ns = ns_of(t->machine);
    if (!ns)
        return -ENOMEM;
    struct mqueue **at = lookup(ns, name), *q = *at;
    bool exists = q && strcmp(q->name, name) == 0;
    int err;
    if (!exists) {
        if (!(oflag & O_CREAT))
            return -ENOENT;
        if ((err = queue_create(t, ns, at, name, mode, attr, &q)))
            return err;
    } else {
        static const unsigned acc[4] = {4, 2, 6, 6}; /* MAY_READ, MAY_WRITE */
        if ((oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
            return -EEXIST;
        if (!fs && (oflag & O_ACCMODE) == O_ACCMODE)
            return -EINVAL;
        if (!may_access(t, q, acc[oflag & O_ACCMODE]))
            return -EACCES;
    }
    return queue_file(t, q, oflag, fs ? strdup(path) : link_of(name), out);
}

/* mq_open(name, oflag, mode, attr): name without glibc's leading '/'. */
SYSCALL_DECL(mq_open)
{
    int oflag = (int)a[1];
    int64_t attr[8];
    if (a[3] && attr_from_guest(t, a[3], attr) < 0)
        return -EFAULT;
    char name[PATH_MAX_LINUX];
    int64_t len = getname(t, a[0], name);
    if (len < 0)
        return len;
    /* get_unused_fd_flags comes before the lookup */
    struct fdtable *fdt = t->proc->files;
    int fd = 0, limit = rlimit_nofile(t);
    while (fd < limit && fdt->fd[fd])
        fd++;
    if (fd >= limit) {
        t->fd_table_full = true;
        return -EMFILE;
    }
    int err = name_check(name, (size_t)len);
    if (err)
        return err;
    struct file *f;
    if ((err = open_name(t, name, oflag, (unsigned)a[2], a[3] ? attr : NULL, false, NULL, &f)))
        return err;
    /* Linux's mq_open always sets close-on-exec */
    return fd_install_new(t, f, true);
}

int mq_fs_open(struct task *t, const char *name, const char *path, int flags, unsigned mode,
               struct file **out)
{
    size_t len = strlen(name);
    if (len == 0 || strchr(name, '/'))
        return -ENOENT;
    if (len > NAME_MAX_LINUX)
        return -ENAMETOOLONG; /* simple_lookup */
    struct mq_ns *ns = ns_of(t->machine);
    struct file **m = ns ? realloc(ns->mounted, (size_t)(ns->nmounted + 1) * sizeof *m) : NULL;
    if (!m)
        return -ENOMEM;
    ns->mounted = m;
    int err = open_name(t, name, flags, mode, NULL, true, path, out);
    if (err == 0 && *path)
        m[ns->nmounted++] = *out;
    return err;
}

/* The queue a setattr names: through its open file f, else by name. */
static struct mqueue *queue_named(struct task *t, struct file *f, const char *name)
{
    if (f)
        return queue_of_file(f);
    struct mq_ns *ns = t->machine->mq;
    struct mqueue *q = ns ? *lookup(ns, name) : NULL;
    return q && strcmp(q->name, name) == 0 ? q : NULL;
}

int mq_fs_setattr(struct task *t, struct file *f, const char *name, int64_t mode, uint32_t uid,
                  uint32_t gid)
{
    struct mqueue *q = queue_named(t, f, name);
    if (!q)
        return f ? -EBADF : -ENOENT;
    const struct cred *c = &t->proc->cred;
    bool owner = c->u.fs == q->uid;
    if (mode >= 0) {
        /* setattr_prepare: inode_owner_or_capable, then S_ISGID goes
         * unless the group is the caller's or it has CAP_FSETID */
        if (!owner && !capable(t, CAP_FOWNER))
            return -EPERM;
        unsigned m = (unsigned)mode & 07777;
        if (!cred_in_group(c, q->gid) && !capable(t, CAP_FSETID))
            m &= ~(unsigned)S_ISGID;
        q->mode = m;
    } else {
        bool set_uid = uid != UINT32_MAX, set_gid = gid != UINT32_MAX;
        /* chown_ok, chgrp_ok */
        if (set_uid && !(owner && uid == q->uid) && !capable(t, CAP_CHOWN))
            return -EPERM;
        if (set_gid && !(owner && (gid == q->gid || cred_in_group(c, gid))) &&
            !capable(t, CAP_CHOWN))
            return -EPERM;
        if (set_uid)
            q->uid = uid;
        if (set_gid)
            q->gid = gid;
        /* chown_common's ATTR_KILL_SUID and ATTR_KILL_SGID (notify_change) */
        q->mode &= ~(unsigned)S_ISUID;
        if ((q->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
            q->mode &= ~(unsigned)S_ISGID;
    }
    q->ctime_ns = machine_realtime_ns(t->machine);
    return 0;
}

int mq_fs_times(struct task *t, struct file *f, const char *name, const int64_t *times)
{
    struct mqueue *q = queue_named(t, f, name);
    if (!q)
        return f ? -EBADF : -ENOENT;
    uint64_t now = machine_realtime_ns(t->machine), set[2] = {now, now};
    bool omit[2] = {false, false}, touch = true; /* ATTR_TOUCH: no time given */
    for (int i = 0; times && i < 2; i++) {
        int64_t sec = times[2 * i], nsec = times[2 * i + 1];
        if (nsec == UTIME_OMIT) {
            omit[i] = true;
        } else if (nsec != UTIME_NOW) {
            if (nsec < 0 || nsec > 999999999) /* nsec_valid */
                return -EINVAL;
            set[i] = (uint64_t)sec * 1000000000u + (uint64_t)nsec;
            touch = false;
        }
    }
    if (omit[0] && omit[1])
        return 0;
    /* setattr_prepare: times of one's choosing need the owner or
     * CAP_FOWNER; "now" also write permission (notify_change) */
    bool owner = t->proc->cred.u.fs == q->uid || capable(t, CAP_FOWNER);
    if (!owner && !touch)
        return -EPERM;
    if (!owner && !may_access(t, q, 2))
        return -EACCES;
    if (!omit[0])
        q->atime_ns = set[0];
    if (!omit[1])
        q->mtime_ns = set[1];
    q->ctime_ns = now;
    return 0;
}

/* Whether path lies in the mount at dir. */
static bool in_mount(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return path && strncmp(path, dir, n) == 0 && path[n] == '/';
}

bool mq_fs_umount(struct machine *m, const char *dir, bool detach)
{
    struct mq_ns *ns = m->mq;
    for (int i = 0; ns && i < ns->nmounted; i++)
        if (in_mount(ns->mounted[i]->path, dir)) {
            if (!detach)
                return false;
            i -= unmount_file(ns, ns->mounted[i]); /* it is free of it now */
        }
    return true;
}

int mq_fs_stat(struct machine *m, const char *name, struct stat *st)
{
    struct mq_ns *ns = m->mq;
    struct mqueue *q = ns ? *lookup(ns, name) : NULL;
    if (!q || strcmp(q->name, name) != 0)
        return -ENOENT;
    struct file f = {.priv = q};
    return mq_file_stat(&f, st);
}

static int newer_first(const void *a, const void *b)
{
    uint64_t x = (*(struct mqueue *const *)a)->ino, y = (*(struct mqueue *const *)b)->ino;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* dcache_readdir: the newest entry first (d_alloc adds each at the head of
 * d_subdirs); inode numbers grow with each queue made. */
int mq_fs_list(struct machine *m, void (*emit)(const char *name, unsigned char type, void *arg),
               void *arg)
{
    size_t n = 0, i = 0;
    for (const struct mqueue *q = m->mq ? m->mq->queues : NULL; q; q = q->next)
        n++;
    if (!n)
        return 0;
    struct mqueue **all = malloc(n * sizeof *all);
    if (!all)
        return -ENOMEM;
    for (struct mqueue *q = m->mq->queues; q; q = q->next)
        all[i++] = q;
    qsort(all, n, sizeof *all, newer_first);
    for (i = 0; i < n; i++)
        emit(all[i]->name, 8 /* DT_REG */, arg);
    free(all);
    return 0;
}

/* mq_unlink(name) */
SYSCALL_DECL(mq_unlink)
{
    char name[PATH_MAX_LINUX];
    int64_t err = getname(t, a[0], name);
    if (err >= 0)
        err = name_check(name, (size_t)err);
    return err ? err : mq_fs_unlink(t, name);
}

/* vfs_unlink of a checked name, mq_unlink's and unlink(2)'s in a mount. */
int mq_fs_unlink(struct task *t, const char *name)
{
    struct mq_ns *ns = ns_of(t->machine);
    if (!ns)
        return -ENOMEM;
    struct mqueue **at = lookup(ns, name), *q = *at;
    if (!q || strcmp(q->name, name) != 0)
        return -ENOENT;
    /* may_delete in the sticky 01777 root, owned by root: only the
     * queue's owner, the directory's (fsuid 0) or CAP_FOWNER (check_sticky()) */
    uint32_t fsuid = t->proc->cred.u.fs;
    if (fsuid != 0 && fsuid != q->uid && !capable(t, CAP_FOWNER))
        return -EPERM;
    *at = q->next;
    q->next = NULL;
    /* d_path's " (deleted)" after each file's link, "/NAME" or a mount's path */
    for (int i = 0; i < q->nfiles; i++) {
        const char *old = q->files[i]->path ? q->files[i]->path : "";
        size_t len = strlen(old) + sizeof " (deleted)";
        char *path = malloc(len);
        if (path) {
            snprintf(path, len, "%s (deleted)", old);
            free(q->files[i]->path);
            q->files[i]->path = path;
        }
    }
    free(q->name);
    q->name = NULL;
    q->ctime_ns = machine_realtime_ns(t->machine);
    queue_put(q);
    return 0;
}

/* ---- send and receive ---- */

/* The descriptor's queue, as both calls check it: -EBADF unless an mq
 * descriptor open for `mode` (FMODE_READ or FMODE_WRITE). */
static struct mqueue *queue_for(struct task *t, int fd, bool write, struct file **out)
{
    struct file *f = file_get(t, fd);
    struct mqueue *q = queue_of_file(f);
    if (!q)
        return NULL;
    int acc = f->flags & O_ACCMODE;
    /* OPEN_FMODE: O_RDWR|O_WRONLY gives neither */
    bool ok = write ? acc == O_WRONLY || acc == O_RDWR : acc == O_RDONLY || acc == O_RDWR;
    *out = f;
    return ok ? q : NULL;
}

/* An absolute CLOCK_REALTIME time as a deadline of virtual time: 0 when
 * it has passed (wq_sleep's schedule_hrtimeout returns at once). */
static uint64_t deadline_of(struct task *t, int64_t until)
{
    uint64_t now = machine_realtime_ns(t->machine);
    if ((uint64_t)until <= now)
        return 0;
    uint64_t vnow = machine_now(t->machine), d = (uint64_t)until - now;
    return d > UINT64_MAX - vnow ? UINT64_MAX : vnow + d;
}

/* wq_sleep's verdict after a wake-up: 0 (settled), RESUME_BLOCK, or an errno. */
static int64_t wait_verdict(struct task *t, struct mq_waiter *w)
{
    if (w->status == 0)
        return 0;
    if (signal_pending(t))
        return -ERESTARTSYS;
    if (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns)
        return -ETIMEDOUT;
    return RESUME_BLOCK;
}

/* A wait that ended: off its queue's list, the queue's reference given back. */
static void waiter_end(struct mq_waiter *w)
{
    if (w->linked)
        ipc_list_del(&w->link);
    queue_put(w->q);
    free(w);
}

static int64_t send_resume(struct task *t)
{
    struct mq_waiter *w = (struct mq_waiter *)(uintptr_t)t->wait_args[0];
    int64_t r = wait_verdict(t, w);
    if (r == RESUME_BLOCK)
        return r;
    if (r)
        msg_release(t->machine, w->msg);
    waiter_end(w);
    return r;
}

/* store_msg and the priority: the message's size, or -EFAULT (it is taken all the same). */
static int64_t store(struct task *t, uint64_t ubuf, uint64_t uprio, struct mq_msg *m)
{
    int64_t r = (int64_t)m->size;
    if ((uprio && copy_to_guest(task_mm(t), uprio, &m->prio, 4) < 0) ||
        copy_to_guest(task_mm(t), ubuf, m->text, m->size) < 0)
        r = -EFAULT;
    msg_release(t->machine, m);
    return r;
}

static int64_t receive_resume(struct task *t)
{
    struct mq_waiter *w = (struct mq_waiter *)(uintptr_t)t->wait_args[0];
    int64_t r = wait_verdict(t, w);
    if (r == RESUME_BLOCK)
        return r;
    if (r == 0)
        r = store(t, w->ubuf, w->uprio, w->msg);
    waiter_end(w);
    return r;
}

bool mq_task_exit(struct task *t)
{
    if (t->resume != send_resume && t->resume != receive_resume)
        return false;
    struct mq_waiter *w = (struct mq_waiter *)(uintptr_t)t->wait_args[0];
    msg_release(t->machine, w->msg);
    waiter_end(w);
    t->resume = NULL;
    return true;
}

/* The kernel's p->prio: lower runs first (sched_event_task's numbers). */
static int kernel_prio(const struct task *t)
{
    if (t->se.cls == SCHED_CLASS_DEADLINE)
        return -1;
    return t->se.cls == SCHED_CLASS_RT ? 99 - t->se.rt_prio : 120 + t->se.nice;
}

/* wq_add: waiters are served highest priority first, oldest first within one. */
static void wq_add(struct ipc_link *list, struct mq_waiter *w)
{
    int prio = kernel_prio(w->task);
    struct ipc_link *at = list->next;
    while (at != list && kernel_prio(((struct mq_waiter *)at)->task) <= prio)
        at = at->next;
    ipc_list_add_tail(at, &w->link); /* before `at` */
}

static int64_t block_on(struct task *t, struct mqueue *q, struct ipc_link *list, resume_fn resume,
                        struct mq_waiter *req, int64_t until)
{
    uint64_t deadline = 0;
    if (until >= 0 && !(deadline = deadline_of(t, until)))
        return signal_pending(t) ? -ERESTARTSYS : -ETIMEDOUT;
    if (signal_pending(t))
        return -ERESTARTSYS;
    struct mq_waiter *w = malloc(sizeof *w);
    if (!w)
        return -ENOMEM;
    *w = *req;
    w->task = t;
    w->q = q;
    w->linked = true;
    w->status = WAITING;
    q->refs++; /* the waiter holds it past a close by another thread */
    wq_add(list, w);
    t->wait_args[0] = (uintptr_t)w;
    task_block(t, resume, w, deadline);
    return -EBLOCK;
}

static int64_t do_timedsend(struct task *t, const uint64_t a[6], unsigned field)
{
    int fd = (int)a[0];
    uint64_t len = abi_ulong(task_abi(t), a[2]);
    unsigned prio = (unsigned)a[3];
    int64_t until = -1;
    if (a[4] && (until = timespec_from_guest(t, a[4], field)) < 0)
        return until;
    if (prio >= MQ_PRIO_MAX_LINUX)
        return -EINVAL;
    struct file *f = NULL;
    struct mqueue *q = queue_for(t, fd, true, &f);
    if (!q)
        return -EBADF;
    if (len > (uint64_t)q->msgsize)
        return -EMSGSIZE;
    struct mq_msg *m = msg_alloc(t->machine, (size_t)len);
    if (!m)
        return -ENOMEM;
    *m = (struct mq_msg){.prio = prio, .size = (size_t)len};
    if (copy_from_guest(task_mm(t), m->text, a[1], (size_t)len) < 0) {
        msg_release(t->machine, m);
        return -EFAULT;
    }
    if (q->curmsgs == q->maxmsg) {
        if (f->flags & O_NONBLOCK) {
            msg_release(t->machine, m);
            return -EAGAIN;
        }
        struct mq_waiter req = {.msg = m};
        int64_t r = block_on(t, q, &q->senders, send_resume, &req, until);
        if (r != -EBLOCK)
            msg_release(t->machine, m);
        return r;
    }
    q->atime_ns = q->mtime_ns = q->ctime_ns = machine_realtime_ns(t->machine);
    if (q->receivers.next != &q->receivers) {
        /* pipelined_send: the oldest receiver takes it */
        struct mq_waiter *r = (struct mq_waiter *)q->receivers.next;
        r->msg = m;
        waiter_settle(r);
        return 0;
    }
    msg_insert(q, m);
    do_notify(t, q);
    return 0;
}

static int64_t do_timedreceive(struct task *t, const uint64_t a[6], unsigned field)
{
    int fd = (int)a[0];
    uint64_t len = abi_ulong(task_abi(t), a[2]);
    int64_t until = -1;
    if (a[4] && (until = timespec_from_guest(t, a[4], field)) < 0)
        return until;
    struct file *f = NULL;
    struct mqueue *q = queue_for(t, fd, false, &f);
    if (!q)
        return -EBADF;
    if (len < (uint64_t)q->msgsize)
        return -EMSGSIZE;
    if (q->curmsgs == 0) {
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        struct mq_waiter req = {.ubuf = a[1], .uprio = a[3]};
        return block_on(t, q, &q->receivers, receive_resume, &req, until);
    }
    struct mq_msg *m = msg_get(q);
    q->atime_ns = q->mtime_ns = q->ctime_ns = machine_realtime_ns(t->machine);
    if (q->senders.next != &q->senders) {
        /* pipelined_receive: the oldest sender's message takes the room */
        struct mq_waiter *s = (struct mq_waiter *)q->senders.next;
        msg_insert(q, s->msg);
        s->msg = NULL;
        waiter_settle(s);
    } else {
        file_notify_events(t->machine, q, POLLOUT);
    }
    return store(t, a[1], a[3], m);
}

/* mq_timedsend(mqdes, msg_ptr, msg_len, msg_prio, abs_timeout) */
SYSCALL_DECL(mq_timedsend)
{
    return do_timedsend(t, a, abi_time_field(t));
}

/* arm's mq_timedsend_time64: a 64-bit timespec */
SYSCALL_DECL(mq_timedsend_time64)
{
    return do_timedsend(t, a, 8);
}

/* mq_timedreceive(mqdes, msg_ptr, msg_len, msg_prio, abs_timeout) */
SYSCALL_DECL(mq_timedreceive)
{
    return do_timedreceive(t, a, abi_time_field(t));
}

SYSCALL_DECL(mq_timedreceive_time64)
{
    return do_timedreceive(t, a, 8);
}

/* ---- mq_notify, mq_getsetattr ---- */

/* mq_notify(mqdes, sevp): struct sigevent begins with sigev_value (a
 * union of int and pointer: a long), sigev_signo and sigev_notify. */
SYSCALL_DECL(mq_notify)
{
    size_t long_size = abi_longs_size(t, 1);
    int fd = (int)a[0];
    bool set = a[1] != 0;
    uint8_t raw[64];
    uint64_t value = 0;
    int32_t signo = 0, how = 0;
    struct file *sockf = NULL;
    uint8_t cookie[NOTIFY_COOKIE_LEN];
    if (set) {
        if (copy_from_guest(task_mm(t), raw, a[1], sizeof raw) < 0)
            return -EFAULT;
        value = abi_ulong_at(t, raw);
        memcpy(&signo, raw + long_size, 4);
        memcpy(&how, raw + long_size + 4, 4);
        if (how != GUEST_SIGEV_NONE && how != GUEST_SIGEV_SIGNAL && how != GUEST_SIGEV_THREAD)
            return -EINVAL;
        if (how == GUEST_SIGEV_SIGNAL && (signo < 0 || signo > GUEST_NSIG)) /* valid_signal */
            return -EINVAL;
        if (how == GUEST_SIGEV_THREAD) {
            /* the cookie at sival_ptr, then netlink_getsockbyfilp */
            if (copy_from_guest(task_mm(t), cookie, value, sizeof cookie) < 0)
                return -EFAULT;
            sockf = file_get(t, signo);
            if (!sockf)
                return -EBADF;
            if (sockf->kind != FILE_OBJECT || sockf->ops != &sock_file_ops)
                return -ENOTSOCK;
            if (((struct sock *)sockf->priv)->family != AF_NETLINK)
                return -EINVAL;
        }
    }
    struct mqueue *q = queue_of_file(file_get(t, fd));
    if (!q)
        return -EBADF;
    if (!set) {
        if (q->notify_pid == t->proc->pid) {
            notify_remove(q);
            q->atime_ns = q->ctime_ns = machine_realtime_ns(t->machine);
        }
        return 0;
    }
    if (q->notify_pid)
        return -EBUSY;
    q->notify = how;
    q->signo = signo;
    q->value = value;
    if (how == GUEST_SIGEV_THREAD) {
        file_ref(sockf);
        q->notify_sock = sockf;
        memcpy(q->cookie, cookie, sizeof cookie);
    }
    q->notify_pid = t->proc->pid;
    q->atime_ns = q->ctime_ns = machine_realtime_ns(t->machine);
    return 0;
}

/* mq_getsetattr(mqdes, newattr, oldattr): only O_NONBLOCK changes. */
SYSCALL_DECL(mq_getsetattr)
{
    int64_t nattr[8];
    if (a[1] && attr_from_guest(t, a[1], nattr) < 0)
        return -EFAULT;
    if (a[1] && (nattr[0] & ~(int64_t)O_NONBLOCK))
        return -EINVAL;
    struct file *f = file_get(t, (int)a[0]);
    struct mqueue *q = queue_of_file(f);
    if (!q)
        return -EBADF;
    int64_t old[8] = {f->flags & O_NONBLOCK, q->maxmsg, q->msgsize, q->curmsgs};
    if (a[1]) {
        f->flags = (f->flags & ~O_NONBLOCK) | (int)(nattr[0] & O_NONBLOCK);
        q->atime_ns = q->ctime_ns = machine_realtime_ns(t->machine);
    }
    return a[2] ? attr_to_guest(t, a[2], old) : 0;
}

/* ---- machine ---- */

void mq_free_all(struct machine *m)
{
    struct mq_ns *ns = m->mq;
    if (!ns)
        return;
    /* only names are left: every file and waiter went with the tasks */
    while (ns->queues) {
        struct mqueue *q = ns->queues;
        ns->queues = q->next;
        free(q->name);
        q->name = NULL;
        queue_put(q);
    }
    free(ns->users);
    free(ns->mounted);
    free(ns);
    m->mq = NULL;
}
