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
    struct trace_asymu_runs runs;
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

/* One of asymu's own lines (trace_asymu.c) at ts on cpu, in the context
 * of what the vCPU runs then; text is taken. */
static void ftrace_asymu_line(struct ftrace_trace *f, uint64_t ts, unsigned cpu,
                              enum event_index event, char *text)
{
    struct trace_rec r = {.event = event, .cpu = cpu, .ctx = TRACE_CTX_CURRENT};
    if (f->keep.dropped) { /* as ftrace_rec(): nothing after the first dropped line */
        f->keep.dropped++;
        free(text);
        return;
    }
    struct trace_line *l = text ? trace_line_new(&f->ls, ts, &r, NULL) : NULL;
    if (!l || !trace_keep(&f->keep, sizeof(*l) + strlen(text) + 1)) {
        free(text);
        return;
    }
    l->data = text;
    f->ls.len++;
}

/* A run's asymu_report, at the time it ended. */
static void ftrace_asymu_run(void *ctx, const struct trace_asymu *a)
{
    struct ftrace_trace *f = ctx;
    ftrace_asymu_line(f, a->end_ns, a->cpu, EVENT_ASYMU_REPORT, trace_asymu_text(a));
}

static void ftrace_event(void *state, const struct mevent *ev)
{
    struct ftrace_trace *f = state;
    if (ev->kind == MEVENT_RUN) {
        trace_asymu_run(&f->runs, ev, ftrace_asymu_run, f);
        return;
    }
    struct trace_rec recs[TRACE_RECS_MAX];
    size_t n = trace_derive(ev, f->nr_cpus, recs);
    for (size_t i = 0; i < n; i++)
        ftrace_rec(f, ev, &recs[i]);
    struct trace_asymu a;
    if (trace_asymu_of(&f->runs, ev, &a))
        ftrace_asymu_line(f, ev->ts_ns, a.cpu, EVENT_ASYMU_REPORT, trace_asymu_text(&a));
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
    if (trace_asymu_runs_init(&f->runs, f->nr_cpus) < 0) {
        free(f);
        return NULL;
    }
    /* the machine first, at time 0: the JSON's otherData (within the
     * default budget: trace_writer_new() sets the budget after this) */
    f->keep.max = TRACE_KEEP_MAX;
    ftrace_asymu_line(f, 0, 0, EVENT_ASYMU_MACHINE, trace_machine_text(machine));
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
    trace_asymu_runs_end(&f->runs, ftrace_asymu_run, f);
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
    .kinds = TRACE_LINE_KINDS | MEVENT_BIT(MEVENT_RUN),
    .new = ftrace_new,
    .event = ftrace_event,
    .finish = ftrace_finish,
    .keep = ftrace_keep,
};
