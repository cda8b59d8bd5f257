/* trace-int.h - trace/'s private interface: what each format provides. */
#ifndef ASYMU_TRACE_INT_H
#define ASYMU_TRACE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
