/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aio.c - Linux native AIO, as Linux 5.15's fs/aio.c.
 *
 * A context (io_setup) is a ring of completion events mapped into the
 * process, MAP_SHARED read-write at an address of the mmap area: the
 * aio_context_t is that address, and the ring's header (id, nr, head,
 * tail, magic, ...) is what libaio reads in user space to reap events
 * without a syscall. The kernel side keeps the ring's own host mapping of
 * the same shared object, so completions land in the guest's view.
 * Contexts belong to the address space (mm->aio): exit and exec free them
 * (exit_aio); a forked child's address space has none, so the ring it
 * inherits names no context of its own (EINVAL).
 *
 * Requests run at io_submit when they can: regular files and the virtual
 * files complete there, as Linux's buffered AIO does, and so do pipes,
 * FIFOs, sockets and eventfds that have data or room. A read or write of a
 * blocking stream that would wait, and a POLL whose events are not ready,
 * do not block the submitter (Linux's pipe_read would block io_submit):
 * they wait on the machine's list of them (m->aio_deferred, deferred.h),
 * and the file_notify_events of their object runs them again on behalf of
 * a live task of the context's address space. */
#include "abi.h"
#include "abi_user.h"
#include "aio.h"
#include "deferred.h"
#include "event.h"
#include "file.h"
#include "file_access.h"
#include "iovec.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "shmem.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* include/uapi/linux/aio_abi.h */
#define IOCB_CMD_PREAD 0
#define IOCB_CMD_PWRITE 1
#define IOCB_CMD_FSYNC 2
#define IOCB_CMD_FDSYNC 3
#define IOCB_CMD_POLL 5
#define IOCB_CMD_PREADV 7
#define IOCB_CMD_PWRITEV 8
#define IOCB_FLAG_RESFD 1u
#define IOCB_FLAG_IOPRIO 2u
#define KIOCB_KEY 0u
#define AIO_RING_MAGIC 0xa10a10a1u
#define RING_HEADER 32u /* sizeof(struct aio_ring) */
#define EVENT_SIZE 32u  /* sizeof(struct io_event): data, obj, res, res2 */
#define RING_PAGE 4096u
/* RWF_HIPRI | RWF_DSYNC | RWF_SYNC | RWF_NOWAIT | RWF_APPEND */
#define RWF_SUPPORTED 0x1fu
#define RWF_NOWAIT 0x8u
#define RWF_APPEND 0x10u
#define IOPRIO_CLASS_SHIFT 13
#define IO_CHUNK 4096u

/* struct iocb: the same 64 bytes on both ABIs (little-endian). */
struct iocb_guest {
    uint64_t data;
    uint32_t key, rw_flags;
    uint16_t opcode;
    int16_t reqprio;
    uint32_t fildes;
    uint64_t buf, nbytes;
    int64_t offset;
    uint64_t reserved2;
    uint32_t flags, resfd;
};
_Static_assert(sizeof(struct iocb_guest) == 64, "struct iocb is 64 bytes");

struct aio_ctx;

struct aio_seg {
    uint64_t base, len;
};

/* A request that has not completed yet (waiting: on machine->aio_deferred). */
struct aio_req {
    struct aio_ctx *ctx;
    struct file *file;    /* a reference */
    struct file *eventfd; /* IOCB_FLAG_RESFD: a reference, else NULL */
    uint64_t obj, data;   /* the guest iocb's address, its aio_data */
    uint16_t opcode;
    int64_t pos;     /* file offset of the first byte, -1 for a stream */
    uint64_t done;   /* bytes a blocking write moved before it waited */
    bool nonblock;   /* O_NONBLOCK or RWF_NOWAIT: EAGAIN instead of waiting */
    uint32_t events; /* POLL: what it waits for */
    unsigned nvec;
    struct aio_seg *vec; /* the buffers: one, or the vector's */
    struct deferred_req deferred;
};

struct aio_ctx {
    struct machine *machine;
    struct mm *mm;
    unsigned id;      /* its slot in mm->aio, the ring's id */
    uint64_t user_id; /* the ring's guest address: the aio_context_t */
    uint64_t mmap_size;
    unsigned nr_events; /* the ring's slots (the trusted copy of ring->nr) */
    unsigned max_reqs;  /* what io_setup asked: counted in aio-nr */
    unsigned tail;      /* the trusted copy of ring->tail */
    unsigned inflight;  /* submitted, not completed */
    struct shmem *shm;
    uint8_t *ring; /* the kernel's mapping of the ring */
};

/* mm->aio: Linux's kioctx_table. */
struct aio_table {
    unsigned nr;
    struct aio_ctx *slot[];
};

static uint32_t ring_get(const struct aio_ctx *c, unsigned off)
{
    uint32_t v;
    memcpy(&v, c->ring + off, sizeof v);
    return v;
}

static void ring_set(struct aio_ctx *c, unsigned off, uint32_t v)
{
    memcpy(c->ring + off, &v, sizeof v);
}

/* lookup_ioctx(): the id is read from the ring's header in guest memory,
 * so a ring the guest unmapped or scribbled on names no context. */
static struct aio_ctx *lookup(struct task *t, uint64_t ctx_id)
{
    struct aio_table *tab = task_mm(t)->aio;
    uint32_t id;
    if (copy_from_guest(task_mm(t), &id, ctx_id, sizeof id) < 0 || !tab || id >= tab->nr)
        return NULL;
    struct aio_ctx *c = tab->slot[id];
    return c && c->user_id == ctx_id ? c : NULL;
}

/* ---- requests ---- */

static void req_free(struct aio_req *r)
{
    file_put(r->file);
    file_put(r->eventfd);
    free(r->vec);
    free(r);
}

static struct aio_req *req_of(struct deferred_req *d)
{
    return deferred_entry(d, struct aio_req, deferred);
}

/* aio_complete(): the event at the ring's tail, the eventfd signalled,
 * io_getevents' waiters woken; the request goes. */
static void complete(struct aio_req *r, int64_t res)
{
    struct aio_ctx *c = r->ctx;
    struct machine *m = c->machine;
    uint8_t *ev = c->ring + RING_HEADER + (size_t)c->tail * EVENT_SIZE;
    int64_t res2 = 0;
    memcpy(ev, &r->data, 8);
    memcpy(ev + 8, &r->obj, 8);
    memcpy(ev + 16, &res, 8);
    memcpy(ev + 24, &res2, 8);
    if (++c->tail >= c->nr_events)
        c->tail = 0;
    ring_set(c, 12, c->tail);
    c->inflight--;
    struct file *efd = r->eventfd;
    r->eventfd = NULL;
    req_free(r);
    if (efd) {
        eventfd_signal_file(efd, 1);
        file_put(efd);
    }
    task_wake_all(m, c);
}

/* Moves r's bytes as the task t, the file made non-blocking: the event's
 * result, or -EBLOCK while a blocking stream has no data (a read) or no
 * room (a write): its EAGAIN, unless the file is O_NONBLOCK or the iocb
 * asked RWF_NOWAIT. A stream read
 * gives what is there; a blocking stream write goes on until all is
 * written, r->done keeping what it moved across the waits, as
 * pipe_write does. */
static int64_t run_rw(struct task *t, struct aio_req *r)
{
    bool wr = r->opcode == IOCB_CMD_PWRITE || r->opcode == IOCB_CMD_PWRITEV;
    bool whole = wr && r->pos < 0 && !r->nonblock;
    struct mm *mm = r->ctx->mm;
    uint8_t chunk[IO_CHUNK];
    uint64_t skip = r->done, done = r->done;
    for (unsigned i = 0; i < r->nvec; i++) {
        uint64_t base = r->vec[i].base, len = r->vec[i].len;
        if (skip >= len) {
            skip -= len;
            continue;
        }
        base += skip;
        len -= skip;
        skip = 0;
        while (len) {
            size_t want = len < IO_CHUNK ? (size_t)len : IO_CHUNK;
            int64_t at = r->pos < 0 ? -1 : r->pos + (int64_t)done, n;
            if (wr) {
                if (copy_from_guest(mm, chunk, base, want) < 0)
                    return done ? (int64_t)done : -EFAULT;
                n = file_write(t, r->file, chunk, want, at);
            } else {
                n = file_read(t, r->file, chunk, want, at);
                if (n > 0) {
                    int64_t c = copy_to_guest_partial(mm, base, chunk, (size_t)n);
                    if (c < n)
                        return done + (uint64_t)c ? (int64_t)(done + (uint64_t)c) : -EFAULT;
                }
            }
            if (n == -EAGAIN && !r->nonblock) {
                if (!wr && done)
                    return (int64_t)done;
                r->done = done;
                return -EBLOCK;
            }
            if (n < 0)
                return done ? (int64_t)done : n;
            done += (uint64_t)n;
            base += (uint64_t)n;
            len -= (uint64_t)n;
            if (n == 0 || ((size_t)n < want && !whole))
                return (int64_t)done;
        }
    }
    return (int64_t)done;
}

/* Runs r once as t (woken: again after a notify): its result, or -EBLOCK
 * to wait on. The file calls leave t's own wait (it may be blocked
 * elsewhere) as it was. */
static int64_t run(struct task *t, struct aio_req *r, bool woken)
{
    const void *wait_obj = t->wait_obj;
    uint64_t wait_key = t->wait_key, wait_args[6];
    memcpy(wait_args, t->wait_args, sizeof wait_args);
    /* The file's own calls never wait here (a socket's would block t in
     * its name): they run non-blocking, and their EAGAIN is the wait. */
    int flags = r->file->flags;
    r->file->flags |= O_NONBLOCK;
    int64_t res;
    if (r->opcode == IOCB_CMD_POLL) {
        /* aio_poll(): one shot, the ready events that were asked */
        uint32_t mask = (uint16_t)file_poll(t, r->file) & r->events;
        /* A POLL woken completes with the wake-up's key, unmasked
         * (aio_poll_wake()): a pipe's is EPOLLIN | EPOLLRDNORM for data,
         * EPOLLOUT | EPOLLWRNORM for room. */
        if (woken && (r->file->kind == FILE_PIPE || r->file->fifo))
            mask |= (mask & POLLIN ? POLLRDNORM : 0) | (mask & POLLOUT ? POLLWRNORM : 0);
        res = mask ? (int64_t)mask : -EBLOCK;
    } else {
        res = run_rw(t, r);
    }
    r->file->flags = (r->file->flags & ~O_NONBLOCK) | (flags & O_NONBLOCK);
    t->wait_obj = wait_obj;
    t->wait_key = wait_key;
    memcpy(t->wait_args, wait_args, sizeof wait_args);
    return res;
}

/* A live task of c's address space, whose name a deferred request runs in
 * (credentials, SIGPIPE): NULL if none is left. */
static struct task *runner(const struct aio_ctx *c)
{
    for (struct task *t = c->machine->tasks; t; t = t->next_all)
        if (t->state != TASK_DEAD && t->proc->mm == c->mm)
            return t;
    return NULL;
}

/* deferred_retry_fn: its object was notified. */
static void retry(struct deferred_req *d)
{
    struct aio_req *r = req_of(d);
    struct task *t = runner(r->ctx);
    if (!t)
        return;
    int64_t res = run(t, r, true);
    if (res != -EBLOCK) {
        deferred_unlink(&r->ctx->machine->aio_deferred, d);
        complete(r, res);
    }
}

/* ---- contexts ---- */

/* kill_ioctx(): the slot freed, aio-nr given back, the ring unmapped
 * (unless the address space is going anyway), waiters woken to find it
 * gone. Requests still pending are dropped without an event: Linux would
 * wait for them, and a pending one here waits on an object nothing may
 * ever notify. */
static void ctx_kill(struct aio_ctx *c, bool unmap)
{
    struct machine *m = c->machine;
    c->mm->aio->slot[c->id] = NULL;
    m->aio_nr -= c->max_reqs;
    if (unmap)
        mm_unmap(c->mm, c->user_id, c->mmap_size);
    struct deferred_req *gone = NULL;
    for (struct deferred_req **p = &m->aio_deferred.head; *p;) {
        struct deferred_req *d = *p;
        if (req_of(d)->ctx == c) {
            *p = d->next;
            d->next = gone;
            gone = d;
        } else {
            p = &d->next;
        }
    }
    task_wake_all(m, c);
    shmem_unmap_host(c->ring, c->mmap_size);
    shmem_put(c->shm);
    free(c);
    while (gone) {
        struct deferred_req *d = gone;
        gone = d->next;
        req_free(req_of(d));
    }
}

void aio_mm_free(struct mm *mm)
{
    struct aio_table *tab = mm->aio;
    if (!tab)
        return;
    for (unsigned i = 0; i < tab->nr; i++)
        if (tab->slot[i])
            ctx_kill(tab->slot[i], false);
    free(tab);
    mm->aio = NULL;
}

/* ioctx_add_table(): the first free slot, the table growing 4, 16, 64... */
static int table_add(struct mm *mm, struct aio_ctx *c)
{
    struct aio_table *tab = mm->aio;
    for (unsigned i = 0; tab && i < tab->nr; i++) {
        if (!tab->slot[i]) {
            tab->slot[i] = c;
            c->id = i;
            return 0;
        }
    }
    unsigned nr = (tab ? tab->nr : 1) * 4;
    struct aio_table *grown = calloc(1, sizeof *grown + nr * sizeof grown->slot[0]);
    if (!grown)
        return -ENOMEM;
    grown->nr = nr;
    if (tab)
        memcpy(grown->slot, tab->slot, tab->nr * sizeof tab->slot[0]);
    c->id = tab ? tab->nr : 0;
    grown->slot[c->id] = c;
    free(tab);
    mm->aio = grown;
    return 0;
}

/* aio_setup_ring(): nr_events slots plus two, rounded up to whole pages
 * (which all become slots), mapped shared read-write in the mmap area. */
static int ring_setup(struct task *t, struct aio_ctx *c, unsigned nr_events)
{
    struct mm *mm = task_mm(t);
    uint64_t size = RING_HEADER + ((uint64_t)nr_events + 2) * EVENT_SIZE;
    uint64_t pages = (size + RING_PAGE - 1) / RING_PAGE;
    int err = 0;
    c->mmap_size = pages * RING_PAGE;
    c->nr_events = (unsigned)((c->mmap_size - RING_HEADER) / EVENT_SIZE);
    if (!(c->shm = shmem_anon(t->machine, c->mmap_size, &err)))
        return -ENOMEM;
    if (!(c->ring = shmem_map_host(c->shm, 0, c->mmap_size, true)))
        goto fail;
    uint64_t addr = mm_find_free(mm, 0, c->mmap_size);
    /* /proc/PID/maps names it as Linux's anonymous aio file */
    struct vma_origin origin = {"/[aio] (deleted)", 0, 0, 0, false};
    if (!addr ||
        mm_map_shared(mm, addr, c->mmap_size, PROT_READ | PROT_WRITE, &origin, c->shm, 0) < 0)
        goto fail_unmap;
    c->user_id = addr;
    ring_set(c, 0, ~0u);
    ring_set(c, 4, c->nr_events);
    ring_set(c, 16, AIO_RING_MAGIC);
    ring_set(c, 20, 1); /* AIO_RING_COMPAT_FEATURES */
    ring_set(c, 28, RING_HEADER);
    return 0;
fail_unmap:
    shmem_unmap_host(c->ring, c->mmap_size);
fail:
    shmem_put(c->shm);
    return -ENOMEM;
}

/* io_setup(nr_events, ctxp): *ctxp must be 0; on arm the context is a u32. */
SYSCALL_DECL(io_setup)
{
    struct machine *m = t->machine;
    struct mm *mm = task_mm(t);
    uint32_t nr = (uint32_t)a[0];
    uint64_t cur = 0; /* aio_context_t, an unsigned long */
    if (get_user_ulongs(t, a[1], &cur, 1) < 0)
        return -EFAULT;
    if (cur || nr == 0)
        return -EINVAL;
    /* ioctx_alloc(): twice the larger of the ask and 4 per possible CPU
     * (Linux's per-CPU slot batches), in 32-bit arithmetic */
    uint32_t ncpu4 = m->sched.nr_cpus * 4u;
    uint32_t nr_events = (nr > ncpu4 ? nr : ncpu4) * 2u;
    if (nr_events > 0x10000000u / EVENT_SIZE)
        return -EINVAL;
    if (!nr_events || nr > m->limits.aio_max_nr)
        return -EAGAIN;
    struct aio_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return -ENOMEM;
    *c = (struct aio_ctx){.machine = m, .mm = mm, .max_reqs = nr};
    int err = ring_setup(t, c, nr_events);
    if (err < 0) {
        free(c);
        return err;
    }
    if (m->aio_nr + nr > m->limits.aio_max_nr || m->aio_nr + nr < m->aio_nr ||
        (err = table_add(mm, c)) < 0) {
        mm_unmap(mm, c->user_id, c->mmap_size);
        shmem_unmap_host(c->ring, c->mmap_size);
        shmem_put(c->shm);
        free(c);
        return err < 0 ? err : -EAGAIN;
    }
    m->aio_nr += nr;
    ring_set(c, 0, c->id);
    if (put_user_longs(t, a[1], (const int64_t[]){(int64_t)c->user_id}, 1) < 0) {
        ctx_kill(c, true);
        return -EFAULT;
    }
    return 0;
}

/* io_destroy(ctx) */
SYSCALL_DECL(io_destroy)
{
    struct aio_ctx *c = lookup(t, a[0]);
    if (!c)
        return -EINVAL;
    ctx_kill(c, true);
    return 0;
}

/* ---- io_submit ---- */

/* Slots a new request may take: the ring holds nr_events - 1 events, less
 * the requests in flight and the events not reaped yet (the head is the
 * guest's, as user_refill_reqs_available reads it). */
static bool slot_free(const struct aio_ctx *c)
{
    unsigned head = ring_get(c, 8) % c->nr_events;
    unsigned unreaped = (c->tail + c->nr_events - head) % c->nr_events;
    return c->inflight + unreaped < c->nr_events - 1;
}

/* ioprio_check_cap() */
static int ioprio_check(struct task *t, int prio)
{
    int class = prio >> IOPRIO_CLASS_SHIFT, data = prio & ((1 << IOPRIO_CLASS_SHIFT) - 1);
    switch (class) {
    case 1: /* IOPRIO_CLASS_RT */
        if (!(capable(t, CAP_SYS_NICE) || capable(t, CAP_SYS_ADMIN)))
            return -EPERM;
        /* fall through */
    case 2: /* IOPRIO_CLASS_BE */
        return data >= 8 ? -EINVAL : 0;
    case 3: /* IOPRIO_CLASS_IDLE */
        return 0;
    case 0: /* IOPRIO_CLASS_NONE */
        return data ? -EINVAL : 0;
    default:
        return -EINVAL;
    }
}

/* aio_prep_rw(), aio_read()/aio_write() and aio_setup_rw(): the checks
 * whose errors io_submit returns, in Linux's order; then r's buffers. */
static int prep_rw(struct task *t, struct aio_req *r, const struct iocb_guest *cb)
{
    bool wr = cb->opcode == IOCB_CMD_PWRITE || cb->opcode == IOCB_CMD_PWRITEV;
    bool vectored = cb->opcode == IOCB_CMD_PREADV || cb->opcode == IOCB_CMD_PWRITEV;
    struct file *f = r->file;
    int err;
    if ((cb->flags & IOCB_FLAG_IOPRIO) && (err = ioprio_check(t, cb->reqprio)) < 0)
        return err;
    if (cb->rw_flags & ~RWF_SUPPORTED)
        return -EOPNOTSUPP;
    if ((f->flags & O_ACCMODE) == (wr ? O_RDONLY : O_WRONLY))
        return -EBADF;
    if (f->kind == FILE_OBJECT && (wr ? !f->ops->write : !f->ops->read))
        return -EINVAL; /* no read_iter / write_iter */
    uint64_t total;
    if (vectored) {
        if (cb->nbytes > UIO_MAXIOV)
            return -EINVAL;
        struct iov_list *l = malloc(sizeof *l);
        if (!l)
            return -ENOMEM;
        if ((err = iov_import(t, cb->buf, cb->nbytes, l)) < 0) {
            free(l);
            return err;
        }
        r->nvec = l->n;
        r->vec = malloc((l->n ? l->n : 1) * sizeof r->vec[0]);
        if (r->vec)
            memcpy(r->vec, l->v, l->n * sizeof r->vec[0]);
        total = l->total;
        free(l);
        if (!r->vec)
            return -ENOMEM;
    } else {
        /* import_single_range() */
        if (!user_range_ok(cb->buf, cb->nbytes))
            return -EFAULT;
        if (!(r->vec = malloc(sizeof r->vec[0])))
            return -ENOMEM;
        r->nvec = 1;
        r->vec[0].base = cb->buf;
        r->vec[0].len = cb->nbytes > MAX_RW_COUNT ? MAX_RW_COUNT : cb->nbytes;
        total = r->vec[0].len;
    }
    /* rw_verify_area() on the iocb's own position, streams included */
    if (cb->offset < 0 || total > (uint64_t)(INT64_MAX - cb->offset))
        return -EINVAL;
    r->nonblock = (f->flags & O_NONBLOCK) || (cb->rw_flags & RWF_NOWAIT);
    r->pos = file_is_stream(f) ? -1 : cb->offset;
    struct stat st;
    if (wr && r->pos >= 0 && (cb->rw_flags & RWF_APPEND) && f->kind == FILE_HOST &&
        fstat(f->host_fd, &st) == 0)
        r->pos = st.st_size;
    return 0;
}

/* io_submit_one(): 0 or the error io_submit returns for this iocb. */
static int submit_one(struct task *t, struct aio_ctx *c, uint64_t uiocb)
{
    struct mm *mm = task_mm(t);
    struct iocb_guest cb;
    if (copy_from_guest(mm, &cb, uiocb, sizeof cb) < 0)
        return -EFAULT;
    if (cb.reserved2 || (int64_t)cb.nbytes < 0)
        return -EINVAL;
    if (!slot_free(c))
        return -EAGAIN;
    struct file *f = file_get_io(t, (int)cb.fildes), *efd = NULL;
    if (!f)
        return -EBADF;
    if (cb.flags & IOCB_FLAG_RESFD) {
        /* eventfd_ctx_fdget() */
        if (!(efd = file_get(t, (int)cb.resfd)))
            return -EBADF;
        if (!file_is_eventfd(efd))
            return -EINVAL;
    }
    uint32_t key = KIOCB_KEY;
    if (copy_to_guest(mm, uiocb + 8, &key, sizeof key) < 0)
        return -EFAULT;
    struct aio_req *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    file_ref(f);
    if (efd)
        file_ref(efd);
    *r = (struct aio_req){
        .ctx = c, .file = f, .eventfd = efd, .obj = uiocb, .data = cb.data, .opcode = cb.opcode};
    int err = 0;
    switch (cb.opcode) {
    case IOCB_CMD_PREAD:
    case IOCB_CMD_PWRITE:
    case IOCB_CMD_PREADV:
    case IOCB_CMD_PWRITEV:
        err = prep_rw(t, r, &cb);
        break;
    case IOCB_CMD_FSYNC:
    case IOCB_CMD_FDSYNC:
        /* aio_fsync(): the host keeps what asymu wrote (fsync(2) is 0);
         * only files with an fsync operation take it */
        if (cb.buf || cb.offset || cb.nbytes || cb.rw_flags)
            err = -EINVAL;
        else if (f->kind != FILE_HOST || f->fifo)
            err = -EINVAL;
        break;
    case IOCB_CMD_POLL:
        /* aio_poll(): 16 bits of events, nothing else set */
        if ((uint16_t)cb.buf != cb.buf || cb.offset || cb.nbytes || cb.rw_flags)
            err = -EINVAL;
        r->events = (uint32_t)cb.buf | POLLERR | POLLHUP;
        /* a file without ->poll is always ready for DEFAULT_POLLMASK
         * (read, write); asked for nothing of that, it never would be */
        if (!err && !(r->events & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)) &&
            ((f->kind == FILE_HOST && !f->fifo) ||
             (f->kind == FILE_VIRTUAL && !file_is_tracing_pipe(f))))
            err = -EINVAL;
        break;
    default:
        err = -EINVAL;
    }
    if (err < 0) {
        req_free(r);
        return err;
    }
    c->inflight++;
    int64_t res =
        cb.opcode == IOCB_CMD_FSYNC || cb.opcode == IOCB_CMD_FDSYNC ? 0 : run(t, r, false);
    /* a file whose readiness nothing notifies could wait for ever */
    if (res == -EBLOCK && !file_notify_key(f))
        res = -EAGAIN;
    if (res == -EBLOCK) {
        deferred_add(&t->machine->aio_deferred, &r->deferred, file_notify_key(f), retry);
    } else {
        complete(r, res);
    }
    return 0;
}

