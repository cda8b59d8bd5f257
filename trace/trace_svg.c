/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_svg.c - the run as a self-contained SVG timeline: a row per vCPU,
 * grouped by type (32-bit-capable or 64-bit only) and capacity (a cluster),
 * a bar per run in the task's colour, markers for exec, kill, migration,
 * affinity changes (with their rule) and hotplug (offline time shaded), a
 * time axis in virtual microseconds, a legend of tasks and markers, and
 * right of the rows a panel of `asymu report`'s statistics of the run
 * (trace_svg_panel.c, from trace_report_live.c).
 * Hovering a shape shows its <title>. Kept in memory and drawn at the end,
 * when the time range is known, in time order (the vCPUs report out of
 * order). */
#include "trace-int.h"
#include "trace_report-int.h"
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#define LEFT 170    /* the row labels' column */
#define PLOT_W 1000 /* the time axis' width */
#define TOP 50
#define ROW_H 28
#define BAR_H 18
#define LEGEND_COL_W 260
#define LEGEND_COLS 4
#define GROUP_GAP 16 /* between the rows of two groups, for the group's label */
#define PANEL_X (LEFT + PLOT_W + 80) /* clear of the legend's last column */

enum marker_kind { MARK_EXEC, MARK_KILL, MARK_MIGRATE, MARK_OFFLINE, MARK_ONLINE, MARK_AFFINITY };

struct marker {
    enum marker_kind kind;
    unsigned cpu;
    uint64_t ts_ns, seq;
    char title[256];
};

struct bar {
    unsigned cpu;
    uint64_t start_ns, end_ns;
    int task; /* index into tasks */
};

struct svg_trace {
    FILE *out;
    struct trace_machine machine;
    unsigned *capacity; /* per vCPU, 1024 if not given */
    double *row_top;    /* per vCPU: its row's y, by group */
    struct trace_run *runs; /* per vCPU: the run not drawn yet */
    struct bar *bars;
    size_t nbars, bars_cap;
    struct marker *marks;
    size_t nmarks, marks_cap;
    struct mevent_task *tasks; /* in order of first appearance: their colours */
    size_t ntasks, tasks_cap;
    struct trace_keep keep; /* bars, markers, tasks and the report's records kept until the end */
    struct report_live *report; /* the panel's statistics */
    uint64_t end_ns;
};

static bool grow(void **p, size_t *cap, size_t len, size_t size)
{
    if (len < *cap)
        return true;
    size_t ncap = *cap ? *cap * 2 : 256;
    void *np = realloc(*p, ncap * size);
    if (!np)
        return false;
    *p = np;
    *cap = ncap;
    return true;
}

static void see_time(struct svg_trace *s, uint64_t ns)
{
    if (ns > s->end_ns)
        s->end_ns = ns;
}

/* The task's index (and so its colour): one per tid and name, so a task
 * that execs another program gets a new colour. */
static int task_index(struct svg_trace *s, const struct mevent_task *t)
{
    for (size_t i = s->ntasks; i-- > 0;)
        if (s->tasks[i].tid == t->tid && strcmp(s->tasks[i].comm, t->comm) == 0 &&
            s->tasks[i].compat == t->compat)
            return (int)i;
    if (!trace_keep(&s->keep, sizeof(*s->tasks)) ||
        !grow((void **)&s->tasks, &s->tasks_cap, s->ntasks, sizeof(*s->tasks)))
        return -1;
    s->tasks[s->ntasks] = *t;
    return (int)s->ntasks++;
}

static void flush_run(struct svg_trace *s, unsigned cpu)
{
    struct trace_run *r = &s->runs[cpu];
    if (!r->open)
        return;
    r->open = false;
    if (r->end_ns == r->start_ns || !trace_keep(&s->keep, sizeof(struct bar)))
        return;
    int task = task_index(s, &r->task);
    if (task < 0 ||
        !grow((void **)&s->bars, &s->bars_cap, s->nbars, sizeof(*s->bars)))
        return;
    s->bars[s->nbars++] = (struct bar){cpu, r->start_ns, r->end_ns, task};
}

static void mark(struct svg_trace *s, enum marker_kind kind, unsigned cpu, uint64_t ts,
                 const char *title)
{
    if (cpu >= s->machine.nr_cpus || !trace_keep(&s->keep, sizeof(struct marker)) ||
        !grow((void **)&s->marks, &s->marks_cap, s->nmarks, sizeof(*s->marks)))
        return;
    struct marker *m = &s->marks[s->nmarks];
    m->kind = kind;
    m->cpu = cpu;
    m->ts_ns = ts;
    m->seq = s->nmarks++;
    trace_text(title, m->title, sizeof m->title);
    see_time(s, ts);
}

