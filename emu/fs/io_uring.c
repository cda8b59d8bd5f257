/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io_uring.c - io_uring, as Linux 5.15's fs/io_uring.c answers it: the
 * ring file, io_uring_setup, io_uring_enter and io_uring_register (the
 * requests themselves are io_uring_req.c's).
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
 * CQ ring on its own as they do on kernels before 5.4. A full CQ ring
 * drops the CQE and counts it in the ring's overflow word (no
 * IORING_FEAT_NODROP). */
#include "io_uring.h"
#include "event.h"
#include "file.h"
#include "io_uring_ring.h"
#include "kmem.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "shmem.h"
#include "signals.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

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

/* io_uring_release(): the last reference to the ring file went; its
 * waiting requests go without a CQE, its waiters wake to find it gone. */
static void uring_release(struct file *f)
{
    struct ring *r = f->priv;
    uring_pend_drop(r->machine, r);
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

struct ring *uring_ring_of(const struct file *f)
{
    return f && f->kind == FILE_OBJECT && f->ops == &uring_ops ? f->priv : NULL;
}

/* The ring of t's descriptor fd in *r: 0, -EBADF for no open file, or
 * -EOPNOTSUPP for a file that is no ring, as io_uring_enter and
 * io_uring_register check it (fdget, then f_op != &io_uring_fops). */
static int ring_from_fd(struct task *t, int fd, struct ring **r)
{
    struct file *f = file_get(t, fd);
    if (!f)
        return -EBADF;
    *r = uring_ring_of(f);
    return *r ? 0 : -EOPNOTSUPP;
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
    if (!(r->shm = shmem_anon(m, IORING_OFF_SQES + r->sqes_size, &err)))
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
        if (!uring_ring_of(wq))
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

/* io_cqring_fill_event() and io_cqring_ev_posted(): the CQE, then the
 * tail (the process reads the tail with acquire); a full ring counts an
 * overflow instead. The eventfd is signalled unless the process turned
 * it off in the CQ ring's flags. */
void uring_post(struct ring *r, uint64_t user_data, int32_t res)
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
        uring_timeouts_count(r);
        r->posting = false;
    }
    task_wake_all(r->machine, r);
    if (r->eventfd && !(ld(r->cq + CQ_FLAGS) & IORING_CQ_EVENTFD_DISABLED))
        eventfd_signal_file(r->eventfd, 1);
}

/* wait_args: [0] the ring's fd, [1] the CQEs to wait for, [2] what
 * enter submitted (its result when the wait ends). */
static int64_t wait_resume(struct task *t)
{
    int64_t submitted = (int64_t)t->wait_args[2];
    struct ring *r = uring_ring_of(file_get(t, (int)t->wait_args[0]));
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
    struct ring *r;
    int err = ring_from_fd(t, (int)a[0], &r);
    if (err)
        return err;
    if (r->disabled)
        return -EBADFD;
    int64_t submitted = 0;
    if (r->flags & IORING_SETUP_SQPOLL) {
        /* the thread, woken, takes all the ring holds; enter says
         * to_submit as 5.15 does */
        if (flags & IORING_ENTER_SQ_WAKEUP) {
            int64_t n = uring_submit(t, r, r->sq_entries);
            if (n < 0)
                return n;
        }
        submitted = to_submit;
    } else if (to_submit) {
        submitted = uring_submit(t, r, to_submit);
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
        o[2] = uring_op_supported(op) ? IO_URING_OP_SUPPORTED : 0;
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
        if (!f || uring_ring_of(f)) {
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
    struct ring *r;
    int err = ring_from_fd(t, (int)a[0], &r);
    if (err)
        return err;
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
