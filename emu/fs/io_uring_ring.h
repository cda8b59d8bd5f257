/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io_uring_ring.h - what io_uring.c (the ring file, setup, enter,
 * register) and io_uring_req.c (the requests) share: 5.15's uapi
 * constants and layouts, the ring, and the calls between the two. */
#ifndef ASYMU_IO_URING_RING_H
#define ASYMU_IO_URING_RING_H

#include <stdbool.h>
#include <stdint.h>

struct file;
struct machine;
struct shmem;
struct task;

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
    OP_FADVISE = 24,
    OP_MADVISE = 25,
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

static inline uint32_t ld(const uint8_t *p)
{
    return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
}
static inline void st(uint8_t *p, uint32_t v)
{
    __atomic_store_n((uint32_t *)p, v, __ATOMIC_RELEASE);
}

/* The ring of a file, or NULL if it is not one. */
struct ring *uring_ring_of(const struct file *f);
/* Posts a CQE (io_cqring_fill_event() and io_cqring_ev_posted()). */
void uring_post(struct ring *r, uint64_t user_data, int32_t res);
/* io_submit_sqes(): up to nr SQEs; the count taken or -ENOMEM. */
int64_t uring_submit(struct task *t, struct ring *r, uint32_t nr);
/* The ring goes: its waiting requests are dropped without a CQE. */
void uring_pend_drop(struct machine *m, struct ring *r);
/* A CQE was posted: TIMEOUTs whose count is met complete. */
void uring_timeouts_count(struct ring *r);
/* Whether asymu runs opcode op (IORING_REGISTER_PROBE). */
bool uring_op_supported(unsigned op);

#endif