static void svg_draw_event(struct svg_trace *s, const struct mevent *ev)
{
    char title[320], comm[MEVENT_COMM_LEN];
    trace_text(ev->task.comm, comm, sizeof comm);
    switch (ev->kind) {
    case MEVENT_RUN:
        if (ev->cpu >= s->machine.nr_cpus)
            return;
        see_time(s, ev->run.end_ns);
        if (!trace_run_extend(&s->runs[ev->cpu], ev)) {
            flush_run(s, ev->cpu);
            trace_run_start(&s->runs[ev->cpu], ev);
        }
        return;
    case MEVENT_EXEC:
        snprintf(title, sizeof title, "exec %s by %s %d (%s)", ev->exec.path, comm, ev->task.tid,
                 trace_isa(&ev->task));
        mark(s, MARK_EXEC, ev->cpu, ev->ts_ns, title);
        return;
    case MEVENT_KILL:
        snprintf(title, sizeof title, "SIGKILL %s %d (rule %s)", comm, ev->task.tid, ev->kill.rule);
        mark(s, MARK_KILL, ev->cpu, ev->ts_ns, title);
        return;
    case MEVENT_MIGRATE:
        snprintf(title, sizeof title, "%s %d migrated cpu%u to cpu%u", comm, ev->task.tid,
                 ev->migrate.from, ev->migrate.to);
        mark(s, MARK_MIGRATE, ev->migrate.to, ev->ts_ns, title);
        return;
    case MEVENT_HOTPLUG:
        snprintf(title, sizeof title, "cpu%u %s", ev->cpu,
                 ev->hotplug.online ? "online" : "offline");
        mark(s, ev->hotplug.online ? MARK_ONLINE : MARK_OFFLINE, ev->cpu, ev->ts_ns, title);
        return;
    case MEVENT_AFFINITY: {
        char old[64], new_mask[64];
        cpulist_format(ev->affinity.old_mask, old, sizeof old);
        cpulist_format(ev->affinity.new_mask, new_mask, sizeof new_mask);
        snprintf(title, sizeof title, "affinity of %s %d: %s to %s, rule %s (%s)", comm,
                 ev->task.tid, old, new_mask, ev->affinity.rule,
                 mevent_cause_name(ev->affinity.cause));
        mark(s, MARK_AFFINITY, ev->cpu, ev->ts_ns, title);
        return;
    }
    default:
        return;
    }
}

static void svg_event(void *state, const struct mevent *ev)
{
    struct svg_trace *s = state;
    uint64_t dropped = s->keep.dropped;
    report_live_event(s->report, ev);
    svg_draw_event(s, ev);
    /* an event is dropped once, however many of its parts (the report's
     * record, a bar, a new task) were not kept */
    if (s->keep.dropped > dropped + 1)
        s->keep.dropped = dropped + 1;
}

static struct trace_keep *svg_keep(void *state)
{
    return &((struct svg_trace *)state)->keep;
}

static void *svg_new(FILE *out, const struct trace_machine *machine)
{
    struct svg_trace *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->runs = calloc(machine->nr_cpus, sizeof(*s->runs));
    if (!s->runs) {
        free(s);
        return NULL;
    }
    s->capacity = calloc(machine->nr_cpus, sizeof(*s->capacity));
    s->row_top = calloc(machine->nr_cpus, sizeof(*s->row_top));
    s->report = report_live_new(machine, &s->keep);
    if (!s->capacity || !s->row_top || !s->report) {
        if (s->report)
            trace_report_free(report_live_finish(s->report, NULL, 0));
        free(s->capacity);
        free(s->row_top);
        free(s->runs);
        free(s);
        return NULL;
    }
    for (unsigned cpu = 0; cpu < machine->nr_cpus; cpu++)
        s->capacity[cpu] =
            cpu < NR_CPUS_MAX && machine->capacity[cpu] ? machine->capacity[cpu] : 1024;
    s->out = out;
    s->machine = *machine;
    return s;
}

void trace_xml_text(FILE *out, const char *text)
{
    for (; *text; text++) {
        switch (*text) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            fputc(*text, out);
        }
    }
}

