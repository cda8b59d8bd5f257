/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysv_msg.c - System V message queues: msgget, msgsnd, msgrcv, msgctl,
 * /proc/sysvipc/msg.
 *
 * As in Linux, a message sent while a receiver waits for its type goes
 * straight to that receiver (oldest first), never through the queue; a
 * receive that frees room wakes the blocked senders, which try again. */
#include "abi.h"
#include "abi_user.h"
#include "cred.h"
#include "kmem.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "signals.h"
#include "syscalls.h"
#include "sysv_ipc.h"
#include "task.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MSG_STAT 11
#define MSG_INFO 12
#define MSG_STAT_ANY 13
#define MSG_NOERROR 010000
#define MSG_EXCEPT 020000
#define MSG_COPY 040000
#define MSGSSZ 16
#define MSGSEG 0xffff
#define MSGPOOL (MSG_MSGMNI * MSG_MSGMNB / 1024)
#define WAITING 1 /* a waiter's status until it is settled */

struct msg_msg {
    struct msg_msg *next;
    int64_t type;
    size_t size;
    uint8_t text[];
};

struct msg_queue {
    struct ipc_obj perm; /* first: the table holds it */
    int64_t stime, rtime, ctime;
    uint64_t cbytes, qnum, qbytes;
    int lspid, lrpid;
    struct msg_msg *head, **tail;
    struct ipc_link receivers, senders; /* struct msg_waiter, oldest first */
};

/* Which message a receive takes (Linux's SEARCH_*). */
enum search { SEARCH_ANY, SEARCH_EQUAL, SEARCH_NOTEQUAL, SEARCH_LESSEQUAL, SEARCH_NUMBER };

/* A blocked msgsnd (msg: what it sends) or msgrcv (msg: what a sender
 * handed it). status: WAITING, 0 once a message was handed over, or an
 * errno. A waiter stays on its queue's list while the queue may still
 * concern it: a receiver IPC_SET told to look again (-EAGAIN) can still
 * be handed a message or told the queue is gone, as in Linux. */
struct msg_waiter {
    struct ipc_link link;
    struct task *task;
    struct msg_queue *q;
    bool linked;
    int status;
    struct msg_msg *msg;
    /* a receiver's request */
    int64_t type;
    enum search mode;
    uint64_t maxsize, bufsz, ubuf;
    int flags;
};

static struct msg_queue *queue_of(struct sysv_ipc *ns, int id)
{
    return (struct msg_queue *)ipc_lookup(&ns->msg, id);
}

/* A message's host memory counts as the machine's kernel memory (kmem.h):
 * Linux's load_msg allocates it before looking at the queue, and fails
 * with ENOMEM when the kernel has none; a queue's msg_qbytes, which root
 * may raise past MSGMNB, bounds only that queue. */
static struct msg_msg *msg_alloc(struct machine *m, size_t size)
{
    return kmem_alloc(m, sizeof(struct msg_msg) + size);
}

static void msg_release(struct machine *m, struct msg_msg *msg)
{
    if (msg)
        kmem_free(m, msg, sizeof *msg + msg->size);
}

static void waiter_settle(struct msg_waiter *w, int status)
{
    if (w->linked)
        ipc_list_del(&w->link);
    w->linked = false;
    w->status = status;
    task_wake(w->task);
}

static void wake_senders(struct msg_queue *q)
{
    for (struct ipc_link *l = q->senders.next; l != &q->senders; l = l->next)
        task_wake(((struct msg_waiter *)l)->task);
}

static void queue_free(struct sysv_ipc *ns, struct msg_queue *q)
{
    while (q->receivers.next != &q->receivers)
        waiter_settle((struct msg_waiter *)q->receivers.next, -EIDRM);
    while (q->senders.next != &q->senders)
        waiter_settle((struct msg_waiter *)q->senders.next, -EIDRM);
    while (q->head) {
        struct msg_msg *m = q->head;
        q->head = m->next;
        ns->msg_bytes -= m->size;
        ns->msg_hdrs--;
        msg_release(ns->machine, m);
    }
    ipc_remove(&ns->msg, &q->perm);
    free(q);
}

void msg_free_all(struct sysv_ipc *ns)
{
    for (int i = 0; i <= ns->msg.max_idx; i++)
        if (ns->msg.slot[i])
            queue_free(ns, (struct msg_queue *)ns->msg.slot[i]);
}

