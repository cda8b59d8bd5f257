/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report_stats.c - the numbers of `asymu report` from the runs and
 * instants of a trace: per task (pid, tid, comm: a task that execs another
 * program is a new row, as in LISA's tables) its time running per vCPU and
 * per CPU type, its time runnable but waiting, its wake-up latencies, its
 * migrations with why; per vCPU busy, idle and offline time. */
#include "trace_report-int.h"
#include "sort.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int id_cmp(const struct report_task_id *a, const struct report_task_id *b)
{
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    return strcmp(a->comm, b->comm);
}

struct seen {
    struct report_task_id id;
    uint64_t ts;
};

static int seen_cmp(const void *a, const void *b)
{
    const struct seen *x = a, *y = b;
    int c = id_cmp(&x->id, &y->id);
    return c ? c : x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int task_lookup_cmp(const void *key, const void *elem)
{
    return id_cmp(key, &((const struct report_task *)elem)->id);
}

static size_t key_of(const struct trace_report *r, const struct report_task_id *id)
{
    const struct report_task *t =
        bsearch(id, r->tasks, r->nr_tasks, sizeof *r->tasks, task_lookup_cmp);
    return (size_t)(t - r->tasks); /* every id was collected: t is never NULL */
}

static bool has_task(const struct report_instant *in)
{
    return in->kind != REPORT_OFFLINE && in->kind != REPORT_ONLINE;
}

/* The tasks: every (pid, tid, comm) seen, with the time first seen. */
static int collect_tasks(struct trace_report *r)
{
    size_t n = 0;
    struct seen *s = malloc((r->nr_runs + r->nr_instants + 1) * sizeof *s);
    if (!s)
        return -ENOMEM;
    for (size_t i = 0; i < r->nr_runs; i++)
        s[n++] = (struct seen){r->runs[i].task, r->runs[i].start};
    for (size_t i = 0; i < r->nr_instants; i++)
        if (has_task(&r->instants[i]))
            s[n++] = (struct seen){r->instants[i].task, r->instants[i].ts};
    sort_items(s, n, sizeof *s, seen_cmp);
    r->tasks = calloc(n + 1, sizeof *r->tasks);
    if (!r->tasks)
        return free(s), -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && id_cmp(&s[i].id, &s[i - 1].id) == 0)
            continue;
        struct report_task *t = &r->tasks[r->nr_tasks++];
        t->id = s[i].id;
        t->first = s[i].ts;
        t->cpu_ns = calloc(r->nr_cpus, sizeof *t->cpu_ns);
        if (!t->cpu_ns)
            return free(s), -ENOMEM;
    }
    free(s);
    for (size_t i = 0; i < r->nr_runs; i++)
        r->runs[i].key = key_of(r, &r->runs[i].task);
    for (size_t i = 0; i < r->nr_instants; i++)
        if (has_task(&r->instants[i]))
            r->instants[i].key = key_of(r, &r->instants[i].task);
    return 0;
}