/* io_submit(ctx, nr, iocbpp): the iocbs submitted, or the first one's error. */
SYSCALL_DECL(io_submit)
{
    int64_t nr = abi_long(task_abi(t), a[1]);
    if (nr < 0)
        return -EINVAL;
    struct aio_ctx *c = lookup(t, a[0]);
    if (!c)
        return -EINVAL;
    if (nr > c->nr_events)
        nr = c->nr_events;
    int64_t i, ret = 0;
    for (i = 0; i < nr; i++) {
        uint64_t uiocb = 0;
        if (get_user_ulongs(t, a[2] + (uint64_t)i * abi_longs_size(t, 1), &uiocb, 1) < 0) {
            ret = -EFAULT;
            break;
        }
        /* a completion may have run io_destroy's waiters, never the ctx away */
        if ((ret = submit_one(t, c, uiocb)) < 0)
            break;
    }
    return i ? i : ret;
}

/* io_cancel(ctx, iocb, result): only a POLL that waits has a cancel
 * method (aio_poll_cancel): its event comes with res 0 and the call says
 * EINPROGRESS; any other request, or one completed, is EINVAL. */
SYSCALL_DECL(io_cancel)
{
    uint32_t key;
    if (copy_from_guest(task_mm(t), &key, a[1] + 8, sizeof key) < 0)
        return -EFAULT;
    if (key != KIOCB_KEY)
        return -EINVAL;
    struct aio_ctx *c = lookup(t, a[0]);
    if (!c)
        return -EINVAL;
    for (struct deferred_req *d = t->machine->aio_deferred.head; d; d = d->next) {
        struct aio_req *r = req_of(d);
        if (r->ctx == c && r->obj == a[1] && r->opcode == IOCB_CMD_POLL) {
            deferred_unlink(&t->machine->aio_deferred, d);
            complete(r, 0);
            return -EINPROGRESS;
        }
    }
    return -EINVAL;
}

