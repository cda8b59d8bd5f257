/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io_uring_req.c - io_uring's requests (Linux 5.15's fs/io_uring.c):
 * the SQEs io_uring_enter takes, their checks at prep, running them, the
 * chains of IOSQE_IO_LINK, and those that wait for their object or time.
 *
 * A request runs inside io_uring_enter when it can. A lone one that must
 * wait - a read of an empty blocking stream, a write to a full one, a
 * POLL_ADD not ready, a TIMEOUT - waits on the machine's list of them
 * (m->uring_deferred, deferred.h), and the file_notify_events of its
 * object or its timer runs it again, as aio.c's requests; inside a chain
 * it completes with -EAGAIN instead (5.15 would wait and go on with the
 * chain). */
#include "abi.h"
#include "deferred.h"
#include "event.h"
#include "file.h"
#include "file_access.h"
#include "fs_calls.h"
#include "io_uring.h"
#include "io_uring_ring.h"
#include "iovec.h"
#include "ktimer.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- requests ---- */

struct req {
    struct sqe s;
    struct file *file;    /* a reference, or NULL for calls without one */
    int err;              /* what io_init_req() / the prep said, or 0 */
    uint64_t want;        /* a read's or write's length: less fails a link */
    struct iov_list *iov; /* a read's or write's buffers, imported once */
    uint64_t done;        /* bytes a waiting write moved before it waited */
    bool may_wait;        /* a lone request: it may wait for its object */
    uint64_t when;        /* a TIMEOUT's virtual time */
};

/* A request waiting for its object (machine->uring_deferred). */
struct uring_pend {
    struct ring *ring;
    struct mm *mm; /* the submitter's: a live task of it runs the retry */
    int pid;       /* the submitter's process, so a freed mm's address
                      reused by another process is never taken for it */
    struct req q;
    struct ktimer timer; /* a TIMEOUT's, armed */
    uint32_t target;     /* a TIMEOUT with a count: the CQ tail it waits for */
    struct deferred_req deferred;
};

static void req_done(struct req *q)
{
    if (q->file)
        file_put(q->file);
    free(q->iov);
    q->file = NULL;
    q->iov = NULL;
}

static bool needs_file(unsigned op)
{
    return op == OP_READV || op == OP_WRITEV || op == OP_FSYNC || op == OP_READ || op == OP_WRITE ||
           op == OP_POLL_ADD || op == OP_FADVISE;
}

