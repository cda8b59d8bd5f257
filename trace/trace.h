/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.h - trace writers fed by the machine's event stream (mevent.h):
 * Chrome Trace Event / Perfetto JSON, the kernel's ftrace text as
 * `trace-cmd report` prints it, trace-cmd's binary trace.dat, and an SVG
 * timeline. docs/tracing.md
 * describes each format. Output is a function of the events only, so the
 * same run gives the same bytes. */
#ifndef ASYMU_TRACE_H
#define ASYMU_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "mevent.h"

enum trace_format {
    TRACE_FORMAT_JSON,   /* --trace F (default) */
    TRACE_FORMAT_FTRACE, /* --trace F --trace-format ftrace */
    TRACE_FORMAT_SVG,    /* --timeline F.svg */
    TRACE_FORMAT_DAT,    /* --trace F --trace-format dat: trace-cmd's trace.dat */
};

/* What every writer states about the machine. */
struct trace_machine {
    unsigned nr_cpus;
    struct cpumask aarch32; /* vCPUs that run 32-bit code */
    const char *policy;
    uint64_t seed;
    /* Per vCPU arch_scale_cpu_capacity() (1..1024); 0: not known, 1024.
     * A copy, not a pointer, so that writers may keep the struct; the
     * timeline groups rows by type and capacity (a cluster). */
    uint16_t capacity[NR_CPUS_MAX];
};

struct trace_writer;

/* What the ftrace and SVG writers keep in memory until the end, at most. */
#define TRACE_KEEP_MAX (UINT64_C(256) << 20)

/* A writer of format into out (which it closes when finished), or NULL
 * without memory. Subscribe it with trace_writer_kinds and trace_writer_event. */
struct trace_writer *trace_writer_new(enum trace_format format, FILE *out,
                                      const struct trace_machine *machine);
/* The event kinds the writer needs. */
uint32_t trace_writer_kinds(const struct trace_writer *w);
/* A mevent_fn: ctx is the writer. */
void trace_writer_event(void *ctx, const struct mevent *ev);
/* Writes what is left, closes the file and frees the writer: 0, or -EIO if
 * a write failed. */
int trace_writer_finish(struct trace_writer *w);
/* The most a writer keeps in memory until the end (ftrace, SVG; default
 * TRACE_KEEP_MAX), and how many events it dropped past that. */
void trace_writer_keep_max(struct trace_writer *w, uint64_t bytes);
uint64_t trace_writer_dropped(const struct trace_writer *w);

#endif