/* ---- io_getevents ---- */

/* aio_read_events_ring(): up to nr events from the guest's head to the
 * ring's tail (both as the guest left them), a page of the ring at a
 * time; the new head written back. The count, or -EFAULT. */
static int64_t ring_read(struct task *t, struct aio_ctx *c, uint64_t dst, int64_t nr)
{
    unsigned head = ring_get(c, 8), tail = ring_get(c, 12);
    if (head == tail)
        return 0;
    head %= c->nr_events;
    tail %= c->nr_events;
    int64_t ret = 0;
    while (ret < nr && head != tail) {
        int64_t avail = (head <= tail ? tail : c->nr_events) - head;
        unsigned pos = head + RING_HEADER / EVENT_SIZE;
        unsigned page_left = RING_PAGE / EVENT_SIZE - pos % (RING_PAGE / EVENT_SIZE);
        if (avail > nr - ret)
            avail = nr - ret;
        if (avail > page_left)
            avail = page_left;
        if (copy_to_guest(task_mm(t), dst + (uint64_t)ret * EVENT_SIZE,
                          c->ring + (size_t)pos * EVENT_SIZE, (size_t)avail * EVENT_SIZE) < 0)
            return -EFAULT;
        ret += avail;
        head = (unsigned)((head + avail) % c->nr_events);
    }
    ring_set(c, 8, head);
    return ret;
}

