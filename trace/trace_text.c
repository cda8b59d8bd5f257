/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_text.c - the text of one record as Linux 5.15's
 * /sys/kernel/tracing/trace prints it: its flags and "EVENT: FIELDS",
 * each event's TP_printk() format (docs/tracing.md lists them with their
 * headers), and the whole line (trace_print_context(),
 * trace_print_lat_fmt(), trace_print_time()). Shared by the host-side
 * ftrace writer (trace_ftrace.c) and the machine's own tracefs
 * (tracefs.c), so both print the same lines. */
#include "trace-int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* asymu's hotplug is one step, the scheduler's; its state numbers. */
#define CPUHP_OFFLINE 0
#define CPUHP_ONLINE 1

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

/* "EVENT: FIELDS", malloc'ed, or NULL without memory. */
static __attribute__((format(printf, 2, 3))) char *text(const char *event, const char *fmt, ...)
{
    char fields[4608];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fields, sizeof fields, fmt, ap);
    va_end(ap);
    char *s;
    return asprintf(&s, "%s: %s", event, fields) < 0 ? NULL : s;
}

char *trace_rec_text(const struct mevent *ev, const struct trace_rec *r, unsigned nr_cpus)
{
    unsigned cpu = ev->cpu < nr_cpus ? ev->cpu : 0;
    struct shown t = shown(&ev->task, cpu);
    switch (r->event) {
    case EVENT_CPU_IDLE:
        return text("cpu_idle", "state=%lu cpu_id=%u", r->idle_state, r->cpu);
    case EVENT_SCHED_STAT_RUNTIME:
        return text("sched_stat_runtime", "comm=%s pid=%d runtime=%llu [ns] vruntime=%llu [ns]",
                    t.comm, t.pid, (unsigned long long)ev->stat.runtime_ns,
                    (unsigned long long)ev->stat.vruntime);
    case EVENT_CPU_FREQUENCY:
        return text("cpu_frequency", "state=%u cpu_id=%u", ev->frequency.khz, cpu);
    case EVENT_SCHED_SWITCH: {
        struct shown prev = shown(&ev->sw.prev, cpu);
        return text("sched_switch",
            "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d "
            "next_prio=%d",
            prev.comm, prev.pid, prev.prio, prev_state(&ev->sw.prev, ev->sw.prev_end), t.comm,
            t.pid, t.prio);
    }
    case EVENT_SCHED_WAKING:
    case EVENT_SCHED_WAKEUP:
    case EVENT_SCHED_WAKEUP_NEW:
        return text(event_formats[r->event].name, "comm=%s pid=%d prio=%d target_cpu=%03u", t.comm,
            t.pid, t.prio, cpu);
    case EVENT_SCHED_MIGRATE_TASK:
        return text("sched_migrate_task", "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u", t.comm,
            t.pid, t.prio, ev->migrate.from, ev->migrate.to);
    case EVENT_SCHED_PROCESS_FORK: {
        struct shown child = shown(&ev->fork.child, cpu);
        return text("sched_process_fork", "comm=%s pid=%d child_comm=%s child_pid=%d", t.comm, t.pid,
            child.comm, child.pid);
    }
    case EVENT_SCHED_PROCESS_EXEC: {
        char path[4096];
        trace_text(ev->exec.path, path, sizeof path);
        return text("sched_process_exec", "filename=%s pid=%d old_pid=%d", path, t.pid,
            ev->exec.old_tid);
    }
    case EVENT_SCHED_PROCESS_EXIT:
    case EVENT_SCHED_PROCESS_FREE:
        return text(event_formats[r->event].name, "comm=%s pid=%d prio=%d", t.comm, t.pid, t.prio);
    case EVENT_CPUHP_ENTER: {
        int target = ev->hotplug.online ? CPUHP_ONLINE : CPUHP_OFFLINE;
        const char *step = ev->hotplug.online ? "sched_cpu_activate" : "sched_cpu_deactivate";
        return text("cpuhp_enter", "cpu: %04u target: %3d step: %3d (%s)", cpu, target, CPUHP_ONLINE,
            step);
    }
    case EVENT_CPUHP_EXIT:
        return text("cpuhp_exit", " cpu: %04u  state: %3d step: %3d ret: %d", cpu,
            ev->hotplug.online ? CPUHP_ONLINE : CPUHP_OFFLINE, CPUHP_ONLINE, 0);
    case EVENT_ASYMU_AFFINITY: {
        /* asymu's own: no kernel tracepoint names the rule. */
        char old[4096], new_mask[4096];
        cpulist_format(ev->affinity.old_mask, old, sizeof old);
        cpulist_format(ev->affinity.new_mask, new_mask, sizeof new_mask);
        return text("asymu_affinity", "comm=%s pid=%d old_cpus=%s cpus=%s cause=%s rule=%s", t.comm,
            t.pid, old, new_mask, trace_cause_token(ev->affinity.cause), ev->affinity.rule);
    }
    case EVENT_TASK_NEWTASK:
        /* include/trace/events/task.h; asymu has no oom_score_adj: 0 */
        return text("task_newtask", "pid=%d comm=%s clone_flags=%llx oom_score_adj=%d",
            ev->newtask.tid, t.comm, (unsigned long long)ev->newtask.clone_flags, 0);
    case EVENT_TASK_RENAME: {
        char comm[MEVENT_COMM_LEN];
        trace_text(ev->rename.comm, comm, sizeof comm);
        return text("task_rename", "pid=%d oldcomm=%s newcomm=%s oom_score_adj=%d", t.pid, t.comm,
            comm, 0);
    }
    case EVENT_SIGNAL_GENERATE:
        /* include/trace/events/signal.h; asymu's siginfo carries no errno */
        return text("signal_generate", "sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d",
            ev->signal.sig, 0, ev->signal.code, t.comm, t.pid, ev->signal.group, ev->signal.result);
    case EVENT_SIGNAL_DELIVER:
        return text("signal_deliver", "sig=%d errno=%d code=%d sa_handler=%llx sa_flags=%llx",
            ev->signal.sig, 0, ev->signal.code, (unsigned long long)ev->signal.handler,
            (unsigned long long)ev->signal.flags);
    case EVENT_ASYMU_KILL:
        return text("asymu_kill", "comm=%s pid=%d sig=%d rule=%s", t.comm, t.pid, 9, ev->kill.rule);
    case EVENT_FTRACE_PRINT: /* print's output: "%ps: %s" of ip and buf */
        return text("tracing_mark_write", "%s", ev->print.msg ? ev->print.msg : "");
    default:
        return NULL;
    }
}


