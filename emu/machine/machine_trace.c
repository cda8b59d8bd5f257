/* SPDX-License-Identifier: GPL-2.0-or-later */
/* machine_trace.c - runs the trace writers over the machine's event stream. */
#include "machine_trace.h"
#include "emu.h"
#include "machine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void gated_event(void *ctx, const struct mevent *ev)
{
    struct machine_trace_writer *mw = ctx;
    if (!mw->tr->off)
        trace_writer_event(mw->w, ev);
}

int machine_trace_enable(struct machine_trace *tr, bool on)
{
    if (!tr || tr->n == 0)
        return -ENOENT;
    tr->off = !on;
    return 0;
}

static int add_writer(struct machine_trace *tr, struct machine *m, enum trace_format format,
                      FILE *out)
{
    struct trace_machine info = {
        .nr_cpus = m->sched.nr_cpus,
        .aarch32 = m->sched.aarch32,
        .policy = sched_policy_name(m->sched.policy_id),
        .seed = m->cfg->seed,
    };
    for (unsigned cpu = 0; cpu < m->sched.nr_cpus && cpu < NR_CPUS_MAX; cpu++)
        info.capacity[cpu] = (uint16_t)m->sched.cpus[cpu].capacity;
    struct trace_writer *w = trace_writer_new(format, out, &info);
    if (!w) {
        fclose(out);
        return -ENOMEM;
    }
    struct machine_trace_writer *mw = &tr->writers[tr->n];
    *mw = (struct machine_trace_writer){tr, w};
    int err = mevent_subscribe(&m->sched.events, trace_writer_kinds(w), gated_event, mw);
    if (err < 0) {
        trace_writer_finish(w);
        return err;
    }
    tr->n++;
    return 0;
}

int machine_trace_start(struct machine_trace *tr, struct machine *m, const struct emu_config *cfg)
{
    tr->n = 0;
    tr->off = false;
    m->trace = tr;
    int err = 0;
    if (cfg->trace_file)
        err = add_writer(tr, m,
                         cfg->trace_format == EMU_TRACE_FTRACE ? TRACE_FORMAT_FTRACE
                         : cfg->trace_format == EMU_TRACE_DAT  ? TRACE_FORMAT_DAT
                                                               : TRACE_FORMAT_JSON,
                         cfg->trace_file);
    if (cfg->timeline_file) {
        if (err == 0)
            err = add_writer(tr, m, TRACE_FORMAT_SVG, cfg->timeline_file);
        else
            fclose(cfg->timeline_file);
    }
    return err;
}

void machine_trace_finish(struct machine_trace *tr, struct machine *m)
{
    mevent_close(&m->sched.events);
    for (unsigned i = 0; i < tr->n; i++) {
        uint64_t dropped = trace_writer_dropped(tr->writers[i].w);
        if (dropped)
            fprintf(stderr,
                    "asymu: the trace kept %llu MiB in memory to write at the end and dropped the "
                    "%llu events after\n",
                    (unsigned long long)(TRACE_KEEP_MAX >> 20), (unsigned long long)dropped);
        if (trace_writer_finish(tr->writers[i].w) < 0)
            fprintf(stderr, "asymu: writing a trace file failed: %s\n", strerror(EIO));
    }
    tr->n = 0;
}

int machine_boot_traced(struct machine *m, struct machine_trace *tr, const struct emu_config *cfg)
{
    int err = machine_boot(m, cfg);
    if (err < 0)
        return err;
    if ((err = machine_trace_start(tr, m, cfg)) < 0)
        machine_shutdown(m);
    return err;
}