#define GE_PGETEVENTS 1u /* io_pgetevents: ERESTARTNOHAND, not EINTR */
#define GE_NOWAIT 2u     /* a zero (or past) timeout: read once */

/* The end of read_events(): no event and a signal is EINTR for
 * io_getevents, never restarted; io_pgetevents restarts if no handler
 * ran. */
static int64_t getevents_end(struct task *t, int64_t ret)
{
    if (ret == 0 && signal_pending(t))
        return t->wait_args[5] & GE_PGETEVENTS ? -ERESTARTNOHAND : -EINTR;
    return ret;
}

/* wait_args: [0] ctx, [1] min_nr, [2] nr, [3] the events array, [4] the
 * events read so far, [5] GE_* flags. */
static int64_t getevents_resume(struct task *t)
{
    int64_t min_nr = (int64_t)t->wait_args[1], nr = (int64_t)t->wait_args[2];
    int64_t got = (int64_t)t->wait_args[4];
    struct aio_ctx *c = lookup(t, t->wait_args[0]);
    /* aio_read_events(): a context destroyed meanwhile is EINVAL */
    int64_t ret =
        c ? ring_read(t, c, t->wait_args[3] + (uint64_t)got * EVENT_SIZE, nr - got) : -EINVAL;
    if (ret > 0)
        got += ret;
    t->wait_args[4] = (uint64_t)got;
    if (ret < 0)
        return got ? got : ret;
    if (got >= min_nr || (t->wait_args[5] & GE_NOWAIT) ||
        (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns))
        return getevents_end(t, got);
    if (signal_pending(t))
        return getevents_end(t, got);
    return RESUME_BLOCK;
}

