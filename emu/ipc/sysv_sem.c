/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysv_sem.c - System V semaphore sets: semget, semop/semtimedop (atomic
 * arrays of operations, SEM_UNDO, blocking in order of arrival), semctl,
 * /proc/sysvipc/sem.
 *
 * As in Linux, whoever changes a set completes the operations waiting on
 * it, in the order they started waiting, on the waiters' behalf: a waiter
 * wakes with its operation done (or failed), so no third task can take
 * the value it was woken for. */
#include "abi.h"
#include "abi_user.h"
#include "kmem.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "syscalls.h"
#include "sysv_ipc.h"
#include "task.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SEM_UNDO 0x1000
#define SEMAEM SEM_SEMVMX
#define SEMOPM_FAST 64 /* operations semop keeps on the stack */
#define GETPID 11
#define GETVAL 12
#define GETALL 13
#define GETNCNT 14
#define GETZCNT 15
#define SETVAL 16
#define SETALL 17
#define SEM_STAT 18
#define SEM_INFO 19
#define SEM_STAT_ANY 20

/* struct sembuf: the same on both ABIs. */
struct guest_sembuf {
    uint16_t num;
    int16_t op;
    int16_t flg;
};

struct sem {
    int val;
    int pid; /* the last process to change or wait on it (GETPID) */
};

struct sem_set {
    struct ipc_obj perm; /* first: the table holds it */
    int nsems;
    int64_t otime, ctime;
    struct ipc_link pending; /* struct sem_waiter, oldest first */
    struct sem sems[];
};

/* One process's adjustments for one set, undone when it exits. */
struct sem_undo {
    struct sem_undo *next;
    int pid;
    struct sem_set *set;
    int16_t adj[];
};

/* A blocked semop. Once done it is off the set's list and status is its
 * result. */
struct sem_waiter {
    struct ipc_link link;
    struct task *task;
    struct sem_set *set;
    int pid;
    bool done;
    int status;
    unsigned blocking; /* the operation it waits for (GETNCNT, GETZCNT) */
    unsigned nsops;
    struct guest_sembuf sops[];
};

static struct sem_set *set_of(struct sysv_ipc *ns, int id)
{
    return (struct sem_set *)ipc_lookup(&ns->sem, id);
}

static struct sem_undo *undo_find(struct sysv_ipc *ns, int pid, const struct sem_set *set)
{
    for (struct sem_undo *u = ns->undos; u; u = u->next)
        if (u->pid == pid && u->set == set)
            return u;
    return NULL;
}

static struct sem_undo *undo_get(struct sysv_ipc *ns, int pid, struct sem_set *set)
{
    struct sem_undo *u = undo_find(ns, pid, set);
    if (u)
        return u;
    u = calloc(1, sizeof *u + (size_t)set->nsems * sizeof *u->adj);
    if (!u)
        return NULL;
    u->pid = pid;
    u->set = set;
    u->next = ns->undos;
    ns->undos = u;
    return u;
}

/* Drops the adjustments of set (removed), or of its semaphore `num`
 * (-1: all) set by SETVAL or SETALL, as Linux does. */
static void undo_clear(struct sysv_ipc *ns, struct sem_set *set, int num, bool drop)
{
    for (struct sem_undo **pu = &ns->undos; *pu;) {
        struct sem_undo *u = *pu;
        if (u->set != set) {
            pu = &u->next;
            continue;
        }
        if (drop) {
            *pu = u->next;
            free(u);
            continue;
        }
        if (num < 0)
            memset(u->adj, 0, (size_t)set->nsems * sizeof *u->adj);
        else
            u->adj[num] = 0;
        pu = &u->next;
    }
}

/* Tries the whole array at once: 0 (applied), 1 (sops[*blocking] must
 * wait), or -EAGAIN (it must wait but has IPC_NOWAIT), -ERANGE. Each
 * operation sees the ones before it; nothing stays applied unless all
 * succeed. */
