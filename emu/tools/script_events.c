/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script_events.c - a script's subscriber on the machine's event stream:
 * records each task's history and fires the triggers of its actions. A
 * trigger only arms its action (script__arm_action): the action happens
 * between two slices, as a timed one does, so a run stays deterministic. */
#include "script_events.h"

#include "machine.h"
#include "script.h"
#include "task.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct script_watch {
    struct machine *m;
    struct machine_script *s;
    size_t *by_tid; /* tid -> 1 + its live thread's index in s->threads, 0: none */
    size_t ntids;
    size_t nlatencies; /* over every thread */
};

/* The script task whose process (its pid) ev's task belongs to, or NULL. */
static struct script_task *task_of(struct machine_script *s, const struct mevent_task *t)
{
    for (size_t i = 0; i < s->ntasks; i++)
        if (s->tasks[i].started && s->tasks[i].pid == t->tgid)
            return &s->tasks[i];
    return NULL;
}

static bool grow(void **array, size_t n, size_t size)
{
    if (n & (n - 1)) /* capacity: the next power of two */
        return true;
    void *p = realloc(*array, (n ? 2 * n : 1) * size);
    if (!p)
        return false;
    *array = p;
    return true;
}

static void record_affinity(struct script_task *st, const struct mevent *ev)
{
    if (ev->task.tid != st->pid || !grow((void **)&st->affinity_history, st->naffinity,
                                         sizeof *st->affinity_history))
        return;
    st->affinity_history[st->naffinity++] = (struct script_affinity_change){
        .at_ns = ev->ts_ns, .old_mask = *ev->affinity.old_mask,
        .new_mask = *ev->affinity.new_mask, .rule = ev->affinity.rule,
        .cause = mevent_cause_name(ev->affinity.cause),
    };
}

/* The exec event comes once the policy has decided: the saved mask is set. */
static void record_exec(struct machine *m, struct script_task *st, const struct mevent *ev)
{
    struct task *t = task_find(m, ev->task.tid);
    if (ev->task.tid != st->pid || !t ||
        !grow((void **)&st->saved_history, st->nsaved, sizeof *st->saved_history))
        return;
    st->saved_history[st->nsaved++] = (struct script_saved_mask){
        .at_ns = ev->ts_ns, .has_mask = t->se.has_saved_mask, .mask = t->se.saved_mask,
    };
}

/* Whether ev's task is the one trigger a watches: the task's process (its
 * main thread for an exit), or any process with the comm it names. */
static bool watched(const struct machine_script *s, const struct script_action *a,
                    const struct mevent *ev)
{
    bool thread_ok = a->when != SCRIPT_ON_EXIT || ev->task.tid == ev->task.tgid;
    if (a->on_task >= 0) {
        const struct script_task *st = &s->tasks[a->on_task];
        return thread_ok && st->started && ev->task.tgid == st->pid;
    }
    return thread_ok && strcmp(ev->task.comm, a->on_comm) == 0;
}

static bool matches(const struct machine_script *s, const struct script_action *a,
                    const struct mevent *ev)
{
    switch (a->when) {
    case SCRIPT_AT:
        return false;
    case SCRIPT_ON_EXEC:
        if (ev->kind != MEVENT_EXEC || !watched(s, a, ev))
            return false;
        /* A task's own start is its first execve, not an event of the run. */
        return a->on_task < 0 || s->tasks[a->on_task].nsaved > 1 ||
               ev->task.tid != s->tasks[a->on_task].pid;
    case SCRIPT_ON_EXIT:
        return ev->kind == MEVENT_EXIT && watched(s, a, ev);
    case SCRIPT_ON_SYSCALL:
        return ev->kind == MEVENT_SYSCALL_ENTER && ev->syscall.name &&
               strcmp(ev->syscall.name, a->on_syscall) == 0 && watched(s, a, ev);
    case SCRIPT_ON_RUNS:
        return ev->kind == MEVENT_RUN && ev->cpu < NR_CPUS_MAX &&
               cpumask_test_cpu(ev->cpu, &a->on_cpus) && watched(s, a, ev);
    }
    return false;
}

/* ev's thread's record, made at its first event or, for a tid used again,
 * at the new thread's first wake-up (fresh); NULL when out of memory. (Not
 * at its exit: the run it exits in is reported after the exit.) */
