/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report-int.h - what `asymu report` reads from a trace
 * (trace_report.c), works out (trace_report_stats.c) and prints
 * (trace_report_out.c). Times are virtual nanoseconds. */
#ifndef ASYMU_TRACE_REPORT_INT_H
#define ASYMU_TRACE_REPORT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cpumask.h"
#include "trace_report.h"

/* The largest trace it reads into memory. */
#define REPORT_MAX_BYTES (UINT64_C(1) << 30)

struct report_task_id {
    int pid, tid;
    char comm[16];
};

/* How a run ended (the run event's args.end; UNKNOWN in a trace from
 * before asymu report, which cannot tell waiting from sleeping). */
enum report_end {
    REPORT_END_UNKNOWN,
    REPORT_END_RUNNABLE,
    REPORT_END_MOVED,
    REPORT_END_BLOCKED,
    REPORT_END_DEAD,
};

struct report_run {
    unsigned cpu;
    uint64_t start, end;
    struct report_task_id task;
    bool compat;
    enum report_end how;
    size_t key; /* index in tasks, set by report_analyse */
};

enum report_kind { REPORT_WAKEUP, REPORT_MIGRATE, REPORT_AFFINITY, REPORT_OFFLINE, REPORT_ONLINE };

struct report_instant {
    enum report_kind kind;
    size_t index; /* in traceEvents: the order things happened */
    uint64_t ts;
    unsigned cpu;
    struct report_task_id task;
    unsigned from, to;                 /* MIGRATE */
    struct cpumask old_mask, new_mask; /* AFFINITY */
    char rule[16], cause[32];
    char recorded[16]; /* MIGRATE: args.reason, the scheduler's (mevent.h); "" in older traces */
    char reason[32];   /* MIGRATE: why, as the report shows it (report_analyse) */
    size_t key;
};

struct report_reason {
    char reason[32];
    unsigned count;
};

struct report_task {
    struct report_task_id id;
    bool compat;    /* ran an AArch32 image (in its last run) */
    uint64_t first; /* when it was first seen: the order of the table */
    uint64_t running, waiting, on_aarch32_cpus, on_aarch64_only;
    uint64_t *cpu_ns; /* per vCPU */
    unsigned migrations, wakeups, affinity_changes;
    uint64_t *latencies; /* wake-up latencies, sorted */
    size_t nr_latencies;
    uint64_t p50, p90, p99, max;
    struct report_reason *reasons; /* migrations per reason, by reason */
    size_t nr_reasons;
};

struct report_cpu {
    uint64_t busy, idle, offline;
};

/* A capacity class: the vCPUs of one capacity. */
struct report_class {
    unsigned capacity;
    struct cpumask cpus;
};

struct trace_report {
    char name[256];
    char policy[32];
    uint64_t seed;
    unsigned nr_cpus;
    struct cpumask aarch32;
    unsigned *capacity; /* per vCPU */
    bool old_trace;     /* runs without their end: waiting is not known */
    struct report_run *runs;
    size_t nr_runs, cap_runs;
    struct report_instant *instants; /* in the trace's order */
    size_t nr_instants, cap_instants;
    /* what report_analyse works out */
    uint64_t start, end;       /* the window: first to last event */
    struct report_task *tasks; /* by pid, tid, first seen, comm */
    size_t nr_tasks;
    struct report_cpu *cpus;
    struct report_class *classes; /* by capacity, biggest first */
    size_t nr_classes;
    unsigned migrations, wakeups, affinity_changes;
};

/* An asymu_report event of the ftrace text or the trace.dat
 * (trace_asymu.c writes it; docs/tracing.md), its strings as read. */
struct report_asymu {
    char what[16];
    unsigned long long seq, cpu, ts_ns, end_ns;
    long long pid, tgid, from, to;
    char comm[16], isa[16], old_cpus[4096], cpus[4096], rule[16], why[32];
};

/* What the readers of the text (trace_report_ftrace.c) and the trace.dat
 * (trace_report_dat.c) share (trace_report_asymu.c). Each returns 0, or -1
 * with the reason in why (without the file and place, which the reader
 * adds). */
/* A new report of the file name, or NULL without memory. */
struct trace_report *report_new(const char *name);
/* asymu_machine's fields: the JSON's otherData. */
int report_asymu_machine(struct trace_report *r, long long cpus, const char *aarch32,
                         const char *policy, unsigned long long seed, const char *capacity,
                         char *why, size_t len);
/* One asymu_report: a run or an instant (after the machine). */
int report_asymu_add(struct trace_report *r, const struct report_asymu *a, char *why, size_t len);
/* Once all are read: the instants in the JSON trace's order (their seq). */
void report_asymu_order(struct trace_report *r);
/* Copies s as the JSON reader does: at most len - 1 bytes, anything
 * outside printable ASCII as '?'. */
void report_copy(char *out, size_t len, const char *s);

/* The readers: 0, or -1 with "NAME:LINE: ..." or "NAME: cpu C record N: ..."
 * in err. */
int report_read_ftrace(struct trace_report *r, const char *buf, size_t len, char *err,
                       size_t errlen);
int report_read_dat(struct trace_report *r, const char *buf, size_t len, char *err,
                    size_t errlen);

/* Works out the statistics of what was read: 0 or -ENOMEM. */
int report_analyse(struct trace_report *r);

/* How the tables show a time and a share (trace_report_out.c): ns as
 * microseconds "123.456", exact; part of whole in percent "12.34", rounded
 * half up (0.00 of nothing). Each returns buf. */
const char *report_us(uint64_t ns, char buf[32]);
const char *report_pct(uint64_t part, uint64_t whole, char buf[32]);

/* The report of a run as it happens (trace_report_live.c): fed the
 * machine's events, it makes the asymu_report records of trace_asymu.c and
 * reads them as the reader of a trace.dat does, so the result is what
 * `asymu report` prints of a trace of the same run. The records count in
 * keep (the writer's budget): past it, the report is of the run up to
 * there. */
struct trace_machine;
struct trace_keep;
struct mevent;
struct report_live;
/* NULL without memory. */
struct report_live *report_live_new(const struct trace_machine *m, struct trace_keep *keep);
void report_live_event(struct report_live *l, const struct mevent *ev);
/* The analysed report (and frees l), or NULL with the reason in why. */
struct trace_report *report_live_finish(struct report_live *l, char *why, size_t len);

#endif
