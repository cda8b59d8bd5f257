/* waitq.h - the machine's indexes of tasks, so that no lookup or wake-up
 * walks every task: tasks by tid, blocked tasks by what they wait on
 * (wait queues), and timed waits as kernel timers. */
#ifndef ASYMU_WAITQ_H
#define ASYMU_WAITQ_H

#include "kernel.h"

/* Allocates and frees the machine's tables (machine_boot, machine_shutdown). */
int task_index_init(struct machine *m);
void task_index_destroy(struct machine *m);

/* Adds a new task to the tid table and the machine's task list; removes a
 * task being freed from every index. */
void task_index_add(struct task *t);
void task_index_remove(struct task *t);

/* Puts t on the wait queue of (wait_obj, wait_key) and arms its timeout
 * when it is blocked, takes it off both otherwise. Called wherever a task's
 * state, wait_obj, wait_key or deadline_ns changes. */
void waitq_update(struct task *t);

/* The first blocked task waiting on (obj, key), in the order they started
 * waiting, and the next after t; NULL at the end. A task may be woken (and
 * leave the queue) between the two calls if next was taken first. */
struct task *waitq_first(const struct machine *m, const void *obj, uint64_t key);
struct task *waitq_next(const struct task *t);

#endif
