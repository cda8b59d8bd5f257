/* machine_events.c - builds the kernel layer's events (machine_events.h). */
#include "machine_events.h"
#include "abi.h"

static uint64_t machine_clock(void *ctx)
{
    return machine_now(ctx);
}

void machine_events_init(struct machine *m)
{
    m->sched.events.clock = machine_clock;
    m->sched.events.clock_ctx = m;
}

static void emit(struct task *t, struct mevent *ev)
{
    ev->ts_ns = machine_now(t->machine);
    ev->cpu = t->se.cpu;
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
