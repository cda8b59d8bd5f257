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
/* power.h: cpu_idle's state when a CPU leaves idle (PWR_EVENT_EXIT). */
#define PWR_EVENT_EXIT 4294967295UL

/* Whose context a line is printed in. */
enum ftrace_ctx {
    CTX_TASK,    /* the event's own task, running on the vCPU */
    CTX_CURRENT, /* whatever the vCPU runs at that time */
    CTX_SWITCH,  /* sched_switch: its prev, and next runs from then on */
};

struct ftrace_line {
    uint64_t ts_ns, seq;
    unsigned cpu;
    enum ftrace_ctx ctx;
    int pid, next_pid;               /* CTX_TASK's and CTX_SWITCH's prev pid; CTX_SWITCH's next */
    char comm[MEVENT_COMM_LEN];      /* CTX_TASK's, CTX_SWITCH's prev */
    char next_comm[MEVENT_COMM_LEN]; /* CTX_SWITCH's next */
    const char *flags;               /* trace_print_lat_fmt()'s five columns */
    char *text;                      /* "EVENT: FIELDS" */
};

struct ftrace_trace {
    FILE *out;
    unsigned nr_cpus;
    struct ftrace_line *lines;
    size_t len, cap;
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

static struct ftrace_line *new_line(struct ftrace_trace *f, uint64_t ts, unsigned cpu,
                                    enum ftrace_ctx ctx, const struct mevent_task *task)
{
    if (f->keep.dropped) { /* the trace is what came before the first dropped line */
        f->keep.dropped++;
        return NULL;
    }
    if (f->len == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 1024;
        struct ftrace_line *lines = realloc(f->lines, cap * sizeof(*lines));
        if (!lines)
            return NULL;
        f->lines = lines;
        f->cap = cap;
    }
    struct ftrace_line *l = &f->lines[f->len];
    *l = (struct ftrace_line){
        .ts_ns = ts, .seq = f->len, .cpu = cpu, .ctx = ctx, .flags = FLAGS_TASK};
    if (task) {
        l->pid = task->tid;
        trace_text(task->comm, l->comm, sizeof l->comm);
    }
    return l;
}

/* Formats "EVENT: FIELDS" into l and keeps it, or drops it past the budget. */
static __attribute__((format(printf, 4, 5))) void put(struct ftrace_trace *f, struct ftrace_line *l,
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
    l->text = text;
    f->len++;
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

/* asymu_affinity's cause: mevent_cause_name() without spaces, so that
 * key=value parsers (Perfetto's) read it as one value. */
static const char *cause_token(enum mevent_cause cause)
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

static void sched_switch(struct ftrace_trace *f, const struct mevent *ev, unsigned cpu)
{
    static const struct mevent_task idle = {.tid = 0, .prio = 120};
    struct shown prev = shown(&ev->sw.prev, cpu), next = shown(&ev->task, cpu);
    /* power.h's cpu_idle around the idle task's runs (cpuidle_enter() and
     * its exit), as do_idle() reports them: leaving idle first... */
    if (ev->sw.prev.tid == 0)
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &idle), "cpu_idle", "state=%lu cpu_id=%u",
            PWR_EVENT_EXIT, cpu);
    struct ftrace_line *l = new_line(f, ev->ts_ns, cpu, CTX_SWITCH, &ev->sw.prev);
    if (l) {
        l->flags = FLAGS_SCHED;
        l->next_pid = ev->task.tid;
        trace_text(ev->task.comm, l->next_comm, sizeof l->next_comm);
    }
    put(f, l, "sched_switch",
        "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d "
        "next_prio=%d",
        prev.comm, prev.pid, prev.prio, prev_state(&ev->sw.prev, ev->sw.prev_end), next.comm,
        next.pid, next.prio);
    /* ... and entering it (state 0: WFI, the one idle state) */
    if (ev->task.tid == 0)
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &idle), "cpu_idle", "state=%d cpu_id=%u", 0,
            cpu);
}

