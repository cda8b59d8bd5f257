/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event_formats.h - the trace events asymu knows, laid out as an arm64
 * Linux 5.15 kernel lays them out in its ring buffer: field names, offsets,
 * sizes, signedness and the print fmt, i.e. what
 * /sys/kernel/tracing/events/SYSTEM/EVENT/format prints, plus the ring
 * buffer's header_page and header_event. One table, so that the trace.dat
 * writer (trace_dat.c) and an in-machine tracefs serve the same formats.
 * docs/tracing.md lists the events and the kernel source of each. */
#ifndef ASYMU_EVENT_FORMATS_H
#define ASYMU_EVENT_FORMATS_H

#include <stdbool.h>
#include <stddef.h>

/* The events, by index into event_formats[]. */
enum event_index {
    EVENT_SCHED_SWITCH,
    EVENT_SCHED_WAKING,
    EVENT_SCHED_WAKEUP,
    EVENT_SCHED_WAKEUP_NEW,
    EVENT_SCHED_MIGRATE_TASK,
    EVENT_SCHED_PROCESS_FORK,
    EVENT_SCHED_PROCESS_EXEC,
    EVENT_SCHED_PROCESS_EXIT,
    EVENT_SCHED_PROCESS_FREE,
    EVENT_SCHED_STAT_RUNTIME,
    EVENT_CPU_IDLE,
    EVENT_CPU_FREQUENCY,
    EVENT_CPUHP_ENTER,
    EVENT_CPUHP_EXIT,
    EVENT_TASK_NEWTASK,
    EVENT_TASK_RENAME,
    EVENT_SIGNAL_GENERATE,
    EVENT_SIGNAL_DELIVER,
    EVENT_FTRACE_PRINT,
    EVENT_ASYMU_AFFINITY,
    EVENT_ASYMU_KILL,
    EVENT_FTRACE_RAW_DATA, /* the IDs of the others (300 + index) stay */
    /* asymu's, in --trace-format ftrace and dat only (not the guest's
     * tracefs): what `asymu report` reads (docs/tracing.md) */
    EVENT_ASYMU_MACHINE,
    EVENT_ASYMU_REPORT,
    EVENT_COUNT,
};

/* One field after the common ones: its declaration as the format file
 * shows it ("char prev_comm[16]", "__data_loc char[] filename"). */
struct event_field {
    const char *decl;
    unsigned offset, size;
    bool is_signed;
};

#define EVENT_FIELDS_MAX 16

struct event_format {
    const char *system, *name;
    unsigned id; /* common_type */
    unsigned nr_fields;
    struct event_field fields[EVENT_FIELDS_MAX];
    unsigned size;         /* bytes of the fixed part, common fields included */
    const char *print_fmt; /* after "print fmt: " */
    const char *source;    /* where Linux defines it */
};

/* The common fields every record starts with (struct trace_entry). */
#define EVENT_COMMON_SIZE 8

extern const struct event_format event_formats[EVENT_COUNT];

/* Whether the guest's tracefs serves e (asymu_machine and asymu_report
 * are made for the trace files only). */
static inline bool event_in_tracefs(const struct event_format *e)
{
    return e != &event_formats[EVENT_ASYMU_MACHINE] && e != &event_formats[EVENT_ASYMU_REPORT];
}

/* The event named system/name, or NULL. */
const struct event_format *event_format_find(const char *system, const char *name);

/* Its ID (common_type). */
unsigned event_format_id(const struct event_format *e);

/* Writes the format file's text of e into buf (NUL-terminated, truncated
 * to len): returns the length of the whole text, as snprintf does. */
size_t event_format_text(const struct event_format *e, char *buf, size_t len);

/* /sys/kernel/tracing/events/header_page and header_event of a 64-bit
 * kernel with 4 KiB pages (kernel/trace/ring_buffer.c). */
extern const char event_header_page[];
extern const char event_header_event[];

/* The ring buffer's page: a u64 timestamp, a 64-bit commit (the bytes of
 * data used), then the data (ring_buffer.c's struct buffer_data_page). */
#define EVENT_PAGE_SIZE 4096u
#define EVENT_PAGE_HEADER 16u

/* Values of sched_switch's prev_state (include/linux/sched.h of 5.15,
 * __trace_sched_switch_state). */
#define EVENT_STATE_RUNNING 0x0000u
#define EVENT_STATE_INTERRUPTIBLE 0x0001u
#define EVENT_STATE_DEAD 0x0010u    /* EXIT_DEAD */
#define EVENT_STATE_ZOMBIE 0x0020u  /* EXIT_ZOMBIE */
#define EVENT_STATE_PREEMPT 0x0100u /* TASK_REPORT_MAX: "R+" */

#endif
