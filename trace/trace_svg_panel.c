/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_svg_panel.c - the timeline's side panel: what `asymu report`
 * prints of the same run (trace_report_live.c builds the struct
 * trace_report; the numbers are its fields, formatted by the report's own
 * report_us and report_pct), compacted: per task its running time, the
 * share of it on 32-bit-capable and on 64-bit-only vCPUs, migrations and
 * wake-up latency p50 and max (the rest of its row in the tooltip); per
 * vCPU busy time and utilisation. */
#include "trace_report-int.h"
#include "trace-int.h"

#define LINE_H 15
/* The right edges of the number columns, from the panel's left. */
#define COL_RUNNING 235
#define COL_ON32 292
#define COL_ON64 355
#define COL_MIGR 392
#define COL_P50 470
#define COL_MAX (TRACE_SVG_PANEL_W - 10)
#define COL_TYPE 45
#define COL_BUSY 235
#define COL_UTIL 295

static void cell(FILE *o, const char *cls, double x, double y, const char *text)
{
    fprintf(o, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", cls, x, y);
    trace_xml_text(o, text);
    fputs("</text>", o);
}

static uint64_t class_ns(const struct report_task *t, const struct report_class *c)
{
    uint64_t ns = 0;
    unsigned cpu;
    for_each_cpu(cpu, &c->cpus) ns += t->cpu_ns[cpu];
    return ns;
}

/* A task's whole row of the report, for its tooltip. */
static void task_title(FILE *o, const struct trace_report *r, const struct report_task *t)
{
    char a[32], b[32], c[32], d[32], list[4096];
    fputs("<title>", o);
    trace_xml_text(o, t->id.comm);
    fprintf(o, " pid %d tid %d (%s): running %s, waiting %s, on 32-bit-capable vCPUs %s, ",
            t->id.pid, t->id.tid, t->compat ? "aarch32" : "aarch64", report_us(t->running, a),
            r->old_trace ? "-" : report_us(t->waiting, b), report_us(t->on_aarch32_cpus, c));
    fprintf(o, "on 64-bit-only vCPUs %s", report_us(t->on_aarch64_only, a));
    for (size_t k = 0; r->nr_classes >= 2 && k < r->nr_classes; k++) {
        cpulist_format(&r->classes[k].cpus, list, sizeof list);
        fprintf(o, ", on capacity %u (cpu%s) %s", r->classes[k].capacity, list,
                report_us(class_ns(t, &r->classes[k]), a));
    }
    fprintf(o, "; %u migrations, %u wake-ups", t->migrations, t->wakeups);
    if (t->nr_latencies)
        fprintf(o, ", latency p50 %s p90 %s p99 %s max %s", report_us(t->p50, a),
                report_us(t->p90, b), report_us(t->p99, c), report_us(t->max, d));
    fputs(" (&#181;s)</title>", o);
}

double trace_svg_panel(FILE *o, const struct trace_report *r, const char *why, uint64_t dropped,
                       double x, double y)
{
    char a[32], b[32], c[32];
    fprintf(o,
            "<g class=\"stats\">\n<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">"
            "asymu report of this run</text>\n",
            x, y);
    y += LINE_H;
    if (!r) {
        fprintf(o, "<text class=\"stat-error\" x=\"%.1f\" y=\"%.1f\">not available: ", x, y);
        trace_xml_text(o, why);
        fputs("</text>\n</g>\n", o);
        return y + LINE_H;
    }
    fprintf(o, "<g font-size=\"11\">\n");
    if (dropped) {
        fprintf(o,
                "<text class=\"stat-dropped\" x=\"%.1f\" y=\"%.1f\" fill=\"#d00\">%llu events "
                "dropped: of the run up to there</text>\n",
                x, y, (unsigned long long)dropped);
        y += LINE_H;
    }
    fprintf(o,
            "<text class=\"stat-window\" x=\"%.1f\" y=\"%.1f\">window %s-%s &#181;s; %u "
            "migrations, %u wake-ups, %u affinity changes</text>\n",
            x, y, report_us(r->start, a), report_us(r->end, b), r->migrations, r->wakeups,
            r->affinity_changes);
    y += LINE_H;
    fprintf(o,
            "<text x=\"%.1f\" y=\"%.1f\">times in &#181;s; 32-bit%% and 64-only%%: of "
            "running, on 32-bit-capable and on 64-bit-only vCPUs</text>\n",
            x, y);
    y += LINE_H + 6;
    /* The tasks' table: numbers right-aligned on their column's edge. */
    fprintf(o,
            "<g class=\"stat-head\" font-weight=\"bold\"><text x=\"%.1f\" y=\"%.1f\">task "
            "pid/tid</text>",
            x, y);
    cell(o, "h", x + COL_RUNNING, y, "running");
    cell(o, "h", x + COL_ON32, y, "32-bit%");
    cell(o, "h", x + COL_ON64, y, "64-only%");
    cell(o, "h", x + COL_MIGR, y, "migr");
    cell(o, "h", x + COL_P50, y, "wake p50");
    cell(o, "h", x + COL_MAX, y, "max");
    fputs("</g>\n", o);
    for (size_t i = 0; i < r->nr_tasks; i++) {
        const struct report_task *t = &r->tasks[i];
        bool lat = t->nr_latencies > 0;
        char migr[16];
        y += LINE_H;
        snprintf(migr, sizeof migr, "%u", t->migrations);
        fprintf(o, "<g class=\"stat-task\" data-pid=\"%d\" data-tid=\"%d\">", t->id.pid, t->id.tid);
        task_title(o, r, t);
        fprintf(o, "<text class=\"stat-comm\" x=\"%.1f\" y=\"%.1f\">", x, y);
        trace_xml_text(o, t->id.comm);
        fprintf(o, " %d/%d</text>", t->id.pid, t->id.tid);
        cell(o, "stat-running", x + COL_RUNNING, y, report_us(t->running, a));
        cell(o, "stat-on32", x + COL_ON32, y, report_pct(t->on_aarch32_cpus, t->running, a));
        cell(o, "stat-on64", x + COL_ON64, y, report_pct(t->on_aarch64_only, t->running, a));
        cell(o, "stat-migr", x + COL_MIGR, y, migr);
        cell(o, "stat-p50", x + COL_P50, y, lat ? report_us(t->p50, a) : "-");
        cell(o, "stat-max", x + COL_MAX, y, lat ? report_us(t->max, a) : "-");
        fputs("</g>\n", o);
    }
    /* The vCPUs: busy time and utilisation of the window. */
    y += LINE_H + 10;
    fprintf(o,
            "<g class=\"stat-head\" font-weight=\"bold\"><text x=\"%.1f\" y=\"%.1f\">vCPU</text>",
            x, y);
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\">type, capacity</text>", x + COL_TYPE, y);
    cell(o, "h", x + COL_BUSY, y, "busy");
    cell(o, "h", x + COL_UTIL, y, "util%");
    fputs("</g>\n", o);
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
        const struct report_cpu *p = &r->cpus[cpu];
        y += LINE_H;
        fprintf(o,
                "<g class=\"stat-cpu\" data-cpu=\"%u\"><title>cpu%u: busy %s, idle %s, offline "
                "%s (&#181;s)</title><text x=\"%.1f\" y=\"%.1f\">cpu%u</text><text x=\"%.1f\" "
                "y=\"%.1f\">%s, %u</text>",
                cpu, cpu, report_us(p->busy, a), report_us(p->idle, b), report_us(p->offline, c), x,
                y, cpu, x + COL_TYPE, y,
                cpumask_test_cpu(cpu, &r->aarch32) ? "32-bit-capable" : "64-bit only",
                r->capacity[cpu]);
        cell(o, "stat-busy", x + COL_BUSY, y, report_us(p->busy, a));
        cell(o, "stat-util", x + COL_UTIL, y, report_pct(p->busy, r->end - r->start, a));
        fputs("</g>\n", o);
    }
    fputs("</g>\n</g>\n", o);
    return y + LINE_H;
}