static struct script_thread *thread_of(struct script_watch *w, const struct mevent_task *t,
                                       bool fresh)
{
    struct machine_script *s = w->s;
    size_t tid = (size_t)t->tid;
    if (tid >= w->ntids) {
        size_t n = w->ntids ? w->ntids : 64;
        while (n <= tid)
            n *= 2;
        size_t *p = realloc(w->by_tid, n * sizeof *p);
        if (!p)
            return NULL;
        memset(p + w->ntids, 0, (n - w->ntids) * sizeof *p);
        w->by_tid = p;
        w->ntids = n;
    }
    if (!w->by_tid[tid] || fresh) {
        uint64_t *run = calloc(s->ncpus, sizeof *run);
        if (!run || !grow((void **)&s->threads, s->nthreads, sizeof *s->threads)) {
            free(run);
            return NULL;
        }
        s->threads[s->nthreads] = (struct script_thread){.tid = t->tid, .run_ns = run};
        w->by_tid[tid] = ++s->nthreads;
    }
    struct script_thread *th = &s->threads[w->by_tid[tid] - 1];
    th->tgid = t->tgid;
    memcpy(th->comm, t->comm, sizeof th->comm);
    th->comm[sizeof th->comm - 1] = '\0';
    return th;
}

/* The quantities of a thread and of the vCPUs: a run's time per vCPU, the
 * wait from each wake-up to the run after it (Linux's wakeup latency, as
 * sched_wakeup to sched_switch), the time runnable but not running (the
 * run_delay of Linux's sched_info: from a wake-up or a preemption to the
 * next run), the moves between vCPUs: a run on another vCPU than the
 * thread's run before (Linux's nr_migrations, but for a queued thread
 * moved twice before it runs, and not for a thread's placement before its
 * first run: a task started with an affinity). */
static void record_stats(struct script_watch *w, const struct mevent *ev)
{
    struct machine_script *s = w->s;
    if (ev->kind == MEVENT_RUN && ev->cpu < s->ncpus && ev->run.end_ns > ev->ts_ns)
        s->cpu_busy_ns[ev->cpu] += ev->run.end_ns - ev->ts_ns;
    struct script_thread *th =
        thread_of(w, &ev->task, ev->kind == MEVENT_WAKEUP && ev->wakeup.new_task);
    if (!th)
        return;
    switch (ev->kind) {
    case MEVENT_RUN:
        if (ev->cpu < s->ncpus && ev->run.end_ns > ev->ts_ns)
            th->run_ns[ev->cpu] += ev->run.end_ns - ev->ts_ns;
        if (th->woken && w->nlatencies < SCRIPT_MAX_LATENCIES &&
            grow((void **)&th->latencies, th->nlatencies, sizeof *th->latencies)) {
            th->latencies[th->nlatencies++] = ev->ts_ns > th->woken_at ? ev->ts_ns - th->woken_at
                                                                       : 0;
            w->nlatencies++;
        } else if (th->woken) {
            s->threads_truncated = true;
        }
        if (th->runnable && ev->ts_ns > th->runnable_since)
            th->runnable_wait_ns += ev->ts_ns - th->runnable_since;
        th->migrations += th->ran && th->last_cpu != ev->cpu;
        th->last_cpu = ev->cpu;
        th->woken = false;
        th->ran = true;
        th->runnable = ev->run.end == MEVENT_END_RUNNABLE || ev->run.end == MEVENT_END_MOVED;
        th->runnable_since = ev->run.end_ns;
        break;
    case MEVENT_WAKEUP:
        th->woken = true;
        th->woken_at = ev->ts_ns;
        th->runnable = true;
        th->runnable_since = ev->ts_ns;
        break;
    default:
        break;
    }
}

/* A workload's report in a trace_marker line (examples/workload.c): a
 * periodic activation that missed its deadline, a named phase done. Any
 * program may write them: they are the thread's, whatever it runs. */
