/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report_out.c - `asymu report`'s tables and its --json document
 * (docs/tracing.md "asymu report" has the schema). Times in the tables are
 * microseconds with three decimals, in the JSON integer nanoseconds; both
 * come from the same integers, so they agree to the nanosecond. */
#include "trace_report-int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* ns as microseconds "123.456": exact, no floating point. */
const char *report_us(uint64_t ns, char buf[32])
{
    snprintf(buf, 32, "%llu.%03llu", (unsigned long long)(ns / 1000),
             (unsigned long long)(ns % 1000));
    return buf;
}

/* part of whole in percent, "12.34", rounded half up. */
const char *report_pct(uint64_t part, uint64_t whole, char buf[32])
{
    unsigned long long hundredths =
        whole ? (unsigned long long)(((__uint128_t)part * 10000 + whole / 2) / whole) : 0;
    snprintf(buf, 32, "%llu.%02llu", hundredths / 100, hundredths % 100);
    return buf;
}

static const char *cpu_type(const struct trace_report *r, unsigned cpu)
{
    return cpumask_test_cpu(cpu, &r->aarch32) ? "aarch32+aarch64" : "aarch64 only";
}

static void text_tasks(const struct trace_report *r, FILE *out)
{
    char a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32];
    fprintf(out, "\ntasks (times in us)\n");
    fprintf(out, "%7s %7s  %-16s %-7s %14s %14s %14s %14s %5s %7s %12s %12s %12s %12s\n", "PID",
            "TID", "COMM", "ISA", "RUNNING", "WAITING", "ON-32BIT-CPUS", "ON-64BIT-ONLY", "MIGR",
            "WAKEUPS", "LAT-P50", "LAT-P90", "LAT-P99", "LAT-MAX");
    for (size_t i = 0; i < r->nr_tasks; i++) {
        const struct report_task *t = &r->tasks[i];
        bool lat = t->nr_latencies > 0;
        fprintf(out, "%7d %7d  %-16s %-7s %14s %14s %14s %14s %5u %7u %12s %12s %12s %12s\n",
                t->id.pid, t->id.tid, t->id.comm, t->compat ? "aarch32" : "aarch64",
                report_us(t->running, a), r->old_trace ? "-" : report_us(t->waiting, b),
                report_us(t->on_aarch32_cpus, c), report_us(t->on_aarch64_only, d), t->migrations,
                t->wakeups, lat ? report_us(t->p50, e) : "-", lat ? report_us(t->p90, f) : "-",
                lat ? report_us(t->p99, g) : "-", lat ? report_us(t->max, h) : "-");
    }
}

static void text_per_cpu(const struct trace_report *r, FILE *out)
{
    char a[32], b[32];
    fprintf(out, "\ntask time per cpu (us; %% of the trace's %s us)\n",
            report_us(r->end - r->start, a));
    fprintf(out, "%7s %7s  %-16s %4s  %-15s %8s %14s %7s\n", "PID", "TID", "COMM", "CPU", "TYPE",
            "CAPACITY", "RUNNING", "%");
    for (size_t i = 0; i < r->nr_tasks; i++) {
        const struct report_task *t = &r->tasks[i];
        for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++)
            if (t->cpu_ns[cpu])
                fprintf(out, "%7d %7d  %-16s %4u  %-15s %8u %14s %7s\n", t->id.pid, t->id.tid,
                        t->id.comm, cpu, cpu_type(r, cpu), r->capacity[cpu],
                        report_us(t->cpu_ns[cpu], a),
                        report_pct(t->cpu_ns[cpu], r->end - r->start, b));
    }
}

static uint64_t class_ns(const struct report_task *t, const struct report_class *c)
{
    uint64_t ns = 0;
    unsigned cpu;
    for_each_cpu(cpu, &c->cpus) ns += t->cpu_ns[cpu];
    return ns;
}

static void text_classes(const struct trace_report *r, FILE *out)
{
    char a[32], list[4096];
    if (r->nr_classes < 2)
        return;
    fprintf(out, "\ntask time per capacity class (us)\n");
    fprintf(out, "%7s %7s  %-16s %8s %-12s %14s\n", "PID", "TID", "COMM", "CAPACITY", "CPUS",
            "RUNNING");
    for (size_t i = 0; i < r->nr_tasks; i++)
        for (size_t k = 0; k < r->nr_classes; k++) {
            const struct report_task *t = &r->tasks[i];
            uint64_t ns = class_ns(t, &r->classes[k]);
            cpulist_format(&r->classes[k].cpus, list, sizeof list);
            if (ns)
                fprintf(out, "%7d %7d  %-16s %8u %-12s %14s\n", t->id.pid, t->id.tid, t->id.comm,
                        r->classes[k].capacity, list, report_us(ns, a));
        }
}

