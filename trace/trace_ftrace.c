/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_ftrace.c - the kernel's ftrace text as Linux 5.15's
 * /sys/kernel/tracing/trace prints it with the nop tracer: its header
 * (print_trace_header's "# tracer:", print_event_info()'s entries line and
 * print_func_help_header_irq()'s legend), then one line per event,
 *   COMM-PID [CPU] FLAGS SECONDS.MICROS: EVENT: FIELDS
 * (trace_print_context(), trace_print_lat_fmt(), trace_print_time()), each
 * event's FIELDS in its TP_printk() format of Linux 5.15 (docs/tracing.md
 * lists them with their headers). The machine loop runs vCPUs out of time
 * order, so events are kept and sorted by time at the end (ties in the order
 * they happened); the task a line is printed for (the current task of its
 * vCPU) is resolved then, from the sched_switch lines before it. */
#include "trace-int.h"

#include <stdlib.h>
#include <string.h>

/* The lines (trace_lines.c), each's data its "EVENT: FIELDS" text. */
struct ftrace_trace {
    FILE *out;
    unsigned nr_cpus;
    struct trace_lines ls;
    struct trace_keep keep; /* lines kept until the end, to be sorted */
};

/* One record of ev (trace_derive()) as its line, or dropped past the budget. */
static void ftrace_rec(struct ftrace_trace *f, const struct mevent *ev, const struct trace_rec *r)
{
    if (f->keep.dropped) { /* the trace is what came before the first dropped line */
        f->keep.dropped++;
        return;
    }
    struct trace_line *l = trace_line_new(&f->ls, ev->ts_ns, r, ev);
    char *text = l ? trace_rec_text(ev, r, f->nr_cpus) : NULL;
    if (!text)
        return;
    if (!trace_keep(&f->keep, sizeof(*l) + strlen(text) + 1)) {
        free(text);
        return;
    }
    l->data = text;
    f->ls.len++;
}

static void ftrace_event(void *state, const struct mevent *ev)
{
    struct ftrace_trace *f = state;
    struct trace_rec recs[TRACE_RECS_MAX];
    size_t n = trace_derive(ev, f->nr_cpus, recs);
    for (size_t i = 0; i < n; i++)
        ftrace_rec(f, ev, &recs[i]);
}

static struct trace_keep *ftrace_keep(void *state)
{
    return &((struct ftrace_trace *)state)->keep;
}

static void *ftrace_new(FILE *out, const struct trace_machine *machine)
{
    struct ftrace_trace *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    f->out = out;
    f->nr_cpus = machine->nr_cpus ? machine->nr_cpus : 1;
    return f;
}

static void header(struct ftrace_trace *f)
{
    trace_text_header(f->out, f->ls.len, (unsigned long long)(f->ls.len + f->keep.dropped),
                      f->nr_cpus);
}

static void ftrace_finish(void *state)
{
    struct ftrace_trace *f = state;
    trace_lines_order(&f->ls, f->nr_cpus);
    header(f);
    /* The kernel prints a line's task by pid, with the comm its
     * saved_cmdlines holds when the file is read (trace_find_cmdline()),
     * so a task that exec'd shows its new comm on its earlier lines too. */
    size_t ncmd;
    struct trace_cmdline *cmd = trace_cmdlines(&f->ls, &ncmd);
    for (size_t i = 0; i < f->ls.len; i++) {
        const struct trace_line *l = &f->ls.lines[i];
        const char *comm = trace_cmdline_find(cmd, ncmd, l->pid);
        /* trace_print_context(): the idle task is "<idle>" there */
        trace_text_line(f->out, comm ? comm : l->comm, l->pid, l->cpu, l->event, l->ts_ns,
                        l->data);
    }
    for (size_t i = 0; i < f->ls.len; i++)
        free(f->ls.lines[i].data);
    free(cmd);
    free(f->ls.lines);
    free(f);
}

const struct trace_format_ops trace_ftrace_ops = {
    .kinds = TRACE_LINE_KINDS,
    .new = ftrace_new,
    .event = ftrace_event,
    .finish = ftrace_finish,
    .keep = ftrace_keep,
};