static void record_mark(struct script_watch *w, const struct mevent *ev)
{
    static const char prefix[] = "asymu-workload: ";
    const char *msg = ev->print.msg;
    if (!msg || strncmp(msg, prefix, sizeof prefix - 1) != 0)
        return;
    msg += sizeof prefix - 1;
    struct script_thread *th = thread_of(w, &ev->task, false);
    if (!th)
        return;
    if (strcmp(msg, "deadline miss") == 0) {
        th->deadline_misses++;
        return;
    }
    if (strncmp(msg, "phase ", 6) != 0 || strlen(msg + 6) >= sizeof th->marks->name)
        return;
    msg += 6;
    for (size_t i = 0; i < th->nmarks; i++) {
        if (strcmp(th->marks[i].name, msg) == 0) {
            th->marks[i].count++;
            return;
        }
    }
    if (!grow((void **)&th->marks, th->nmarks, sizeof *th->marks))
        return;
    struct script_mark *mk = &th->marks[th->nmarks++];
    snprintf(mk->name, sizeof mk->name, "%s", msg);
    mk->count = 1;
}

static void on_event(void *ctx, const struct mevent *ev)
{
    struct script_watch *w = ctx;
    struct machine_script *s = w->s;
    if (ev->task.tid && s->cpu_busy_ns &&
        (ev->kind == MEVENT_RUN || ev->kind == MEVENT_WAKEUP))
        record_stats(w, ev);
    if (ev->kind == MEVENT_PRINT) {
        if (ev->task.tid && s->cpu_busy_ns)
            record_mark(w, ev);
        return;
    }
    if (ev->kind == MEVENT_WAKEUP)
        return;
    struct script_task *st = ev->task.tid ? task_of(s, &ev->task) : NULL;
    if (st && ev->kind == MEVENT_RUN) {
        cpumask_set_cpu(ev->cpu, &st->cpus_used);
        cpumask_set_cpu(ev->cpu, &st->cpus_used_isa[ev->task.compat]);
    }
    else if (st && ev->kind == MEVENT_AFFINITY)
        record_affinity(st, ev);
    else if (st && ev->kind == MEVENT_EXEC)
        record_exec(w->m, st, ev);
    for (size_t i = 0; i < s->nactions; i++) {
        struct script_action *a = &s->actions[i];
        if (a->when != SCRIPT_AT && (!a->triggered || a->each) && matches(s, a, ev)) {
            if (!a->triggered)
                a->at_ns = ev->ts_ns;
            a->triggered = true;
            script__arm_action(w->m, i, ev->ts_ns);
        }
    }
}

int script_events_start(struct machine *m, struct machine_script *s)
{
    struct script_watch *w = calloc(1, sizeof *w);
    if (!w)
        return -ENOMEM;
    *w = (struct script_watch){.m = m, .s = s};
    s->watch = w; /* script_events_free frees it */
    s->ncpus = m->sched.nr_cpus;
    s->cpu_busy_ns = calloc(s->ncpus, sizeof *s->cpu_busy_ns);
    uint32_t kinds = MEVENT_BIT(MEVENT_RUN) | MEVENT_BIT(MEVENT_AFFINITY) |
                     MEVENT_BIT(MEVENT_EXEC) | MEVENT_BIT(MEVENT_EXIT) |
                     MEVENT_BIT(MEVENT_WAKEUP) | MEVENT_BIT(MEVENT_PRINT);
    /* Syscall events cost one call per syscall: only when a trigger needs them. */
    for (size_t i = 0; i < s->nactions; i++)
        if (s->actions[i].when == SCRIPT_ON_SYSCALL)
            kinds |= MEVENT_BIT(MEVENT_SYSCALL_ENTER);
    return mevent_subscribe(&m->sched.events, kinds, on_event, w);
}

void script_events_free(struct machine_script *s)
{
    for (size_t i = 0; i < s->ntasks; i++) {
        free(s->tasks[i].affinity_history);
        free(s->tasks[i].saved_history);
        s->tasks[i].affinity_history = NULL;
        s->tasks[i].saved_history = NULL;
    }
    for (size_t i = 0; i < s->nthreads; i++) {
        free(s->threads[i].run_ns);
        free(s->threads[i].latencies);
        free(s->threads[i].marks);
    }
    free(s->threads);
    free(s->cpu_busy_ns);
    s->threads = NULL;
    s->nthreads = 0;
    s->cpu_busy_ns = NULL;
    if (s->watch)
        free(s->watch->by_tid);
    free(s->watch);
    s->watch = NULL;
}
