/* SPDX-License-Identifier: GPL-2.0-or-later */
/* machine_trace.h - the trace writers `asymu run` asked for (--trace,
 * --trace-format, --timeline), subscribed to the machine's event stream
 * for the whole run. */
#ifndef ASYMU_MACHINE_TRACE_H
#define ASYMU_MACHINE_TRACE_H

#include <stdbool.h>

struct emu_config;
struct machine;

#include "trace.h"

struct machine_trace;

/* One writer and the switch all of them go through. */
struct machine_trace_writer {
    struct machine_trace *tr;
    struct trace_writer *w;
};

struct machine_trace {
    struct machine_trace_writer writers[2];
    unsigned n;
    bool off; /* `trace off` (control.h): events are not written */
};

/* Subscribes a writer for each file of cfg, before the first task exists:
 * 0, or -ENOMEM (the files are closed then). */
int machine_trace_start(struct machine_trace *tr, struct machine *m, const struct emu_config *cfg);
/* machine_boot, then machine_trace_start: 0, or an errno with nothing
 * left booted. */
int machine_boot_traced(struct machine *m, struct machine_trace *tr, const struct emu_config *cfg);
/* `trace on|off`: writes the events from now on, or not: 0, or -ENOENT
 * when the run has no trace file (tr NULL or without writers). */
int machine_trace_enable(struct machine_trace *tr, bool on);
/* Ends the stream (the last switches to idle) and writes the files. */
void machine_trace_finish(struct machine_trace *tr, struct machine *m);

#endif
