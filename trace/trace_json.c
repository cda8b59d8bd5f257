/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_json.c - Chrome Trace Event / Perfetto JSON (jansson): process 0
 * "vCPUs" with a thread per vCPU, "X" events for who ran when, instant
 * events for exec, fork, exit, affinity changes, migrations, kills and
 * hotplug, a "C" counter of runnable tasks per vCPU, and the guest tasks'
 * names as metadata. One event per line, in the order they happened in
 * the machine loop; viewers sort by ts. Timestamps in virtual microseconds. */
#include "trace-int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define VCPU_PID 0 /* the process holding the vCPU tracks; guest pids start at 1 */

struct json_trace {
    FILE *out;
    unsigned nr_cpus;
    bool first;
    struct trace_run *runs;         /* per vCPU: the run not written yet */
    enum mevent_run_end *ends;      /* per vCPU: how that run's last slice ended */
    int *runnable;                  /* per vCPU: the last count written, -1 none */
    char (*names)[MEVENT_COMM_LEN]; /* per tid: the name last given in metadata */
    size_t names_len;
};

static void put(struct json_trace *j, json_t *ev)
{
    char *text = json_dumps(ev, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(ev);
    if (!text)
        return;
    fprintf(j->out, "%s%s", j->first ? "\n" : ",\n", text);
    j->first = false;
    free(text);
}

static json_t *us(uint64_t ns)
{
    return json_real((double)ns / 1000.0);
}

static json_t *str(const char *s)
{
    char safe[4096];
    trace_text(s, safe, sizeof safe);
    return json_string(safe);
}

static json_t *metadata(const char *name, int pid, int tid, json_t *args)
{
    return json_pack("{s:s,s:s,s:i,s:i,s:o}", "name", name, "ph", "M", "pid", pid, "tid", tid,
                     "args", args);
}

/* The task's process and thread names, when they are new or changed: at
 * fork and exec (a run may still show the name before an exec). */
static void name_task(struct json_trace *j, const struct mevent_task *t)
{
    if (t->tid <= 0)
        return;
    size_t tid = (size_t)t->tid;
    if (tid >= j->names_len) {
        size_t len = (tid + 1) * 2;
        char(*names)[MEVENT_COMM_LEN] = realloc(j->names, len * sizeof(*names));
        if (!names)
            return;
        memset(names + j->names_len, 0, (len - j->names_len) * sizeof(*names));
        j->names = names;
        j->names_len = len;
    }
    if (strcmp(j->names[tid], t->comm) == 0)
        return;
    memcpy(j->names[tid], t->comm, MEVENT_COMM_LEN);
    if (t->tid == t->tgid)
        put(j, metadata("process_name", t->tgid, t->tid, json_pack("{s:o}", "name", str(t->comm))));
    put(j, metadata("thread_name", t->tgid, t->tid, json_pack("{s:o}", "name", str(t->comm))));
}

static json_t *task_args(const struct mevent_task *t)
{
    return json_pack("{s:i,s:i,s:o,s:s}", "pid", t->tgid, "tid", t->tid, "comm", str(t->comm),
                     "isa", trace_isa(t));
}

/* How a run ended, as `asymu report` needs it to tell waiting from
 * sleeping: "runnable" (preempted, it waits), "moved" (runnable on another
 * vCPU), "blocked" (sleeps), "dead" (exited). */
static const char *end_name(enum mevent_run_end end)
{
    switch (end) {
    case MEVENT_END_BLOCKED: return "blocked";
    case MEVENT_END_DEAD: return "dead";
    case MEVENT_END_MOVED: return "moved";
    default: return "runnable";
    }
}

static void flush_run(struct json_trace *j, unsigned cpu)
{
    struct trace_run *r = &j->runs[cpu];
    if (!r->open)
        return;
    r->open = false;
    if (r->end_ns == r->start_ns)
        return;
    json_t *args = task_args(&r->task);
    json_object_set_new(args, "end", json_string(end_name(j->ends[cpu])));
    put(j, json_pack("{s:o,s:s,s:s,s:i,s:i,s:o,s:o,s:o}", "name", str(r->task.comm), "cat", "run",
                     "ph", "X", "pid", VCPU_PID, "tid", (int)cpu, "ts", us(r->start_ns), "dur",
                     us(r->end_ns - r->start_ns), "args", args));
}

static void instant(struct json_trace *j, const struct mevent *ev, const char *name, json_t *args)
{
    unsigned cpu = ev->cpu < j->nr_cpus ? ev->cpu : 0;
    put(j,
        json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:o,s:o}", "name", name, "cat", "event", "ph", "i", "s",
                  "t", "pid", VCPU_PID, "tid", (int)cpu, "ts", us(ev->ts_ns), "args", args));
}