static int sem_try(struct sem_set *s, const struct guest_sembuf *sops, unsigned nsops,
                   struct sem_undo *undo, int pid, unsigned *blocking)
{
    unsigned i;
    int err = 0;
    for (i = 0; i < nsops; i++) {
        const struct guest_sembuf *op = &sops[i];
        int v = s->sems[op->num].val;
        if ((op->op == 0 && v) || v + op->op < 0) {
            *blocking = i;
            err = (op->flg & GUEST_IPC_NOWAIT) ? -EAGAIN : 1;
            break;
        }
        v += op->op;
        if (v > SEM_SEMVMX) {
            err = -ERANGE;
            break;
        }
        if (op->flg & SEM_UNDO) {
            int adj = undo->adj[op->num] - op->op;
            if (adj < -SEMAEM - 1 || adj > SEMAEM) {
                err = -ERANGE;
                break;
            }
            undo->adj[op->num] = (int16_t)adj;
        }
        s->sems[op->num].val = v;
    }
    if (err) {
        while (i-- > 0) {
            s->sems[sops[i].num].val -= sops[i].op;
            if (sops[i].flg & SEM_UNDO)
                undo->adj[sops[i].num] = (int16_t)(undo->adj[sops[i].num] + sops[i].op);
        }
        return err;
    }
    for (i = 0; i < nsops; i++)
        s->sems[sops[i].num].pid = pid;
    return 0;
}

static bool any_undo(const struct guest_sembuf *sops, unsigned nsops)
{
    for (unsigned i = 0; i < nsops; i++)
        if (sops[i].flg & SEM_UNDO)
            return true;
    return false;
}

static void waiter_finish(struct sem_waiter *w, int status)
{
    ipc_list_del(&w->link);
    w->done = true;
    w->status = status;
    task_wake(w->task);
}

/* The set changed: completes what waits on it, oldest first, again from
 * the start after each success (it may let an earlier waiter through). */
static void sem_update(struct sysv_ipc *ns, struct sem_set *s)
{
    bool again = true;
    while (again) {
        again = false;
        for (struct ipc_link *l = s->pending.next; l != &s->pending; l = l->next) {
            struct sem_waiter *w = (struct sem_waiter *)l;
            struct sem_undo *undo = NULL;
            if (any_undo(w->sops, w->nsops) && !(undo = undo_get(ns, w->pid, s))) {
                waiter_finish(w, -ENOMEM);
                again = true;
                break;
            }
            int r = sem_try(s, w->sops, w->nsops, undo, w->pid, &w->blocking);
            if (r == 1)
                continue;
            if (r == 0)
                s->otime = ipc_now(w->task->machine);
            waiter_finish(w, r);
            again = true;
            break;
        }
    }
}

static void set_free(struct sysv_ipc *ns, struct sem_set *s, int waiter_status)
{
    while (s->pending.next != &s->pending)
        waiter_finish((struct sem_waiter *)s->pending.next, waiter_status);
    undo_clear(ns, s, -1, true);
    ns->used_sems -= (uint64_t)s->nsems;
    ipc_remove(&ns->sem, &s->perm);
    free(s);
}

void sem_free_all(struct sysv_ipc *ns)
{
    for (int i = 0; i <= ns->sem.max_idx; i++)
        if (ns->sem.slot[i])
            set_free(ns, (struct sem_set *)ns->sem.slot[i], -EIDRM);
}

/* ---- semget ---- */

static int sem_more_checks(struct ipc_obj *o, uint64_t nsems)
{
    return nsems > (uint64_t)((struct sem_set *)o)->nsems ? -EINVAL : 0;
}

static int sem_create_check(struct sysv_ipc *ns, uint64_t nsems)
{
    if (nsems == 0)
        return -EINVAL;
    /* newary(): semmns, an int */
    return (int64_t)(ns->used_sems + nsems) > ns->machine->limits.sem[1] ? -ENOSPC : 0;
}

/* semget(key, nsems, semflg) */
SYSCALL_DECL(semget)
{
    int nsems = (int)a[1];
    if (nsems < 0 || nsems > t->machine->limits.sem[0])
        return -EINVAL;
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    struct ipc_get g = {
        .key = (int32_t)a[0],
        .flags = (int)a[2],
        .size = sizeof(struct sem_set) + (size_t)nsems * sizeof(struct sem),
        .more_checks = sem_more_checks,
        .create_check = sem_create_check,
        .arg = (uint64_t)nsems,
        .limit = t->machine->limits.sem[3],
    };
    struct ipc_obj *o;
    bool created;
    int64_t id = ipc_get(t, &ns->sem, &g, &o, &created);
    if (id >= 0 && created) {
        struct sem_set *s = (struct sem_set *)o;
        s->nsems = nsems;
        s->ctime = ipc_now(t->machine);
        ipc_list_init(&s->pending);
        ns->used_sems += (uint64_t)nsems;
    }
    return id;
}

/* ---- semop ---- */

static int64_t semop_resume(struct task *t)
{
    struct sem_waiter *w = (struct sem_waiter *)(uintptr_t)t->wait_args[0];
    int64_t r;
    if (w->done)
        r = w->status;
    else if (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns)
        r = -EAGAIN;
    else if (signal_pending(t))
        r = -EINTR; /* never restarted, as Linux's semop */
    else
        return RESUME_BLOCK;
    if (!w->done)
        ipc_list_del(&w->link);
    free(w);
    return r;
}