static void ftrace_event(void *state, const struct mevent *ev)
{
    struct ftrace_trace *f = state;
    unsigned cpu = ev->cpu < f->nr_cpus ? ev->cpu : 0;
    /* Where the waker or caller runs, for the events it causes. */
    unsigned src = ev->src_cpu < f->nr_cpus ? ev->src_cpu : cpu;
    struct shown t = shown(&ev->task, cpu);
    struct ftrace_line *l;
    switch (ev->kind) {
    case MEVENT_SWITCH:
        sched_switch(f, ev, cpu);
        return;
    case MEVENT_WAKEUP:
        /* try_to_wake_up() reports sched_waking, then sched_wakeup;
         * wake_up_new_task() only sched_wakeup_new. */
        if (!ev->wakeup.new_task) {
            l = new_line(f, ev->ts_ns, src, CTX_CURRENT, NULL);
            if (l)
                l->flags = FLAGS_SCHED;
            put(f, l, "sched_waking", "comm=%s pid=%d prio=%d target_cpu=%03u", t.comm, t.pid,
                t.prio, cpu);
        }
        l = new_line(f, ev->ts_ns, cpu, CTX_CURRENT, NULL);
        if (l)
            l->flags = FLAGS_SCHED;
        put(f, l, ev->wakeup.new_task ? "sched_wakeup_new" : "sched_wakeup",
            "comm=%s pid=%d prio=%d target_cpu=%03u", t.comm, t.pid, t.prio, cpu);
        return;
    case MEVENT_MIGRATE: {
        /* set_task_cpu() runs where the waker or the caller runs, or (no
         * slice running: hotplug, balancing) on the vCPU it leaves */
        unsigned from = ev->src_cpu < f->nr_cpus        ? ev->src_cpu
                        : ev->migrate.from < f->nr_cpus ? ev->migrate.from
                                                        : cpu;
        l = new_line(f, ev->ts_ns, from, CTX_CURRENT, NULL);
        if (l)
            l->flags = FLAGS_SCHED;
        put(f, l, "sched_migrate_task", "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u", t.comm,
            t.pid, t.prio, ev->migrate.from, ev->migrate.to);
        return;
    }
    case MEVENT_FORK: {
        struct shown child = shown(&ev->fork.child, cpu);
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &ev->task), "sched_process_fork",
            "comm=%s pid=%d child_comm=%s child_pid=%d", t.comm, t.pid, child.comm, child.pid);
        return;
    }
    case MEVENT_EXEC: {
        char path[4096];
        trace_text(ev->exec.path, path, sizeof path);
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &ev->task), "sched_process_exec",
            "filename=%s pid=%d old_pid=%d", path, t.pid, ev->exec.old_tid);
        return;
    }
    case MEVENT_EXIT:
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &ev->task), "sched_process_exit",
            "comm=%s pid=%d prio=%d", t.comm, t.pid, t.prio);
        return;
    case MEVENT_HOTPLUG: {
        static const struct mevent_task idle = {.tid = 0, .prio = 120};
        int target = ev->hotplug.online ? CPUHP_ONLINE : CPUHP_OFFLINE;
        const char *step = ev->hotplug.online ? "sched_cpu_activate" : "sched_cpu_deactivate";
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &idle), "cpuhp_enter",
            "cpu: %04u target: %3d step: %3d (%s)", cpu, target, CPUHP_ONLINE, step);
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &idle), "cpuhp_exit",
            " cpu: %04u  state: %3d step: %3d ret: %d", cpu, target, CPUHP_ONLINE, 0);
        return;
    }
    case MEVENT_AFFINITY: {
        /* asymu's own: no kernel tracepoint names the rule. */
        char old[4096], new_mask[4096];
        cpulist_format(ev->affinity.old_mask, old, sizeof old);
        cpulist_format(ev->affinity.new_mask, new_mask, sizeof new_mask);
        put(f, new_line(f, ev->ts_ns, src, CTX_CURRENT, NULL), "asymu_affinity",
            "comm=%s pid=%d old_cpus=%s cpus=%s cause=%s rule=%s", t.comm, t.pid, old, new_mask,
            cause_token(ev->affinity.cause), ev->affinity.rule);
        return;
    }
    case MEVENT_NEWTASK:
        /* include/trace/events/task.h; asymu has no oom_score_adj: 0 */
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &ev->task), "task_newtask",
            "pid=%d comm=%s clone_flags=%llx oom_score_adj=%d", ev->newtask.tid, t.comm,
            (unsigned long long)ev->newtask.clone_flags, 0);
        return;
    case MEVENT_FREE:
        /* freed from an RCU callback: in whatever context runs there */
        put(f, new_line(f, ev->ts_ns, cpu, CTX_CURRENT, NULL), "sched_process_free",
            "comm=%s pid=%d prio=%d", t.comm, t.pid, t.prio);
        return;
    case MEVENT_RENAME: {
        char comm[MEVENT_COMM_LEN];
        trace_text(ev->rename.comm, comm, sizeof comm);
        put(f, new_line(f, ev->ts_ns, src, CTX_CURRENT, NULL), "task_rename",
            "pid=%d oldcomm=%s newcomm=%s oom_score_adj=%d", t.pid, t.comm, comm, 0);
        return;
    }
    case MEVENT_SIGNAL_GENERATE:
        /* include/trace/events/signal.h; asymu's siginfo carries no errno */
        put(f, new_line(f, ev->ts_ns, src, CTX_CURRENT, NULL), "signal_generate",
            "sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d", ev->signal.sig, 0,
            ev->signal.code, t.comm, t.pid, ev->signal.group, ev->signal.result);
        return;
    case MEVENT_SIGNAL_DELIVER:
        put(f, new_line(f, ev->ts_ns, cpu, CTX_TASK, &ev->task), "signal_deliver",
            "sig=%d errno=%d code=%d sa_handler=%llx sa_flags=%llx", ev->signal.sig, 0,
            ev->signal.code, (unsigned long long)ev->signal.handler,
            (unsigned long long)ev->signal.flags);
        return;
    case MEVENT_KILL:
        put(f, new_line(f, ev->ts_ns, cpu, CTX_CURRENT, NULL), "asymu_kill",
            "comm=%s pid=%d sig=%d rule=%s", t.comm, t.pid, 9, ev->kill.rule);
        return;
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
    f->nr_cpus = machine->nr_cpus ? machine->nr_cpus : 1;
    return f;
}