/* msgget(key, msgflg) */
SYSCALL_DECL(msgget)
{
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    struct ipc_get g = {.key = (int32_t)a[0], .flags = (int)a[1], .size = sizeof(struct msg_queue),
                        .limit = t->machine->limits.msgmni};
    struct ipc_obj *o;
    bool created;
    int64_t id = ipc_get(t, &ns->msg, &g, &o, &created);
    if (id >= 0 && created) {
        struct msg_queue *q = (struct msg_queue *)o;
        q->ctime = ipc_now(t->machine);
        q->qbytes = (uint64_t)t->machine->limits.msgmnb; /* newque(): msg_ctlmnb */
        q->tail = &q->head;
        ipc_list_init(&q->receivers);
        ipc_list_init(&q->senders);
    }
    return id;
}

/* ---- sending ---- */

static bool matches(const struct msg_msg *m, int64_t type, enum search mode)
{
    switch (mode) {
    case SEARCH_ANY:
    case SEARCH_NUMBER:
        return true;
    case SEARCH_EQUAL:
        return m->type == type;
    case SEARCH_NOTEQUAL:
        return m->type != type;
    default: /* SEARCH_LESSEQUAL */
        return m->type <= type;
    }
}

/* m goes to the oldest receiver waiting for it, or to the queue. */
static void deliver(struct task *t, struct sysv_ipc *ns, struct msg_queue *q, struct msg_msg *m)
{
    q->lspid = t->proc->pid;
    for (struct ipc_link *l = q->receivers.next, *next; l != &q->receivers; l = next) {
        next = l->next;
        struct msg_waiter *r = (struct msg_waiter *)l;
        if (!matches(m, r->type, r->mode))
            continue;
        if (r->maxsize < m->size) {
            waiter_settle(r, -E2BIG);
            continue;
        }
        q->lrpid = r->task->proc->pid;
        q->rtime = ipc_now(t->machine);
        r->msg = m;
        waiter_settle(r, 0);
        return;
    }
    m->next = NULL;
    *q->tail = m;
    q->tail = &m->next;
    q->cbytes += m->size;
    q->qnum++;
    ns->msg_bytes += m->size;
    ns->msg_hdrs++;
}

/* One try of a send: 0 (sent), 1 (it must wait), or an errno. */
static int send_try(struct task *t, struct sysv_ipc *ns, struct msg_queue *q, struct msg_msg *m,
                    int flags)
{
    if (!ipc_allowed(t, &q->perm, 0222))
        return -EACCES;
    if (m->size + q->cbytes <= q->qbytes && q->qnum + 1 <= q->qbytes) {
        q->stime = ipc_now(t->machine);
        deliver(t, ns, q, m);
        return 0;
    }
    return (flags & GUEST_IPC_NOWAIT) ? -EAGAIN : 1;
}

static int64_t msgsnd_resume(struct task *t)
{
    struct msg_waiter *w = (struct msg_waiter *)(uintptr_t)t->wait_args[0];
    int r;
    if (w->status != WAITING)
        r = w->status; /* the queue was removed */
    else if (signal_pending(t))
        r = -ERESTARTNOHAND;
    else if ((r = send_try(t, t->machine->sysv, w->q, w->msg, 0)) == 1)
        return RESUME_BLOCK;
    if (w->linked)
        ipc_list_del(&w->link);
    if (r != 0)
        msg_release(t->machine, w->msg);
    free(w);
    return r;
}

/* msgsnd(msqid, msgp, msgsz, msgflg): msgp holds a long mtype, then the text. */
SYSCALL_DECL(msgsnd)
{
    int id = (int)a[0], flags = (int)a[3];
    int64_t size = abi_long(task_abi(t), a[2]);
    int64_t type = 0;
    if (get_user_longs(t, a[1], &type, 1) < 0)
        return -EFAULT;
    if (size > t->machine->limits.msgmax || size < 0 || id < 0)
        return -EINVAL;
    if (type < 1)
        return -EINVAL;
    struct msg_msg *m = msg_alloc(t->machine, (size_t)size);
    if (!m)
        return -ENOMEM;
    *m = (struct msg_msg){.type = type, .size = (size_t)size};
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    struct msg_queue *q = NULL;
    int r = copy_from_guest(task_mm(t), m->text, a[1] + abi_longs_size(t, 1), (size_t)size);
    if (!r)
        r = !ns ? -ENOMEM : !(q = queue_of(ns, id)) ? -EINVAL : send_try(t, ns, q, m, flags);
    if (r == 1 && signal_pending(t))
        r = -ERESTARTNOHAND;
    if (r != 1) {
        if (r)
            msg_release(t->machine, m);
        return r;
    }
    struct msg_waiter *w = malloc(sizeof *w);
    if (!w) {
        msg_release(t->machine, m);
        return -ENOMEM;
    }
    *w = (struct msg_waiter){.task = t, .q = q, .linked = true, .status = WAITING, .msg = m};
    ipc_list_add_tail(&q->senders, &w->link);
    t->wait_args[0] = (uintptr_t)w;
    task_block(t, msgsnd_resume, w, 0);
    return -EBLOCK;
}

