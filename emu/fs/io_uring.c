/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io_uring.c - io_uring, as Linux 5.15's fs/io_uring.c answers it.
 *
 * io_uring_setup makes a ring file ("anon_inode:[io_uring]"); the process
 * maps its three regions - the SQ ring (head, tail, mask, entries, flags,
 * dropped, the index array), the CQ ring (head, tail, mask, entries,
 * overflow, flags, the CQEs) and the SQE array - at the offsets
 * IORING_OFF_SQ_RING, IORING_OFF_CQ_RING and IORING_OFF_SQES of the file.
 * They are one sparse shared memory object at those very offsets, so the
 * guest's mapping of each region and the kernel side's own host mapping
 * see the same bytes (as aio.c's ring). The two rings are separate
 * regions: IORING_FEAT_SINGLE_MMAP is not offered, and programs map the
 * CQ ring on its own as they do on kernels before 5.4.
 *
 * Every request runs inside io_uring_enter (synchronously), so a CQE is
 * posted before the call returns: IOSQE_IO_DRAIN holds by construction,
 * and IOSQE_ASYNC changes nothing. A read or write of a stream that would
 * block completes with -EAGAIN instead of waiting (5.15 would punt it to
 * an io-wq worker and complete it later). A full CQ ring drops the CQE and
 * counts it in the ring's overflow word (no IORING_FEAT_NODROP). */
#include "io_uring.h"
#include "abi.h"
#include "event.h"
#include "file.h"
#include "file_access.h"
#include "iovec.h"
#include "kmem.h"
#include "ktimer.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "shmem.h"
#include "signals.h"
#include "task.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* include/uapi/linux/io_uring.h of 5.15 */
#define IORING_SETUP_IOPOLL (1u << 0)
#define IORING_SETUP_SQPOLL (1u << 1)
#define IORING_SETUP_SQ_AFF (1u << 2)
#define IORING_SETUP_CQSIZE (1u << 3)
#define IORING_SETUP_CLAMP (1u << 4)
#define IORING_SETUP_ATTACH_WQ (1u << 5)
#define IORING_SETUP_R_DISABLED (1u << 6)
#define SETUP_FLAGS 0x7fu
#define IORING_MAX_ENTRIES 32768u
#define IORING_MAX_CQ_ENTRIES (2u * IORING_MAX_ENTRIES)
#define IORING_OFF_SQ_RING 0ull
#define IORING_OFF_CQ_RING 0x8000000ull
#define IORING_OFF_SQES 0x10000000ull
#define IORING_FEAT_SUBMIT_STABLE (1u << 2)
#define IORING_FEAT_RW_CUR_POS (1u << 3)
#define IORING_FEAT_CUR_PERSONALITY (1u << 4)
#define IORING_FEAT_SQPOLL_NONFIXED (1u << 7)
#define IORING_SQ_NEED_WAKEUP 1u
#define IORING_CQ_EVENTFD_DISABLED 1u
#define IORING_ENTER_GETEVENTS 1u
#define IORING_ENTER_SQ_WAKEUP 2u
#define IORING_ENTER_SQ_WAIT 4u
#define IORING_ENTER_EXT_ARG 8u
#define IOSQE_FIXED_FILE 1u
#define IOSQE_IO_DRAIN 2u
#define IOSQE_IO_LINK 4u
#define IOSQE_IO_HARDLINK 8u
#define IOSQE_ASYNC 16u
#define IOSQE_BUFFER_SELECT 32u
#define SQE_VALID_FLAGS 0x3fu
#define IORING_FSYNC_DATASYNC 1u
#define IORING_TIMEOUT_ABS 1u
#define IORING_TIMEOUT_BOOTTIME 4u
#define IORING_TIMEOUT_REALTIME 8u
#define IORING_MAX_FIXED_FILES (1u << 15)
#define IO_URING_OP_SUPPORTED 1u
#define RWF_SUPPORTED 0x1fu /* RWF_HIPRI | DSYNC | SYNC | NOWAIT | APPEND */
#define IO_CHUNK 4096u

enum {
    OP_NOP = 0,
    OP_READV = 1,
    OP_WRITEV = 2,
    OP_FSYNC = 3,
    OP_POLL_ADD = 6,
    OP_POLL_REMOVE = 7,
    OP_TIMEOUT = 11,
    OP_TIMEOUT_REMOVE = 12,
    OP_ASYNC_CANCEL = 14,
    OP_OPENAT = 18,
    OP_CLOSE = 19,
    OP_STATX = 21,
    OP_READ = 22,
    OP_WRITE = 23,
    OP_LAST = 40, /* IORING_OP_LINKAT + 1 in 5.15 */
};

enum {
    REG_FILES = 2,
    UNREG_FILES = 3,
    REG_EVENTFD = 4,
    UNREG_EVENTFD = 5,
    REG_PROBE = 8,
    REG_ENABLE_RINGS = 12,
};

/* struct io_uring_sqe: 64 bytes, the same on both ABIs. */
struct sqe {
    uint8_t opcode, flags;
    uint16_t ioprio;
    int32_t fd;
    uint64_t off, addr;
    uint32_t len, op_flags;
    uint64_t user_data;
    uint16_t buf_index, personality;
    int32_t splice_fd_in;
    uint64_t pad[2];
};
_Static_assert(sizeof(struct sqe) == 64, "struct io_uring_sqe is 64 bytes");

/* struct io_uring_params: 120 bytes. */
struct params {
    uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd;
    uint32_t resv[3];
    uint32_t sq_off[8]; /* head tail ring_mask ring_entries flags dropped array resv1 */
    uint64_t sq_resv2;
    uint32_t cq_off[8]; /* head tail ring_mask ring_entries overflow cqes flags resv1 */
    uint64_t cq_resv2;
};
_Static_assert(sizeof(struct params) == 120, "struct io_uring_params is 120 bytes");

/* The rings' layouts (what sq_off and cq_off tell the process). */
enum { R_HEAD = 0, R_TAIL = 4, R_MASK = 8, R_ENTRIES = 12, SQ_FLAGS = 16, SQ_DROPPED = 20 };
enum { CQ_OVERFLOW = 16, CQ_FLAGS = 20, RING_BODY = 64 };

struct ring {
    struct machine *machine;
    uint32_t flags, sq_entries, cq_entries;
    bool disabled; /* IORING_SETUP_R_DISABLED until REGISTER_ENABLE_RINGS */
    struct shmem *shm;
    uint8_t *sq, *cq, *sqes;              /* host mappings of the three regions */
    uint64_t sq_size, cq_size, sqes_size; /* what each may be mapped as */
    uint32_t sq_head, cq_tail;            /* the trusted copies */
    bool posting;                         /* post() is counting timeouts */
    uint64_t charged;
    struct file **fixed; /* REGISTER_FILES: references, NULL slots */
    unsigned nr_fixed;
    struct file *eventfd; /* REGISTER_EVENTFD */
};

static uint32_t ld(const uint8_t *p)
{
    return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
}
static void st(uint8_t *p, uint32_t v)
{
    __atomic_store_n((uint32_t *)p, v, __ATOMIC_RELEASE);
}

static uint32_t pow2_up(uint32_t v)
{
    uint32_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

/* A region's size as io_mem_alloc allocates it: whole pages, a power of
 * two of them (what mmap may ask, io_uring_validate_mmap_request). */
static uint64_t region_size(uint64_t bytes)
{
    uint64_t pages = (bytes + 4095) / 4096, p = 1;
    while (p < pages)
        p <<= 1;
    return p * 4096;
}

static void ring_free(struct ring *r)
{
    if (r->sq)
        shmem_unmap_host(r->sq, r->sq_size);
    if (r->cq)
        shmem_unmap_host(r->cq, r->cq_size);
    if (r->sqes)
        shmem_unmap_host(r->sqes, r->sqes_size);
    if (r->shm)
        shmem_put(r->shm);
    for (unsigned i = 0; i < r->nr_fixed; i++)
        if (r->fixed[i])
            file_put(r->fixed[i]);
    free(r->fixed);
    if (r->eventfd)
        file_put(r->eventfd);
    if (r->charged)
        kmem_uncharge(r->machine, r->charged);
    free(r);
}

static void pend_drop(struct machine *m, struct ring *r);

/* io_uring_release(): the last reference to the ring file went; its
 * waiting requests go without a CQE, its waiters wake to find it gone. */
static void uring_release(struct file *f)
{
    struct ring *r = f->priv;
    pend_drop(r->machine, r);
    task_wake_all(r->machine, r);
    ring_free(r);
}

/* io_uring_mmap(): the region at off, no longer than it is. */
static struct shmem *uring_mmap(struct file *f, uint64_t off, uint64_t len, int *err)
{
    struct ring *r = f->priv;
    uint64_t size = off == IORING_OFF_SQ_RING   ? r->sq_size
                    : off == IORING_OFF_CQ_RING ? r->cq_size
                    : off == IORING_OFF_SQES    ? r->sqes_size
                                                : 0;
    if (!size || len > size) {
        *err = -EINVAL;
        return NULL;
    }
    return shmem_get(r->shm);
}

static const struct file_ops uring_ops = {
    .name = "anon_inode:[io_uring]",
    .release = uring_release,
    .mmap = uring_mmap,
    .mode = 0600,
};

static struct ring *ring_of(const struct file *f)
{
    return f && f->kind == FILE_OBJECT && f->ops == &uring_ops ? f->priv : NULL;
}

/* ---- io_uring_setup ---- */

static int ring_alloc(struct machine *m, struct ring *r)
{
    r->sq_size = region_size(RING_BODY + 4ull * r->sq_entries);
    r->cq_size = region_size(RING_BODY + 16ull * r->cq_entries);
    r->sqes_size = region_size(64ull * r->sq_entries);
    uint64_t total = r->sq_size + r->cq_size + r->sqes_size;
    if (!kmem_charge(m, total))
        return -ENOMEM;
    r->charged = total;
    int err = -ENOMEM;
    /* sparse: only the three regions are ever touched */
    if (!(r->shm = shmem_anon(IORING_OFF_SQES + r->sqes_size, &err)))
        return err;
    r->sq = shmem_map_host(r->shm, IORING_OFF_SQ_RING, r->sq_size, true);
    r->cq = shmem_map_host(r->shm, IORING_OFF_CQ_RING, r->cq_size, true);
    r->sqes = shmem_map_host(r->shm, IORING_OFF_SQES, r->sqes_size, true);
    if (!r->sq || !r->cq || !r->sqes)
        return -ENOMEM;
    st(r->sq + R_MASK, r->sq_entries - 1);
    st(r->sq + R_ENTRIES, r->sq_entries);
    st(r->cq + R_MASK, r->cq_entries - 1);
    st(r->cq + R_ENTRIES, r->cq_entries);
    /* SQPOLL: the submission thread is always asleep, so the process
     * wakes it (IORING_ENTER_SQ_WAKEUP) and enter submits in its stead */
    if (r->flags & IORING_SETUP_SQPOLL)
        st(r->sq + SQ_FLAGS, IORING_SQ_NEED_WAKEUP);
    return 0;
}

/* io_uring_setup(entries, params): io_uring_setup() and io_uring_create(). */
SYSCALL_DECL(io_uring_setup)
{
    struct mm *mm = task_mm(t);
    struct params p;
    uint32_t entries = (uint32_t)a[0];
    if (copy_from_guest(mm, &p, a[1], sizeof p) < 0)
        return -EFAULT;
    if (p.resv[0] | p.resv[1] | p.resv[2])
        return -EINVAL;
    if (p.flags & ~SETUP_FLAGS)
        return -EINVAL;
    if (!entries)
        return -EINVAL;
    if (entries > IORING_MAX_ENTRIES) {
        if (!(p.flags & IORING_SETUP_CLAMP))
            return -EINVAL;
        entries = IORING_MAX_ENTRIES;
    }
    p.sq_entries = pow2_up(entries);
    if (p.flags & IORING_SETUP_CQSIZE) {
        if (!p.cq_entries)
            return -EINVAL;
        if (p.cq_entries > IORING_MAX_CQ_ENTRIES) {
            if (!(p.flags & IORING_SETUP_CLAMP))
                return -EINVAL;
            p.cq_entries = IORING_MAX_CQ_ENTRIES;
        }
        p.cq_entries = pow2_up(p.cq_entries);
        if (p.cq_entries < p.sq_entries)
            return -EINVAL;
    } else {
        p.cq_entries = 2 * p.sq_entries;
    }
    /* io_sq_offload_create(): a work queue to share must be a ring's */
    if (p.flags & IORING_SETUP_ATTACH_WQ) {
        struct file *wq = file_get(t, (int)p.wq_fd);
        if (!wq)
            return -ENXIO;
        if (!ring_of(wq))
            return -EINVAL;
    }
    if (p.flags & IORING_SETUP_SQPOLL) {
        if ((p.flags & IORING_SETUP_SQ_AFF) && p.sq_thread_cpu >= t->machine->sched.nr_cpus)
            return -EINVAL;
    } else if (p.flags & IORING_SETUP_SQ_AFF) {
        return -EINVAL; /* "Can't have SQ_AFF without SQPOLL" */
    }
    struct ring *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    *r = (struct ring){.machine = t->machine,
                       .flags = p.flags,
                       .sq_entries = p.sq_entries,
                       .cq_entries = p.cq_entries,
                       .disabled = p.flags & IORING_SETUP_R_DISABLED};
    int err = ring_alloc(t->machine, r);
    if (err < 0) {
        ring_free(r);
        return err;
    }
    memset(p.sq_off, 0, sizeof p.sq_off);
    memset(p.cq_off, 0, sizeof p.cq_off);
    p.sq_resv2 = p.cq_resv2 = 0;
    p.sq_off[0] = R_HEAD;
    p.sq_off[1] = R_TAIL;
    p.sq_off[2] = R_MASK;
    p.sq_off[3] = R_ENTRIES;
    p.sq_off[4] = SQ_FLAGS;
    p.sq_off[5] = SQ_DROPPED;
    p.sq_off[6] = RING_BODY;
    p.cq_off[0] = R_HEAD;
    p.cq_off[1] = R_TAIL;
    p.cq_off[2] = R_MASK;
    p.cq_off[3] = R_ENTRIES;
    p.cq_off[4] = CQ_OVERFLOW;
    p.cq_off[5] = RING_BODY;
    p.cq_off[6] = CQ_FLAGS;
    p.features = IORING_FEAT_SUBMIT_STABLE | IORING_FEAT_RW_CUR_POS | IORING_FEAT_CUR_PERSONALITY |
                 IORING_FEAT_SQPOLL_NONFIXED;
    if (copy_to_guest(mm, a[1], &p, sizeof p) < 0) {
        ring_free(r);
        return -EFAULT;
    }
    return anon_inode_fd(t, &uring_ops, r, O_RDWR, true);
}

/* ---- completions ---- */

static void timeouts_count(struct ring *r);

/* io_cqring_fill_event() and io_cqring_ev_posted(): the CQE, then the
 * tail (the process reads the tail with acquire); a full ring counts an
 * overflow instead. The eventfd is signalled unless the process turned
 * it off in the CQ ring's flags. */
static void post(struct ring *r, uint64_t user_data, int32_t res)
{
    uint32_t head = ld(r->cq + R_HEAD);
    if (r->cq_tail - head >= r->cq_entries) {
        st(r->cq + CQ_OVERFLOW, ld(r->cq + CQ_OVERFLOW) + 1);
    } else {
        uint8_t *cqe = r->cq + RING_BODY + (size_t)(r->cq_tail & (r->cq_entries - 1)) * 16;
        uint32_t flags = 0;
        memcpy(cqe, &user_data, 8);
        memcpy(cqe + 8, &res, 4);
        memcpy(cqe + 12, &flags, 4);
        st(r->cq + R_TAIL, ++r->cq_tail);
    }
    if (!r->posting) {
        r->posting = true;
        timeouts_count(r);
        r->posting = false;
    }
    task_wake_all(r->machine, r);
    if (r->eventfd && !(ld(r->cq + CQ_FLAGS) & IORING_CQ_EVENTFD_DISABLED))
        eventfd_signal_file(r->eventfd, 1);
}

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

/* A request waiting for its object (machine->uring_pending). */
struct uring_pend {
    struct ring *ring;
    struct mm *mm; /* the submitter's: a live task of it runs the retry */
    int pid;       /* the submitter's process, so a freed mm's address
                      reused by another process is never taken for it */
    struct req q;
    bool kicked;
    struct ktimer timer; /* a TIMEOUT's, armed */
    uint32_t target;     /* a TIMEOUT with a count: the CQ tail it waits for */
    struct uring_pend *next;
};

static void req_done(struct req *q)
{
    if (q->file)
        file_put(q->file);
    free(q->iov);
    q->file = NULL;
    q->iov = NULL;
}

static bool is_stream(const struct file *f)
{
    struct stat sb;
    switch (f->kind) {
    case FILE_PIPE:
    case FILE_CONSOLE:
        return true;
    case FILE_OBJECT:
        return !f->ops->seekable;
    case FILE_HOST:
        return f->fifo || fstat(f->host_fd, &sb) != 0 ||
               (!S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode));
    case FILE_VIRTUAL:
        return file_is_tracing_pipe(f);
    }
    return true;
}

static bool needs_file(unsigned op)
{
    return op == OP_READV || op == OP_WRITEV || op == OP_FSYNC || op == OP_READ || op == OP_WRITE ||
           op == OP_POLL_ADD;
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
    if (!err && !is_stream(f) && s->off != UINT64_MAX &&
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
    bool stream = is_stream(f);
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

static void pend_unlink(struct machine *m, struct uring_pend *p)
{
    for (struct uring_pend **pp = &m->uring_pending; *pp; pp = &(*pp)->next) {
        if (*pp == p) {
            *pp = p->next;
            return;
        }
    }
}

static void pend_complete(struct machine *m, struct uring_pend *p, int64_t res)
{
    pend_unlink(m, p);
    if (p->timer.armed)
        ktimer_cancel(m, &p->timer);
    struct ring *r = p->ring;
    uint64_t data = p->q.s.user_data;
    req_done(&p->q);
    free(p);
    post(r, data, (int32_t)res);
}

/* io_async_cancel() / io_poll_remove() / io_timeout_cancel(): the
 * waiting request of r whose user_data is data (only of opcode `only` if
 * not 0) completes with -ECANCELED; 0, or -ENOENT if none waits. */
static int64_t cancel(struct machine *m, struct ring *r, uint64_t data, unsigned only)
{
    for (struct uring_pend *p = m->uring_pending; p; p = p->next) {
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

void io_uring_notify(struct machine *m, const void *obj)
{
    if (!m->uring_pending || !obj)
        return;
    for (struct uring_pend *p = m->uring_pending; p; p = p->next)
        if (p->q.file && file_notify_key(p->q.file) == obj)
            p->kicked = true;
    /* a retry notifies other objects (a read frees a pipe's room, a CQE
     * signals an eventfd): those only mark theirs, which this loop runs */
    if (m->uring_busy)
        return;
    m->uring_busy = true;
    for (;;) {
        struct uring_pend *p = m->uring_pending;
        while (p && !p->kicked)
            p = p->next;
        if (!p)
            break;
        p->kicked = false;
        struct task *t = runner(m, p);
        if (!t)
            continue;
        int64_t res = p->q.s.opcode == OP_POLL_ADD ? poll_once(t, &p->q, true)
                                                   : rw_move(t, task_mm(t), &p->q);
        if (res != -EBLOCK)
            pend_complete(m, p, res);
    }
    m->uring_busy = false;
}

/* io_timeout_fn(): the time came first: -ETIME. */
static void timeout_fire(struct ktimer *k)
{
    struct uring_pend *p = (struct uring_pend *)((char *)k - offsetof(struct uring_pend, timer));
    pend_complete(p->ring->machine, p, -ETIME);
}

/* io_flush_timeouts(): a CQE was posted; TIMEOUTs of r whose count of
 * completions is met complete with 0. */
static void timeouts_count(struct ring *r)
{
    struct machine *m = r->machine;
    for (bool again = true; again;) {
        again = false;
        for (struct uring_pend *p = m->uring_pending; p; p = p->next) {
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
static void pend_drop(struct machine *m, struct ring *r)
{
    for (struct uring_pend **pp = &m->uring_pending; *pp;) {
        struct uring_pend *p = *pp;
        if (p->ring == r) {
            *pp = p->next;
            if (p->timer.armed)
                ktimer_cancel(m, &p->timer);
            req_done(&p->q);
            free(p);
        } else {
            pp = &p->next;
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
    case OP_FSYNC:
        /* vfs_fsync_range(): the host keeps what asymu wrote; only files
         * with an fsync operation take it */
        return q->file->kind == FILE_HOST && !q->file->fifo ? 0 : -EINVAL;
    case OP_OPENAT:
        return sys_openat(t, (uint64_t[6]){(uint64_t)(int64_t)s->fd, s->addr, s->op_flags, s->len});
    case OP_CLOSE: {
        /* io_close(): not a ring's own file */
        struct file *f = file_get(t, s->fd);
        if (!f || ring_of(f))
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
                    p->next = t->machine->uring_pending;
                    t->machine->uring_pending = p;
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
        post(r, c[i].s.user_data, (int32_t)res);
        req_done(&c[i]);
    }
}

/* io_submit_sqes(): up to nr SQEs from the ring's head (the array's
 * index into the SQEs; a bad index is counted in sq_dropped and ends the
 * batch, io_get_sqe()). The count submitted. */
static int64_t submit(struct task *t, struct ring *r, uint32_t nr)
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

/* wait_args: [0] the ring's fd, [1] the CQEs to wait for, [2] what
 * enter submitted (its result when the wait ends). */
static int64_t wait_resume(struct task *t)
{
    int64_t submitted = (int64_t)t->wait_args[2];
    struct ring *r = ring_of(file_get(t, (int)t->wait_args[0]));
    if (!r)
        return submitted ? submitted : -EBADF;
    if (r->cq_tail - ld(r->cq + R_HEAD) >= t->wait_args[1])
        return submitted;
    if (signal_pending(t))
        return submitted ? submitted : -EINTR;
    return RESUME_BLOCK;
}

/* io_uring_enter(fd, to_submit, min_complete, flags, argp, argsz) */
SYSCALL_DECL(io_uring_enter)
{
    uint32_t to_submit = (uint32_t)a[1], min_complete = (uint32_t)a[2], flags = (uint32_t)a[3];
    if (flags & ~(IORING_ENTER_GETEVENTS | IORING_ENTER_SQ_WAKEUP | IORING_ENTER_SQ_WAIT |
                  IORING_ENTER_EXT_ARG))
        return -EINVAL;
    struct file *f = file_get(t, (int)a[0]);
    if (!f)
        return -EBADF;
    struct ring *r = ring_of(f);
    if (!r)
        return -EOPNOTSUPP;
    if (r->disabled)
        return -EBADFD;
    int64_t submitted = 0;
    if (r->flags & IORING_SETUP_SQPOLL) {
        /* the thread, woken, takes all the ring holds; enter says
         * to_submit as 5.15 does */
        if (flags & IORING_ENTER_SQ_WAKEUP) {
            int64_t n = submit(t, r, r->sq_entries);
            if (n < 0)
                return n;
        }
        submitted = to_submit;
    } else if (to_submit) {
        submitted = submit(t, r, to_submit);
        if (submitted < 0)
            return submitted;
    }
    if (!(flags & IORING_ENTER_GETEVENTS))
        return submitted;
    /* io_get_ext_arg(), after the submission as in 5.15: the count
     * submitted wins over an error of the wait's arguments. Its timeout
     * and mask, and a plain call's sigmask, are not used by the wait. */
    if (flags & IORING_ENTER_EXT_ARG) {
        uint8_t arg[24];
        if (a[5] != sizeof arg)
            return submitted ? submitted : -EINVAL;
        if (copy_from_guest(task_mm(t), arg, a[4], sizeof arg) < 0)
            return submitted ? submitted : -EFAULT;
    }
    /* io_cqring_wait(): until min_complete CQEs are there (at most the
     * CQ ring's size) or a signal (EINTR) */
    t->wait_args[0] = a[0];
    t->wait_args[1] = min_complete < r->cq_entries ? min_complete : r->cq_entries;
    t->wait_args[2] = (uint64_t)submitted;
    int64_t res = wait_resume(t);
    if (res != RESUME_BLOCK)
        return res;
    task_block(t, wait_resume, r, 0);
    return -EBLOCK;
}

/* ---- io_uring_register ---- */

/* io_probe(): an op per opcode up to nr_args, supported if it runs here. */
static int64_t probe(struct task *t, uint64_t arg, uint32_t nr)
{
    if (!arg || nr > 256)
        return -EINVAL;
    if (nr > OP_LAST)
        nr = OP_LAST;
    size_t size = 16 + 8 * (size_t)nr;
    uint8_t *buf = calloc(1, size);
    if (!buf)
        return -ENOMEM;
    int64_t ret = 0;
    if (copy_from_guest(task_mm(t), buf, arg, size) < 0) {
        ret = -EFAULT;
        goto out;
    }
    for (size_t i = 0; i < size; i++)
        if (buf[i]) {
            ret = -EINVAL;
            goto out;
        }
    buf[0] = OP_LAST - 1;
    buf[1] = (uint8_t)nr;
    for (uint32_t op = 0; op < nr; op++) {
        uint8_t *o = buf + 16 + 8 * op;
        o[0] = (uint8_t)op;
        bool ok = op == OP_NOP || op == OP_READV || op == OP_WRITEV || op == OP_FSYNC ||
                  op == OP_POLL_ADD || op == OP_POLL_REMOVE || op == OP_ASYNC_CANCEL ||
                  op == OP_TIMEOUT || op == OP_TIMEOUT_REMOVE || op == OP_OPENAT ||
                  op == OP_CLOSE || op == OP_STATX || op == OP_READ || op == OP_WRITE;
        o[2] = ok ? IO_URING_OP_SUPPORTED : 0;
    }
    if (copy_to_guest(task_mm(t), arg, buf, size) < 0)
        ret = -EFAULT;
out:
    free(buf);
    return ret;
}

static void files_drop(struct ring *r)
{
    for (unsigned i = 0; i < r->nr_fixed; i++)
        if (r->fixed[i])
            file_put(r->fixed[i]);
    free(r->fixed);
    r->fixed = NULL;
    r->nr_fixed = 0;
}

/* io_sqe_files_register(): nr_args descriptors, -1 for an empty slot. */
static int64_t files_register(struct task *t, struct ring *r, uint64_t arg, uint32_t nr)
{
    if (r->fixed)
        return -EBUSY;
    if (!nr)
        return -EINVAL;
    if (nr > IORING_MAX_FIXED_FILES || nr > FD_MAX)
        return -EMFILE;
    struct file **tab = calloc(nr, sizeof *tab);
    if (!tab)
        return -ENOMEM;
    r->fixed = tab;
    r->nr_fixed = nr;
    for (uint32_t i = 0; i < nr; i++) {
        int32_t fd;
        if (copy_from_guest(task_mm(t), &fd, arg + 4ull * i, 4) < 0) {
            files_drop(r);
            return -EFAULT;
        }
        if (fd == -1)
            continue;
        struct file *f = file_get(t, fd);
        if (!f || ring_of(f)) {
            files_drop(r);
            return -EBADF;
        }
        file_ref(f);
        tab[i] = f;
    }
    return 0;
}

/* io_uring_register(fd, opcode, arg, nr_args) */
SYSCALL_DECL(io_uring_register)
{
    uint32_t op = (uint32_t)a[1], nr = (uint32_t)a[3];
    uint64_t arg = a[2];
    struct file *f = file_get(t, (int)a[0]);
    if (!f)
        return -EBADF;
    struct ring *r = ring_of(f);
    if (!r)
        return -EOPNOTSUPP;
    switch (op) {
    case REG_FILES:
        return files_register(t, r, arg, nr);
    case UNREG_FILES:
        if (arg || nr)
            return -EINVAL;
        if (!r->fixed)
            return -ENXIO;
        files_drop(r);
        return 0;
    case REG_EVENTFD: {
        if (nr != 1)
            return -EINVAL;
        if (r->eventfd)
            return -EBUSY;
        int32_t fd;
        if (copy_from_guest(task_mm(t), &fd, arg, 4) < 0)
            return -EFAULT;
        struct file *e = file_get(t, fd);
        if (!e)
            return -EBADF;
        if (!file_is_eventfd(e))
            return -EINVAL;
        file_ref(e);
        r->eventfd = e;
        return 0;
    }
    case UNREG_EVENTFD:
        if (arg || nr)
            return -EINVAL;
        if (!r->eventfd)
            return -ENXIO;
        file_put(r->eventfd);
        r->eventfd = NULL;
        return 0;
    case REG_PROBE:
        return probe(t, arg, nr);
    case REG_ENABLE_RINGS:
        if (arg || nr)
            return -EINVAL;
        if (!r->disabled)
            return -EBADFD;
        r->disabled = false;
        return 0;
    }
    return -EINVAL;
}