static double x_of(const struct svg_trace *s, uint64_t ns)
{
    return LEFT + (double)ns * PLOT_W / (double)s->end_ns;
}

/* A vCPU's group: its type and capacity (a cluster of the same cores). */
static bool same_group(const struct svg_trace *s, unsigned a, unsigned b)
{
    return cpumask_test_cpu(a, &s->machine.aarch32) == cpumask_test_cpu(b, &s->machine.aarch32) &&
           s->capacity[a] == s->capacity[b];
}

/* Lays the rows out: groups in the order of their first vCPU, each vCPU's
 * row in its group in vCPU order, a gap with the group's label between
 * groups. Returns the y below the last row. */
static double layout_rows(struct svg_trace *s)
{
    unsigned n = s->machine.nr_cpus;
    double y = TOP;
    bool *placed = calloc(n ? n : 1, sizeof(*placed));
    for (unsigned first = 0; placed && first < n; first++) {
        if (placed[first])
            continue;
        y += GROUP_GAP;
        for (unsigned cpu = first; cpu < n; cpu++)
            if (!placed[cpu] && same_group(s, first, cpu)) {
                placed[cpu] = true;
                s->row_top[cpu] = y;
                y += ROW_H;
            }
    }
    free(placed);
    return y;
}

static double row_y(const struct svg_trace *s, unsigned cpu)
{
    return s->row_top[cpu];
}

/* The group labels, above each group's first row. */
static void draw_groups(struct svg_trace *s)
{
    unsigned n = s->machine.nr_cpus;
    for (unsigned first = 0; first < n; first++) {
        bool seen = false;
        for (unsigned c = 0; c < first && !seen; c++)
            seen = same_group(s, c, first);
        if (seen)
            continue;
        struct cpumask members = {0};
        for (unsigned cpu = first; cpu < n; cpu++)
            if (same_group(s, first, cpu))
                cpumask_set_cpu(cpu, &members);
        char list[256];
        cpulist_format(&members, list, sizeof list);
        bool is32 = cpumask_test_cpu(first, &s->machine.aarch32);
        fprintf(s->out,
                "<g class=\"group%s\" data-cpus=\"%s\"><text x=\"10\" y=\"%.1f\" "
                "font-weight=\"bold\">cpu%s: %s, capacity %u</text></g>\n",
                is32 ? " aarch32" : "", list, row_y(s, first) - 4, list,
                is32 ? "32-bit-capable (aarch32+aarch64)" : "64-bit only (aarch64)",
                s->capacity[first]);
    }
}

/* A colour per task: hues spread by the golden angle, in order of appearance. */
static void colour(char *buf, size_t len, int task)
{
    snprintf(buf, len, "hsl(%d,65%%,%d%%)", (task * 137) % 360, task % 2 ? 45 : 60);
}

/* Ticks every 1, 2 or 5 times a power of ten microseconds, at most ten. */
static uint64_t tick_step_ns(uint64_t span)
{
    static const unsigned mult[] = {1, 2, 5};
    for (uint64_t decade = 1000;; decade *= 10)
        for (unsigned i = 0; i < 3; i++)
            if (span / (decade * mult[i]) <= 10)
                return decade * mult[i];
}

static void draw_axis(struct svg_trace *s, double y)
{
    FILE *o = s->out;
    fprintf(
        o,
        "<g class=\"axis\"><line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\"/>\n",
        LEFT, y, LEFT + PLOT_W, y);
    uint64_t step = tick_step_ns(s->end_ns);
    for (uint64_t t = 0; t <= s->end_ns; t += step) {
        double x = x_of(s, t);
        fprintf(o,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>"
                "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%llu</text>\n",
                x, y, x, y + 5, x, y + 18, (unsigned long long)(t / 1000));
    }
    fprintf(o,
            "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">virtual time (&#181;s)</text></g>\n",
            LEFT + PLOT_W / 2, y + 36);
}

static void draw_marker(struct svg_trace *s, const struct marker *m)
{
    FILE *o = s->out;
    double x = x_of(s, m->ts_ns), y = row_y(s, m->cpu);
    static const char *const cls[] = {"exec", "kill", "migrate", "offline", "online", "affinity"};
    fprintf(o, "<g class=\"marker %s\">", cls[m->kind]);
    switch (m->kind) {
    case MARK_EXEC:
        fprintf(o, "<path d=\"M%.1f %.1fl-5 -7h10z\" fill=\"#000\"/>", x, y + 8);
        break;
    case MARK_KILL:
        fprintf(o, "<path d=\"M%.1f %.1fl10 10m0 -10l-10 10\" stroke=\"#d00\" stroke-width=\"3\"/>",
                x - 5, y + 9);
        break;
    case MARK_MIGRATE:
        fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#fff\" stroke=\"#000\"/>", x,
                y + ROW_H - 5);
        break;
    case MARK_AFFINITY:
        fprintf(o, "<path d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\" fill=\"#07c\" stroke=\"#fff\"/>", x,
                y + 1);
        break;
    case MARK_OFFLINE:
    case MARK_ONLINE:
        fprintf(o,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"2\" stroke-dasharray=\"3,2\"/>",
                x, y, x, y + ROW_H, m->kind == MARK_OFFLINE ? "#d00" : "#080");
        break;
    }
    fputs("<title>", o);
    trace_xml_text(o, m->title);
    fputs("</title></g>\n", o);
}

