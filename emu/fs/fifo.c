/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fifo.c - named pipes: see fifo.h. Openers that wait are on the fifo's
 * wait queues KEY_OPEN_READ and KEY_OPEN_WRITE, and count as ends until
 * their open completes or fails, as Linux counts them; readers and writers waiting for data
 * or room, and poll, wait on the fifo itself (key 0, file_notify). Each
 * end's open bumps a counter the other side's waiting open watches, so an
 * open that began waiting is released by any open of the other side, even
 * one that has closed again since. A fifo's state is kept until the
 * machine ends (a few dozen bytes each): an open woken to complete must
 * find the counters that woke it. */
#include "fifo.h"
#include "file.h"
#include "machine.h"
#include "restart.h"
#include "signals.h"
#include "task.h"
#include "waitq.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KEY_OPEN_READ = 1, KEY_OPEN_WRITE = 2 };

struct fifo {
    struct machine *m;
    dev_t dev;
    ino_t ino;
    int readers, writers;          /* open descriptions, by access mode */
    uint64_t r_opens, w_opens;     /* opens ever, for the waiting opens */
    int *openers;                  /* tids of the tasks in an open that waits */
    size_t nopeners, cap;
    struct fifo *next;             /* m->fifos */
};

/* Whether tid is still in an open of fi that waits with key: blocked, or
 * woken and about to complete it (then no longer on the wait queue, but
 * still an end for the other side, as in Linux). */
static bool opening(struct fifo *fi, int tid, uint64_t key)
{
    struct task *t = task_find(fi->m, tid);
    return t && t->state != TASK_DEAD && t->resume && t->wait_obj == fi && t->wait_key == key;
}

/* The ends of one side that are opening (key): forgets tasks that have
 * left their open (a signal, an exit). */
static size_t waiting(struct fifo *fi, uint64_t key)
{
    size_t n = 0, kept = 0;
    for (size_t i = 0; i < fi->nopeners; i++) {
        int tid = fi->openers[i];
        bool reader = opening(fi, tid, KEY_OPEN_READ), writer = opening(fi, tid, KEY_OPEN_WRITE);
        if (reader || writer)
            fi->openers[kept++] = tid;
        n += key == KEY_OPEN_READ ? reader : writer;
    }
    fi->nopeners = kept;
    return n;
}

static void forget_opener(struct fifo *fi, int tid)
{
    for (size_t i = 0; i < fi->nopeners; i++)
        if (fi->openers[i] == tid)
            fi->openers[i--] = fi->openers[--fi->nopeners];
}

static int add_opener(struct fifo *fi, int tid)
{
    forget_opener(fi, tid);
    if (fi->nopeners == fi->cap) {
        size_t cap = fi->cap ? 2 * fi->cap : 4;
        int *grown = realloc(fi->openers, cap * sizeof *grown);
        if (!grown)
            return -ENOMEM;
        fi->openers = grown, fi->cap = cap;
    }
    fi->openers[fi->nopeners++] = tid;
    return 0;
}

static void wake_openers(struct fifo *fi, uint64_t key)
{
    struct waiters w;
    waiters_get(&w, fi->m, fi, key);
    for (size_t i = 0; i < w.n; i++)
        task_wake(w.task[i]);
    waiters_put(&w);
}

/* A waiting open runs openat again when woken; a signal ends it with
 * -ERESTARTSYS, and the other side no longer counts it. */
static int64_t resume_open(struct task *t)
{
    int64_t r = t->sys_entry->fn(t, t->sys_args);
    if (r != -EBLOCK)
        return r;
    if (!signal_pending(t))
        return RESUME_BLOCK;
    struct fifo *fi = (struct fifo *)t->wait_obj;
    forget_opener(fi, t->tid);
    file_notify(fi->m, fi); /* a reader waiting for data may be at its end now */
    return -ERESTARTSYS;
}

/* The state of the fifo st describes, made at its first open. */
static struct fifo *fifo_get(struct machine *m, const struct stat *st)
{
    for (struct fifo *fi = m->fifos; fi; fi = fi->next)
        if (fi->dev == st->st_dev && fi->ino == st->st_ino)
            return fi;
    struct fifo *fi = calloc(1, sizeof *fi);
    if (!fi)
        return NULL;
    *fi = (struct fifo){.m = m, .dev = st->st_dev, .ino = st->st_ino, .next = m->fifos};
    m->fifos = fi;
    return fi;
}

/* This end's open announces itself: the other side's waiting opens see it. */
static void announce(struct fifo *fi, bool reads, bool writes)
{
    if (reads) {
        fi->r_opens++;
        wake_openers(fi, KEY_OPEN_WRITE);
    }
    if (writes) {
        fi->w_opens++;
        wake_openers(fi, KEY_OPEN_READ);
    }
}

/* The open of f (on fi) completes: it is an end now. */
static int become_end(struct task *t, struct fifo *fi, struct file *f, bool reads, bool writes)
{
    forget_opener(fi, t->tid);
    fi->readers += reads;
    fi->writers += writes;
    announce(fi, reads, writes);
    f->fifo = fi;
    file_notify(fi->m, fi); /* POLLHUP and POLLERR change */
    return 0;
}