static void text_migrations(const struct trace_report *r, FILE *out)
{
    if (!r->migrations)
        return;
    fprintf(out, "\nmigrations by reason\n");
    fprintf(out, "%7s %7s  %-16s %-16s %6s\n", "PID", "TID", "COMM", "REASON", "COUNT");
    for (size_t i = 0; i < r->nr_tasks; i++) {
        const struct report_task *t = &r->tasks[i];
        for (size_t k = 0; k < t->nr_reasons; k++)
            fprintf(out, "%7d %7d  %-16s %-16s %6u\n", t->id.pid, t->id.tid, t->id.comm,
                    t->reasons[k].reason, t->reasons[k].count);
    }
}

static void text_affinity(const struct trace_report *r, FILE *out)
{
    char a[32], old[4096], new[4096];
    if (!r->affinity_changes)
        return;
    fprintf(out, "\naffinity changes\n");
    fprintf(out, "%14s %7s %7s  %-16s %-12s %-12s %-5s %s\n", "TIME-US", "PID", "TID", "COMM",
            "OLD", "NEW", "RULE", "CAUSE");
    for (size_t i = 0; i < r->nr_instants; i++) {
        const struct report_instant *in = &r->instants[i];
        if (in->kind != REPORT_AFFINITY)
            continue;
        cpulist_format(&in->old_mask, old, sizeof old);
        cpulist_format(&in->new_mask, new, sizeof new);
        fprintf(out, "%14s %7d %7d  %-16s %-12s %-12s %-5s %s\n", report_us(in->ts, a),
                in->task.pid, in->task.tid, in->task.comm, old, new, in->rule, in->cause);
    }
}

static void text_cpus(const struct trace_report *r, FILE *out)
{
    char a[32], b[32], c[32], d[32];
    fprintf(out, "\ncpus (times in us)\n");
    fprintf(out, "%4s  %-15s %8s %14s %14s %14s %7s\n", "CPU", "TYPE", "CAPACITY", "BUSY", "IDLE",
            "OFFLINE", "UTIL%");
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
        const struct report_cpu *p = &r->cpus[cpu];
        fprintf(out, "%4u  %-15s %8u %14s %14s %14s %7s\n", cpu, cpu_type(r, cpu), r->capacity[cpu],
                report_us(p->busy, a), report_us(p->idle, b), report_us(p->offline, c),
                report_pct(p->busy, r->end - r->start, d));
    }
}

void trace_report_text(const struct trace_report *r, FILE *out)
{
    char a[32], b[32], c[32], list[4096];
    uint64_t busy = 0, idle = 0;
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
        busy += r->cpus[cpu].busy;
        idle += r->cpus[cpu].idle;
    }
    cpulist_format(&r->aarch32, list, sizeof list);
    fprintf(out, "trace %s: %u cpus (aarch32: %s), policy %s, seed %llu\n", r->name, r->nr_cpus,
            list[0] ? list : "none", r->policy, (unsigned long long)r->seed);
    fprintf(out, "window %s us to %s us (%s us)\n", report_us(r->start, a), report_us(r->end, b),
            report_us(r->end - r->start, c));
    if (r->old_trace)
        fprintf(out, "(a trace from before asymu report: its runs do not say how they ended, so "
                     "waiting time is not known)\n");
    text_tasks(r, out);
    text_per_cpu(r, out);
    text_classes(r, out);
    text_migrations(r, out);
    text_affinity(r, out);
    text_cpus(r, out);
    fprintf(out,
            "\ntotals: %zu tasks, busy %s us, idle %s us, %u migrations, %u wakeups, %u "
            "affinity changes\n",
            r->nr_tasks, report_us(busy, a), report_us(idle, b), r->migrations, r->wakeups,
            r->affinity_changes);
}

static json_t *cpulist_json(const struct cpumask *m)
{
    char list[4096];
    cpulist_format(m, list, sizeof list);
    return json_string(list);
}

