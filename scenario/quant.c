/* SPDX-License-Identifier: GPL-2.0-or-later */
/* quant.c - the quantitative expectations (docs/scenarios.md): residency,
 * migrations, wake-up latency, runnable wait, utilisation, deadline misses
 * and throughput, measured from what the machine's event stream recorded
 * per thread and per vCPU (the outcome's "threads" and "cpu_busy_ns",
 * exec.c; the last two from the workload's trace_marker lines). A measure is a ratio
 * num/den (den 1 for counts and times) compared with its bounds in
 * integers, so a verdict never depends on floating-point rounding. */
#include "scenario.h"
#include "sort.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Percentages are kept in thousandths of a percent, rates in thousandths
 * per second. */
#define PCT_SCALE 100000u
#define RATE_SCALE 1000u
#define NS_PER_S 1000000000u

struct measure {
    uint64_t num, den;
};

bool scenario_is_quant(const struct expectation *e)
{
    return e->kind >= EXPECT_RESIDENCY && e->kind <= EXPECT_THROUGHPUT;
}

static bool is_ratio(enum expect_kind k)
{
    return k == EXPECT_RESIDENCY || k == EXPECT_UTILISATION;
}

/* What a bound is multiplied by to compare with num/den. */
static uint64_t scale_of(enum expect_kind k)
{
    return is_ratio(k) ? PCT_SCALE : k == EXPECT_THROUGHPUT ? RATE_SCALE : 1;
}

static uint64_t u64_of(json_t *j)
{
    return (uint64_t)json_integer_value(j);
}

/* Whether thread th is one e measures: a thread of the task's process (as
 * only_on counts it), or one whose last comm matches e's pattern. */
static bool selected(const struct expectation *e, json_t *th, json_int_t pid)
{
    if (e->pattern)
        return fnmatch(e->pattern, json_string_value(json_object_get(th, "comm")), 0) == 0;
    return json_integer_value(json_object_get(th, "tgid")) == pid;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The latencies' percentile p by nearest rank (the smallest value with at
 * least p% of them at or below it); p 100 is the largest. */
static bool latency_percentile(const struct expectation *e, json_t *threads, json_int_t pid,
                               uint64_t *out)
{
    size_t n = 0, i, j;
    json_t *th, *v;
    json_array_foreach(threads, i, th)
    {
        if (selected(e, th, pid))
            n += json_array_size(json_object_get(th, "wakeup_latency_ns"));
    }
    if (n == 0)
        return false;
    uint64_t *all = malloc(n * sizeof *all);
    if (!all)
        abort();
    n = 0;
    json_array_foreach(threads, i, th)
    {
        if (!selected(e, th, pid))
            continue;
        json_array_foreach(json_object_get(th, "wakeup_latency_ns"), j, v)
        {
            all[n++] = u64_of(v);
        }
    }
    sort_items(all, n, sizeof *all, by_value);
    size_t rank = (size_t)(((unsigned __int128)n * e->percentile + 99) / 100);
    *out = all[rank ? rank - 1 : 0];
    free(all);
    return true;
}

/* e's measure on outcome: true, or false with why there is none. */
static bool measure(const struct scenario *sc, const struct expectation *e, json_t *outcome,
                    struct measure *m, const char **why)
{
    (void)sc;
    *m = (struct measure){0, 1};
    if (e->kind == EXPECT_UTILISATION) {
        json_t *busy = json_array_get(json_object_get(outcome, "cpu_busy_ns"), (size_t)e->number);
        m->num = u64_of(busy);
        m->den = u64_of(json_object_get(outcome, "end_ns"));
        *why = "a run of no time";
        if (m->num > m->den)
            m->num = m->den;
        return busy && m->den > 0;
    }
    json_int_t pid = -1;
    if (!e->pattern) {
        json_t *task = json_array_get(json_object_get(outcome, "tasks"), (size_t)e->task);
        json_t *p = json_object_get(task, "pid");
        *why = "the task did not start";
        if (!json_is_integer(p))
            return false;
        pid = json_integer_value(p);
    }
    json_t *threads = json_object_get(outcome, "threads"), *th;
    size_t i, cpu;
    bool any = false;
    json_array_foreach(threads, i, th)
    {
        if (!selected(e, th, pid))
            continue;
        any = true;
        json_t *ns;
        switch (e->kind) {
        case EXPECT_RESIDENCY:
            json_array_foreach(json_object_get(th, "run_ns"), cpu, ns)
            {
                m->den += u64_of(ns);
                if (cpumask_test_cpu((unsigned)cpu, &e->mask))
                    m->num += u64_of(ns);
            }
            break;
        case EXPECT_MIGRATIONS:
            m->num += u64_of(json_object_get(th, "migrations"));
            break;
        case EXPECT_RUNNABLE_WAIT:
            m->num += u64_of(json_object_get(th, "runnable_wait_ns"));
            break;
        case EXPECT_DEADLINE_MISSES:
            m->num += u64_of(json_object_get(th, "deadline_misses"));
            break;
        case EXPECT_THROUGHPUT: /* completions, per second below */
            m->num += u64_of(json_object_get(json_object_get(th, "phases"), e->text));
            break;
        default:
            break;
        }
    }
    *why = e->pattern ? "no thread with such a comm" : "no thread of it ran";
    if (!any)
        return false;
    if (e->kind == EXPECT_RESIDENCY) {
        *why = "no running time";
        return --m->den > 0; /* den started at 1 */
    }
    if (e->kind == EXPECT_THROUGHPUT) { /* over the run: virtual time 0 to its end */
        *why = "a run of no time";
        m->den = u64_of(json_object_get(outcome, "end_ns"));
        m->num *= NS_PER_S;
        return m->den > 0;
    }
    if (e->kind == EXPECT_WAKEUP_LATENCY) {
        *why = "no wake-up";
        return latency_percentile(e, threads, pid, &m->num);
    }
    return true;
}