/* io_init_req() and the opcode's prep: 0 or the CQE's error. */
static int prep(struct task *t, struct ring *r, struct req *q)
{
    const struct sqe *s = &q->s;
    if (s->opcode >= OP_LAST)
        return -EINVAL;
    if (s->flags & ~SQE_VALID_FLAGS)
        return -EINVAL;
    if (s->personality)
        return -EINVAL; /* no personality was ever registered */
    if (needs_file(s->opcode)) {
        if (s->flags & IOSQE_FIXED_FILE) {
            if ((uint32_t)s->fd >= r->nr_fixed || !r->fixed[s->fd])
                return -EBADF;
            q->file = r->fixed[s->fd];
        } else if (!(q->file = file_get_io(t, s->fd))) {
            return -EBADF;
        }
        file_ref(q->file);
    }
    bool rw = s->opcode == OP_READ || s->opcode == OP_READV || s->opcode == OP_WRITE ||
              s->opcode == OP_WRITEV;
    if ((s->flags & IOSQE_BUFFER_SELECT) && s->opcode != OP_READ && s->opcode != OP_READV)
        return -EOPNOTSUPP;
    if ((r->flags & IORING_SETUP_IOPOLL) && !rw)
        return -EINVAL; /* io_*_prep: only reads and writes poll */
    switch (s->opcode) {
    case OP_NOP:
        return 0;
    case OP_READV:
    case OP_WRITEV:
    case OP_READ:
    case OP_WRITE:
        /* io_prep_rw() */
        if (s->ioprio)
            return -EINVAL; /* no ioprio_check_cap() model beyond none */
        if (s->op_flags & ~RWF_SUPPORTED)
            return -EOPNOTSUPP;
        /* io_read_prep()/io_write_prep(): FMODE_READ / FMODE_WRITE */
        if ((q->file->flags & O_ACCMODE) ==
            (s->opcode == OP_WRITE || s->opcode == OP_WRITEV ? O_RDONLY : O_WRONLY))
            return -EBADF;
        return 0;
    case OP_FSYNC:
        if (s->addr || s->ioprio || s->buf_index || s->splice_fd_in)
            return -EINVAL;
        return s->op_flags & ~IORING_FSYNC_DATASYNC ? -EINVAL : 0;
    case OP_OPENAT:
        if (s->ioprio || s->buf_index)
            return -EINVAL;
        return s->flags & IOSQE_FIXED_FILE ? -EBADF : 0;
    case OP_CLOSE:
        if (s->ioprio || s->off || s->addr || s->len || s->op_flags || s->buf_index ||
            s->splice_fd_in)
            return -EINVAL;
        return s->flags & IOSQE_FIXED_FILE ? -EBADF : 0;
    case OP_STATX:
        if (s->ioprio || s->buf_index || s->splice_fd_in)
            return -EINVAL;
        return s->flags & IOSQE_FIXED_FILE ? -EBADF : 0;
    case OP_POLL_ADD:
        /* io_poll_add_prep(): len holds the flags; IORING_POLL_ADD_MULTI
         * is not run here */
        if (s->ioprio || s->buf_index || s->off || s->addr)
            return -EINVAL;
        return s->len ? -EINVAL : 0;
    case OP_POLL_REMOVE:
        /* io_poll_update_prep(): the update flags are not run here */
        if (s->ioprio || s->buf_index || s->splice_fd_in || s->op_flags || s->len)
            return -EINVAL;
        return 0;
    case OP_TIMEOUT: {
        /* io_timeout_prep(): one timespec, IORING_TIMEOUT_ABS and one
         * clock at most; the time read here, as 5.15 copies it at prep */
        uint32_t fl = s->op_flags;
        if (s->ioprio || s->buf_index || s->len != 1 || s->splice_fd_in)
            return -EINVAL;
        if (fl & ~(IORING_TIMEOUT_ABS | IORING_TIMEOUT_BOOTTIME | IORING_TIMEOUT_REALTIME))
            return -EINVAL;
        if ((fl & IORING_TIMEOUT_BOOTTIME) && (fl & IORING_TIMEOUT_REALTIME))
            return -EINVAL;
        int64_t ts[2];
        if (copy_from_guest(task_mm(t), ts, s->addr, sizeof ts) < 0)
            return -EFAULT;
        if (ts[0] < 0 || ts[1] < 0)
            return -EINVAL;
        uint64_t ns = ts[0] > INT64_MAX / 1000000000 - 1
                          ? (uint64_t)INT64_MAX
                          : (uint64_t)ts[0] * 1000000000u + (uint64_t)ts[1];
        uint64_t now = machine_now(r->machine);
        if (!(fl & IORING_TIMEOUT_ABS)) {
            q->when = ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
        } else if (fl & IORING_TIMEOUT_REALTIME) {
            /* the realtime clock runs at a fixed offset from virtual time */
            uint64_t offset = machine_realtime_ns(r->machine) - now;
            q->when = ns > offset ? ns - offset : 0;
        } else {
            q->when = ns; /* CLOCK_MONOTONIC (and BOOTTIME) is virtual time */
        }
        return 0;
    }
    case OP_FADVISE:
        /* io_fadvise_prep() */
        return s->ioprio || s->buf_index || s->addr || s->splice_fd_in ? -EINVAL : 0;
    case OP_MADVISE:
        /* io_madvise_prep() */
        return s->ioprio || s->buf_index || s->off || s->splice_fd_in ? -EINVAL : 0;
    case OP_TIMEOUT_REMOVE:
        /* io_timeout_remove_prep(): updates are not run here */
        if (s->flags & (IOSQE_BUFFER_SELECT | IOSQE_FIXED_FILE))
            return -EINVAL;
        if (s->ioprio || s->buf_index || s->len || s->splice_fd_in || s->op_flags)
            return -EINVAL;
        return 0;
    case OP_ASYNC_CANCEL:
        /* io_async_cancel_prep() */
        if (s->flags & IOSQE_FIXED_FILE)
            return -EINVAL;
        if (s->ioprio || s->off || s->len || s->op_flags || s->splice_fd_in)
            return -EINVAL;
        return 0;
    }
    return -EINVAL; /* an opcode of 5.15 that asymu does not run */
}

