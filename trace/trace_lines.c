/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_lines.c - what the ftrace text (trace_ftrace.c) and the trace.dat
 * (trace_dat.c) share, so that both show the same events: which records
 * an mevent makes (the derived sched_waking and cpu_idle among them), on
 * which vCPU and in whose context; and, once the run is over, their order
 * by time and the task each is reported for. */
#include "trace-int.h"
#include "sort.h"

#include <stdlib.h>
#include <string.h>

/* The vCPU's idle task (pid 0), whose context cpu_idle and cpuhp run in. */
static const struct mevent_task idle = {.tid = 0, .prio = 120};

static struct trace_rec rec(enum event_index event, unsigned cpu, enum trace_ctx ctx,
                            const struct mevent_task *task)
{
    return (struct trace_rec){.event = event, .cpu = cpu, .ctx = ctx, .task = task};
}

size_t trace_derive(const struct mevent *ev, unsigned nr_cpus, struct trace_rec out[TRACE_RECS_MAX])
{
    unsigned cpu = ev->cpu < nr_cpus ? ev->cpu : 0;
    /* Where the waker or caller runs, for the events it causes. */
    unsigned src = ev->src_cpu < nr_cpus ? ev->src_cpu : cpu;
    size_t n = 0;
    switch (ev->kind) {
    case MEVENT_SWITCH:
        /* power.h's cpu_idle around the idle task's runs (cpuidle_enter()
         * and its exit), as do_idle() reports them: leaving idle first,
         * then the switch, then entering it (state 0: WFI, the one idle
         * state). */
        if (ev->sw.prev.tid == 0) {
            out[n] = rec(EVENT_CPU_IDLE, cpu, TRACE_CTX_TASK, &idle);
            out[n++].idle_state = TRACE_PWR_EVENT_EXIT;
        }
        out[n++] = rec(EVENT_SCHED_SWITCH, cpu, TRACE_CTX_SWITCH, &ev->sw.prev);
        if (ev->task.tid == 0)
            out[n++] = rec(EVENT_CPU_IDLE, cpu, TRACE_CTX_TASK, &idle);
        return n;
    case MEVENT_WAKEUP:
        /* try_to_wake_up() reports sched_waking where the waker runs, then
         * sched_wakeup; wake_up_new_task() only sched_wakeup_new. */
        if (ev->wakeup.new_task)
            out[n++] = rec(EVENT_SCHED_WAKEUP_NEW, cpu, TRACE_CTX_CURRENT, NULL);
        else {
            out[n++] = rec(EVENT_SCHED_WAKING, src, TRACE_CTX_CURRENT, NULL);
            out[n++] = rec(EVENT_SCHED_WAKEUP, cpu, TRACE_CTX_CURRENT, NULL);
        }
        return n;
    case MEVENT_MIGRATE: {
        /* set_task_cpu() runs where the waker or the caller runs, or (no
         * slice running: hotplug, balancing) on the vCPU it leaves */
        unsigned from = ev->src_cpu < nr_cpus        ? ev->src_cpu
                        : ev->migrate.from < nr_cpus ? ev->migrate.from
                                                     : cpu;
        out[n++] = rec(EVENT_SCHED_MIGRATE_TASK, from, TRACE_CTX_CURRENT, NULL);
        return n;
    }
    case MEVENT_FORK:
        out[n++] = rec(EVENT_SCHED_PROCESS_FORK, cpu, TRACE_CTX_TASK, &ev->task);
        return n;
    case MEVENT_EXEC:
        out[n++] = rec(EVENT_SCHED_PROCESS_EXEC, cpu, TRACE_CTX_TASK, &ev->task);
        return n;
    case MEVENT_EXIT:
        out[n++] = rec(EVENT_SCHED_PROCESS_EXIT, cpu, TRACE_CTX_TASK, &ev->task);
        return n;
    case MEVENT_HOTPLUG:
        /* asymu's hotplug is one step, the scheduler's, on the idle task */
        out[n++] = rec(EVENT_CPUHP_ENTER, cpu, TRACE_CTX_TASK, &idle);
        out[n++] = rec(EVENT_CPUHP_EXIT, cpu, TRACE_CTX_TASK, &idle);
        return n;
    case MEVENT_AFFINITY:
        out[n++] = rec(EVENT_ASYMU_AFFINITY, src, TRACE_CTX_CURRENT, NULL);
        return n;
    case MEVENT_NEWTASK:
        out[n++] = rec(EVENT_TASK_NEWTASK, cpu, TRACE_CTX_TASK, &ev->task);
        return n;
    case MEVENT_FREE:
        /* freed from an RCU callback: in whatever context runs there */
        out[n++] = rec(EVENT_SCHED_PROCESS_FREE, cpu, TRACE_CTX_CURRENT, NULL);
        return n;
    case MEVENT_RENAME:
        out[n++] = rec(EVENT_TASK_RENAME, src, TRACE_CTX_CURRENT, NULL);
        return n;
    case MEVENT_SIGNAL_GENERATE:
        out[n++] = rec(EVENT_SIGNAL_GENERATE, src, TRACE_CTX_CURRENT, NULL);
        return n;
    case MEVENT_SIGNAL_DELIVER:
        out[n++] = rec(EVENT_SIGNAL_DELIVER, cpu, TRACE_CTX_TASK, &ev->task);
        return n;
    case MEVENT_KILL:
        out[n++] = rec(EVENT_ASYMU_KILL, cpu, TRACE_CTX_CURRENT, NULL);
        return n;
    case MEVENT_PRINT: /* a trace_marker write, in the writer's context */
        out[n++] = rec(EVENT_FTRACE_PRINT, cpu, TRACE_CTX_TASK, &ev->task);
        return n;
    case MEVENT_STAT_RUNTIME: /* update_curr(), on the task's vCPU */
        out[n++] = rec(EVENT_SCHED_STAT_RUNTIME, cpu, TRACE_CTX_TASK, &ev->task);
        return n;
    case MEVENT_FREQUENCY: /* cpu_id is cpu; traced where the governor runs */
        out[n++] = rec(EVENT_CPU_FREQUENCY, src, TRACE_CTX_CURRENT, NULL);
        return n;
    default:
        return 0;
    }
}