char *trace_asymu_text(const struct trace_asymu *a)
{
    char rule[64], why[64];
    trace_text(a->rule, rule, sizeof rule);
    trace_text(a->why, why, sizeof why);
    return text("asymu_report",
                "what=%s seq=%llu cpu=%u comm=%s pid=%d tgid=%d isa=%s ts_ns=%llu end_ns=%llu "
                "from=%d to=%d old_cpus=%s cpus=%s rule=%s why=%s",
                a->what, (unsigned long long)a->seq, a->cpu, a->comm, a->pid, a->tgid, a->isa, (unsigned long long)a->ts_ns,
                (unsigned long long)a->end_ns, a->from, a->to, a->old_cpus, a->cpus, rule, why);
}

char *trace_machine_text(const struct trace_machine *m)
{
    char aarch32[4096], capacity[4096], policy[64];
    trace_machine_lists(m, aarch32, capacity);
    trace_text(m->policy ? m->policy : "", policy, sizeof policy);
    return text("asymu_machine", "cpus=%u aarch32=%s policy=%s seed=%llu capacity=%s", m->nr_cpus,
                aarch32, policy, (unsigned long long)m->seed, capacity);
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

/* The flags column: the scheduler's events run with the runqueue lock
 * held and interrupts off (__schedule(), try_to_wake_up()); the others in
 * process context. asymu has no interrupts to show. */
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

void trace_text_line(FILE *out, const char *comm, int pid, unsigned cpu, enum event_index event,
                     uint64_t ts_ns, const char *text)
{
    /* trace_print_context(): the idle task is "<idle>" there */
    fprintf(out, "%16s-%-7d [%03u] %s %5llu.%06llu: %s\n", pid == 0 ? "<idle>" : comm, pid, cpu,
            flags(event), (unsigned long long)(ts_ns / 1000000000),
            (unsigned long long)(ts_ns / 1000 % 1000000), text);
}
