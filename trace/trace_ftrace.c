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

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* asymu's hotplug is one step, the scheduler's; its state numbers. */
#define CPUHP_OFFLINE 0
#define CPUHP_ONLINE 1

/* The lines (trace_lines.c), each's data its "EVENT: FIELDS" text. */
struct ftrace_trace {
    FILE *out;
    unsigned nr_cpus;
    struct trace_lines ls;
    struct trace_keep keep; /* lines kept until the end, to be sorted */
};

/* The flags 5.15 shows: irqs-off, need-resched, hardirq/softirq,
 * preempt-depth, migrate-disable. The scheduler's events happen with the
 * runqueue lock held and interrupts off (__schedule(), try_to_wake_up());
 * the others in process context. asymu has no interrupts to show. */
static const char FLAGS_SCHED[] = "d..2.";
static const char FLAGS_TASK[] = ".....";

/* The comm, pid and prio a task shows in the fields; pid 0 is the vCPU's
 * idle task, "swapper/N" there. */
struct shown {
    char comm[MEVENT_COMM_LEN + 8];
    int pid, prio;
};

static struct shown shown(const struct mevent_task *t, unsigned cpu)
{
    struct shown s = {.pid = t->tid, .prio = t->prio};
    if (t->tid == 0)
        snprintf(s.comm, sizeof s.comm, "swapper/%u", cpu);
    else
        trace_text(t->comm, s.comm, sizeof s.comm);
    return s;
}

/* Formats "EVENT: FIELDS" into l and keeps it, or drops it past the budget. */
static __attribute__((format(printf, 4, 5))) void put(struct ftrace_trace *f, struct trace_line *l,
                                                      const char *event, const char *fmt, ...)
{
    if (!l)
        return;
    char fields[4608];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fields, sizeof fields, fmt, ap);
    va_end(ap);
    char *text;
    if (asprintf(&text, "%s: %s", event, fields) < 0)
        return;
    if (!trace_keep(&f->keep, sizeof(*l) + strlen(text) + 1)) {
        free(text);
        return;
    }
    l->data = text;
    f->ls.len++;
}

/* sched_switch's prev_state as TP_printk prints __trace_sched_switch_state():
 * "R+" for a preempted task (TASK_REPORT_MAX), "R" for idle, "S" for a
 * sleeping one, and for one that exited "Z" (a process leader stays a
 * zombie until reaped) or "X" (another thread is freed at once). */
static const char *prev_state(const struct mevent_task *prev, enum mevent_run_end end)
{
    if (prev->tid == 0)
        return "R";
    switch (end) {
    case MEVENT_END_BLOCKED:
        return "S";
    case MEVENT_END_DEAD:
        return prev->tid == prev->tgid ? "Z" : "X";
    default:
        return "R+";
    }
}

