/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mevent.c - the event bus: subscribers, delivery, and the task switches a
 * vCPU's runs imply. */
#include "mevent.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[MEVENT_KIND_COUNT] = {
    [MEVENT_RUN] = "run",
    [MEVENT_SWITCH] = "switch",
    [MEVENT_WAKEUP] = "wakeup",
    [MEVENT_MIGRATE] = "migrate",
    [MEVENT_FORK] = "fork",
    [MEVENT_EXEC] = "exec",
    [MEVENT_EXIT] = "exit",
    [MEVENT_AFFINITY] = "affinity",
    [MEVENT_KILL] = "kill",
    [MEVENT_HOTPLUG] = "hotplug",
    [MEVENT_RUNQUEUE] = "runqueue",
    [MEVENT_SYSCALL_ENTER] = "syscall_enter",
    [MEVENT_SYSCALL_EXIT] = "syscall_exit",
    [MEVENT_PRINT] = "print",
    [MEVENT_FREQUENCY] = "frequency",
    [MEVENT_STAT_RUNTIME] = "stat_runtime",
    [MEVENT_NEWTASK] = "newtask",
    [MEVENT_SIGNAL_GENERATE] = "signal_generate",
    [MEVENT_SIGNAL_DELIVER] = "signal_deliver",
    [MEVENT_RENAME] = "rename",
    [MEVENT_FREE] = "free",
};

const char *mevent_kind_name(enum mevent_kind kind)
{
    return (unsigned)kind < MEVENT_KIND_COUNT ? kind_names[kind] : "?";
}

const char *mevent_cause_name(enum mevent_cause cause)
{
    switch (cause) {
    case MEVENT_CAUSE_SETAFFINITY:
        return "sched_setaffinity";
    case MEVENT_CAUSE_EXEC:
        return "exec";
    case MEVENT_CAUSE_CHECK:
        return "return-to-user check";
    case MEVENT_CAUSE_HOTPLUG:
        return "hotplug fallback";
    case MEVENT_CAUSE_FORK:
        return "fork inheritance";
    }
    return "?";
}

const char *mevent_migrate_reason_name(enum mevent_migrate_reason reason)
{
    switch (reason) {
    case MEVENT_MIGRATE_WAKEUP:
        return "wakeup";
    case MEVENT_MIGRATE_BALANCE:
        return "balance";
    case MEVENT_MIGRATE_MISFIT:
        return "misfit";
    case MEVENT_MIGRATE_AFFINITY:
        return "affinity";
    case MEVENT_MIGRATE_HOTPLUG:
        return "hotplug";
    case MEVENT_MIGRATE_EXEC:
        return "exec";
    }
    return "?";
}

/* The idle task (swapper) a vCPU runs when it has nothing else. */
static const struct mevent_task idle = {.tid = 0, .prio = 120};

int mevent_subscribe(struct mevent_bus *bus, uint32_t kinds, mevent_fn fn, void *ctx)
{
    if (bus->nsubs == MEVENT_SUBS_MAX)
        return -ENOSPC;
    uint32_t runs = MEVENT_BIT(MEVENT_RUN) | MEVENT_BIT(MEVENT_SWITCH);
    if ((kinds & runs) && !bus->cpus) {
        bus->cpus = calloc(bus->nr_cpus ? bus->nr_cpus : 1, sizeof(*bus->cpus));
        if (!bus->cpus)
            return -ENOMEM;
        for (unsigned cpu = 0; cpu < bus->nr_cpus; cpu++)
            bus->cpus[cpu].last = idle;
    }
    bus->subs[bus->nsubs++] = (struct mevent_sub){.fn = fn, .ctx = ctx, .kinds = kinds};
    bus->wanted |= kinds;
    /* Switches are derived from runs. */
    if (kinds & MEVENT_BIT(MEVENT_SWITCH))
        bus->wanted |= MEVENT_BIT(MEVENT_RUN);
    return 0;
}

static void deliver(const struct mevent_bus *bus, const struct mevent *ev)
{
    for (unsigned i = 0; i < bus->nsubs; i++)
        if (bus->subs[i].kinds & MEVENT_BIT(ev->kind))
            bus->subs[i].fn(bus->subs[i].ctx, ev);
}

static void report_switch(const struct mevent_bus *bus, unsigned cpu, uint64_t ts,
                          const struct mevent_task *prev, enum mevent_run_end prev_end,
                          const struct mevent_task *next)
{
    struct mevent ev = {.kind = MEVENT_SWITCH, .ts_ns = ts, .cpu = cpu, .task = *next};
    ev.sw.prev = *prev;
    ev.sw.prev_end = prev_end;
    deliver(bus, &ev);
}

/* A vCPU switches when the task that runs is not the one that ran last, or
 * when the last one left (blocked, exited, moved): then at the time it left,
 * to the next task if it starts right then, else to idle first. */
static void derive_switch(struct mevent_bus *bus, const struct mevent *run)
{
    if (run->cpu >= bus->nr_cpus)
        return;
    struct mevent_cpu_state *st = &bus->cpus[run->cpu];
    if (st->left) {
        if (st->end_ns < run->ts_ns) {
            report_switch(bus, run->cpu, st->end_ns, &st->last, st->end, &idle);
            report_switch(bus, run->cpu, run->ts_ns, &idle, MEVENT_END_RUNNABLE, &run->task);
        } else {
            report_switch(bus, run->cpu, run->ts_ns, &st->last, st->end, &run->task);
        }
    } else if (st->last.tid != run->task.tid) {
        report_switch(bus, run->cpu, run->ts_ns, &st->last, MEVENT_END_RUNNABLE, &run->task);
    }
    st->last = run->task;
    st->left = run->run.end != MEVENT_END_RUNNABLE;
    st->end = run->run.end;
    st->end_ns = run->run.end_ns;
}

void mevent_slice_start(struct mevent_bus *bus, unsigned cpu, const struct mevent_task *task)
{
    if (bus->cpus && cpu < bus->nr_cpus)
        bus->cpus[cpu].slice = *task;
}

const struct mevent_task *mevent_slice_task(const struct mevent_bus *bus, unsigned cpu,
                                            const struct mevent_task *now)
{
    if (bus->cpus && cpu < bus->nr_cpus && bus->cpus[cpu].slice.tid == now->tid)
        return &bus->cpus[cpu].slice;
    return now;
}

void mevent_emit(struct mevent_bus *bus, const struct mevent *ev)
{
    deliver(bus, ev);
    if (ev->kind == MEVENT_RUN && (bus->wanted & MEVENT_BIT(MEVENT_SWITCH)))
        derive_switch(bus, ev);
}

void mevent_close(struct mevent_bus *bus)
{
    for (unsigned cpu = 0; bus->cpus && cpu < bus->nr_cpus; cpu++) {
        struct mevent_cpu_state *st = &bus->cpus[cpu];
        if (st->left)
            report_switch(bus, cpu, st->end_ns, &st->last, st->end, &idle);
    }
    free(bus->cpus);
    bus->cpus = NULL;
    bus->nsubs = 0;
    bus->wanted = 0;
}