int fifo_open(struct task *t, const char *path, int flags, int mode, struct file **f, int err)
{
    int accmode = flags & O_ACCMODE;
    if (err == -ENXIO && accmode == O_WRONLY) {
        err = file_open_path(t, path, (flags & ~O_ACCMODE) | O_RDWR, mode, f);
        if (err == 0)
            (*f)->flags = ((*f)->flags & ~O_ACCMODE) | O_WRONLY;
    }
    struct stat st;
    if (err < 0 || (*f)->kind != FILE_HOST || (flags & O_PATH) ||
        fstat((*f)->host_fd, &st) < 0 || !S_ISFIFO(st.st_mode))
        return err;
    struct fifo *fi = fifo_get(t->machine, &st);
    if (!fi) {
        file_put(*f);
        return -ENOMEM;
    }
    bool reads = accmode != O_WRONLY, writes = accmode != O_RDONLY;
    if (reads && writes)
        return become_end(t, fi, *f, true, true);
    /* A run again after waiting: the other side opened meanwhile? */
    uint64_t key = reads ? KEY_OPEN_READ : KEY_OPEN_WRITE;
    bool again = t->wait_obj == fi && t->wait_key == key;
    uint64_t partner_opens = reads ? fi->w_opens : fi->r_opens;
    if (again && partner_opens != t->wait_args[0])
        return become_end(t, fi, *f, reads, writes);
    size_t partners = reads ? fi->writers + waiting(fi, KEY_OPEN_WRITE)
                            : fi->readers + waiting(fi, KEY_OPEN_READ);
    if (!again)
        announce(fi, reads, writes);
    if (partners > 0 || (reads && (flags & O_NONBLOCK)))
        return become_end(t, fi, *f, reads, writes);
    file_put(*f);
    *f = NULL;
    if (flags & O_NONBLOCK) /* a writer without a reader */
        return -ENXIO;
    if (again) /* still waiting: resume_open keeps it blocked */
        return -EBLOCK;
    if (add_opener(fi, t->tid) < 0)
        return -ENOMEM;
    t->wait_args[0] = partner_opens;
    t->wait_key = key;
    task_block(t, resume_open, fi, 0);
    return -EBLOCK;
}

int64_t fifo_read(struct task *t, struct file *f, void *buf, size_t len)
{
    ssize_t n = read(f->host_fd, buf, len);
    if (n > 0)
        file_notify_events(t->machine, f->fifo, POLLOUT);
    /* The host's end of file, unless a writer is still opening. */
    bool empty = (n < 0 && errno == EAGAIN) ||
                 (n == 0 && len > 0 && waiting(f->fifo, KEY_OPEN_WRITE) > 0);
    if (!empty)
        return n < 0 ? -errno : n;
    if (f->flags & O_NONBLOCK)
        return -EAGAIN;
    t->wait_obj = f->fifo;
    return -EBLOCK;
}

static int64_t broken_pipe(struct task *t)
{
    struct siginfo_lite info = {.code = 0, .pid = t->proc->pid};
    signal_queue_task(t, SIGPIPE, &info);
    return -EPIPE;
}

int64_t fifo_write(struct task *t, struct file *f, const void *buf, size_t len)
{
    /* The host fd may be open for reading too (fifo_open): the guest's
     * readers decide. */
    if (f->fifo->readers + waiting(f->fifo, KEY_OPEN_READ) == 0)
        return broken_pipe(t);
    ssize_t n = write(f->host_fd, buf, len);
    if (n >= 0) {
        file_notify_events(t->machine, f->fifo, POLLIN);
        return n;
    }
    if (errno == EPIPE)
        return broken_pipe(t);
    if (errno != EAGAIN)
        return -errno;
    if (f->flags & O_NONBLOCK)
        return -EAGAIN;
    t->wait_obj = f->fifo;
    return -EBLOCK;
}

short fifo_poll(struct file *f)
{
    struct pollfd p = {.fd = f->host_fd, .events = POLLIN | POLLOUT};
    if (poll(&p, 1, 0) < 0)
        return POLLERR;
    switch (f->flags & O_ACCMODE) {
    case O_RDONLY:
        return p.revents & (POLLIN | POLLHUP | POLLERR);
    case O_WRONLY: /* its host fd may read too: no POLLIN, and POLLERR by the guest's readers */
        return (short)((p.revents & POLLOUT) | (f->fifo->readers ? 0 : POLLERR));
    default:
        return p.revents;
    }
}

void fifo_release(struct file *f)
{
    struct fifo *fi = f->fifo;
    int accmode = f->flags & O_ACCMODE;
    fi->readers -= accmode != O_WRONLY;
    fi->writers -= accmode != O_RDONLY;
    file_notify(fi->m, fi); /* end of file for readers, EPIPE for writers */
}

void fifo_machine_free(struct machine *m)
{
    while (m->fifos) {
        struct fifo *fi = m->fifos;
        m->fifos = fi->next;
        free(fi->openers);
        free(fi);
    }
}