static int run_cmp(const void *a, const void *b)
{
    const struct report_run *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The nearest-rank percentile: the smallest latency that pct% of them do
 * not exceed (ceil(pct * n / 100)-th of the sorted list). */
static uint64_t percentile(const uint64_t *sorted, size_t n, unsigned pct)
{
    size_t rank = (pct * n + 99) / 100;
    return sorted[rank ? rank - 1 : 0];
}

/* Running time per vCPU and CPU type, and waiting after a preemption:
 * from a run that ended runnable (or moved) to the task's next run. */
static void runs_of_tasks(struct trace_report *r)
{
    sort_items(r->runs, r->nr_runs, sizeof *r->runs, run_cmp);
    for (size_t i = 0; i < r->nr_runs; i++) {
        const struct report_run *run = &r->runs[i];
        struct report_task *t = &r->tasks[run->key];
        uint64_t dur = run->end - run->start;
        t->running += dur;
        t->cpu_ns[run->cpu] += dur;
        if (cpumask_test_cpu(run->cpu, &r->aarch32))
            t->on_aarch32_cpus += dur;
        else
            t->on_aarch64_only += dur;
        t->compat = run->compat;
        const struct report_run *next =
            i + 1 < r->nr_runs && r->runs[i + 1].key == run->key ? &r->runs[i + 1] : NULL;
        if (next && (run->how == REPORT_END_RUNNABLE || run->how == REPORT_END_MOVED) &&
            next->start > run->end)
            t->waiting += next->start - run->end;
        r->cpus[run->cpu].busy += dur;
    }
}

struct wake {
    int tid;
    uint64_t ts;
    size_t key; /* the wake-up's own task; then the run that answers it */
};

static int wake_cmp(const void *a, const void *b)
{
    const struct wake *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Indexes into runs (the context), by thread then start. */
static int run_tid_cmp(const void *a, const void *b, void *runs)
{
    const struct report_run *by_tid_runs = runs;
    const struct report_run *x = &by_tid_runs[*(const size_t *)a],
                            *y = &by_tid_runs[*(const size_t *)b];
    if (x->task.tid != y->task.tid)
        return x->task.tid < y->task.tid ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* Wake-up latency: from the wake-up to the start of the thread's first run
 * that ends after it (0 when a vCPU's clock had the run start first: the
 * per-vCPU clocks of docs/tracing.md). It counts for the task of that run
 * (a new task is woken as its parent's name and runs under its own). A
 * wake-up with no run after it (the trace ended) has no latency. */
static int wakeups_of_tasks(struct trace_report *r)
{
    struct wake *w = malloc((r->nr_instants + 1) * sizeof *w);
    size_t *order = malloc((r->nr_runs + 1) * sizeof *order);
    size_t n = 0;
    if (!w || !order)
        return free(w), free(order), -ENOMEM;
    for (size_t i = 0; i < r->nr_instants; i++)
        if (r->instants[i].kind == REPORT_WAKEUP)
            w[n++] = (struct wake){r->instants[i].task.tid, r->instants[i].ts, r->instants[i].key};
    sort_items(w, n, sizeof *w, wake_cmp);
    for (size_t i = 0; i < r->nr_runs; i++)
        order[i] = i;
    sort_items_r(order, r->nr_runs, sizeof *order, run_tid_cmp, r->runs);
    /* first which run answers each wake-up (SIZE_MAX: none), then the
     * latencies, each task's list allocated at its size */
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        /* the runs are sorted by tid as the wake-ups are: one pass */
        while (run < r->nr_runs &&
               (r->runs[order[run]].task.tid < w[i].tid ||
                (r->runs[order[run]].task.tid == w[i].tid && r->runs[order[run]].end <= w[i].ts)))
            run++;
        r->wakeups++;
        if (run >= r->nr_runs || r->runs[order[run]].task.tid != w[i].tid) {
            r->tasks[w[i].key].wakeups++;
            w[i].key = SIZE_MAX;
            continue;
        }
        w[i].key = order[run];
        r->tasks[r->runs[order[run]].key].wakeups++;
    }
    for (size_t k = 0; k < r->nr_tasks; k++) {
        struct report_task *t = &r->tasks[k];
        if (t->wakeups && !(t->latencies = malloc(t->wakeups * sizeof *t->latencies)))
            return free(w), free(order), -ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (w[i].key == SIZE_MAX)
            continue;
        const struct report_run *next = &r->runs[w[i].key];
        struct report_task *t = &r->tasks[next->key];
        uint64_t lat = next->start > w[i].ts ? next->start - w[i].ts : 0;
        t->latencies[t->nr_latencies++] = lat;
        t->waiting += lat;
    }
    free(w);
    free(order);
    for (size_t k = 0; k < r->nr_tasks; k++) {
        struct report_task *t = &r->tasks[k];
        if (!t->nr_latencies)
            continue;
        sort_items(t->latencies, t->nr_latencies, sizeof *t->latencies, u64_cmp);
        t->p50 = percentile(t->latencies, t->nr_latencies, 50);
        t->p90 = percentile(t->latencies, t->nr_latencies, 90);
        t->p99 = percentile(t->latencies, t->nr_latencies, 99);
        t->max = t->latencies[t->nr_latencies - 1];
    }
    return 0;
}

/* The affinity change of the migrating task at the same time, or NULL. */
static const struct report_instant *affinity_near(const struct trace_report *r, size_t i)
{
    const struct report_instant *m = &r->instants[i];
    const size_t near = 16;
    size_t lo = i > near ? i - near : 0, hi = i + near < r->nr_instants ? i + near : r->nr_instants;
    for (size_t j = lo; j < hi; j++) {
        const struct report_instant *o = &r->instants[j];
        if (o->ts == m->ts && o->kind == REPORT_AFFINITY && o->task.tid == m->task.tid)
            return o;
    }
    return NULL;
}

/* Why a task migrated. The scheduler records it (args.reason): a move
 * by an affinity change or an exec's narrowing shows as "affinity RULE",
 * the rule of the affinity change at the same time (policies.md), the
 * others as recorded. A trace from before it was recorded: worked out
 * from what the trace has at the same time around
 * the migrate event (the scheduler emits them together): the wake-up that
 * follows it (select_task_rq() in try_to_wake_up()), an affinity change of
 * the task (its rule: __set_cpus_allowed_ptr() moves it off the CPUs it
 * lost), the vCPU it left going offline (migrate_tasks() in
 * sched_cpu_dying()); else the load balancer: "misfit" when it went to a
 * vCPU of greater capacity (load_balance()'s migrate_misfit), "balance"
 * otherwise (idle balance). */
static void migration_reason(const struct trace_report *r, size_t i, char *out, size_t len)
{
    const struct report_instant *m = &r->instants[i];
    if (m->recorded[0]) {
        const struct report_instant *a = NULL;
        if (strcmp(m->recorded, "affinity") == 0 || strcmp(m->recorded, "exec") == 0)
            a = affinity_near(r, i);
        if (a)
            snprintf(out, len, "affinity %s", a->rule);
        else
            snprintf(out, len, "%s", m->recorded);
        return;
    }
    const size_t near = 16;
    size_t lo = i > near ? i - near : 0, hi = i + near < r->nr_instants ? i + near : r->nr_instants;
    if (i + 1 < r->nr_instants && r->instants[i + 1].kind == REPORT_WAKEUP &&
        r->instants[i + 1].key == m->key && r->instants[i + 1].ts == m->ts) {
        snprintf(out, len, "wakeup");
        return;
    }
    for (size_t j = lo; j < hi; j++) {
        const struct report_instant *o = &r->instants[j];
        if (o->ts != m->ts)
            continue;
        if (o->kind == REPORT_AFFINITY && o->task.tid == m->task.tid) {
            snprintf(out, len, "affinity %s", o->rule);
            return;
        }
    }
    for (size_t j = lo; j < hi; j++) {
        const struct report_instant *o = &r->instants[j];
        if (o->ts == m->ts && o->kind == REPORT_OFFLINE && o->cpu == m->from) {
            snprintf(out, len, "hotplug");
            return;
        }
    }
    snprintf(out, len, r->capacity[m->to] > r->capacity[m->from] ? "misfit" : "balance");
}

struct key_reason {
    size_t key;
    const char *reason;
};

static int key_reason_cmp(const void *a, const void *b)
{
    const struct key_reason *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return strcmp(x->reason, y->reason);
}

static int migrations_of_tasks(struct trace_report *r)
{
    struct key_reason *kr = malloc((r->nr_instants + 1) * sizeof *kr);
    size_t n = 0;
    if (!kr)
        return -ENOMEM;
    for (size_t i = 0; i < r->nr_instants; i++) {
        struct report_instant *in = &r->instants[i];
        if (in->kind == REPORT_AFFINITY) {
            r->tasks[in->key].affinity_changes++;
            r->affinity_changes++;
        }
        if (in->kind != REPORT_MIGRATE)
            continue;
        migration_reason(r, i, in->reason, sizeof in->reason);
        r->tasks[in->key].migrations++;
        r->migrations++;
        kr[n++] = (struct key_reason){in->key, in->reason};
    }
    sort_items(kr, n, sizeof *kr, key_reason_cmp);
    for (size_t i = 0; i < n; i++) {
        struct report_task *t = &r->tasks[kr[i].key];
        if (!t->reasons && !(t->reasons = calloc(t->migrations, sizeof *t->reasons)))
            return free(kr), -ENOMEM;
        if (t->nr_reasons && strcmp(t->reasons[t->nr_reasons - 1].reason, kr[i].reason) == 0) {
            t->reasons[t->nr_reasons - 1].count++;
            continue;
        }
        struct report_reason *rr = &t->reasons[t->nr_reasons++];
        snprintf(rr->reason, sizeof rr->reason, "%s", kr[i].reason);
        rr->count = 1;
    }
    free(kr);
    return 0;
}

/* Per vCPU: offline from its "cpu offline" to its "cpu online" (or the
 * end), idle the rest of the window it did not run a task. */
static void cpus_time(struct trace_report *r)
{
    uint64_t *since = calloc(r->nr_cpus, sizeof *since);
    bool *off = calloc(r->nr_cpus, sizeof *off);
    for (size_t i = 0; since && off && i < r->nr_instants; i++) {
        const struct report_instant *in = &r->instants[i];
        if (in->kind == REPORT_OFFLINE && !off[in->cpu]) {
            off[in->cpu] = true;
            since[in->cpu] = in->ts;
        } else if (in->kind == REPORT_ONLINE && off[in->cpu]) {
            off[in->cpu] = false;
            r->cpus[in->cpu].offline += in->ts > since[in->cpu] ? in->ts - since[in->cpu] : 0;
        }
    }
    uint64_t span = r->end - r->start;
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
        struct report_cpu *c = &r->cpus[cpu];
        if (since && off && off[cpu])
            c->offline += r->end > since[cpu] ? r->end - since[cpu] : 0;
        uint64_t used = c->busy + c->offline;
        c->idle = span > used ? span - used : 0;
    }
    free(since);
    free(off);
}

static int classes(struct trace_report *r)
{
    r->classes = calloc(r->nr_cpus, sizeof *r->classes);
    if (!r->classes)
        return -ENOMEM;
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
        size_t c = 0;
        while (c < r->nr_classes && r->classes[c].capacity != r->capacity[cpu])
            c++;
        if (c == r->nr_classes) {
            /* insert keeping the biggest first */
            c = 0;
            while (c < r->nr_classes && r->classes[c].capacity > r->capacity[cpu])
                c++;
            memmove(&r->classes[c + 1], &r->classes[c], (r->nr_classes - c) * sizeof *r->classes);
            memset(&r->classes[c], 0, sizeof *r->classes);
            r->classes[c].capacity = r->capacity[cpu];
            r->nr_classes++;
        }
        cpumask_set_cpu(cpu, &r->classes[c].cpus);
    }
    return 0;
}

static int display_cmp(const void *a, const void *b)
{
    const struct report_task *x = a, *y = b;
    if (x->id.pid != y->id.pid)
        return x->id.pid < y->id.pid ? -1 : 1;
    if (x->id.tid != y->id.tid)
        return x->id.tid < y->id.tid ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return strcmp(x->id.comm, y->id.comm);
}

int report_analyse(struct trace_report *r)
{
    bool any = false;
    for (size_t i = 0; i < r->nr_runs; i++) {
        const struct report_run *run = &r->runs[i];
        r->start = !any || run->start < r->start ? run->start : r->start;
        r->end = !any || run->end > r->end ? run->end : r->end;
        any = true;
    }
    for (size_t i = 0; i < r->nr_instants; i++) {
        uint64_t ts = r->instants[i].ts;
        r->start = !any || ts < r->start ? ts : r->start;
        r->end = !any || ts > r->end ? ts : r->end;
        any = true;
    }
    r->cpus = calloc(r->nr_cpus, sizeof *r->cpus);
    int err = !r->cpus ? -ENOMEM : collect_tasks(r);
    if (err == 0) {
        runs_of_tasks(r);
        err = wakeups_of_tasks(r);
    }
    if (err == 0)
        err = migrations_of_tasks(r);
    if (err == 0)
        err = classes(r);
    if (err < 0)
        return err;
    cpus_time(r);
    /* A name a task had only in events that count elsewhere (the parent's
     * name of a new task's wake-up) is no row of its own. */
    size_t kept = 0;
    for (size_t k = 0; k < r->nr_tasks; k++) {
        struct report_task *t = &r->tasks[k];
        if (t->running || t->wakeups || t->migrations || t->affinity_changes) {
            r->tasks[kept++] = *t;
            continue;
        }
        free(t->cpu_ns);
        free(t->latencies);
        free(t->reasons);
    }
    r->nr_tasks = kept;
    /* the instants keep their task ids; keys are not used after this */
    sort_items(r->tasks, r->nr_tasks, sizeof *r->tasks, display_cmp);
    return 0;
}