/* The checks of io_read()/io_write() and the buffers, imported once
 * (io_import_iovec()): 0 or the CQE's error. */
static int rw_setup(struct task *t, struct ring *r, struct req *q)
{
    const struct sqe *s = &q->s;
    bool wr = s->opcode == OP_WRITE || s->opcode == OP_WRITEV;
    bool vec = s->opcode == OP_READV || s->opcode == OP_WRITEV;
    struct file *f = q->file;
    if (s->flags & IOSQE_BUFFER_SELECT)
        return -ENOBUFS; /* no buffers were ever provided */
    if (f->kind == FILE_OBJECT && (wr ? !f->ops->write : !f->ops->read))
        return -EINVAL;
    if (r->flags & IORING_SETUP_IOPOLL)
        return -EOPNOTSUPP; /* no file here has ->iopoll (O_DIRECT) */
    struct iov_list *l = malloc(sizeof *l);
    if (!l)
        return -ENOMEM;
    int err = 0;
    if (vec) {
        err = s->len > UIO_MAXIOV ? -EINVAL : iov_import(t, s->addr, s->len, l);
    } else if (!user_range_ok(s->addr, s->len)) {
        err = -EFAULT;
    } else {
        l->n = 1;
        l->v[0].base = s->addr;
        l->v[0].len = s->len > MAX_RW_COUNT ? MAX_RW_COUNT : s->len;
        l->total = l->v[0].len;
    }
    /* rw_verify_area() on an offset that is used: not -1 (the file's own
     * position, IORING_FEAT_RW_CUR_POS), not on a stream */
    if (!err && !file_is_stream(f) && s->off != UINT64_MAX &&
        ((int64_t)s->off < 0 || l->total > (uint64_t)(INT64_MAX - (int64_t)s->off)))
        err = -EINVAL;
    if (err) {
        free(l);
        return err;
    }
    q->want = l->total;
    q->iov = l;
    return 0;
}

/* Moves the bytes of a read or write as t, the file made non-blocking:
 * bytes, -errno, or -EBLOCK when a blocking stream has no data (a read
 * moved nothing) or no room and the request may wait (a write goes on
 * until all is written across its waits, as pipe_write). An O_NONBLOCK
 * file or RWF_NOWAIT gives -EAGAIN, as 5.15's REQ_F_NOWAIT. */
static int64_t rw_move(struct task *t, struct mm *mm, struct req *q)
{
    const struct sqe *s = &q->s;
    bool wr = s->opcode == OP_WRITE || s->opcode == OP_WRITEV;
    struct file *f = q->file;
    struct iov_list *l = q->iov;
    bool stream = file_is_stream(f);
    bool nowait = (f->flags & O_NONBLOCK) || (s->op_flags & 0x8u /* RWF_NOWAIT */);
    bool wait = q->may_wait && !nowait && stream && file_notify_key(f);
    int64_t pos = stream || s->off == UINT64_MAX ? -1 : (int64_t)s->off;
    const void *wait_obj = t->wait_obj;
    uint64_t wait_key = t->wait_key, wait_args[6];
    memcpy(wait_args, t->wait_args, sizeof wait_args);
    int flags = f->flags;
    f->flags |= O_NONBLOCK;
    uint8_t chunk[IO_CHUNK];
    uint64_t skip = q->done, done = q->done;
    int64_t res = 0;
    for (unsigned i = 0; i < l->n && !res; i++) {
        uint64_t base = l->v[i].base, len = l->v[i].len;
        if (skip >= len) {
            skip -= len;
            continue;
        }
        base += skip;
        len -= skip;
        skip = 0;
        while (len) {
            size_t want = len < IO_CHUNK ? (size_t)len : IO_CHUNK;
            int64_t at = pos < 0 ? -1 : pos + (int64_t)done, n;
            if (wr) {
                if (copy_from_guest(mm, chunk, base, want) < 0) {
                    res = -EFAULT;
                    break;
                }
                n = file_write(t, f, chunk, want, at);
            } else {
                n = file_read(t, f, chunk, want, at);
                if (n > 0 && copy_to_guest(mm, base, chunk, (size_t)n) < 0) {
                    res = -EFAULT;
                    break;
                }
            }
            if (n == -EBLOCK)
                n = -EAGAIN;
            if (n == -EAGAIN && wait && (wr || !done)) {
                q->done = done;
                res = -EBLOCK;
                break;
            }
            if (n < 0) {
                res = n;
                break;
            }
            done += (uint64_t)n;
            base += (uint64_t)n;
            len -= (uint64_t)n;
            if (n == 0 || ((size_t)n < want && !(wr && wait))) {
                res = 1; /* a short transfer ends the request */
                break;
            }
        }
    }
    f->flags = (f->flags & ~O_NONBLOCK) | (flags & O_NONBLOCK);
    t->wait_obj = wait_obj;
    t->wait_key = wait_key;
    memcpy(t->wait_args, wait_args, sizeof wait_args);
    if (res == -EBLOCK)
        return res;
    return done || res >= 0 ? (int64_t)done : res;
}