/* ---- receiving ---- */

/* The message a receive takes, and the link that points at it. */
static struct msg_msg **find_msg(struct msg_queue *q, int64_t type, enum search mode)
{
    struct msg_msg **found = NULL;
    int64_t n = 0;
    for (struct msg_msg **pm = &q->head; *pm; pm = &(*pm)->next) {
        struct msg_msg *m = *pm;
        if (!matches(m, type, mode))
            continue;
        if (mode == SEARCH_LESSEQUAL) {
            /* the lowest type: only a lower one replaces the first found */
            if (!found || m->type < (*found)->type)
                found = pm;
        } else if (mode != SEARCH_NUMBER || n++ == type) {
            return pm;
        }
    }
    return found;
}

/* One try of a receive: 0 with *out (taken, or a copy for MSG_COPY), 1
 * (it must wait), or an errno. */
static int recv_try(struct task *t, struct sysv_ipc *ns, struct msg_queue *q,
                    const struct msg_waiter *req, struct msg_msg **out)
{
    if (!ipc_allowed(t, &q->perm, 0444))
        return -EACCES;
    struct msg_msg **pm = find_msg(q, req->type, req->mode);
    if (!pm)
        return (req->flags & GUEST_IPC_NOWAIT) ? -ENOMSG : 1;
    struct msg_msg *m = *pm;
    if (req->bufsz < m->size && !(req->flags & MSG_NOERROR))
        return -E2BIG;
    if (req->flags & MSG_COPY) {
        /* Linux copies into a message of min(bufsz, msgmax) bytes */
        uint64_t msgmax = (uint64_t)t->machine->limits.msgmax;
        uint64_t room = req->bufsz < msgmax ? req->bufsz : msgmax;
        if (m->size > room)
            return -EINVAL;
        if (!(*out = msg_alloc(t->machine, m->size)))
            return -ENOMEM;
        memcpy(*out, m, sizeof *m + m->size);
        return 0;
    }
    *pm = m->next;
    if (q->tail == &m->next)
        q->tail = pm;
    q->qnum--;
    q->cbytes -= m->size;
    q->rtime = ipc_now(t->machine);
    q->lrpid = t->proc->pid;
    ns->msg_bytes -= m->size;
    ns->msg_hdrs--;
    wake_senders(q);
    *out = m;
    return 0;
}

/* Copies a received message to the guest's msgbuf: the bytes of text, or -EFAULT. */
static int64_t fill(struct task *t, uint64_t ubuf, uint64_t bufsz, struct msg_msg *m)
{
    uint64_t n = bufsz < m->size ? bufsz : m->size;
    int64_t r = (int64_t)n;
    if (put_user_longs(t, ubuf, &m->type, 1) < 0 ||
        copy_to_guest(task_mm(t), ubuf + abi_longs_size(t, 1), m->text, (size_t)n) < 0)
        r = -EFAULT;
    msg_release(t->machine, m);
    return r;
}

static int64_t msgrcv_resume(struct task *t)
{
    struct msg_waiter *w = (struct msg_waiter *)(uintptr_t)t->wait_args[0];
    struct msg_msg *m = NULL;
    int r = w->status;
    if (r == 0) {
        m = w->msg;
    } else if (r == WAITING || r == -EAGAIN) {
        if (signal_pending(t)) {
            r = -ERESTARTNOHAND;
        } else if (r == WAITING) {
            return RESUME_BLOCK;
        } else if ((r = recv_try(t, t->machine->sysv, w->q, w, &m)) == 1) {
            /* IPC_SET woke it to look again: back at the end of the line */
            w->status = WAITING;
            ipc_list_del(&w->link);
            ipc_list_add_tail(&w->q->receivers, &w->link);
            return RESUME_BLOCK;
        }
    }
    if (w->linked)
        ipc_list_del(&w->link);
    uint64_t ubuf = w->ubuf, bufsz = w->bufsz;
    free(w);
    return r == 0 ? fill(t, ubuf, bufsz, m) : r;
}

