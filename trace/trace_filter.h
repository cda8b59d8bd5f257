/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_filter.h - the filters of tracefs's events/SYSTEM/EVENT/filter:
 * Linux 5.15's filter expressions (kernel/trace/trace_events_filter.c),
 * a subset: comparisons of an event's fields (and the common ones:
 * common_pid, common_type, common_flags, common_preempt_count) with ==,
 * !=, <, <=, >, >= and & for numbers, == and != with a quoted string for
 * char arrays and __data_loc strings, joined by && and || (&& binding
 * tighter), grouped by parentheses, negated by !. Matched against a
 * record's bytes as the ring buffer holds them. Pure logic: tracefs.c
 * keeps one per event and trace array. docs/tracing.md, "Filters". */
#ifndef ASYMU_TRACE_FILTER_H
#define ASYMU_TRACE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "event_formats.h"

struct trace_filter;

/* The filter text (NUL-terminated, its trailing white space already cut)
 * of event e: 0 and *out, or -EINVAL with *errtext what the filter file
 * shows then (malloc'ed; append_filter_err(): the text, a line with ^
 * under where the parse stopped, "parse_error: WHY"), or -ENOMEM. */
int trace_filter_parse(const struct event_format *e, const char *text, struct trace_filter **out,
                       char **errtext);
/* Whether the record of len bytes (common fields first) passes f. */
bool trace_filter_match(const struct trace_filter *f, const unsigned char *rec, size_t len);
void trace_filter_free(struct trace_filter *f);

#endif