bool sem_task_exit(struct task *t)
{
    if (t->resume != semop_resume)
        return false;
    struct sem_waiter *w = (struct sem_waiter *)(uintptr_t)t->wait_args[0];
    if (!w->done)
        ipc_list_del(&w->link);
    free(w);
    t->resume = NULL;
    return true;
}

static int64_t semtimedop_ops(struct task *t, int semid, const struct guest_sembuf *sops,
                              unsigned nsops, uint64_t utimeout, unsigned field);

/* do_semtimedop(): at most semopm operations (an unsigned comparison, as
 * Linux's), up to SEMOPM_FAST of them on the stack, more in kernel memory. */
static int64_t do_semtimedop(struct task *t, int semid, uint64_t usops, unsigned nsops,
                             uint64_t utimeout, unsigned field)
{
    int64_t pair[2];
    if (utimeout && copy_from_guest(task_mm(t), pair, utimeout, 2 * field) < 0)
        return -EFAULT;
    if (nsops < 1 || semid < 0)
        return -EINVAL;
    if (nsops > (unsigned)t->machine->limits.sem[2])
        return -E2BIG;
    struct guest_sembuf fast[SEMOPM_FAST], *sops = fast;
    size_t bytes = (size_t)nsops * sizeof *sops;
    if (nsops > SEMOPM_FAST && !(sops = kmem_alloc(t->machine, bytes)))
        return -ENOMEM;
    int64_t r = copy_from_guest(task_mm(t), sops, usops, bytes) < 0
                    ? -EFAULT
                    : semtimedop_ops(t, semid, sops, nsops, utimeout, field);
    if (sops != fast)
        kmem_free(t->machine, sops, bytes);
    return r;
}

static int64_t semtimedop_ops(struct task *t, int semid, const struct guest_sembuf *sops,
                              unsigned nsops, uint64_t utimeout, unsigned field)
{
    int64_t timeout = -1;
    if (utimeout && (timeout = timespec_from_guest(t, utimeout, field)) < 0)
        return timeout;
    unsigned max = 0;
    bool alter = false;
    for (unsigned i = 0; i < nsops; i++) {
        if (sops[i].num > max)
            max = sops[i].num;
        alter |= sops[i].op != 0;
    }
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    struct sem_set *s = set_of(ns, semid);
    if (!s)
        return -EINVAL;
    if (max >= (unsigned)s->nsems)
        return -EFBIG;
    if (!ipc_allowed(t, &s->perm, alter ? 0222 : 0444))
        return -EACCES;
    struct sem_undo *undo = NULL;
    if (any_undo(sops, nsops) && !(undo = undo_get(ns, t->proc->pid, s)))
        return -ENOMEM;
    unsigned blocking;
    int r = sem_try(s, sops, nsops, undo, t->proc->pid, &blocking);
    if (r == 0) {
        s->otime = ipc_now(t->machine);
        if (alter)
            sem_update(ns, s);
        return 0;
    }
    if (r < 0)
        return r;
    if (timeout == 0)
        return -EAGAIN;
    if (signal_pending(t))
        return -EINTR;
    struct sem_waiter *w = malloc(sizeof *w + nsops * sizeof *sops);
    if (!w)
        return -ENOMEM;
    *w = (struct sem_waiter){.task = t, .set = s, .pid = t->proc->pid, .blocking = blocking,
                             .nsops = nsops};
    memcpy(w->sops, sops, nsops * sizeof *sops);
    ipc_list_add_tail(&s->pending, &w->link);
    uint64_t now = machine_now(t->machine), deadline = 0;
    if (timeout > 0)
        deadline = (uint64_t)timeout > UINT64_MAX - now ? UINT64_MAX : now + (uint64_t)timeout;
    t->wait_args[0] = (uintptr_t)w;
    task_block(t, semop_resume, w, deadline);
    return -EBLOCK;
}

/* semop(semid, sops, nsops) */
SYSCALL_DECL(semop)
{
    return do_semtimedop(t, (int)a[0], a[1], (unsigned)a[2], 0, abi_time_field(t));
}

/* semtimedop(semid, sops, nsops, timeout): a relative timeout */
SYSCALL_DECL(semtimedop)
{
    return do_semtimedop(t, (int)a[0], a[1], (unsigned)a[2], a[3], abi_time_field(t));
}