/* Grey over the time a vCPU spent offline. */
static void draw_offline(struct svg_trace *s)
{
    for (unsigned cpu = 0; cpu < s->machine.nr_cpus; cpu++) {
        bool off = false;
        uint64_t since = 0;
        for (size_t i = 0; i <= s->nmarks; i++) {
            const struct marker *m = i < s->nmarks ? &s->marks[i] : NULL;
            if (m && (m->cpu != cpu || (m->kind != MARK_OFFLINE && m->kind != MARK_ONLINE)))
                continue;
            if (m && m->kind == MARK_OFFLINE && !off) {
                off = true;
                since = m->ts_ns;
            } else if (off && (!m || m->kind == MARK_ONLINE)) {
                off = false;
                uint64_t until = m ? m->ts_ns : s->end_ns;
                fprintf(s->out,
                        "<rect class=\"offline\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                        "height=\"%d\" fill=\"#bbb\" fill-opacity=\"0.6\"/>\n",
                        x_of(s, since), row_y(s, cpu), x_of(s, until) - x_of(s, since), ROW_H);
            }
        }
    }
}

static void draw_legend(struct svg_trace *s, double y)
{
    FILE *o = s->out;
    fprintf(o, "<g class=\"legend\">\n");
    static const char *const markers[] = {"&#9660; exec", "&#10005; kill (SIGKILL by the policy)",
                                          "&#9675; migration",
                                          "dashed line: cpu offline (red) / online (green)",
                                          "&#9670; affinity change (its rule in the tooltip)"};
    for (unsigned i = 0; i < 5; i++)
        fprintf(o, "<text class=\"legend-marker\" x=\"%d\" y=\"%.1f\">%s</text>\n",
                LEFT + (int)(i % LEGEND_COLS) * LEGEND_COL_W, y + (double)(i / LEGEND_COLS) * 20,
                markers[i]);
    for (size_t i = 0; i < s->ntasks; i++) {
        const struct mevent_task *t = &s->tasks[i];
        double ly = y + 42 + (double)(i / LEGEND_COLS) * 20;
        int lx = LEFT + (int)(i % LEGEND_COLS) * LEGEND_COL_W;
        char fill[32], comm[MEVENT_COMM_LEN];
        colour(fill, sizeof fill, (int)i);
        trace_text(t->comm, comm, sizeof comm);
        fprintf(o,
                "<g class=\"legend-task\"><rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"12\" "
                "fill=\"%s\"/><text x=\"%d\" y=\"%.1f\">",
                lx, ly - 10, fill, lx + 16, ly);
        trace_xml_text(o, comm);
        fprintf(o, " pid %d tid %d (%s)</text></g>\n", t->tgid, t->tid, trace_isa(t));
    }
    fprintf(o, "</g>\n");
}