/* "92.1%" (truncated to a tenth), "3", "180us", "1.5ms". */
static void format_time(uint64_t ns, char *out, size_t len)
{
    static const struct {
        uint64_t ns;
        const char *unit;
    } units[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "us"}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (ns < units[i].ns)
            continue;
        uint64_t whole = ns / units[i].ns, tenth = ns % units[i].ns * 10 / units[i].ns;
        if (tenth)
            snprintf(out, len, "%llu.%llu%s", (unsigned long long)whole, (unsigned long long)tenth,
                     units[i].unit);
        else
            snprintf(out, len, "%llu%s", (unsigned long long)whole, units[i].unit);
        return;
    }
    snprintf(out, len, "%lluns", (unsigned long long)ns);
}

static void format_measure(enum expect_kind kind, const struct measure *m, char *out, size_t len)
{
    if (is_ratio(kind)) {
        uint64_t v = (uint64_t)((unsigned __int128)m->num * PCT_SCALE / m->den);
        snprintf(out, len, "%llu.%llu%%", (unsigned long long)(v / 1000),
                 (unsigned long long)(v % 1000 / 100));
    } else if (kind == EXPECT_THROUGHPUT) {
        uint64_t v = (uint64_t)((unsigned __int128)m->num * 10 / m->den);
        snprintf(out, len, "%llu.%llu/s", (unsigned long long)(v / 10),
                 (unsigned long long)(v % 10));
    } else if (kind == EXPECT_MIGRATIONS || kind == EXPECT_DEADLINE_MISSES) {
        snprintf(out, len, "%llu", (unsigned long long)m->num);
    } else {
        format_time(m->num, out, len);
    }
}

bool scenario_measure(const struct scenario *sc, const struct expectation *e, json_t *outcome,
                      char *out, size_t len)
{
    struct measure m;
    const char *why;
    if (!outcome || !measure(sc, e, outcome, &m, &why)) {
        snprintf(out, len, "-");
        return false;
    }
    format_measure(e->kind, &m, out, len);
    return true;
}

static bool within(const struct expectation *e, const struct measure *m)
{
    unsigned __int128 scale = scale_of(e->kind);
    unsigned __int128 have = (unsigned __int128)m->num * scale;
    return (!e->has_lo || have >= (unsigned __int128)e->lo * m->den) &&
           (!e->has_hi || have <= (unsigned __int128)e->hi * m->den);
}

/* "task hog's", "threads worker-*'s", "vCPU 3's". */
static void subject(const struct scenario *sc, const struct expectation *e, char *out, size_t len)
{
    if (e->kind == EXPECT_UTILISATION)
        snprintf(out, len, "vCPU %ld's", e->number);
    else if (e->pattern)
        snprintf(out, len, "threads %s's", e->pattern);
    else
        snprintf(out, len, "task %s's", sc->tasks[e->task].name);
}

/* "residency on 4-6", "migrations", "p99 wake-up latency". */
static void quantity(const struct expectation *e, char *out, size_t len)
{
    char list[4096];
    switch (e->kind) {
    case EXPECT_RESIDENCY:
        cpulist_format(&e->mask, list, sizeof list);
        snprintf(out, len, "residency on %s", list);
        return;
    case EXPECT_MIGRATIONS:
        snprintf(out, len, "migrations");
        return;
    case EXPECT_WAKEUP_LATENCY:
        if (e->percentile == 100)
            snprintf(out, len, "max wake-up latency");
        else
            snprintf(out, len, "p%u wake-up latency", e->percentile);
        return;
    case EXPECT_RUNNABLE_WAIT:
        snprintf(out, len, "runnable wait");
        return;
    case EXPECT_DEADLINE_MISSES:
        snprintf(out, len, "deadline misses");
        return;
    case EXPECT_THROUGHPUT:
        snprintf(out, len, "throughput of %s", e->text);
        return;
    default:
        snprintf(out, len, "utilisation");
        return;
    }
}

bool scenario_quant_matches(const struct scenario *sc, const struct expectation *e, json_t *outcome,
                            FILE *f)
{
    struct measure m;
    const char *why;
    bool have = measure(sc, e, outcome, &m, &why);
    if (have && within(e, &m))
        return true;
    char who[300], what[4200], got[64];
    subject(sc, e, who, sizeof who);
    quantity(e, what, sizeof what);
    if (have)
        format_measure(e->kind, &m, got, sizeof got);
    fprintf(f, "expected %s %s %s, got %s", who, what, e->bound, have ? got : why);
    return false;
}

void scenario_quant_describe(const struct scenario *sc, const struct expectation *e, char *out,
                             size_t len)
{
    char who[300], what[4200];
    if (e->kind == EXPECT_UTILISATION)
        snprintf(who, sizeof who, "vCPU %ld", e->number);
    else
        snprintf(who, sizeof who, "%s", e->pattern ? e->pattern : sc->tasks[e->task].name);
    quantity(e, what, sizeof what);
    snprintf(out, len, "%s %s %s", who, what, e->bound);
}
