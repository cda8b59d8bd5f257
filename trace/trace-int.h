/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-int.h - trace/'s private interface: what each format provides. */
#ifndef ASYMU_TRACE_INT_H
#define ASYMU_TRACE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_formats.h"
#include "trace.h"

/* What a writer that can only write at the end (ftrace sorts its lines by
 * time, SVG needs the whole time range) keeps in memory: the guest decides
 * how many events there are, so past max bytes new events are dropped and
 * counted (as Linux's ring buffer drops them when it is full and not in
 * overwrite mode) instead of holding host memory without end. */
struct trace_keep {
    uint64_t bytes, max, dropped;
};
/* Whether bytes more may be kept; if not, the event is counted dropped. */
bool trace_keep(struct trace_keep *k, uint64_t bytes);

struct trace_format_ops {
    uint32_t kinds;
    void *(*new)(FILE *out, const struct trace_machine *machine);
    void (*event)(void *state, const struct mevent *ev);
    /* Writes the rest and frees state (not out). */
    void (*finish)(void *state);
    /* The state's budget, for writers that keep events (else NULL). */
    struct trace_keep *(*keep)(void *state);
};

extern const struct trace_format_ops trace_json_ops;
extern const struct trace_format_ops trace_ftrace_ops;
extern const struct trace_format_ops trace_svg_ops;
extern const struct trace_format_ops trace_dat_ops;

/* "aarch32" or "aarch64": the ISA a task runs. */
static inline const char *trace_isa(const struct mevent_task *t)
{
    return t->compat ? "aarch32" : "aarch64";
}

/* Copies a guest string for output: bytes outside printable ASCII become
 * '?', so every writer produces valid UTF-8 whatever the guest named. */
void trace_text(const char *in, char *out, size_t len);

/* --- the SVG timeline (trace_svg.c) and its side panel (trace_svg_panel.c) --- */

/* XML text: &, <, > and double quotes escaped (guest strings included). */
void trace_xml_text(FILE *out, const char *text);
/* The panel's width, right of the legend's last column. */
#define TRACE_SVG_PANEL_W 560
struct trace_report;
/* Draws `asymu report`'s statistics of r at x from the baseline y (or,
 * without r, why not; with dropped events, that it is of the run up to
 * there): returns the y below it. */
double trace_svg_panel(FILE *out, const struct trace_report *r, const char *why, uint64_t dropped,
                       double x, double y);

/* Per-vCPU merging of consecutive runs: one run of a task on a vCPU, which
 * the next run extends when the same task goes on at the time it ended. */
struct trace_run {
    struct mevent_task task;
    uint64_t start_ns, end_ns;
    bool open;
};
/* Whether ev (a MEVENT_RUN) extends *run; if not, the caller flushes *run
 * and starts a new one with trace_run_start. */
bool trace_run_extend(struct trace_run *run, const struct mevent *ev);
void trace_run_start(struct trace_run *run, const struct mevent *ev);

/* --- the kernel's binary records and ring-buffer pages (trace_ring.c) --- */

/* The largest record: what fits in a page's data after a type_len 0
 * header (the kernel cannot record a longer event either). */
#define TRACE_RECORD_MAX (EVENT_PAGE_SIZE - EVENT_PAGE_HEADER - 8)

/* One event's record as the ring buffer holds it, and the vCPU whose
 * buffer it goes to. */
struct trace_record {
    enum event_index event;
    unsigned cpu;
    uint32_t len;
    unsigned char b[TRACE_RECORD_MAX];
};
typedef void (*trace_record_fn)(void *ctx, uint64_t ts, const struct trace_record *r);
/* Calls put with each record ev gives: trace_derive()'s records (the
 * derived sched_waking and cpu_idle included; none for kinds without a
 * 5.15 event), each encoded by trace_encode(). */
void trace_records(const struct mevent *ev, unsigned nr_cpus, trace_record_fn put, void *ctx);
struct trace_rec;
/* One record of ev in the kernel's binary form (trace_event_raw_event_*):
 * the fields at event_formats.c's offsets, strings as __data_loc; common_pid
 * is that of the record's task (a CTX_CURRENT record: ev's task). */
void trace_encode(const struct mevent *ev, const struct trace_rec *tr, unsigned nr_cpus,
                  struct trace_record *r);
