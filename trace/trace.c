/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.c - a trace writer: one format's state and the file it goes to. */
#include "trace-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct trace_writer {
    const struct trace_format_ops *ops;
    void *state;
    FILE *out;
};

struct trace_writer *trace_writer_new(enum trace_format format, FILE *out,
                                      const struct trace_machine *machine)
{
    static const struct trace_format_ops *const formats[] = {
        [TRACE_FORMAT_JSON] = &trace_json_ops,
        [TRACE_FORMAT_FTRACE] = &trace_ftrace_ops,
        [TRACE_FORMAT_SVG] = &trace_svg_ops,
        [TRACE_FORMAT_DAT] = &trace_dat_ops,
    };
    struct trace_writer *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->ops = formats[format];
    w->out = out;
    w->state = w->ops->new (out, machine);
    if (!w->state) {
        free(w);
        return NULL;
    }
    trace_writer_keep_max(w, TRACE_KEEP_MAX);
    return w;
}

void trace_writer_keep_max(struct trace_writer *w, uint64_t bytes)
{
    struct trace_keep *k = w->ops->keep ? w->ops->keep(w->state) : NULL;
    if (k)
        k->max = bytes;
}

uint64_t trace_writer_dropped(const struct trace_writer *w)
{
    struct trace_keep *k = w->ops->keep ? w->ops->keep(w->state) : NULL;
    return k ? k->dropped : 0;
}

bool trace_keep(struct trace_keep *k, uint64_t bytes)
{
    if (k->dropped || bytes > k->max || k->bytes > k->max - bytes) {
        k->dropped++;
        return false;
    }
    k->bytes += bytes;
    return true;
}

uint32_t trace_writer_kinds(const struct trace_writer *w)
{
    return w->ops->kinds;
}

void trace_writer_event(void *ctx, const struct mevent *ev)
{
    struct trace_writer *w = ctx;
    w->ops->event(w->state, ev);
}

int trace_writer_finish(struct trace_writer *w)
{
    w->ops->finish(w->state);
    int err = ferror(w->out) ? -EIO : 0;
    if (fclose(w->out) != 0)
        err = -EIO;
    free(w);
    return err;
}

void trace_text(const char *in, char *out, size_t len)
{
    size_t i = 0;
    for (; in[i] && i + 1 < len; i++)
        out[i] = in[i] >= 0x20 && in[i] < 0x7f ? in[i] : '?';
    out[i] = '\0';
}

bool trace_run_extend(struct trace_run *run, const struct mevent *ev)
{
    if (!run->open || run->task.tid != ev->task.tid || run->end_ns != ev->ts_ns ||
        run->task.compat != ev->task.compat || strcmp(run->task.comm, ev->task.comm) != 0)
        return false;
    run->end_ns = ev->run.end_ns;
    return true;
}

void trace_run_start(struct trace_run *run, const struct mevent *ev)
{
    run->task = ev->task;
    run->start_ns = ev->ts_ns;
    run->end_ns = ev->run.end_ns;
    run->open = true;
}
