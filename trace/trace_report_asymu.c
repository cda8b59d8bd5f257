/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report_asymu.c - `asymu report` of the ftrace text and the
 * trace.dat: their asymu_machine and asymu_report events (trace_asymu.c)
 * hold what the JSON trace's otherData, runs and instants hold, so they
 * become the same struct trace_report, checked as trace_report.c checks
 * the JSON. */
#include "trace_report-int.h"
#include "sort.h"
#include "trace-int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* trace_report.c's MAX_TS_US, in ns. */
#define MAX_TS_NS UINT64_C(1000000000000000)

static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

void report_copy(char *out, size_t len, const char *s)
{
    size_t i = 0;
    for (; s[i] && i + 1 < len; i++)
        out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    out[i] = '\0';
}

struct trace_report *report_new(const char *name)
{
    struct trace_report *r = calloc(1, sizeof *r);
    if (r)
        report_copy(r->name, sizeof r->name, name);
    return r;
}

int report_asymu_machine(struct trace_report *r, long long cpus, const char *aarch32,
                         const char *policy, unsigned long long seed, const char *capacity,
                         char *why, size_t len)
{
    char list[128];
    if (r->nr_cpus)
        return fail(why, len, "a second asymu_machine");
    if (cpus < 1 || cpus > NR_CPUS_MAX)
        return fail(why, len, "asymu_machine: 'cpus' %lld is out of range 1-%d", cpus, NR_CPUS_MAX);
    if (cpulist_parse(aarch32, (unsigned)cpus, &r->aarch32, list, sizeof list) < 0)
        return fail(why, len, "asymu_machine: 'aarch32' \"%s\": %s", aarch32, list);
    r->capacity = calloc((size_t)cpus, sizeof *r->capacity);
    if (!r->capacity)
        return fail(why, len, "out of memory");
    const char *p = capacity;
    for (long long cpu = 0; cpu < cpus; cpu++) {
        char *end;
        unsigned long c = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
        if (c < 1 || c > 1024 || end - p > 4 || *end != (cpu + 1 < cpus ? ',' : '\0'))
            return fail(why, len,
                        "asymu_machine: 'capacity' \"%s\" is not a list of %lld "
                        "capacities 1-1024",
                        capacity, cpus);
        r->capacity[cpu] = (unsigned)c;
        p = end + 1;
    }
    report_copy(r->policy, sizeof r->policy, policy);
    r->seed = (uint64_t)seed;
    r->nr_cpus = (unsigned)cpus;
    return 0;
}

static int task(const struct report_asymu *a, struct report_task_id *t, char *why, size_t len)
{
    if (a->pid < 0 || a->pid > INT32_MAX || a->tgid < 0 || a->tgid > INT32_MAX)
        return fail(why, len, "pid %lld or tgid %lld is out of range 0-%d", a->pid, a->tgid,
                    INT32_MAX);
    t->pid = (int)a->tgid; /* the JSON's pid: the process */
    t->tid = (int)a->pid;
    report_copy(t->comm, sizeof t->comm, a->comm);
    return 0;
}

static int run(struct trace_report *r, const struct report_asymu *a, char *why, size_t len)
{
    struct report_run run = {.cpu = (unsigned)a->cpu, .start = a->ts_ns, .end = a->end_ns};
    if (a->end_ns < a->ts_ns || a->end_ns > MAX_TS_NS)
        return fail(why, len, "run end_ns %llu is not in %llu-%llu", a->end_ns, a->ts_ns,
                    (unsigned long long)MAX_TS_NS);
    if (strcmp(a->isa, "aarch32") != 0 && strcmp(a->isa, "aarch64") != 0)
        return fail(why, len, "isa \"%s\" is neither aarch32 nor aarch64", a->isa);
    run.compat = a->isa[5] == '3';
    static const char *const ends[] = {[REPORT_END_RUNNABLE] = "runnable",
                                       [REPORT_END_MOVED] = "moved",
                                       [REPORT_END_BLOCKED] = "blocked",
                                       [REPORT_END_DEAD] = "dead"};
    for (unsigned e = REPORT_END_RUNNABLE; e <= REPORT_END_DEAD; e++)
        if (strcmp(a->why, ends[e]) == 0)
            run.how = (enum report_end)e;
    if (run.how == REPORT_END_UNKNOWN)
        return fail(why, len, "run end \"%s\" is not runnable, moved, blocked or dead", a->why);
    if (task(a, &run.task, why, len) < 0)
        return -1;
    if (r->nr_runs == r->cap_runs) {
        size_t cap = r->cap_runs ? r->cap_runs * 2 : 64;
        struct report_run *runs = realloc(r->runs, cap * sizeof *runs);
        if (!runs)
            return fail(why, len, "out of memory");
        r->runs = runs;
        r->cap_runs = cap;
    }
    r->runs[r->nr_runs++] = run;
    return 0;
}

