/* SPDX-License-Identifier: GPL-2.0-or-later */
/* machine_events.c - builds the kernel layer's events (machine_events.h). */
#include "machine_events.h"
#include "abi.h"

#include <stdio.h>

static uint64_t machine_clock(void *ctx)
{
    return machine_now(ctx);
}

static unsigned machine_running_cpu(void *ctx)
{
    const struct machine *m = ctx;
    return m->slice_task ? m->slice_cpu : MEVENT_NO_CPU;
}

void machine_events_init(struct machine *m)
{
    m->sched.events.clock = machine_clock;
    m->sched.events.running_cpu = machine_running_cpu;
    m->sched.events.clock_ctx = m;
}

static void emit(struct task *t, struct mevent *ev)
{
    ev->ts_ns = machine_now(t->machine);
    /* The vCPU it runs on: a 32-bit exec's narrowing has already set
     * se.cpu to where it goes when its slice ends. */
    ev->cpu = t == t->machine->slice_task ? t->machine->slice_cpu : t->se.cpu;
    sched_event_task(&t->se, &ev->task);
    mevent_emit(&t->machine->sched.events, ev);
}

void machine__emit_exec(struct task *t, const char *path, int old_tid)
{
    struct mevent ev = {.kind = MEVENT_EXEC};
    ev.exec.path = path;
    ev.exec.old_tid = old_tid;
    emit(t, &ev);
}

void machine__emit_exit(struct task *t, int wait_status)
{
    struct mevent ev = {.kind = MEVENT_EXIT};
    ev.exit.wait_status = wait_status;
    emit(t, &ev);
}

void machine__emit_syscall(struct task *t, enum mevent_kind kind, uint64_t nr, int64_t ret)
{
    struct mevent ev = {.kind = kind};
    ev.syscall.nr = nr;
    ev.syscall.name = task_abi(t)->syscall_name(nr);
    ev.syscall.ret = ret;
    emit(t, &ev);
}

void machine__emit_print(struct task *t, const char *msg, uint64_t ip)
{
    struct mevent ev = {.kind = MEVENT_PRINT};
    ev.print.msg = msg;
    ev.print.ip = ip;
    emit(t, &ev);
}
void machine__emit_newtask(struct task *t, int tid, uint64_t clone_flags)
{
    struct mevent ev = {.kind = MEVENT_NEWTASK};
    ev.newtask.tid = tid;
    ev.newtask.clone_flags = clone_flags;
    emit(t, &ev);
}

void machine__emit_signal_generate(struct task *t, int sig, int code, bool group, int result)
{
    struct machine *m = t->machine;
    struct mevent ev = {.kind = MEVENT_SIGNAL_GENERATE, .ts_ns = machine_now(m), .cpu = t->se.cpu};
    ev.src_cpu = machine_running_cpu(m);
    ev.signal.sig = sig;
    ev.signal.code = code;
    ev.signal.group = group;
    ev.signal.result = result;
    sched_event_task(&t->se, &ev.task);
    mevent_emit(&m->sched.events, &ev);
}

void machine__emit_signal_deliver(struct task *t, int sig, int code, uint64_t handler,
                                  uint64_t flags)
{
    struct mevent ev = {.kind = MEVENT_SIGNAL_DELIVER};
    ev.signal.sig = sig;
    ev.signal.code = code;
    ev.signal.handler = handler;
    ev.signal.flags = flags;
    emit(t, &ev);
}

void machine__emit_rename(struct task *t, const char *comm)
{
    struct machine *m = t->machine;
    struct mevent ev = {.kind = MEVENT_RENAME, .ts_ns = machine_now(m), .cpu = t->se.cpu};
    ev.src_cpu = machine_running_cpu(m); /* who renames: the task, or a /proc writer */
    snprintf(ev.rename.comm, sizeof ev.rename.comm, "%s", comm);
    sched_event_task(&t->se, &ev.task);
    mevent_emit(&m->sched.events, &ev);
}

void machine__emit_free(struct task *t)
{
    struct machine *m = t->machine;
    struct mevent ev = {.kind = MEVENT_FREE, .ts_ns = machine_now(m), .cpu = t->se.cpu};
    sched_event_task(&t->se, &ev.task);
    mevent_emit(&m->sched.events, &ev);
}
