/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report.h - `asymu report TRACE [--json]`: what a trace asymu wrote
 * says per task and per vCPU (time running per CPU and per CPU type,
 * waiting, migrations and why, wake-up latencies, affinity changes;
 * utilisation and idle time), as an aligned table or JSON.
 * docs/tracing.md "asymu report" describes the numbers and the schema. */
#ifndef ASYMU_TRACE_REPORT_H
#define ASYMU_TRACE_REPORT_H

#include <stddef.h>
#include <stdio.h>

struct trace_report;

/* Reads the trace in buf (len bytes; it need not end in NUL): a JSON
 * trace, an ftrace text or a trace.dat, told by its content; name being
 * its file for messages. NULL on a trace it cannot read, with the reason
 * in err ("FILE:LINE:COLUMN: ...", "FILE: traceEvents[N]: ...",
 * "FILE:LINE: ..." in the text, "FILE: record N (cpu C): ..." in the
 * trace.dat). */
struct trace_report *trace_report_parse(const char *buf, size_t len, const char *name, char *err,
                                        size_t errlen);
/* The tables, or the --json document. */
void trace_report_text(const struct trace_report *r, FILE *out);
void trace_report_json(const struct trace_report *r, FILE *out);
void trace_report_free(struct trace_report *r);

/* `asymu report TRACE [--json]`: 0, or 2 (a usage error or a trace it
 * cannot read, said on stderr). */
int trace_report_main(int argc, char **argv);

#endif