/* arm's semtimedop_time64: a 64-bit timespec */
SYSCALL_DECL(semtimedop_time64)
{
    return do_semtimedop(t, (int)a[0], a[1], (unsigned)a[2], a[3], 8);
}

/* ---- semctl ---- */

static int count_waiting(const struct sem_set *s, int num, bool zero)
{
    int n = 0;
    for (const struct ipc_link *l = s->pending.next; l != &s->pending; l = l->next) {
        const struct sem_waiter *w = (const struct sem_waiter *)l;
        const struct guest_sembuf *op = &w->sops[w->blocking];
        if (op->num == num && (zero ? op->op == 0 : op->op < 0))
            n++;
    }
    return n;
}

static int64_t sem_info(struct task *t, struct sysv_ipc *ns, int cmd, uint64_t buf)
{
    /* struct seminfo: ten ints */
    int32_t info[10] = {
        SEM_SEMMNS,  /* semmap */
        ns->machine->limits.sem[3], /* semmni */
        ns->machine->limits.sem[1], /* semmns */
        SEM_SEMMNS,  /* semmnu */
        ns->machine->limits.sem[0], /* semmsl */
        ns->machine->limits.sem[2], /* semopm */
        SEM_SEMOPM,  /* semume */
        cmd == SEM_INFO ? ns->sem.in_use : 20,                 /* semusz */
        SEM_SEMVMX,  /* semvmx */
        cmd == SEM_INFO ? (int32_t)ns->used_sems : SEMAEM,     /* semaem */
    };
    if (copy_to_guest(task_mm(t), buf, info, sizeof info) < 0)
        return -EFAULT;
    return ipc_info_result(&ns->sem);
}

static int64_t sem_stat(struct task *t, struct sysv_ipc *ns, int id, int cmd, uint64_t buf)
{
    int err;
    struct sem_set *s = (struct sem_set *)ipc_stat_obtain(t, &ns->sem, id, cmd, SEM_STAT_ANY, &err);
    if (!s)
        return err;
    struct ipc_buf g = ipc_buf_start(t, &s->perm);
    ipc_buf_time(&g, s->otime);
    ipc_buf_time(&g, s->ctime);
    ipc_buf_word(&g, (uint64_t)s->nsems);
    ipc_buf_word(&g, 0);
    ipc_buf_word(&g, 0);
    return ipc_stat_done(t, buf, &g, cmd, &s->perm);
}

/* The size of the guest's struct semid64_ds. */
static size_t semid_ds_size(struct task *t)
{
    return ipc_perm_size(t) + task_abi(t)->sysv.sem_tail;
}

static int64_t sem_down(struct task *t, struct sysv_ipc *ns, int id, int cmd, uint64_t buf)
{
    struct ipc_set set;
    int err;
    struct sem_set *s = (struct sem_set *)ipc_ctl_obtain(t, &ns->sem, id, cmd, buf,
                                                         semid_ds_size(t), &set, NULL, 0, &err);
    if (!s)
        return err;
    if (cmd == GUEST_IPC_RMID) {
        set_free(ns, s, -EIDRM);
        return 0;
    }
    err = ipc_update_perm(&s->perm, &set);
    if (!err)
        s->ctime = ipc_now(t->machine);
    return err;
}

static int64_t sem_setall(struct task *t, struct sysv_ipc *ns, struct sem_set *s, uint64_t buf)
{
    uint16_t *vals = malloc((size_t)s->nsems * sizeof *vals);
    if (!vals)
        return -ENOMEM;
    int64_t err = copy_from_guest(task_mm(t), vals, buf, (size_t)s->nsems * sizeof *vals);
    for (int i = 0; !err && i < s->nsems; i++)
        if (vals[i] > SEM_SEMVMX)
            err = -ERANGE;
    if (!err) {
        undo_clear(ns, s, -1, false);
        for (int i = 0; i < s->nsems; i++)
            s->sems[i] = (struct sem){vals[i], t->proc->pid};
        s->ctime = ipc_now(t->machine);
        sem_update(ns, s);
    }
    free(vals);
    return err;
}

static int64_t sem_setval(struct task *t, struct sysv_ipc *ns, int id, int num, int val)
{
    if (val < 0 || val > SEM_SEMVMX)
        return -ERANGE;
    struct sem_set *s = set_of(ns, id);
    if (!s)
        return -EINVAL;
    if (num < 0 || num >= s->nsems)
        return -EINVAL;
    if (!ipc_allowed(t, &s->perm, 0222))
        return -EACCES;
    undo_clear(ns, s, num, false);
    s->sems[num] = (struct sem){val, t->proc->pid};
    s->ctime = ipc_now(t->machine);
    sem_update(ns, s);
    return 0;
}

