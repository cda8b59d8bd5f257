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
/* Calls put with each record ev gives (none for kinds without a 5.15
 * event; two for a hotplug: cpuhp_enter and cpuhp_exit). */
void trace_records(const struct mevent *ev, unsigned nr_cpus, trace_record_fn put, void *ctx);
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

#endif
