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

#endif
