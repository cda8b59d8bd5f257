/* SPDX-License-Identifier: GPL-2.0-or-later */
/* waitq.c - tasks by tid, wait queues and task timeouts (waitq.h). Wait
 * queues are chained hash buckets keyed by (object, key), each a FIFO of
 * wait nodes, so a wake-up touches only the tasks that wait on the same
 * thing (and the rare ones hashed alike); a timed wait is a ktimer. */
#include "ktimer.h"
#include "machine.h"
#include "task.h"
#include "waitq.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#define TID_BUCKETS 4096u
#define WAIT_BUCKETS 4096u

struct wait_bucket {
    struct wait_node *head, *tail;
};

struct task_index {
    struct task *by_tid[TID_BUCKETS];
    struct wait_bucket waiting[WAIT_BUCKETS];
};

int task_index_init(struct machine *m)
{
    m->index = calloc(1, sizeof *m->index);
    m->tasks_tail = &m->tasks;
    return m->index ? 0 : -ENOMEM;
}

void task_index_destroy(struct machine *m)
{
    free(m->index);
    m->index = NULL;
}

static struct task **tid_bucket(const struct machine *m, int tid)
{
    return &m->index->by_tid[(unsigned)tid % TID_BUCKETS];
}

static struct wait_bucket *wait_bucket(const struct machine *m, const void *obj, uint64_t key)
{
    uint64_t h = (uint64_t)(uintptr_t)obj * 0x9e3779b97f4a7c15ull ^ key * 0xc2b2ae3d27d4eb4full;
    return &m->index->waiting[(h >> 32) % WAIT_BUCKETS];
}

static void timeout_fired(struct ktimer *k)
{
    struct task *t = (struct task *)((char *)k - offsetof(struct task, timeout));
    if (t->state == TASK_BLOCKED)
        task_wake(t);
}

void task_index_add(struct task *t)
{
    struct machine *m = t->machine;
    struct task **b = tid_bucket(m, t->tid);
    t->next_tid = *b;
    *b = t;
    t->prev_all = m->tasks_tail;
    *m->tasks_tail = t;
    m->tasks_tail = &t->next_all;
    t->wait_node.task = t;
    t->timeout.fire = timeout_fired;
}

static void node_link(struct machine *m, struct wait_node *n, const void *obj, uint64_t key)
{
    struct wait_bucket *b = wait_bucket(m, obj, key);
    n->obj = obj;
    n->key = key;
    n->bucket = b;
    n->next = NULL;
    n->prev = b->tail;
    if (b->tail)
        b->tail->next = n;
    else
        b->head = n;
    b->tail = n;
}

static void node_unlink(struct wait_node *n)
{
    struct wait_bucket *b = n->bucket;
    if (!b)
        return;
    if (n->prev)
        n->prev->next = n->next;
    else
        b->head = n->next;
    if (n->next)
        n->next->prev = n->prev;
    else
        b->tail = n->prev;
    n->next = n->prev = NULL;
    n->bucket = NULL;
}

void waitq_drop_extra(struct task *t)
{
    while (t->extra_waits) {
        struct wait_node *n = t->extra_waits;
        t->extra_waits = n->next_extra;
        node_unlink(n);
        free(n);
    }
}

void waitq_update(struct task *t)
{
    struct machine *m = t->machine;
    struct wait_node *n = &t->wait_node;
    bool blocked = t->state == TASK_BLOCKED;
    bool want = blocked && t->wait_obj;
    if (n->bucket && (!want || n->obj != t->wait_obj || n->key != t->wait_key))
        node_unlink(n);
    if (want && !n->bucket)
        node_link(m, n, t->wait_obj, t->wait_key);
    if (!blocked)
        waitq_drop_extra(t);
    if (blocked && t->deadline_ns) {
        if (!t->timeout.armed || t->timeout.when != t->deadline_ns)
            ktimer_arm(m, &t->timeout, t->deadline_ns);
    } else {
        ktimer_cancel(m, &t->timeout);
    }
}

int waitq_add(struct task *t, const void *obj)
{
    return waitq_add_key(t, obj, 0);
}

int waitq_add_key(struct task *t, const void *obj, uint64_t key)
{
    if (!obj)
        return 0;
    struct wait_node *n = calloc(1, sizeof *n);
    if (!n)
        return -ENOMEM;
    n->task = t;
    n->next_extra = t->extra_waits;
    t->extra_waits = n;
    node_link(t->machine, n, obj, key);
    return 0;
}

static void tid_unlink(struct task *t)
{
    for (struct task **pp = tid_bucket(t->machine, t->tid); *pp; pp = &(*pp)->next_tid)
        if (*pp == t) {
            *pp = t->next_tid;
            break;
        }
}

void task_index_retid(struct task *t, int tid)
{
    tid_unlink(t);
    t->tid = tid;
    struct task **b = tid_bucket(t->machine, tid);
    t->next_tid = *b;
    *b = t;
}

void task_index_remove(struct task *t)
{
    struct machine *m = t->machine;
    node_unlink(&t->wait_node);
    waitq_drop_extra(t);
    ktimer_cancel(m, &t->timeout);
    tid_unlink(t);
    *t->prev_all = t->next_all;
    if (t->next_all)
        t->next_all->prev_all = t->prev_all;
    else
        m->tasks_tail = t->prev_all;
}

void waiters_get(struct waiters *w, const struct machine *m, const void *obj, uint64_t key)
{
    struct wait_bucket *b = wait_bucket(m, obj, key);
    size_t cap = sizeof w->small / sizeof *w->small;
    w->task = w->small;
    w->n = 0;
    for (struct wait_node *n = b->head; n; n = n->next) {
        if (n->obj != obj || n->key != key || n->task->state != TASK_BLOCKED)
            continue;
        if (w->n == cap) {
            struct task **more = malloc(2 * cap * sizeof *more);
            if (!more)
                break; /* out of host memory: the rest wake on a later notify */
            for (size_t i = 0; i < w->n; i++)
                more[i] = w->task[i];
            if (w->task != w->small)
                free(w->task);
            w->task = more;
            cap *= 2;
        }
        w->task[w->n++] = n->task;
    }
}

void waiters_put(struct waiters *w)
{
    if (w->task != w->small)
        free(w->task);
    w->task = NULL;
    w->n = 0;
}

struct task *task_find(struct machine *m, int tid)
{
    for (struct task *t = *tid_bucket(m, tid); t; t = t->next_tid)
        if (t->tid == tid && t->state != TASK_DEAD)
            return t;
    return NULL;
}

struct task *task_find_unreaped(struct machine *m, int tid)
{
    for (struct task *t = *tid_bucket(m, tid); t; t = t->next_tid)
        if (t->tid == tid && (t->state != TASK_DEAD || t->proc->pid == tid))
            return t;
    return NULL;
}

struct process *process_find(struct machine *m, int pid)
{
    /* A process's pid is its leader's tid; the leader stays until reaped. */
    for (struct task *t = *tid_bucket(m, pid); t; t = t->next_tid)
        if (t->tid == pid && t->proc->pid == pid && !t->proc->zombie)
            return t->proc;
    return NULL;
}