/* The timeout of read_events(), not checked for range as get_timespec64
 * leaves it: nanoseconds, INT64_MAX for none (or past KTIME_SEC_MAX). */
static int timeout_read(struct task *t, uint64_t addr, unsigned field, int64_t *ns)
{
    *ns = INT64_MAX;
    if (!addr)
        return 0;
    uint8_t raw[16];
    if (copy_from_guest(task_mm(t), raw, addr, 2 * field) < 0)
        return -EFAULT;
    int64_t sec, nsec;
    if (field == 8) {
        memcpy(&sec, raw, 8);
        memcpy(&nsec, raw + 8, 8);
    } else {
        int32_t s, n;
        memcpy(&s, raw, 4);
        memcpy(&n, raw + 4, 4);
        sec = s;
        nsec = n;
    }
    if (sec >= INT64_MAX / 1000000000 - 1)
        return 0;
    if (sec <= INT64_MIN / 1000000000 + 1)
        sec = INT64_MIN / 1000000000 + 1;
    /* ktime's wrap-around, saturated instead (fuzz-syscall: a huge
     * negative tv_nsec) */
    if (__builtin_add_overflow(sec * 1000000000, nsec, ns))
        *ns = nsec < 0 ? INT64_MIN : INT64_MAX;
    return 0;
}