/* GETALL, SETALL and the one-semaphore reads. */
static int64_t sem_main(struct task *t, struct sysv_ipc *ns, int id, int num, int cmd,
                        uint64_t buf)
{
    struct sem_set *s = set_of(ns, id);
    if (!s)
        return -EINVAL;
    if (!ipc_allowed(t, &s->perm, cmd == SETALL ? 0222 : 0444))
        return -EACCES;
    if (cmd == SETALL)
        return sem_setall(t, ns, s, buf);
    if (cmd == GETALL) {
        uint16_t *vals = malloc((size_t)s->nsems * sizeof *vals);
        if (!vals)
            return -ENOMEM;
        for (int i = 0; i < s->nsems; i++)
            vals[i] = (uint16_t)s->sems[i].val;
        int err = copy_to_guest(task_mm(t), buf, vals, (size_t)s->nsems * sizeof *vals);
        free(vals);
        return err;
    }
    if (num < 0 || num >= s->nsems)
        return -EINVAL;
    switch (cmd) {
    case GETVAL:
        return s->sems[num].val;
    case GETPID:
        return s->sems[num].pid;
    case GETNCNT:
        return count_waiting(s, num, false);
    default: /* GETZCNT */
        return count_waiting(s, num, true);
    }
}

/* semctl(semid, semnum, cmd, arg): arg is union semun passed by value, a
 * pointer or the int of SETVAL in the low half of the register. */
SYSCALL_DECL(semctl)
{
    int id = (int)a[0], num = (int)a[1], cmd = (int)a[2];
    if (id < 0)
        return -EINVAL;
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    bool v64 = ipc_parse_version(t, &cmd);
    switch (cmd) {
    case GUEST_IPC_INFO:
    case SEM_INFO:
        return sem_info(t, ns, cmd, a[3]);
    case GUEST_IPC_STAT:
    case SEM_STAT:
    case SEM_STAT_ANY:
        return v64 ? sem_stat(t, ns, id, cmd, a[3]) : -EINVAL;
    case GETALL:
    case GETVAL:
    case GETPID:
    case GETNCNT:
    case GETZCNT:
    case SETALL:
        return sem_main(t, ns, id, num, cmd, a[3]);
    case SETVAL:
        return sem_setval(t, ns, id, num, (int)(uint32_t)a[3]);
    case GUEST_IPC_SET:
        if (!v64)
            return -EINVAL;
        /* fall through */
    case GUEST_IPC_RMID:
        return sem_down(t, ns, id, cmd, a[3]);
    default:
        return -EINVAL;
    }
}

/* ---- exit: the SEM_UNDO adjustments ---- */

bool sem_process_has_undo(struct process *p)
{
    struct sysv_ipc *ns = p->machine->sysv;
    for (struct sem_undo *u = ns ? ns->undos : NULL; u; u = u->next)
        if (u->pid == p->pid)
            return true;
    return false;
}

void sem_process_exit(struct process *p)
{
    struct sysv_ipc *ns = p->machine->sysv;
    for (struct sem_undo **pu = &ns->undos; *pu;) {
        struct sem_undo *u = *pu;
        if (u->pid != p->pid) {
            pu = &u->next;
            continue;
        }
        *pu = u->next;
        struct sem_set *s = u->set;
        for (int i = 0; i < s->nsems; i++) {
            if (!u->adj[i])
                continue;
            int v = s->sems[i].val + u->adj[i];
            s->sems[i].val = v < 0 ? 0 : v > SEM_SEMVMX ? SEM_SEMVMX : v;
            s->sems[i].pid = p->pid;
        }
        free(u);
        s->otime = ipc_now(p->machine);
        sem_update(ns, s);
    }
}

/* ---- /proc/sysvipc/sem ---- */

int sem_proc(struct sysv_ipc *ns, FILE *out)
{
    fprintf(out, "       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n");
    for (int i = 0; i <= ns->sem.max_idx; i++) {
        const struct sem_set *s = (const struct sem_set *)ns->sem.slot[i];
        if (!s)
            continue;
        fprintf(out, "%10d %10d  %4o %10u %5u %5u %5u %5u %10llu %10llu\n", s->perm.key,
                s->perm.id, s->perm.mode, (unsigned)s->nsems, s->perm.uid, s->perm.gid,
                s->perm.cuid, s->perm.cgid, (unsigned long long)s->otime,
                (unsigned long long)s->ctime);
    }
    return 0;
}