static void counter(struct json_trace *j, const struct mevent *ev)
{
    if (ev->cpu >= j->nr_cpus || j->runnable[ev->cpu] == (int)ev->runqueue.nr_running)
        return;
    j->runnable[ev->cpu] = (int)ev->runqueue.nr_running;
    char name[32];
    snprintf(name, sizeof name, "runnable cpu%u", ev->cpu);
    put(j, json_pack("{s:s,s:s,s:i,s:o,s:{s:i}}", "name", name, "ph", "C", "pid", VCPU_PID, "ts",
                     us(ev->ts_ns), "args", "tasks", (int)ev->runqueue.nr_running));
}

static json_t *cpulist(const struct cpumask *m)
{
    char list[4096];
    cpulist_format(m, list, sizeof list);
    return json_string(list);
}

static void json_event(void *state, const struct mevent *ev)
{
    struct json_trace *j = state;
    json_t *args;
    switch (ev->kind) {
    case MEVENT_RUN:
        if (ev->cpu >= j->nr_cpus)
            return;
        if (!trace_run_extend(&j->runs[ev->cpu], ev)) {
            flush_run(j, ev->cpu);
            trace_run_start(&j->runs[ev->cpu], ev);
        }
        j->ends[ev->cpu] = ev->run.end;
        return;
    case MEVENT_WAKEUP:
        args = task_args(&ev->task);
        json_object_set_new(args, "new", json_boolean(ev->wakeup.new_task));
        instant(j, ev, "wakeup", args);
        return;
    case MEVENT_RUNQUEUE:
        counter(j, ev);
        return;
    case MEVENT_EXEC:
        name_task(j, &ev->task);
        args = task_args(&ev->task);
        json_object_set_new(args, "path", str(ev->exec.path));
        instant(j, ev, "exec", args);
        return;
    case MEVENT_FORK:
        name_task(j, &ev->fork.child);
        args = task_args(&ev->task);
        json_object_set_new(args, "child_pid", json_integer(ev->fork.child.tgid));
        json_object_set_new(args, "child_tid", json_integer(ev->fork.child.tid));
        json_object_set_new(args, "thread", json_boolean(ev->fork.thread));
        instant(j, ev, "fork", args);
        return;
    case MEVENT_EXIT:
        args = task_args(&ev->task);
        if (ev->exit.wait_status & 0x7f)
            json_object_set_new(args, "signal", json_integer(ev->exit.wait_status & 0x7f));
        else
            json_object_set_new(args, "code", json_integer((ev->exit.wait_status >> 8) & 0xff));
        instant(j, ev, "exit", args);
        return;
    case MEVENT_AFFINITY:
        args = task_args(&ev->task);
        json_object_set_new(args, "old", cpulist(ev->affinity.old_mask));
        json_object_set_new(args, "new", cpulist(ev->affinity.new_mask));
        json_object_set_new(args, "rule", json_string(ev->affinity.rule));
        json_object_set_new(args, "cause", json_string(mevent_cause_name(ev->affinity.cause)));
        instant(j, ev, "affinity", args);
        return;
    case MEVENT_MIGRATE:
        args = task_args(&ev->task);
        json_object_set_new(args, "from", json_integer(ev->migrate.from));
        json_object_set_new(args, "to", json_integer(ev->migrate.to));
        json_object_set_new(args, "reason",
                            json_string(mevent_migrate_reason_name(ev->migrate.reason)));
        instant(j, ev, "migrate", args);
        return;
    case MEVENT_KILL:
        args = task_args(&ev->task);
        json_object_set_new(args, "rule", json_string(ev->kill.rule));
        instant(j, ev, "kill", args);
        return;
    case MEVENT_PRINT: /* a trace_marker write */
        args = task_args(&ev->task);
        json_object_set_new(args, "msg", str(ev->print.msg));
        instant(j, ev, "print", args);
        return;
    case MEVENT_HOTPLUG:
        instant(j, ev, ev->hotplug.online ? "cpu online" : "cpu offline",
                json_pack("{s:i}", "cpu", (int)ev->cpu));
        return;
    default:
        return;
    }
}