/* asymu_affinity's cause token (trace_cause_token()) as the JSON names it. */
static const char *cause_name(const char *token)
{
    for (int c = MEVENT_CAUSE_SETAFFINITY; c <= MEVENT_CAUSE_FORK; c++)
        if (strcmp(trace_cause_token((enum mevent_cause)c), token) == 0)
            return mevent_cause_name((enum mevent_cause)c);
    return NULL;
}

static int cpus(const struct trace_report *r, const char *key, const char *list, struct cpumask *m,
                char *why, size_t len)
{
    char msg[128];
    if (cpulist_parse(list, r->nr_cpus, m, msg, sizeof msg) < 0)
        return fail(why, len, "'%s' \"%s\": %s", key, list, msg);
    return 0;
}

int report_asymu_add(struct trace_report *r, const struct report_asymu *a, char *why, size_t len)
{
    if (!r->nr_cpus)
        return fail(why, len, "asymu_report before asymu_machine");
    if (a->cpu >= r->nr_cpus)
        return fail(why, len, "cpu %llu is out of range 0-%u", a->cpu, r->nr_cpus - 1);
    if (a->ts_ns > MAX_TS_NS)
        return fail(why, len, "ts_ns %llu is out of range", a->ts_ns);
    if (strcmp(a->what, "run") == 0)
        return run(r, a, why, len);
    struct report_instant in = {.index = (size_t)a->seq, .ts = a->ts_ns, .cpu = (unsigned)a->cpu};
    if (strcmp(a->what, "wakeup") == 0)
        in.kind = REPORT_WAKEUP;
    else if (strcmp(a->what, "migrate") == 0)
        in.kind = REPORT_MIGRATE;
    else if (strcmp(a->what, "affinity") == 0)
        in.kind = REPORT_AFFINITY;
    else if (strcmp(a->what, "offline") == 0)
        in.kind = REPORT_OFFLINE;
    else if (strcmp(a->what, "online") == 0)
        in.kind = REPORT_ONLINE;
    else
        return fail(why, len,
                    "what \"%s\" is not run, wakeup, migrate, affinity, offline or "
                    "online",
                    a->what);
    if (in.kind != REPORT_OFFLINE && in.kind != REPORT_ONLINE && task(a, &in.task, why, len) < 0)
        return -1;
    if (in.kind == REPORT_MIGRATE) {
        if (a->from < 0 || a->from >= r->nr_cpus || a->to < 0 || a->to >= r->nr_cpus)
            return fail(why, len, "from %lld or to %lld is out of range 0-%u", a->from, a->to,
                        r->nr_cpus - 1);
        in.from = (unsigned)a->from;
        in.to = (unsigned)a->to;
        report_copy(in.recorded, sizeof in.recorded, a->why);
    } else if (in.kind == REPORT_AFFINITY) {
        const char *cause = cause_name(a->why);
        if (!cause)
            return fail(why, len, "affinity cause \"%s\" is unknown", a->why);
        if (cpus(r, "old_cpus", a->old_cpus, &in.old_mask, why, len) < 0 ||
            cpus(r, "cpus", a->cpus, &in.new_mask, why, len) < 0)
            return -1;
        report_copy(in.rule, sizeof in.rule, a->rule);
        report_copy(in.cause, sizeof in.cause, cause);
    }
    if (r->nr_instants == r->cap_instants) {
        size_t cap = r->cap_instants ? r->cap_instants * 2 : 64;
        struct report_instant *ins = realloc(r->instants, cap * sizeof *ins);
        if (!ins)
            return fail(why, len, "out of memory");
        r->instants = ins;
        r->cap_instants = cap;
    }
    r->instants[r->nr_instants++] = in;
    return 0;
}

static int by_seq(const void *a, const void *b)
{
    const struct report_instant *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

void report_asymu_order(struct trace_report *r)
{
    sort_items(r->instants, r->nr_instants, sizeof *r->instants, by_seq);
}