/* io_poll_add(): the ready events asked for (EPOLLERR and EPOLLHUP
 * always), or -EBLOCK to wait for them. */
static int64_t poll_once(struct task *t, struct req *q, bool woken)
{
    uint32_t events = (q->s.op_flags & 0xffffu) | POLLERR | POLLHUP;
    uint32_t mask = (uint16_t)file_poll(t, q->file) & events;
    /* woken, it completes with the wake-up's key, unmasked (io_poll_wake
     * keeps key_to_poll()): a pipe's is EPOLLIN | EPOLLRDNORM for data,
     * EPOLLOUT | EPOLLWRNORM for room */
    if (mask && woken && (q->file->kind == FILE_PIPE || q->file->fifo))
        mask |= (mask & POLLIN ? POLLRDNORM : 0) | (mask & POLLOUT ? POLLWRNORM : 0);
    return mask ? (int64_t)mask : -EBLOCK;
}

/* ---- requests that wait ---- */

static struct uring_pend *pend_of(struct deferred_req *d)
{
    return deferred_entry(d, struct uring_pend, deferred);
}

static void pend_complete(struct machine *m, struct uring_pend *p, int64_t res)
{
    deferred_unlink(&m->uring_deferred, &p->deferred);
    if (p->timer.armed)
        ktimer_cancel(m, &p->timer);
    struct ring *r = p->ring;
    uint64_t data = p->q.s.user_data;
    req_done(&p->q);
    free(p);
    uring_post(r, data, (int32_t)res);
}

/* io_async_cancel() / io_poll_remove() / io_timeout_cancel(): the
 * waiting request of r whose user_data is data (only of opcode `only` if
 * not 0) completes with -ECANCELED; 0, or -ENOENT if none waits. */
static int64_t cancel(struct machine *m, struct ring *r, uint64_t data, unsigned only)
{
    for (struct deferred_req *d = m->uring_deferred.head; d; d = d->next) {
        struct uring_pend *p = pend_of(d);
        if (p->ring == r && p->q.s.user_data == data && (!only || p->q.s.opcode == only)) {
            pend_complete(m, p, -ECANCELED);
            return 0;
        }
    }
    return -ENOENT;
}

/* A live task of mm, whose name a retry runs in. */
static struct task *runner(struct machine *m, const struct uring_pend *p)
{
    for (struct task *t = m->tasks; t; t = t->next_all)
        if (t->state != TASK_DEAD && t->proc->mm == p->mm && t->proc->pid == p->pid)
            return t;
    return NULL;
}

/* deferred_retry_fn: its object was notified. */
static void retry(struct deferred_req *d)
{
    struct uring_pend *p = pend_of(d);
    struct machine *m = p->ring->machine;
    struct task *t = runner(m, p);
    if (!t)
        return;
    int64_t res = p->q.s.opcode == OP_POLL_ADD ? poll_once(t, &p->q, true)
                                               : rw_move(t, task_mm(t), &p->q);
    if (res != -EBLOCK)
        pend_complete(m, p, res);
}

/* io_timeout_fn(): the time came first: -ETIME. */
static void timeout_fire(struct ktimer *k)
{
    struct uring_pend *p = (struct uring_pend *)((char *)k - offsetof(struct uring_pend, timer));
    pend_complete(p->ring->machine, p, -ETIME);
}