struct trace_line *trace_line_new(struct trace_lines *ls, uint64_t ts, const struct trace_rec *r,
                                  const struct mevent *ev)
{
    if (ls->len == ls->cap) {
        size_t cap = ls->cap ? ls->cap * 2 : 1024;
        struct trace_line *lines = realloc(ls->lines, cap * sizeof(*lines));
        if (!lines)
            return NULL;
        ls->lines = lines;
        ls->cap = cap;
    }
    struct trace_line *l = &ls->lines[ls->len];
    *l = (struct trace_line){
        .ts_ns = ts, .seq = ls->len, .cpu = r->cpu, .ctx = r->ctx, .event = r->event};
    if (r->task) {
        l->pid = r->task->tid;
        trace_text(r->task->comm, l->comm, sizeof l->comm);
    }
    if (r->ctx == TRACE_CTX_SWITCH) {
        l->next_pid = ev->task.tid;
        trace_text(ev->task.comm, l->next_comm, sizeof l->next_comm);
    }
    return l;
}

static int by_time(const void *a, const void *b)
{
    const struct trace_line *x = a, *y = b;
    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Events of a task inside a run are reported before the run itself (the
 * run's end is known last), so at the time a vCPU switches to a task the
 * sorted order has that task's own events first: they go after the switch,
 * as the kernel reports them once the task runs. Only lines of one time
 * move, so the order by time holds. */
static void after_switches(struct trace_line *lines, size_t len)
{
    for (size_t a = 0, b; a < len; a = b) {
        for (b = a + 1; b < len && lines[b].ts_ns == lines[a].ts_ns; b++)
            ;
        for (size_t k = a; k < b; k++) {
            if (lines[k].ctx != TRACE_CTX_SWITCH || lines[k].next_pid == lines[k].pid)
                continue;
            for (size_t j = a; j < k;) {
                const struct trace_line *l = &lines[j];
                if (l->ctx != TRACE_CTX_TASK || l->cpu != lines[k].cpu ||
                    l->pid != lines[k].next_pid) {
                    j++;
                    continue;
                }
                struct trace_line moved = lines[j];
                memmove(&lines[j], &lines[j + 1], (k - j) * sizeof(*lines));
                lines[k] = moved;
                k--; /* the switch moved up one */
            }
        }
    }
}

void trace_lines_order(struct trace_lines *ls, unsigned nr_cpus)
{
    sort_items(ls->lines, ls->len, sizeof(*ls->lines), by_time);
    after_switches(ls->lines, ls->len);
    /* A line in the current task's context: whatever its vCPU runs then,
     * after the sched_switch lines before it (idle, pid 0, first). */
    struct running {
        char comm[MEVENT_COMM_LEN];
        int pid;
    } *cur = calloc(nr_cpus, sizeof(*cur));
    for (size_t i = 0; i < ls->len; i++) {
        struct trace_line *l = &ls->lines[i];
        if (!cur || l->cpu >= nr_cpus)
            continue;
        if (l->ctx == TRACE_CTX_CURRENT) {
            l->pid = cur[l->cpu].pid;
            memcpy(l->comm, cur[l->cpu].comm, sizeof l->comm);
        } else if (l->ctx == TRACE_CTX_SWITCH) {
            cur[l->cpu].pid = l->next_pid;
            memcpy(cur[l->cpu].comm, l->next_comm, sizeof l->next_comm);
        }
    }
    free(cur);
}

static int by_pid_order(const void *a, const void *b)
{
    const struct trace_cmdline *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int by_pid(const void *key, const void *elem)
{
    int pid = *(const int *)key, other = ((const struct trace_cmdline *)elem)->pid;
    return pid < other ? -1 : pid > other;
}

struct trace_cmdline *trace_cmdlines(const struct trace_lines *ls, size_t *n)
{
    struct trace_cmdline *c = malloc((2 * ls->len + 1) * sizeof(*c));
    *n = 0;
    for (size_t i = 0; c && i < ls->len; i++) {
        const struct trace_line *l = &ls->lines[i];
        if (l->ctx != TRACE_CTX_SWITCH)
            continue;
        c[(*n)++] = (struct trace_cmdline){l->pid, 2 * i, l->comm};
        c[(*n)++] = (struct trace_cmdline){l->next_pid, 2 * i + 1, l->next_comm};
    }
    if (!c)
        return NULL;
    sort_items(c, *n, sizeof(*c), by_pid_order);
    size_t out = 0;
    for (size_t i = 0; i < *n; i++) {
        if (out && c[out - 1].pid == c[i].pid)
            out--; /* a later one replaces it */
        c[out++] = c[i];
    }
    *n = out;
    return c;
}

const char *trace_cmdline_find(const struct trace_cmdline *c, size_t n, int pid)
{
    const struct trace_cmdline *saved = c ? bsearch(&pid, c, n, sizeof(*c), by_pid) : NULL;
    return saved ? saved->comm : NULL;
}

const char *trace_cause_token(enum mevent_cause cause)
{
    switch (cause) {
    case MEVENT_CAUSE_SETAFFINITY:
        return "sched_setaffinity";
    case MEVENT_CAUSE_EXEC:
        return "exec";
    case MEVENT_CAUSE_CHECK:
        return "return_to_user";
    case MEVENT_CAUSE_HOTPLUG:
        return "hotplug_fallback";
    case MEVENT_CAUSE_FORK:
        return "fork";
    }
    return "?";
}
