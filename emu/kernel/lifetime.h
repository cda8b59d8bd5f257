/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lifetime.h - when tasks are freed, what ends a task's life early, and the
 * back-pointers that must not outlive their target.
 *
 * A thread that exits is freed by the machine loop soon after (between two
 * slices, when no handler is running and nothing holds it), unless it is
 * its process's leader: the leader stays, TASK_DEAD, until the process is
 * reaped, as Linux's group leader stays a zombie. Nothing keeps a pointer
 * to a task across slices but the task lists: timers name their thread by
 * tid, waits are on objects, and the links below are cleared at exit.
 *
 * A vfork parent and its child point at each other (task->vfork_child,
 * process->vfork_waiter) until the child execs or exits, or the parent
 * dies: whichever side goes first clears both links, so neither side ever
 * touches the other after it was freed (Linux clears child->vfork_done).
 *
 * A fatal signal ends every blocking wait at once, before the wait's own
 * resume function runs (syscall_resume), the way Linux's killable and
 * interruptible sleeps end for SIGKILL. */
#ifndef ASYMU_LIFETIME_H
#define ASYMU_LIFETIME_H

#include <stdint.h>

struct machine;
struct process;
struct task;

/* Frees the exited threads that are not leaders (their CPU time stays
 * with the process). The machine loop calls it between slices. */
void task_free_exited(struct machine *m);
/* Queues the dead thread t for task_free_exited: what exit does for a
 * thread that is not the leader, and exec for the leader a thread replaced. */
void task_queue_free(struct task *t);

/* Blocks the vfork parent t until child (whose first thread has tid
 * child_tid) execs or exits: returns -EBLOCK for do_clone. */
int64_t vfork_wait(struct task *t, struct process *child, int child_tid);
/* The child execs or exits: its vfork parent, if any, resumes. */
void vfork_release(struct process *child);
/* t dies: a child it waits for in vfork forgets it. */
void vfork_abandon(struct task *t);

/* The signal that kills t's process as soon as t looks at its signals:
 * SIGKILL, or one t does not block whose action is the default and the
 * default terminates without a core dump (Linux turns those into a group
 * SIGKILL when they are sent, unless the task is traced: its tracer sees
 * them first). 0 when there is none. */
int signal_fatal(const struct task *t);

/* p's parent hears of its exit: its exit signal, and its waits look again
 * (at once, or when p's tracer has collected the exit: ptrace.h). */
void process_notify_parent_exit(struct process *p);

#endif
