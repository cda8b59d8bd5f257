/* machine_events.h - what the kernel layer reports on the machine's event
 * stream (sched/mevent.h): exec, exit and syscalls, with the task's vCPU
 * and the virtual time inside the running slice. One inline call per
 * emission point; with no subscriber it is one predictable branch. */
#ifndef ASYMU_MACHINE_EVENTS_H
#define ASYMU_MACHINE_EVENTS_H

#include "machine.h"
#include "mevent.h"
#include "task.h"

/* Gives the stream the machine's clock (machine_now): events inside a slice
 * carry the time the guest has reached in it. */
void machine_events_init(struct machine *m);

void machine__emit_exec(struct task *t, const char *path, int old_tid);
void machine__emit_exit(struct task *t, int wait_status);
void machine__emit_syscall(struct task *t, enum mevent_kind kind, uint64_t nr, int64_t ret);
void machine__emit_print(struct task *t, const char *msg, uint64_t ip);

/* t's execve passed its point of no return with the image at guest path. */
static inline void mev_exec(struct task *t, const char *path, int old_tid)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_EXEC))
        machine__emit_exec(t, path, old_tid);
}

/* Thread t ends with a wait(2) status. */
static inline void mev_exit(struct task *t, int wait_status)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_EXIT))
        machine__emit_exit(t, wait_status);
}

static inline void mev_syscall_enter(struct task *t, uint64_t nr)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_SYSCALL_ENTER))
        machine__emit_syscall(t, MEVENT_SYSCALL_ENTER, nr, 0);
}

static inline void mev_syscall_exit(struct task *t, uint64_t nr, int64_t ret)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_SYSCALL_EXIT))
        machine__emit_syscall(t, MEVENT_SYSCALL_EXIT, nr, ret);
}

/* t wrote msg to tracefs's trace_marker (tracing_mark_write). */
static inline void mev_print(struct task *t, const char *msg, uint64_t ip)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_PRINT))
        machine__emit_print(t, msg, ip);
}

#endif