/* io_flush_timeouts(): a CQE was posted; TIMEOUTs of r whose count of
 * completions is met complete with 0. */
void uring_timeouts_count(struct ring *r)
{
    struct machine *m = r->machine;
    for (bool again = true; again;) {
        again = false;
        for (struct deferred_req *d = m->uring_deferred.head; d; d = d->next) {
            struct uring_pend *p = pend_of(d);
            if (p->ring == r && p->q.s.opcode == OP_TIMEOUT && p->q.s.off &&
                (int32_t)(r->cq_tail - p->target) >= 0) {
                pend_complete(m, p, 0);
                again = true;
                break;
            }
        }
    }
}

/* The ring goes: its waiting requests are dropped without a CQE. */
void uring_pend_drop(struct machine *m, struct ring *r)
{
    for (struct deferred_req **pp = &m->uring_deferred.head; *pp;) {
        struct deferred_req *d = *pp;
        struct uring_pend *p = pend_of(d);
        if (p->ring == r) {
            *pp = d->next;
            if (p->timer.armed)
                ktimer_cancel(m, &p->timer);
            req_done(&p->q);
            free(p);
        } else {
            pp = &d->next;
        }
    }
}

/* io_issue_sqe(): the request's result. */
static int64_t issue(struct task *t, struct ring *r, struct req *q)
{
    const struct sqe *s = &q->s;
    switch (s->opcode) {
    case OP_NOP:
        return 0;
    case OP_READV:
    case OP_WRITEV:
    case OP_READ:
    case OP_WRITE: {
        int err = q->iov ? 0 : rw_setup(t, r, q);
        return err < 0 ? err : rw_move(t, task_mm(t), q);
    }
    case OP_POLL_ADD:
        return poll_once(t, q, false);
    case OP_POLL_REMOVE:
    case OP_ASYNC_CANCEL:
        return cancel(t->machine, r, s->addr, s->opcode == OP_POLL_REMOVE ? OP_POLL_ADD : 0);
    case OP_TIMEOUT_REMOVE:
        return cancel(t->machine, r, s->addr, OP_TIMEOUT);
    case OP_TIMEOUT:
        return -EBLOCK; /* io_timeout(): it waits, on its time or its count */
    case OP_FADVISE:
        /* vfs_fadvise(): generic_fadvise's checks, nothing to do (no page
         * cache), as do_fadvise */
        if (q->file->kind == FILE_PIPE || q->file->fifo)
            return -ESPIPE;
        return (int)s->op_flags < POSIX_FADV_NORMAL || (int)s->op_flags > POSIX_FADV_NOREUSE
                   ? -EINVAL
                   : 0;
    case OP_MADVISE:
        return sys_madvise(t, (uint64_t[6]){s->addr, s->len, s->op_flags});
    case OP_FSYNC:
        /* vfs_fsync_range(): the host keeps what asymu wrote; only files
         * with an fsync operation take it */
        return q->file->kind == FILE_HOST && !q->file->fifo ? 0 : -EINVAL;
    case OP_OPENAT:
        return sys_openat(t, (uint64_t[6]){(uint64_t)(int64_t)s->fd, s->addr, s->op_flags, s->len});
    case OP_CLOSE: {
        /* io_close(): not a ring's own file */
        struct file *f = file_get(t, s->fd);
        if (!f || uring_ring_of(f))
            return -EBADF;
        return fd_close(t, s->fd);
    }
    case OP_STATX:
        return sys_statx(
            t, (uint64_t[6]){(uint64_t)(int64_t)s->fd, s->addr, s->op_flags, s->len, s->off});
    }
    return -EINVAL;
}

/* Whether a completed request fails its link: an error, or a read or
 * write that moved less than asked (as 5.15's kiocb_done). */
static bool failed(const struct req *q, int64_t res)
{
    bool rw = q->s.opcode == OP_READ || q->s.opcode == OP_READV || q->s.opcode == OP_WRITE ||
              q->s.opcode == OP_WRITEV;
    return res < 0 || (rw && (uint64_t)res != q->want);
}

/* A chain (or a lone request) ends: run it in order. A chain with a
 * request whose prep failed runs none of it: that one completes with its
 * error, the others with -ECANCELED (io_submit_sqe()'s fail_req). Once a
 * request of a soft link fails, those after it are -ECANCELED
 * (io_fail_links()); a hard link goes on. */