bool msg_task_exit(struct task *t)
{
    if (t->resume != msgsnd_resume && t->resume != msgrcv_resume)
        return false;
    struct msg_waiter *w = (struct msg_waiter *)(uintptr_t)t->wait_args[0];
    if (w->linked)
        ipc_list_del(&w->link);
    msg_release(t->machine, w->msg);
    free(w);
    t->resume = NULL;
    return true;
}

/* msgrcv(msqid, msgp, msgsz, msgtyp, msgflg) */
SYSCALL_DECL(msgrcv)
{
    int id = (int)a[0], flags = (int)a[4];
    int64_t bufsz = abi_long(task_abi(t), a[2]);
    int64_t type = abi_long(task_abi(t), a[3]);
    if (id < 0 || bufsz < 0)
        return -EINVAL;
    if ((flags & MSG_COPY) && ((flags & MSG_EXCEPT) || !(flags & GUEST_IPC_NOWAIT)))
        return -EINVAL;
    struct msg_waiter req = {.type = type, .bufsz = (uint64_t)bufsz, .ubuf = a[1], .flags = flags};
    if (flags & MSG_COPY) {
        req.mode = SEARCH_NUMBER;
    } else if (type == 0) {
        req.mode = SEARCH_ANY;
    } else if (type < 0) {
        req.mode = SEARCH_LESSEQUAL;
        req.type = type == INT64_MIN ? INT64_MAX : -type;
    } else {
        req.mode = (flags & MSG_EXCEPT) ? SEARCH_NOTEQUAL : SEARCH_EQUAL;
    }
    req.maxsize = (flags & MSG_NOERROR) ? INT_MAX : req.bufsz;
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    struct msg_queue *q = queue_of(ns, id);
    if (!q)
        return -EINVAL;
    struct msg_msg *m;
    int r = recv_try(t, ns, q, &req, &m);
    if (r == 0)
        return fill(t, req.ubuf, req.bufsz, m);
    if (r < 0)
        return r;
    if (signal_pending(t))
        return -ERESTARTNOHAND;
    struct msg_waiter *w = malloc(sizeof *w);
    if (!w)
        return -ENOMEM;
    *w = req;
    w->task = t;
    w->q = q;
    w->linked = true;
    w->status = WAITING;
    ipc_list_add_tail(&q->receivers, &w->link);
    t->wait_args[0] = (uintptr_t)w;
    task_block(t, msgrcv_resume, w, 0);
    return -EBLOCK;
}

/* ---- msgctl ---- */

static int64_t msg_info(struct task *t, struct sysv_ipc *ns, int cmd, uint64_t buf)
{
    /* struct msginfo: seven ints and an unsigned short, 32 bytes */
    struct {
        int32_t msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql;
        uint16_t msgseg, pad;
    } info = {
        .msgpool = cmd == MSG_INFO ? ns->msg.in_use : MSGPOOL,
        .msgmap = cmd == MSG_INFO ? (int32_t)(ns->msg_hdrs > INT_MAX ? INT_MAX : ns->msg_hdrs)
                                  : MSG_MSGMNB,
        .msgmax = t->machine->limits.msgmax,
        .msgmnb = t->machine->limits.msgmnb,
        .msgmni = t->machine->limits.msgmni,
        .msgssz = MSGSSZ,
        .msgtql = cmd == MSG_INFO ? (int32_t)(ns->msg_bytes > INT_MAX ? INT_MAX : ns->msg_bytes)
                                  : MSG_MSGMNB,
        .msgseg = MSGSEG,
    };
    if (copy_to_guest(task_mm(t), buf, &info, sizeof info) < 0)
        return -EFAULT;
    return ipc_info_result(&ns->msg);
}

/* Word slots of the times in struct msqid64_ds. */
static unsigned time_words(struct task *t)
{
    return task_abi(t)->sysv.msq_time_words;
}