static json_t *task_json(const struct trace_report *r, const struct report_task *t)
{
    json_t *cpus = json_array(), *classes = json_array(), *reasons = json_object(),
           *changes = json_array();
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++)
        if (t->cpu_ns[cpu])
            json_array_append_new(cpus, json_pack("{s:i,s:I}", "cpu", (int)cpu, "running_ns",
                                                  (json_int_t)t->cpu_ns[cpu]));
    for (size_t k = 0; k < r->nr_classes; k++) {
        uint64_t ns = class_ns(t, &r->classes[k]);
        if (ns)
            json_array_append_new(classes, json_pack("{s:i,s:o,s:I}", "capacity",
                                                     (int)r->classes[k].capacity, "cpus",
                                                     cpulist_json(&r->classes[k].cpus),
                                                     "running_ns", (json_int_t)ns));
    }
    for (size_t k = 0; k < t->nr_reasons; k++)
        json_object_set_new(reasons, t->reasons[k].reason, json_integer(t->reasons[k].count));
    for (size_t i = 0; i < r->nr_instants; i++) {
        const struct report_instant *in = &r->instants[i];
        if (in->kind == REPORT_AFFINITY && in->task.tid == t->id.tid && in->task.pid == t->id.pid &&
            strcmp(in->task.comm, t->id.comm) == 0)
            json_array_append_new(changes, json_pack("{s:I,s:i,s:o,s:o,s:s,s:s}", "ts_ns",
                                                     (json_int_t)in->ts, "cpu", (int)in->cpu, "old",
                                                     cpulist_json(&in->old_mask), "new",
                                                     cpulist_json(&in->new_mask), "rule", in->rule,
                                                     "cause", in->cause));
    }
    json_t *lat = t->nr_latencies
                      ? json_pack("{s:I,s:I,s:I,s:I,s:I}", "count", (json_int_t)t->nr_latencies,
                                  "p50_ns", (json_int_t)t->p50, "p90_ns", (json_int_t)t->p90,
                                  "p99_ns", (json_int_t)t->p99, "max_ns", (json_int_t)t->max)
                      : json_null();
    return json_pack(
        "{s:i,s:i,s:s,s:s,s:I,s:o,s:I,s:I,s:o,s:o,s:i,s:o,s:i,s:o,s:o}", "pid", t->id.pid, "tid",
        t->id.tid, "comm", t->id.comm, "isa", t->compat ? "aarch32" : "aarch64", "running_ns",
        (json_int_t)t->running, "waiting_ns",
        r->old_trace ? json_null() : json_integer((json_int_t)t->waiting),
        "running_aarch32_cpus_ns", (json_int_t)t->on_aarch32_cpus, "running_aarch64_only_cpus_ns",
        (json_int_t)t->on_aarch64_only, "running_by_cpu", cpus, "running_by_capacity", classes,
        "migrations", (int)t->migrations, "migrations_by_reason", reasons, "wakeups",
        (int)t->wakeups, "wakeup_latency", lat, "affinity_changes", changes);
}

void trace_report_json(const struct trace_report *r, FILE *out)
{
    json_t *tasks = json_array(), *cpus = json_array(), *caps = json_array();
    uint64_t busy = 0, idle = 0, span = r->end - r->start;
    for (size_t i = 0; i < r->nr_tasks; i++)
        json_array_append_new(tasks, task_json(r, &r->tasks[i]));
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
        const struct report_cpu *c = &r->cpus[cpu];
        busy += c->busy;
        idle += c->idle;
        json_array_append_new(caps, json_integer(r->capacity[cpu]));
        /* basis points: an integer, so the document has no rounding noise */
        json_int_t bp = span ? (json_int_t)(((__uint128_t)c->busy * 10000 + span / 2) / span) : 0;
        json_array_append_new(
            cpus, json_pack("{s:i,s:b,s:i,s:I,s:I,s:I,s:I}", "cpu", (int)cpu, "aarch32",
                            cpumask_test_cpu(cpu, &r->aarch32), "capacity", (int)r->capacity[cpu],
                            "busy_ns", (json_int_t)c->busy, "idle_ns", (json_int_t)c->idle,
                            "offline_ns", (json_int_t)c->offline, "utilisation_bp", bp));
    }
    json_t *doc = json_pack(
        "{s:s,s:i,s:{s:i,s:o,s:o,s:s,s:I},s:{s:I,s:I,s:I},s:o,s:o,s:{s:i,s:I,s:I,s:i,s:i,s:i}}",
        "trace", r->name, "schema", 1, "machine", "cpus", (int)r->nr_cpus, "aarch32",
        cpulist_json(&r->aarch32), "capacity", caps, "policy", r->policy, "seed",
        (json_int_t)r->seed, "window", "start_ns", (json_int_t)r->start, "end_ns",
        (json_int_t)r->end, "length_ns", (json_int_t)span, "tasks", tasks, "cpus", cpus, "totals",
        "tasks", (int)r->nr_tasks, "busy_ns", (json_int_t)busy, "idle_ns", (json_int_t)idle,
        "migrations", (int)r->migrations, "wakeups", (int)r->wakeups, "affinity_changes",
        (int)r->affinity_changes);
    if (!doc) {
        fputs("{}\n", out);
        return;
    }
    json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(doc);
}
