/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_asymu.c - the asymu_report records of the ftrace text and the
 * trace.dat: what `asymu report` reads, as the JSON trace has it
 * (trace_json.c), so that the three formats of one run give one report.
 * The kernel's own events do not carry it: their text has microseconds
 * (trace_print_time()), sched_switch no tgid, ISA or "moved", and
 * sched_migrate_task no reason; and asymu's runs are split where a task's
 * comm or ISA changes (exec), which no sched_switch shows. */
#include "trace-int.h"

#include <stdlib.h>
#include <string.h>

static void task(struct trace_asymu *a, const struct mevent_task *t)
{
    a->pid = t->tid;
    a->tgid = t->tgid;
    trace_text(t->comm, a->comm, sizeof a->comm);
    a->isa = trace_isa(t);
}

static void blank(struct trace_asymu *a, const char *what, unsigned cpu, uint64_t ts)
{
    *a = (struct trace_asymu){.what = what,
                              .cpu = cpu,
                              .ts_ns = ts,
                              .from = -1,
                              .to = -1,
                              .isa = "-",
                              .rule = "-",
                              .why = "-"};
    strcpy(a->comm, "-");
    strcpy(a->old_cpus, "-");
    strcpy(a->cpus, "-");
}

static bool instant(const struct mevent *ev, unsigned nr_cpus, struct trace_asymu *a)
{
    /* the vCPU trace_json.c's instant() puts it on */
    unsigned cpu = ev->cpu < nr_cpus ? ev->cpu : 0;
    switch (ev->kind) {
    case MEVENT_WAKEUP:
        blank(a, "wakeup", cpu, ev->ts_ns);
        task(a, &ev->task);
        a->why = ev->wakeup.new_task ? "new" : "wakeup";
        return true;
    case MEVENT_MIGRATE:
        blank(a, "migrate", cpu, ev->ts_ns);
        task(a, &ev->task);
        a->from = (int)ev->migrate.from;
        a->to = (int)ev->migrate.to;
        a->why = mevent_migrate_reason_name(ev->migrate.reason);
        return true;
    case MEVENT_AFFINITY:
        blank(a, "affinity", cpu, ev->ts_ns);
        task(a, &ev->task);
        cpulist_format(ev->affinity.old_mask, a->old_cpus, sizeof a->old_cpus);
        cpulist_format(ev->affinity.new_mask, a->cpus, sizeof a->cpus);
        a->rule = ev->affinity.rule;
        a->why = trace_cause_token(ev->affinity.cause);
        return true;
    case MEVENT_HOTPLUG:
        blank(a, ev->hotplug.online ? "online" : "offline", cpu, ev->ts_ns);
        return true;
    default:
        return false;
    }
}

bool trace_asymu_of(struct trace_asymu_runs *rs, const struct mevent *ev, struct trace_asymu *a)
{
    if (!instant(ev, rs->nr_cpus, a))
        return false;
    a->seq = rs->seq++;
    return true;
}

/* trace_json.c's end_name(). */
static const char *end_name(enum mevent_run_end end)
{
    switch (end) {
    case MEVENT_END_BLOCKED:
        return "blocked";
    case MEVENT_END_DEAD:
        return "dead";
    case MEVENT_END_MOVED:
        return "moved";
    default:
        return "runnable";
    }
}

int trace_asymu_runs_init(struct trace_asymu_runs *rs, unsigned nr_cpus)
{
    rs->nr_cpus = nr_cpus;
    rs->seq = 0;
    rs->runs = calloc(nr_cpus, sizeof *rs->runs);
    rs->ends = calloc(nr_cpus, sizeof *rs->ends);
    if (!rs->runs || !rs->ends) {
        free(rs->runs);
        free(rs->ends);
        rs->runs = NULL;
        rs->ends = NULL;
        return -1;
    }
    return 0;
}

/* trace_json.c's flush_run(): a run of no time is not shown. */
static void flush(struct trace_asymu_runs *rs, unsigned cpu, trace_asymu_fn fn, void *ctx)
{
    struct trace_run *r = &rs->runs[cpu];
    if (!r->open)
        return;
    r->open = false;
    if (r->end_ns == r->start_ns)
        return;
    struct trace_asymu a;
    blank(&a, "run", cpu, r->start_ns);
    task(&a, &r->task);
    a.end_ns = r->end_ns;
    a.why = end_name(rs->ends[cpu]);
    a.seq = rs->seq++;
    fn(ctx, &a);
}

void trace_asymu_run(struct trace_asymu_runs *rs, const struct mevent *ev, trace_asymu_fn fn,
                     void *ctx)
{
    if (!rs->runs || ev->kind != MEVENT_RUN || ev->cpu >= rs->nr_cpus)
        return;
    if (!trace_run_extend(&rs->runs[ev->cpu], ev)) {
        flush(rs, ev->cpu, fn, ctx);
        trace_run_start(&rs->runs[ev->cpu], ev);
    }
    rs->ends[ev->cpu] = ev->run.end;
}

void trace_asymu_runs_end(struct trace_asymu_runs *rs, trace_asymu_fn fn, void *ctx)
{
    for (unsigned cpu = 0; rs->runs && cpu < rs->nr_cpus; cpu++)
        flush(rs, cpu, fn, ctx);
    free(rs->runs);
    free(rs->ends);
    rs->runs = NULL;
    rs->ends = NULL;
}

void trace_machine_lists(const struct trace_machine *m, char aarch32[4096], char capacity[4096])
{
    cpulist_format(&m->aarch32, aarch32, 4096);
    size_t n = 0;
    capacity[0] = '\0';
    for (unsigned cpu = 0; cpu < m->nr_cpus && n < 4096; cpu++) {
        unsigned cap = cpu < NR_CPUS_MAX ? m->capacity[cpu] : 0;
        int k = snprintf(capacity + n, 4096 - n, "%s%u", cpu ? "," : "", cap ? cap : 1024);
        n += k > 0 ? (size_t)k : 0;
    }
}