static int64_t msg_stat(struct task *t, struct sysv_ipc *ns, int id, int cmd, uint64_t buf)
{
    int err;
    struct msg_queue *q =
        (struct msg_queue *)ipc_stat_obtain(t, &ns->msg, id, cmd, MSG_STAT_ANY, &err);
    if (!q)
        return err;
    struct ipc_buf g = ipc_buf_start(t, &q->perm);
    ipc_buf_time(&g, q->stime);
    ipc_buf_time(&g, q->rtime);
    ipc_buf_time(&g, q->ctime);
    ipc_buf_word(&g, q->cbytes);
    ipc_buf_word(&g, q->qnum);
    ipc_buf_word(&g, q->qbytes);
    ipc_buf_u32(&g, (uint32_t)q->lspid);
    ipc_buf_u32(&g, (uint32_t)q->lrpid);
    ipc_buf_word(&g, 0);
    ipc_buf_word(&g, 0);
    return ipc_stat_done(t, buf, &g, cmd, &q->perm);
}

static int64_t msg_down(struct task *t, struct sysv_ipc *ns, int id, int cmd, uint64_t buf)
{
    /* after the perm: the times, cbytes, qnum, qbytes, the two pids (8
     * bytes), two unused longs */
    size_t after = abi_longs_size(t, time_words(t) + 3 + 2) + 8;
    uint8_t rest[128] = {0};
    struct ipc_set set;
    int err;
    struct msg_queue *q = (struct msg_queue *)ipc_ctl_obtain(
        t, &ns->msg, id, cmd, buf, ipc_perm_size(t) + after, &set, rest, after, &err);
    if (!q)
        return err;
    uint64_t qbytes = 0;
    qbytes = abi_ulong_at(t, rest + abi_longs_size(t, time_words(t) + 2));
    if (cmd == GUEST_IPC_RMID) {
        queue_free(ns, q);
        return 0;
    }
    if (qbytes > (uint64_t)t->machine->limits.msgmnb && !capable(t, CAP_SYS_RESOURCE))
        return -EPERM;
    if ((err = ipc_update_perm(&q->perm, &set)))
        return err;
    q->qbytes = qbytes;
    q->ctime = ipc_now(t->machine);
    /* receivers look again (the permissions changed), senders may fit */
    for (struct ipc_link *l = q->receivers.next; l != &q->receivers; l = l->next) {
        struct msg_waiter *r = (struct msg_waiter *)l;
        r->status = -EAGAIN;
        task_wake(r->task);
    }
    wake_senders(q);
    return 0;
}

/* msgctl(msqid, cmd, buf) */
SYSCALL_DECL(msgctl)
{
    int id = (int)a[0], cmd = (int)a[1];
    if (id < 0 || cmd < 0)
        return -EINVAL;
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    bool v64 = ipc_parse_version(t, &cmd);
    switch (cmd) {
    case GUEST_IPC_INFO:
    case MSG_INFO:
        return msg_info(t, ns, cmd, a[2]);
    case GUEST_IPC_STAT:
    case MSG_STAT:
    case MSG_STAT_ANY:
        return v64 ? msg_stat(t, ns, id, cmd, a[2]) : -EINVAL;
    case GUEST_IPC_SET:
        if (!v64)
            return -EINVAL;
        /* fall through */
    case GUEST_IPC_RMID:
        return msg_down(t, ns, id, cmd, a[2]);
    default:
        return -EINVAL;
    }
}

/* ---- /proc/sysvipc/msg ---- */

int msg_proc(struct sysv_ipc *ns, FILE *out)
{
    fprintf(out, "       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime\n");
    for (int i = 0; i <= ns->msg.max_idx; i++) {
        const struct msg_queue *q = (const struct msg_queue *)ns->msg.slot[i];
        if (!q)
            continue;
        fprintf(out, "%10d %10d  %4o  %10llu %10llu %5u %5u %5u %5u %5u %5u %10llu %10llu %10llu\n",
                q->perm.key, q->perm.id, q->perm.mode, (unsigned long long)q->cbytes,
                (unsigned long long)q->qnum, (unsigned)q->lspid, (unsigned)q->lrpid, q->perm.uid,
                q->perm.gid, q->perm.cuid, q->perm.cgid, (unsigned long long)q->stime,
                (unsigned long long)q->rtime, (unsigned long long)q->ctime);
    }
    return 0;
}