/* One record of ev (trace_derive()) as its line. */
static void ftrace_rec(struct ftrace_trace *f, const struct mevent *ev, const struct trace_rec *r)
{
    unsigned cpu = ev->cpu < f->nr_cpus ? ev->cpu : 0;
    struct shown t = shown(&ev->task, cpu);
    if (f->keep.dropped) { /* the trace is what came before the first dropped line */
        f->keep.dropped++;
        return;
    }
    struct trace_line *l = trace_line_new(&f->ls, ev->ts_ns, r, ev);
    switch (r->event) {
    case EVENT_CPU_IDLE:
        put(f, l, "cpu_idle", "state=%lu cpu_id=%u", r->idle_state, r->cpu);
        return;
    case EVENT_SCHED_SWITCH: {
        struct shown prev = shown(&ev->sw.prev, cpu);
        put(f, l, "sched_switch",
            "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d "
            "next_prio=%d",
            prev.comm, prev.pid, prev.prio, prev_state(&ev->sw.prev, ev->sw.prev_end), t.comm,
            t.pid, t.prio);
        return;
    }
    case EVENT_SCHED_WAKING:
    case EVENT_SCHED_WAKEUP:
    case EVENT_SCHED_WAKEUP_NEW:
        put(f, l, event_formats[r->event].name, "comm=%s pid=%d prio=%d target_cpu=%03u", t.comm,
            t.pid, t.prio, cpu);
        return;
    case EVENT_SCHED_MIGRATE_TASK:
        put(f, l, "sched_migrate_task", "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u", t.comm,
            t.pid, t.prio, ev->migrate.from, ev->migrate.to);
        return;
    case EVENT_SCHED_PROCESS_FORK: {
        struct shown child = shown(&ev->fork.child, cpu);
        put(f, l, "sched_process_fork", "comm=%s pid=%d child_comm=%s child_pid=%d", t.comm, t.pid,
            child.comm, child.pid);
        return;
    }
    case EVENT_SCHED_PROCESS_EXEC: {
        char path[4096];
        trace_text(ev->exec.path, path, sizeof path);
        put(f, l, "sched_process_exec", "filename=%s pid=%d old_pid=%d", path, t.pid,
            ev->exec.old_tid);
        return;
    }
    case EVENT_SCHED_PROCESS_EXIT:
    case EVENT_SCHED_PROCESS_FREE:
        put(f, l, event_formats[r->event].name, "comm=%s pid=%d prio=%d", t.comm, t.pid, t.prio);
        return;
    case EVENT_CPUHP_ENTER: {
        int target = ev->hotplug.online ? CPUHP_ONLINE : CPUHP_OFFLINE;
        const char *step = ev->hotplug.online ? "sched_cpu_activate" : "sched_cpu_deactivate";
        put(f, l, "cpuhp_enter", "cpu: %04u target: %3d step: %3d (%s)", cpu, target, CPUHP_ONLINE,
            step);
        return;
    }
    case EVENT_CPUHP_EXIT:
        put(f, l, "cpuhp_exit", " cpu: %04u  state: %3d step: %3d ret: %d", cpu,
            ev->hotplug.online ? CPUHP_ONLINE : CPUHP_OFFLINE, CPUHP_ONLINE, 0);
        return;
    case EVENT_ASYMU_AFFINITY: {
        /* asymu's own: no kernel tracepoint names the rule. */
        char old[4096], new_mask[4096];
        cpulist_format(ev->affinity.old_mask, old, sizeof old);
        cpulist_format(ev->affinity.new_mask, new_mask, sizeof new_mask);
        put(f, l, "asymu_affinity", "comm=%s pid=%d old_cpus=%s cpus=%s cause=%s rule=%s", t.comm,
            t.pid, old, new_mask, trace_cause_token(ev->affinity.cause), ev->affinity.rule);
        return;
    }
    case EVENT_TASK_NEWTASK:
        /* include/trace/events/task.h; asymu has no oom_score_adj: 0 */
        put(f, l, "task_newtask", "pid=%d comm=%s clone_flags=%llx oom_score_adj=%d",
            ev->newtask.tid, t.comm, (unsigned long long)ev->newtask.clone_flags, 0);
        return;
    case EVENT_TASK_RENAME: {
        char comm[MEVENT_COMM_LEN];
        trace_text(ev->rename.comm, comm, sizeof comm);
        put(f, l, "task_rename", "pid=%d oldcomm=%s newcomm=%s oom_score_adj=%d", t.pid, t.comm,
            comm, 0);
        return;
    }
    case EVENT_SIGNAL_GENERATE:
        /* include/trace/events/signal.h; asymu's siginfo carries no errno */
        put(f, l, "signal_generate", "sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d",
            ev->signal.sig, 0, ev->signal.code, t.comm, t.pid, ev->signal.group, ev->signal.result);
        return;
    case EVENT_SIGNAL_DELIVER:
        put(f, l, "signal_deliver", "sig=%d errno=%d code=%d sa_handler=%llx sa_flags=%llx",
            ev->signal.sig, 0, ev->signal.code, (unsigned long long)ev->signal.handler,
            (unsigned long long)ev->signal.flags);
        return;
    case EVENT_ASYMU_KILL:
        put(f, l, "asymu_kill", "comm=%s pid=%d sig=%d rule=%s", t.comm, t.pid, 9, ev->kill.rule);
        return;
    case EVENT_FTRACE_PRINT: /* print's output: "%ps: %s" of ip and buf */
        put(f, l, "tracing_mark_write", "%s", ev->print.msg ? ev->print.msg : "");
        return;
    default:
        return;
    }
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

void trace_text_header(FILE *out, size_t kept, unsigned long long written, unsigned nr_cpus)
{
    fprintf(out,
            "# tracer: nop\n"
            "#\n"
            "# entries-in-buffer/entries-written: %zu/%llu   #P:%u\n"
            "#\n"
            "#                                _-----=> irqs-off\n"
            "#                               / _----=> need-resched\n"
            "#                              | / _---=> hardirq/softirq\n"
            "#                              || / _--=> preempt-depth\n"
            "#                              ||| / _-=> migrate-disable\n"
            "#                              |||| /     delay\n"
            "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
            "#              | |         |   |||||     |         |\n",
            kept, written, nr_cpus);
}

static void header(struct ftrace_trace *f)
{
    trace_text_header(f->out, f->ls.len, (unsigned long long)(f->ls.len + f->keep.dropped),
                      f->nr_cpus);
}

/* The flags column of a line: the scheduler's events run with the
 * runqueue lock held and interrupts off. */
static const char *flags(enum event_index event)
{
    switch (event) {
    case EVENT_SCHED_SWITCH:
    case EVENT_SCHED_WAKING:
    case EVENT_SCHED_WAKEUP:
    case EVENT_SCHED_WAKEUP_NEW:
    case EVENT_SCHED_MIGRATE_TASK:
        return FLAGS_SCHED;
    default:
        return FLAGS_TASK;
    }
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
        fprintf(f->out, "%16s-%-7d [%03u] %s %5llu.%06llu: %s\n",
                l->pid == 0 ? "<idle>"
                : comm      ? comm
                            : l->comm,
                l->pid, l->cpu, flags(l->event), (unsigned long long)(l->ts_ns / 1000000000),
                (unsigned long long)(l->ts_ns / 1000 % 1000000), (const char *)l->data);
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
