/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report_live.c - `asymu report`'s statistics of a run while it
 * happens, for the timeline's side panel (trace_svg.c): the machine's
 * events become the asymu_report records the ftrace text and the trace.dat
 * carry (trace_asymu.c), and those the struct trace_report that `asymu
 * report` reads from such a file (report_asymu_add), worked out by the
 * same report_analyse. So the panel's numbers are the report's of the same
 * run, not a second computation of them. */
#include "trace_report-int.h"
#include "trace-int.h"

#include <stdlib.h>
#include <string.h>

struct report_live {
    struct trace_report *r;
    struct trace_asymu_runs runs;
    struct trace_keep *keep; /* the writer's budget, which the records count in */
    char why[128];           /* the first record refused ("" if none) */
};

/* struct trace_asymu's fields as report_asymu_add takes a record the
 * readers of the text and the trace.dat parsed. */
static void add(void *ctx, const struct trace_asymu *a)
{
    struct report_live *l = ctx;
    if (l->why[0] || l->keep->dropped) /* past the budget: the run up to there */
        return;
    size_t size =
        strcmp(a->what, "run") == 0 ? sizeof(struct report_run) : sizeof(struct report_instant);
    if (!trace_keep(l->keep, size))
        return;
    struct report_asymu *ra = calloc(1, sizeof *ra); /* 8 KiB of masks: not on the stack */
    if (!ra) {
        snprintf(l->why, sizeof l->why, "out of memory");
        return;
    }
    snprintf(ra->what, sizeof ra->what, "%s", a->what);
    ra->seq = a->seq;
    ra->cpu = a->cpu;
    ra->ts_ns = a->ts_ns;
    ra->end_ns = a->end_ns;
    ra->pid = a->pid;
    ra->tgid = a->tgid;
    ra->from = a->from;
    ra->to = a->to;
    snprintf(ra->comm, sizeof ra->comm, "%s", a->comm);
    snprintf(ra->isa, sizeof ra->isa, "%s", a->isa);
    snprintf(ra->old_cpus, sizeof ra->old_cpus, "%s", a->old_cpus);
    snprintf(ra->cpus, sizeof ra->cpus, "%s", a->cpus);
    snprintf(ra->rule, sizeof ra->rule, "%s", a->rule);
    snprintf(ra->why, sizeof ra->why, "%s", a->why);
    if (report_asymu_add(l->r, ra, l->why, sizeof l->why) < 0 && !l->why[0])
        snprintf(l->why, sizeof l->why, "a record was refused");
    free(ra);
}

struct report_live *report_live_new(const struct trace_machine *m, struct trace_keep *keep)
{
    struct report_live *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->keep = keep;
    l->r = report_new("");
    /* The machine as report_asymu_machine() takes asymu_machine's fields,
     * but from the struct: its capacity list would not fit asymu_machine's
     * 4096 bytes on a machine of 1024 vCPUs. */
    if (l->r && m->nr_cpus >= 1 && m->nr_cpus <= NR_CPUS_MAX)
        l->r->capacity = calloc(m->nr_cpus, sizeof *l->r->capacity);
    if (!l->r || !l->r->capacity || trace_asymu_runs_init(&l->runs, m->nr_cpus) < 0) {
        trace_report_free(l->r);
        free(l);
        return NULL;
    }
    for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++)
        l->r->capacity[cpu] = m->capacity[cpu] ? m->capacity[cpu] : 1024;
    l->r->nr_cpus = m->nr_cpus;
    l->r->aarch32 = m->aarch32;
    l->r->seed = m->seed;
    report_copy(l->r->policy, sizeof l->r->policy, m->policy ? m->policy : "");
    return l;
}

void report_live_event(struct report_live *l, const struct mevent *ev)
{
    struct trace_asymu a;
    if (ev->kind == MEVENT_RUN)
        trace_asymu_run(&l->runs, ev, add, l);
    else if (trace_asymu_of(&l->runs, ev, &a))
        add(l, &a);
}

struct trace_report *report_live_finish(struct report_live *l, char *why, size_t len)
{
    struct trace_report *r = l->r;
    trace_asymu_runs_end(&l->runs, add, l);
    if (!l->why[0]) {
        report_asymu_order(r);
        if (report_analyse(r) < 0)
            snprintf(l->why, sizeof l->why, "out of memory");
    }
    if (l->why[0]) {
        snprintf(why, len, "%s", l->why);
        trace_report_free(r);
        r = NULL;
    }
    free(l);
    return r;
}