static void run_chain(struct task *t, struct ring *r, struct req *c, unsigned n)
{
    int bad = -1;
    for (unsigned i = 0; i < n && bad < 0; i++)
        if (c[i].err)
            bad = (int)i;
    bool cancel = false;
    for (unsigned i = 0; i < n; i++) {
        int64_t res;
        if (bad >= 0)
            res = (int)i == bad ? c[i].err : -ECANCELED;
        else if (cancel)
            res = -ECANCELED;
        else {
            /* a lone request may wait for its object; in a chain it
             * completes with -EAGAIN instead */
            c[i].may_wait = n == 1;
            res = issue(t, r, &c[i]);
            if (res == -EBLOCK) {
                struct uring_pend *p = c[i].may_wait ? calloc(1, sizeof *p) : NULL;
                if (p) {
                    *p = (struct uring_pend){
                        .ring = r, .mm = task_mm(t), .pid = t->proc->pid, .q = c[i]};
                    deferred_add(&t->machine->uring_deferred, &p->deferred,
                                 p->q.file ? file_notify_key(p->q.file) : NULL, retry);
                    if (c[i].s.opcode == OP_TIMEOUT) {
                        /* its count starts at the CQEs posted so far */
                        p->target = r->cq_tail + (uint32_t)c[i].s.off;
                        p->timer.fire = timeout_fire;
                        ktimer_arm(t->machine, &p->timer, c[i].when);
                    }
                    continue;
                }
                res = -EAGAIN;
            }
            if (failed(&c[i], res) && !(c[i].s.flags & IOSQE_IO_HARDLINK))
                cancel = true;
        }
        uring_post(r, c[i].s.user_data, (int32_t)res);
        req_done(&c[i]);
    }
}

/* io_submit_sqes(): up to nr SQEs from the ring's head (the array's
 * index into the SQEs; a bad index is counted in sq_dropped and ends the
 * batch, io_get_sqe()). The count submitted. */
int64_t uring_submit(struct task *t, struct ring *r, uint32_t nr)
{
    uint32_t tail = ld(r->sq + R_TAIL), avail = tail - r->sq_head;
    if (avail > r->sq_entries)
        avail = r->sq_entries;
    if (nr > avail)
        nr = avail;
    struct req *chain = calloc(nr ? nr : 1, sizeof *chain);
    if (!chain)
        return -ENOMEM;
    unsigned n = 0;
    int64_t done = 0;
    while ((uint32_t)done < nr) {
        uint32_t idx;
        memcpy(&idx, r->sq + RING_BODY + 4u * (r->sq_head & (r->sq_entries - 1)), 4);
        r->sq_head++;
        st(r->sq + R_HEAD, r->sq_head);
        if (idx >= r->sq_entries) {
            st(r->sq + SQ_DROPPED, ld(r->sq + SQ_DROPPED) + 1);
            break;
        }
        struct req *q = &chain[n++];
        memcpy(&q->s, r->sqes + (size_t)idx * 64, sizeof q->s);
        done++;
        q->err = prep(t, r, q);
        bool linked = q->s.flags & (IOSQE_IO_LINK | IOSQE_IO_HARDLINK);
        /* a lone request whose prep failed ends the batch */
        bool stop = q->err && n == 1 && !linked;
        if (!linked || stop) {
            run_chain(t, r, chain, n);
            memset(chain, 0, n * sizeof *chain);
            n = 0;
        }
        if (stop)
            break;
    }
    if (n) /* a chain the batch left open is submitted as it is */
        run_chain(t, r, chain, n);
    free(chain);
    return done;
}

bool uring_op_supported(unsigned op)
{
    switch (op) {
    case OP_NOP:
    case OP_READV:
    case OP_WRITEV:
    case OP_FSYNC:
    case OP_POLL_ADD:
    case OP_POLL_REMOVE:
    case OP_TIMEOUT:
    case OP_TIMEOUT_REMOVE:
    case OP_ASYNC_CANCEL:
    case OP_OPENAT:
    case OP_CLOSE:
    case OP_STATX:
    case OP_READ:
    case OP_WRITE:
    case OP_FADVISE:
    case OP_MADVISE:
        return true;
    }
    return false;
}
