/* waitq.c - tasks by tid, wait queues and task timeouts (waitq.h). Wait
 * queues are chained hash buckets keyed by (wait_obj, wait_key), each a
 * FIFO, so a wake-up touches only the tasks that wait on the same thing
 * (and the rare ones hashed alike); a timed wait is a ktimer. */
#include "waitq.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#define TID_BUCKETS 4096u
#define WAIT_BUCKETS 4096u

struct wait_bucket {
    struct task *head, *tail;
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
    t->timeout.fire = timeout_fired;
}

static void wait_unlink(struct task *t)
{
    if (!t->wait_bucket)
        return;
    struct wait_bucket *b = t->wait_bucket;
    if (t->wait_prev)
        t->wait_prev->wait_next = t->wait_next;
    else
        b->head = t->wait_next;
    if (t->wait_next)
        t->wait_next->wait_prev = t->wait_prev;
    else
        b->tail = t->wait_prev;
    t->wait_next = t->wait_prev = NULL;
    t->wait_bucket = NULL;
}

void waitq_update(struct task *t)
{
    struct machine *m = t->machine;
    bool blocked = t->state == TASK_BLOCKED;
    struct wait_bucket *want = blocked && t->wait_obj ? wait_bucket(m, t->wait_obj, t->wait_key) : NULL;
    if (t->wait_bucket != want || (want && t->queued_obj != t->wait_obj) ||
        (want && t->queued_key != t->wait_key)) {
        wait_unlink(t);
        if (want) {
            t->wait_prev = want->tail;
            if (want->tail)
                want->tail->wait_next = t;
            else
                want->head = t;
            want->tail = t;
            t->wait_bucket = want;
            t->queued_obj = t->wait_obj;
            t->queued_key = t->wait_key;
        }
    }
    if (blocked && t->deadline_ns) {
        if (!t->timeout.armed || t->timeout.when != t->deadline_ns)
            ktimer_arm(m, &t->timeout, t->deadline_ns);
    } else {
        ktimer_cancel(m, &t->timeout);
    }
}

void task_index_remove(struct task *t)
{
    struct machine *m = t->machine;
    wait_unlink(t);
    ktimer_cancel(m, &t->timeout);
    for (struct task **pp = tid_bucket(m, t->tid); *pp; pp = &(*pp)->next_tid)
        if (*pp == t) {
            *pp = t->next_tid;
            break;
        }
    *t->prev_all = t->next_all;
    if (t->next_all)
        t->next_all->prev_all = t->prev_all;
    else
        m->tasks_tail = t->prev_all;
}

static bool waits_on(const struct task *t, const void *obj, uint64_t key)
{
    return t->state == TASK_BLOCKED && t->wait_obj == obj && t->wait_key == key;
}

static struct task *from(struct task *t, const void *obj, uint64_t key)
{
    while (t && !waits_on(t, obj, key))
        t = t->wait_next;
    return t;
}

struct task *waitq_first(const struct machine *m, const void *obj, uint64_t key)
{
    return from(wait_bucket(m, obj, key)->head, obj, key);
}

struct task *waitq_next(const struct task *t)
{
    return from(t->wait_next, t->queued_obj, t->queued_key);
}

struct task *task_find(struct machine *m, int tid)
{
    for (struct task *t = *tid_bucket(m, tid); t; t = t->next_tid)
        if (t->tid == tid && t->state != TASK_DEAD)
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