static int by_time(const void *a, const void *b)
{
    const struct ftrace_line *x = a, *y = b;
    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* print_trace_header() for the nop tracer, with print_event_info() and
 * print_func_help_header_irq() as 5.15 has them (no tgid column): the
 * entries kept and written (dropped ones included), #P the vCPUs. */
static void header(struct ftrace_trace *f)
{
    fprintf(f->out,
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
            f->len, (unsigned long long)(f->len + f->keep.dropped), f->nr_cpus);
}

/* Events of a task inside a run are reported before the run itself (the
 * run's end is known last), so at the time a vCPU switches to a task the
 * sorted order has that task's own events first: they go after the switch,
 * as the kernel reports them once the task runs. Only lines of one time
 * move, so the order by time holds. */
static void after_switches(struct ftrace_line *lines, size_t len)
{
    for (size_t a = 0, b; a < len; a = b) {
        for (b = a + 1; b < len && lines[b].ts_ns == lines[a].ts_ns; b++)
            ;
        for (size_t k = a; k < b; k++) {
            if (lines[k].ctx != CTX_SWITCH || lines[k].next_pid == lines[k].pid)
                continue;
            for (size_t j = a; j < k;) {
                const struct ftrace_line *l = &lines[j];
                if (l->ctx != CTX_TASK || l->cpu != lines[k].cpu || l->pid != lines[k].next_pid) {
                    j++;
                    continue;
                }
                struct ftrace_line moved = lines[j];
                memmove(&lines[j], &lines[j + 1], (k - j) * sizeof(*lines));
                lines[k] = moved;
                k--; /* the switch moved up one */
            }
        }
    }
}

struct running {
    char comm[MEVENT_COMM_LEN];
    int pid;
};

/* The kernel prints a line's task by pid, with the comm its saved_cmdlines
 * holds when the file is read (trace_find_cmdline()): the last one the
 * sched_switch probe recorded for that pid (tracing_record_cmdline()), so
 * a task that exec'd shows its new comm on its earlier lines too. */
struct cmdline {
    int pid;
    size_t order;
    const char *comm;
};

static int by_pid_order(const void *a, const void *b)
{
    const struct cmdline *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int by_pid(const void *key, const void *elem)
{
    int pid = *(const int *)key, other = ((const struct cmdline *)elem)->pid;
    return pid < other ? -1 : pid > other;
}

/* The last comm of each pid the switches show, sorted by pid; *n of them. */
static struct cmdline *saved_cmdlines(const struct ftrace_trace *f, size_t *n)
{
    struct cmdline *c = malloc((2 * f->len + 1) * sizeof(*c));
    *n = 0;
    for (size_t i = 0; c && i < f->len; i++) {
        const struct ftrace_line *l = &f->lines[i];
        if (l->ctx != CTX_SWITCH)
            continue;
        c[(*n)++] = (struct cmdline){l->pid, 2 * i, l->comm};
        c[(*n)++] = (struct cmdline){l->next_pid, 2 * i + 1, l->next_comm};
    }
    if (!c)
        return NULL;
    qsort(c, *n, sizeof(*c), by_pid_order);
    size_t out = 0;
    for (size_t i = 0; i < *n; i++) {
        if (out && c[out - 1].pid == c[i].pid)
            out--; /* a later one replaces it */
        c[out++] = c[i];
    }
    *n = out;
    return c;
}

static void ftrace_finish(void *state)
{
    struct ftrace_trace *f = state;
    qsort(f->lines, f->len, sizeof(*f->lines), by_time);
    after_switches(f->lines, f->len);
    header(f);
    size_t ncmd;
    struct cmdline *cmd = saved_cmdlines(f, &ncmd);
    struct running *cur = calloc(f->nr_cpus, sizeof(*cur)); /* pid 0: idle */
    for (size_t i = 0; i < f->len; i++) {
        struct ftrace_line *l = &f->lines[i];
        const char *comm = l->comm;
        int pid = l->pid;
        if (l->ctx == CTX_CURRENT) {
            comm = cur ? cur[l->cpu].comm : "";
            pid = cur ? cur[l->cpu].pid : 0;
        } else if (l->ctx == CTX_SWITCH && cur) {
            cur[l->cpu].pid = l->next_pid;
            memcpy(cur[l->cpu].comm, l->next_comm, sizeof l->next_comm);
        }
        const struct cmdline *saved = cmd ? bsearch(&pid, cmd, ncmd, sizeof(*cmd), by_pid) : NULL;
        if (saved)
            comm = saved->comm;
        /* trace_print_context(): the idle task is "<idle>" there */
        fprintf(f->out, "%16s-%-7d [%03u] %s %5llu.%06llu: %s\n", pid == 0 ? "<idle>" : comm, pid,
                l->cpu, l->flags, (unsigned long long)(l->ts_ns / 1000000000),
                (unsigned long long)(l->ts_ns / 1000 % 1000000), l->text);
    }
    for (size_t i = 0; i < f->len; i++)
        free(f->lines[i].text);
    free(cmd);
    free(cur);
    free(f->lines);
    free(f);
}

const struct trace_format_ops trace_ftrace_ops = {
    .kinds = MEVENT_BIT(MEVENT_SWITCH) | MEVENT_BIT(MEVENT_WAKEUP) | MEVENT_BIT(MEVENT_MIGRATE) |
             MEVENT_BIT(MEVENT_FORK) | MEVENT_BIT(MEVENT_EXEC) | MEVENT_BIT(MEVENT_EXIT) |
             MEVENT_BIT(MEVENT_HOTPLUG) | MEVENT_BIT(MEVENT_AFFINITY) | MEVENT_BIT(MEVENT_KILL) |
             MEVENT_BIT(MEVENT_NEWTASK) | MEVENT_BIT(MEVENT_SIGNAL_GENERATE) |
             MEVENT_BIT(MEVENT_SIGNAL_DELIVER) | MEVENT_BIT(MEVENT_RENAME) |
             MEVENT_BIT(MEVENT_FREE),
    .new = ftrace_new,
    .event = ftrace_event,
    .finish = ftrace_finish,
    .keep = ftrace_keep,
};
