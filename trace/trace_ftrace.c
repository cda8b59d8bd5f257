/* trace_ftrace.c - the kernel's ftrace text as `trace-cmd report` prints it:
 * a "cpus=N" line, then one line per event, sorted by time,
 *   COMM-PID [CPU] SECONDS.MICROS: EVENT: FIELDS
 * sched_switch and sched_wakeup in the form trace-cmd's sched_switch plugin
 * gives them, the other events with their TP_printk() fields (include/
 * trace/events/sched.h and cpuhp.h of Linux 5.15). The machine loop runs
 * vCPUs out of time order, so lines are kept and sorted at the end (ties in
 * the order they happened). */
#include "trace-int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* asymu's hotplug is one step, the scheduler's; its state numbers. */
#define CPUHP_OFFLINE 0
#define CPUHP_ONLINE 1

struct ftrace_line {
    uint64_t ts_ns, seq;
    char *text;
};

struct ftrace_trace {
    FILE *out;
    unsigned nr_cpus;
    struct ftrace_line *lines;
    size_t len, cap;
    struct trace_keep keep; /* lines kept until the end, to be sorted */
};

/* The comm, pid and prio a task shows; pid 0 is the vCPU's idle task. */
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

static __attribute__((format(printf, 6, 7))) void line(struct ftrace_trace *f, uint64_t ts,
                                                       const struct shown *who, unsigned cpu,
                                                       const char *event, const char *fmt, ...)
{
    if (f->keep.dropped) { /* the trace is what came before the first dropped line */
        f->keep.dropped++;
        return;
    }
    if (f->len == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 1024;
        struct ftrace_line *lines = realloc(f->lines, cap * sizeof(*lines));
        if (!lines)
            return;
        f->lines = lines;
        f->cap = cap;
    }
    char fields[512], name[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fields, sizeof fields, fmt, ap);
    va_end(ap);
    snprintf(name, sizeof name, "%s:", event);
    char *text;
    if (asprintf(&text, "%16s-%-5d [%03u] %llu.%06llu: %-20s %s\n",
                 who->pid == 0 ? "<idle>" : who->comm, who->pid, cpu,
                 (unsigned long long)(ts / 1000000000), (unsigned long long)(ts / 1000 % 1000000),
                 name, fields) < 0)
        return;
    if (!trace_keep(&f->keep, sizeof(*f->lines) + strlen(text) + 1)) {
        free(text);
        return;
    }
    f->lines[f->len] = (struct ftrace_line){.ts_ns = ts, .seq = f->len, .text = text};
    f->len++;
}

/* sched_switch's prev_state: R+ for a preempted task, R for idle, S for a
 * sleeping one, and for one that exited Z (a process leader stays a
 * zombie until reaped) or X (another thread is freed at once). */
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

static void ftrace_event(void *state, const struct mevent *ev)
{
    struct ftrace_trace *f = state;
    unsigned cpu = ev->cpu < f->nr_cpus ? ev->cpu : 0;
    struct shown t = shown(&ev->task, cpu);
    switch (ev->kind) {
    case MEVENT_SWITCH: {
        struct shown prev = shown(&ev->sw.prev, cpu);
        line(f, ev->ts_ns, &prev, cpu, "sched_switch", "%s:%d [%d] %s ==> %s:%d [%d]", prev.comm,
             prev.pid, prev.prio, prev_state(&ev->sw.prev, ev->sw.prev_end), t.comm, t.pid, t.prio);
        return;
    }
    case MEVENT_WAKEUP:
        line(f, ev->ts_ns, &t, cpu, ev->wakeup.new_task ? "sched_wakeup_new" : "sched_wakeup",
             "%s:%d [%d] CPU:%03u", t.comm, t.pid, t.prio, cpu);
        return;
    case MEVENT_MIGRATE:
        line(f, ev->ts_ns, &t, ev->migrate.from < f->nr_cpus ? ev->migrate.from : cpu,
             "sched_migrate_task", "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u", t.comm, t.pid,
             t.prio, ev->migrate.from, ev->migrate.to);
        return;
    case MEVENT_FORK: {
        struct shown child = shown(&ev->fork.child, cpu);
        line(f, ev->ts_ns, &t, cpu, "sched_process_fork",
             "comm=%s pid=%d child_comm=%s child_pid=%d", t.comm, t.pid, child.comm, child.pid);
        return;
    }
    case MEVENT_EXEC: {
        char path[4096];
        trace_text(ev->exec.path, path, sizeof path);
        line(f, ev->ts_ns, &t, cpu, "sched_process_exec", "filename=%s pid=%d old_pid=%d", path,
             t.pid, ev->exec.old_tid);
        return;
    }
    case MEVENT_EXIT:
        line(f, ev->ts_ns, &t, cpu, "sched_process_exit", "comm=%s pid=%d prio=%d", t.comm, t.pid,
             t.prio);
        return;
    case MEVENT_HOTPLUG: {
        static const struct mevent_task idle = {.tid = 0, .prio = 120};
        struct shown who = shown(&idle, cpu);
        int target = ev->hotplug.online ? CPUHP_ONLINE : CPUHP_OFFLINE;
        const char *step = ev->hotplug.online ? "sched_cpu_activate" : "sched_cpu_deactivate";
        line(f, ev->ts_ns, &who, cpu, "cpuhp_enter", "cpu: %04u target: %3d step: %3d (%s)", cpu,
             target, CPUHP_ONLINE, step);
        line(f, ev->ts_ns, &who, cpu, "cpuhp_exit", "cpu: %04u  state: %3d step: %3d ret: %d", cpu,
             target, CPUHP_ONLINE, 0);
        return;
    }
    default:
        return;
    }
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
    f->nr_cpus = machine->nr_cpus;
    return f;
}

static int by_time(const void *a, const void *b)
{
    const struct ftrace_line *x = a, *y = b;
    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void ftrace_finish(void *state)
{
    struct ftrace_trace *f = state;
    qsort(f->lines, f->len, sizeof(*f->lines), by_time);
    fprintf(f->out, "cpus=%u\n", f->nr_cpus);
    for (size_t i = 0; i < f->len; i++) {
        fputs(f->lines[i].text, f->out);
        free(f->lines[i].text);
    }
    free(f->lines);
    free(f);
}

const struct trace_format_ops trace_ftrace_ops = {
    .kinds = MEVENT_BIT(MEVENT_SWITCH) | MEVENT_BIT(MEVENT_WAKEUP) | MEVENT_BIT(MEVENT_MIGRATE) |
             MEVENT_BIT(MEVENT_FORK) | MEVENT_BIT(MEVENT_EXEC) | MEVENT_BIT(MEVENT_EXIT) |
             MEVENT_BIT(MEVENT_HOTPLUG),
    .new = ftrace_new,
    .event = ftrace_event,
    .finish = ftrace_finish,
    .keep = ftrace_keep,
};