/* ftrace's print record of a MEVENT_PRINT (tracing_mark_write()). */
void trace_print_record(struct trace_record *r, const struct mevent *ev);
/* The kallsyms lines that name the addresses records hold. */
extern const char trace_kallsyms[];
/* The address of tracing_mark_write in trace_kallsyms: print's ip. */
#define TRACE_MARK_WRITE_IP UINT64_C(0xffff8000101c0000)

/* One ring-buffer page (struct buffer_data_page): a u64 timestamp (its
 * first record's), the bytes committed, then records each with its time
 * delta from the one before; commit is kept up to date. */
struct trace_page {
    unsigned char data[EVENT_PAGE_SIZE];
    size_t len; /* bytes used, header included */
    uint64_t last_ts;
    unsigned entries;
};
void trace_page_start(struct trace_page *p, uint64_t ts);
/* Appends a record of len bytes at ts: false when the page has no room
 * (the caller starts a new one). */
bool trace_page_add(struct trace_page *p, uint64_t ts, const unsigned char *rec, uint32_t len);
/* --- shared by the ftrace text and the trace.dat (trace_lines.c) --- */

/* Whose context a record is reported in (its pid, common_pid). */
enum trace_ctx {
    TRACE_CTX_TASK,    /* the record's own task, running on the vCPU */
    TRACE_CTX_CURRENT, /* whatever the vCPU runs at that time */
    TRACE_CTX_SWITCH,  /* sched_switch: its prev, and next runs from then on */
};

/* power.h: cpu_idle's state when a CPU leaves idle (PWR_EVENT_EXIT). */
#define TRACE_PWR_EVENT_EXIT 4294967295UL

/* One record an mevent makes: the event, the vCPU it is on, whose context. */
struct trace_rec {
    enum event_index event;
    unsigned cpu;
    enum trace_ctx ctx;
    const struct mevent_task *task; /* CTX_TASK's task, CTX_SWITCH's prev; else NULL */
    unsigned long idle_state;       /* cpu_idle's state */
};
#define TRACE_RECS_MAX 3

/* The machine's events the trace text and the trace.dat are made of
 * (trace_derive()'s input). */
#define TRACE_LINE_KINDS                                                                          \
    (MEVENT_BIT(MEVENT_SWITCH) | MEVENT_BIT(MEVENT_WAKEUP) | MEVENT_BIT(MEVENT_MIGRATE) |        \
     MEVENT_BIT(MEVENT_FORK) | MEVENT_BIT(MEVENT_EXEC) | MEVENT_BIT(MEVENT_EXIT) |                \
     MEVENT_BIT(MEVENT_HOTPLUG) | MEVENT_BIT(MEVENT_AFFINITY) | MEVENT_BIT(MEVENT_KILL) |         \
     MEVENT_BIT(MEVENT_NEWTASK) | MEVENT_BIT(MEVENT_SIGNAL_GENERATE) |                            \
     MEVENT_BIT(MEVENT_SIGNAL_DELIVER) | MEVENT_BIT(MEVENT_RENAME) | MEVENT_BIT(MEVENT_FREE) |    \
     MEVENT_BIT(MEVENT_PRINT) | MEVENT_BIT(MEVENT_FREQUENCY) | MEVENT_BIT(MEVENT_STAT_RUNTIME))

/* The header /sys/kernel/tracing/trace starts with (print_trace_header()
 * for the nop tracer, with print_event_info() and
 * print_func_help_header_irq() as 5.15 has them, no tgid column): the
 * entries kept and written (dropped ones included), #P the vCPUs. */
void trace_text_header(FILE *out, size_t kept, unsigned long long written, unsigned nr_cpus);

/* --- the text of a record (trace_text.c) --- */

/* Record r of ev as "EVENT: FIELDS", its TP_printk() of 5.15 (malloc'ed;
 * NULL without memory or for an event without text). */
char *trace_rec_text(const struct mevent *ev, const struct trace_rec *r, unsigned nr_cpus);
/* One line of the trace text: "COMM-PID [CPU] FLAGS SECS.MICROS: TEXT"
 * (pid 0 shows as <idle>). */
void trace_text_line(FILE *out, const char *comm, int pid, unsigned cpu, enum event_index event,
                     uint64_t ts_ns, const char *text);

/* The records ev makes, in the order the kernel reports them (the derived
 * sched_waking and cpu_idle included): returns how many (0 for an mevent
 * neither writer shows). */
size_t trace_derive(const struct mevent *ev, unsigned nr_cpus,
                    struct trace_rec out[TRACE_RECS_MAX]);

/* A record kept until the end, to be sorted by time (ties in the order
 * they happened) and given the task it is reported for. */
