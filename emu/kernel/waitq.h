/* SPDX-License-Identifier: GPL-2.0-or-later */
/* waitq.h - the machine's indexes of tasks, so that no lookup or wake-up
 * walks every task: tasks by tid, blocked tasks by what they wait on (wait
 * queues), and timed waits as kernel timers. */
#ifndef ASYMU_WAITQ_H
#define ASYMU_WAITQ_H

#include <stddef.h>
#include <stdint.h>

struct machine;
struct task;
struct wait_bucket;

/* A blocked task's place on one wait queue (waitq.h): its own wait
 * (wait_obj, wait_key) or one of the extra ones poll and select add for
 * each descriptor. */
struct wait_node {
    struct task *task;
    const void *obj;
    uint64_t key;
    struct wait_bucket *bucket; /* NULL while not queued */
    struct wait_node *next, *prev, *next_extra;
};

/* Allocates and frees the machine's tables (machine_boot, machine_shutdown). */
int task_index_init(struct machine *m);
void task_index_destroy(struct machine *m);

/* Adds a new task to the tid table and the machine's task list; removes a
 * task being freed from every index. */
void task_index_add(struct task *t);
void task_index_remove(struct task *t);
/* Gives t another tid, in the tid table too (exec from a thread, which
 * takes its leader's). */
void task_index_retid(struct task *t, int tid);

/* Puts t on the wait queue of (wait_obj, wait_key) and arms its timeout
 * when it is blocked; takes it off every queue and disarms it otherwise.
 * Called wherever a task's state, wait_obj, wait_key or deadline_ns
 * changes. */
void waitq_update(struct task *t);

/* Also wake t when obj is notified: poll and select add one per descriptor
 * as they scan them. The extra waits last until t stops being blocked, or
 * until waitq_drop_extra. -ENOMEM if the host has no memory for one. */
int waitq_add(struct task *t, const void *obj);
/* The same on the queue (obj, key): futex_waitv's other futexes. */
int waitq_add_key(struct task *t, const void *obj, uint64_t key);
void waitq_drop_extra(struct task *t);

/* The tasks waiting on (obj, key), in the order they started waiting
 * (a task waiting twice is there twice). */
struct waiters {
    struct task **task;
    size_t n;
    struct task *small[16];
};
void waiters_get(struct waiters *w, const struct machine *m, const void *obj, uint64_t key);
void waiters_put(struct waiters *w);

#endif