static void *json_new(FILE *out, const struct trace_machine *machine)
{
    struct json_trace *j = calloc(1, sizeof(*j));
    if (!j)
        return NULL;
    j->runs = calloc(machine->nr_cpus, sizeof(*j->runs));
    j->runnable = malloc(machine->nr_cpus * sizeof(*j->runnable));
    j->ends = calloc(machine->nr_cpus, sizeof(*j->ends));
    if (!j->runs || !j->runnable || !j->ends) {
        free(j->ends);
        free(j->runs);
        free(j->runnable);
        free(j);
        return NULL;
    }
    j->out = out;
    j->nr_cpus = machine->nr_cpus;
    j->first = true;
    for (unsigned cpu = 0; cpu < machine->nr_cpus; cpu++)
        j->runnable[cpu] = -1;
    char aarch32[4096];
    cpulist_format(&machine->aarch32, aarch32, sizeof aarch32);
    fprintf(out,
            "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"asymu\","
            "\"policy\":\"%s\",\"seed\":%llu,\"cpus\":%u,\"aarch32\":\"%s\","
            "\"capacity\":[",
            machine->policy, (unsigned long long)machine->seed, machine->nr_cpus, aarch32);
    for (unsigned cpu = 0; cpu < machine->nr_cpus; cpu++) {
        unsigned cap = cpu < NR_CPUS_MAX ? machine->capacity[cpu] : 0;
        fprintf(out, "%s%u", cpu ? "," : "", cap ? cap : 1024);
    }
    fputs("]},\"traceEvents\":[", out);
    put(j, metadata("process_name", VCPU_PID, 0, json_pack("{s:s}", "name", "vCPUs")));
    put(j, metadata("process_sort_index", VCPU_PID, 0, json_pack("{s:i}", "sort_index", -1)));
    for (unsigned cpu = 0; cpu < machine->nr_cpus; cpu++) {
        char name[48];
        bool is32 = cpumask_test_cpu(cpu, &machine->aarch32);
        snprintf(name, sizeof name, "cpu%u (%s)", cpu, is32 ? "aarch32+aarch64" : "aarch64 only");
        put(j, metadata("thread_name", VCPU_PID, (int)cpu, json_pack("{s:s}", "name", name)));
        put(j, metadata("thread_sort_index", VCPU_PID, (int)cpu,
                        json_pack("{s:i}", "sort_index", (int)cpu)));
    }
    return j;
}

static void json_finish(void *state)
{
    struct json_trace *j = state;
    for (unsigned cpu = 0; cpu < j->nr_cpus; cpu++)
        flush_run(j, cpu);
    fprintf(j->out, "\n]}\n");
    free(j->runs);
    free(j->ends);
    free(j->runnable);
    free(j->names);
    free(j);
}

const struct trace_format_ops trace_json_ops = {
    .kinds = MEVENT_BIT(MEVENT_RUN) | MEVENT_BIT(MEVENT_RUNQUEUE) | MEVENT_BIT(MEVENT_EXEC) |
             MEVENT_BIT(MEVENT_FORK) | MEVENT_BIT(MEVENT_EXIT) | MEVENT_BIT(MEVENT_AFFINITY) |
             MEVENT_BIT(MEVENT_MIGRATE) | MEVENT_BIT(MEVENT_KILL) | MEVENT_BIT(MEVENT_HOTPLUG) |
             MEVENT_BIT(MEVENT_PRINT) |
             MEVENT_BIT(MEVENT_WAKEUP),
    .new = json_new,
    .event = json_event,
    .finish = json_finish,
};