static int bar_by_time(const void *a, const void *b)
{
    const struct bar *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int marker_by_time(const void *a, const void *b)
{
    const struct marker *x = a, *y = b;
    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void svg_finish(void *state)
{
    struct svg_trace *s = state;
    FILE *o = s->out;
    unsigned n = s->machine.nr_cpus;
    for (unsigned cpu = 0; cpu < n; cpu++)
        flush_run(s, cpu);
    if (s->end_ns == 0)
        s->end_ns = 1000;
    /* The vCPUs report out of time order: drawn in time order. */
    sort_items(s->bars, s->nbars, sizeof(*s->bars), bar_by_time);
    sort_items(s->marks, s->nmarks, sizeof(*s->marks), marker_by_time);
    double axis_y = layout_rows(s) + 6;
    double legend_y = axis_y + 64;
    double height = legend_y + 50 + (double)((s->ntasks + LEGEND_COLS - 1) / LEGEND_COLS) * 20;
    /* The panel is drawn first, aside, for its height. */
    char why[128] = "", *panel = NULL;
    size_t panel_len = 0;
    struct trace_report *report = report_live_finish(s->report, why, sizeof why);
    FILE *p = open_memstream(&panel, &panel_len);
    if (p) {
        double bottom = trace_svg_panel(p, report, why, s->keep.dropped, PANEL_X, TOP + 12);
        height = bottom + 20 > height ? bottom + 20 : height;
        fclose(p);
    }
    trace_report_free(report);
    int width = PANEL_X + TRACE_SVG_PANEL_W;
    fprintf(o,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
            "viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
            width, height, width, height);
    fprintf(
        o,
        "<title>asymu timeline</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
    char aarch32[4096];
    cpulist_format(&s->machine.aarch32, aarch32, sizeof aarch32);
    fprintf(o,
            "<text x=\"10\" y=\"24\" font-size=\"16\">asymu: %u vCPUs, 32-bit on %s, policy %s, "
            "seed %llu</text>\n",
            n, aarch32[0] ? aarch32 : "none", s->machine.policy,
            (unsigned long long)s->machine.seed);
    for (unsigned cpu = 0; cpu < n; cpu++) {
        bool is32 = cpumask_test_cpu(cpu, &s->machine.aarch32);
        double y = row_y(s, cpu);
        fprintf(o,
                "<g class=\"row%s\" data-cpu=\"%u\"><rect x=\"%d\" y=\"%.1f\" width=\"%d\" "
                "height=\"%d\" fill=\"%s\"/><text x=\"10\" y=\"%.1f\">cpu%u%s</text></g>\n",
                is32 ? " aarch32" : "", cpu, LEFT, y, PLOT_W, ROW_H, is32 ? "#eef3ff" : "#f6f6f6",
                y + ROW_H / 2.0 + 4, cpu, is32 ? " (32-bit)" : " (64-bit only)");
    }
    draw_groups(s);
    draw_offline(s);
    for (size_t i = 0; i < s->nbars; i++) {
        const struct bar *b = &s->bars[i];
        const struct mevent_task *t = &s->tasks[b->task];
        char fill[32], comm[MEVENT_COMM_LEN];
        colour(fill, sizeof fill, b->task);
        trace_text(t->comm, comm, sizeof comm);
        double x0 = x_of(s, b->start_ns), w = x_of(s, b->end_ns) - x0;
        fprintf(o,
                "<rect class=\"run\" data-tid=\"%d\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
                "height=\"%d\" fill=\"%s\"><title>",
                t->tid, x0, row_y(s, b->cpu) + (ROW_H - BAR_H) / 2.0, w < 0.5 ? 0.5 : w, BAR_H, fill);
        trace_xml_text(o, comm);
        fprintf(o, " pid %d tid %d (%s) %.3f-%.3f &#181;s</title></rect>\n", t->tgid, t->tid,
                trace_isa(t), b->start_ns / 1000.0, b->end_ns / 1000.0);
    }
    for (size_t i = 0; i < s->nmarks; i++)
        draw_marker(s, &s->marks[i]);
    draw_axis(s, axis_y);
    draw_legend(s, legend_y);
    if (panel)
        fwrite(panel, 1, panel_len, o);
    free(panel);
    fputs("</svg>\n", o);
    free(s->runs);
    free(s->capacity);
    free(s->row_top);
    free(s->bars);
    free(s->marks);
    free(s->tasks);
    free(s);
}

const struct trace_format_ops trace_svg_ops = {
    .kinds = MEVENT_BIT(MEVENT_RUN) | MEVENT_BIT(MEVENT_EXEC) | MEVENT_BIT(MEVENT_KILL) |
             MEVENT_BIT(MEVENT_MIGRATE) | MEVENT_BIT(MEVENT_HOTPLUG) | MEVENT_BIT(MEVENT_AFFINITY) |
             MEVENT_BIT(MEVENT_WAKEUP), /* WAKEUP: the panel's */
    .new = svg_new,
    .event = svg_event,
    .finish = svg_finish,
    .keep = svg_keep,
};