struct trace_line {
    uint64_t ts_ns, seq;
    unsigned cpu;
    enum trace_ctx ctx;
    enum event_index event;
    int pid, next_pid;               /* the task's (resolved for CTX_CURRENT); CTX_SWITCH's next */
    char comm[MEVENT_COMM_LEN];      /* the task's */
    char next_comm[MEVENT_COMM_LEN]; /* CTX_SWITCH's next */
    void *data;                      /* the writer's: text, or the record's bytes */
    size_t len;
};

struct trace_lines {
    struct trace_line *lines;
    size_t len, cap;
};

/* A new line for r of ev at ts (counted once the writer increments len),
 * or NULL without memory. */
struct trace_line *trace_line_new(struct trace_lines *ls, uint64_t ts, const struct trace_rec *r,
                                  const struct mevent *ev);
/* Sorts the lines by time, puts a task's own events after the switch to
 * it, and gives each CTX_CURRENT line the pid and comm its vCPU runs. */
void trace_lines_order(struct trace_lines *ls, unsigned nr_cpus);

/* saved_cmdlines: the last comm the sched_switch lines show for each pid
 * (tracing_record_cmdline()), sorted by pid; the comms point into ls. */
struct trace_cmdline {
    int pid;
    size_t order;
    const char *comm;
};
struct trace_cmdline *trace_cmdlines(const struct trace_lines *ls, size_t *n);
/* The saved comm of pid, or NULL. */
const char *trace_cmdline_find(const struct trace_cmdline *c, size_t n, int pid);

/* asymu_affinity's cause: mevent_cause_name() without spaces, so that
 * key=value parsers (Perfetto's) read it as one value. */
const char *trace_cause_token(enum mevent_cause cause);

/* --- what `asymu report` reads in the text and the trace.dat (trace_asymu.c) --- */

/* An asymu_report record's fields: a run, wake-up, migration, affinity
 * change or hotplug as the JSON trace has it (trace_json.c), its times in
 * nanoseconds. Strings not used are "-", ints -1. */
struct trace_asymu {
    const char *what; /* run wakeup migrate affinity offline online */
    unsigned cpu;
    int pid, tgid; /* the task's tid and tgid (0: none) */
    char comm[MEVENT_COMM_LEN];
    uint64_t ts_ns, end_ns; /* when; a run's start and end */
    uint64_t seq;           /* the order the JSON trace has them in (not by time) */
    int from, to;           /* a migration's vCPUs */
    const char *isa;
    char old_cpus[4096], cpus[4096]; /* an affinity change's masks */
    const char *rule;
    const char *why; /* how a run ended, why a task moved, what changed an affinity */
};

/* The runs of the JSON trace, merged per vCPU as trace_json.c merges them
 * (trace_run_extend), each given to the writer as an asymu_report record
 * when it ends: at the vCPU's next run, or at trace_asymu_runs_end(); and
 * the count of records made, their seq. */
typedef void (*trace_asymu_fn)(void *ctx, const struct trace_asymu *a);
struct trace_asymu_runs {
    unsigned nr_cpus;
    struct trace_run *runs;
    enum mevent_run_end *ends;
    uint64_t seq;
};
/* The asymu_report record of a wake-up, migration, affinity change or
 * hotplug: false for an event of another kind. */
bool trace_asymu_of(struct trace_asymu_runs *rs, const struct mevent *ev, struct trace_asymu *a);
int trace_asymu_runs_init(struct trace_asymu_runs *rs, unsigned nr_cpus);
void trace_asymu_run(struct trace_asymu_runs *rs, const struct mevent *ev, trace_asymu_fn fn,
                     void *ctx);
/* Gives the open runs and frees rs. */
void trace_asymu_runs_end(struct trace_asymu_runs *rs, trace_asymu_fn fn, void *ctx);

/* "EVENT: FIELDS" of asymu_report and asymu_machine (malloc'ed, or NULL),
 * and their binary records (trace_ring.c) of the vCPU's idle context. */
char *trace_asymu_text(const struct trace_asymu *a);
char *trace_machine_text(const struct trace_machine *m);
void trace_asymu_encode(const struct trace_asymu *a, struct trace_record *r);
void trace_machine_encode(const struct trace_machine *m, struct trace_record *r);
/* asymu_machine's fields: the 32-bit vCPUs and the capacities as lists. */
void trace_machine_lists(const struct trace_machine *m, char aarch32[4096], char capacity[4096]);

#endif