static int64_t getevents(struct task *t, const uint64_t a[6], int64_t ns, unsigned flags)
{
    int64_t min_nr = abi_long(task_abi(t), a[1]), nr = abi_long(task_abi(t), a[2]);
    if (!lookup(t, a[0]) || min_nr > nr || min_nr < 0)
        return -EINVAL;
    t->wait_args[0] = a[0];
    t->wait_args[1] = (uint64_t)min_nr;
    t->wait_args[2] = (uint64_t)nr;
    t->wait_args[3] = a[3];
    t->wait_args[4] = 0;
    t->wait_args[5] = flags | (ns <= 0 ? GE_NOWAIT : 0);
    uint64_t deadline = ns > 0 && ns != INT64_MAX ? machine_now(t->machine) + (uint64_t)ns : 0;
    t->deadline_ns = deadline;
    int64_t r = getevents_resume(t);
    if (r != RESUME_BLOCK)
        return r;
    task_block(t, getevents_resume, lookup(t, a[0]), deadline);
    return -EBLOCK;
}

int64_t do_io_getevents(struct task *t, const uint64_t a[6], unsigned field)
{
    int64_t ns;
    int err = timeout_read(t, a[4], field, &ns);
    return err < 0 ? err : getevents(t, a, ns, 0);
}

/* io_pgetevents(ctx, min_nr, nr, events, timeout, usig): usig points at
 * { sigmask pointer, sigsetsize } in the ABI's words; the mask stands
 * while it waits, as ppoll's. */
int64_t do_io_pgetevents(struct task *t, const uint64_t a[6], unsigned field)
{
    int64_t ns;
    int err = timeout_read(t, a[4], field, &ns);
    if (err < 0)
        return err;
    uint64_t usig[2] = {0, 0}; /* sigmask, sigsetsize */
    if (a[5] && get_user_ulongs(t, a[5], usig, 2) < 0)
        return -EFAULT;
    uint64_t mask = usig[0], size = usig[1];
    if ((err = wait_with_mask(t, mask, size)) < 0)
        return err;
    return getevents(t, a, ns, GE_PGETEVENTS);
}

SYSCALL_DECL(io_getevents)
{
    return do_io_getevents(t, a, abi_time_field(t));
}

SYSCALL_DECL(io_pgetevents)
{
    return do_io_pgetevents(t, a, 8);
}
