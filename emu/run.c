/* run.c - the machine loop: picks the next runnable task (FIFO round robin),
 * loads its registers into its engine, completes a blocked syscall or
 * delivers signals, runs one slice, and jumps virtual time forward when every
 * task sleeps. Ends when the first process (pid 1) has exited. */
#include "kernel.h"

#include <signal.h>
#include <stdio.h>

#define SLICE_BLOCKS 10000u

static struct task *runq_pop(struct machine *m)
{
    struct task *t = m->run_head;
    if (t) {
        m->run_head = t->next_run;
        if (!m->run_head)
            m->run_tail = NULL;
        t->next_run = NULL;
    }
    return t;
}

static void runq_push_tail(struct machine *m, struct task *t)
{
    t->next_run = NULL;
    if (m->run_tail)
        m->run_tail->next_run = t;
    else
        m->run_head = t;
    m->run_tail = t;
}

/* The earliest wake-up time of a timed wait, or 0 when nothing sleeps. */
static uint64_t next_deadline(struct machine *m)
{
    uint64_t best = 0;
    for (struct task *t = m->tasks; t; t = t->next_all)
        if (t->state == TASK_BLOCKED && t->deadline_ns && (!best || t->deadline_ns < best))
            best = t->deadline_ns;
    return best;
}

static void wake_expired(struct machine *m)
{
    for (struct task *t = m->tasks; t; t = t->next_all)
        if (t->state == TASK_BLOCKED && t->deadline_ns && t->deadline_ns <= m->vtime_ns)
            task_wake(t);
}

/* Puts t's registers into its engine, saving those of the task there. */
static void load_registers(struct task *t)
{
    struct mm *mm = task_mm(t);
    if (mm->loaded == t)
        return;
    if (mm->loaded)
        uc_context_save(mm->uc, mm->loaded->ctx);
    uc_context_restore(mm->uc, t->ctx);
    mm->loaded = t;
    if (t->has_new_tls) {
        /* TLS registers are outside what a context can be edited for. */
        mm->abi->set_tls(mm->uc, t->new_tls);
        t->has_new_tls = false;
    }
}

void free_deferred_mms(struct machine *m)
{
    while (m->deferred_mms) {
        struct mm *mm = m->deferred_mms;
        m->deferred_mms = mm->next_deferred;
        mm_free(mm);
    }
}

/* Ends every process: the machine stops with pid 1. */
static void kill_everything(struct machine *m)
{
    for (struct task *t = m->tasks; t; t = t->next_all)
        if (t->state != TASK_DEAD && !t->proc->exiting)
            process_exit_group(t->proc, SIGKILL);
}

static void run_slice(struct machine *m, struct task *t)
{
    uint64_t deadline = next_deadline(m);
    m->slice_left = SLICE_BLOCKS;
    if (!m->run_head && !deadline)
        m->slice_left = UINT64_MAX; /* nobody else to run: no need to stop */
    else if (deadline && deadline > m->vtime_ns && (deadline - m->vtime_ns) / 10 < m->slice_left)
        m->slice_left = (deadline - m->vtime_ns) / 10 + 1;
    m->current = t;
    m->running_uc = task_mm(t)->uc;
    t->stop = false;
    engine_run(t);
    m->running_uc = NULL;
    m->current = NULL;
    free_deferred_mms(m);
}

int machine_run(struct machine *m)
{
    struct process *init = m->init;
    while (!init->zombie) {
        wake_expired(m);
        struct task *t = runq_pop(m);
        if (!t) {
            uint64_t deadline = next_deadline(m);
            if (deadline) {
                m->vtime_ns = deadline;
                continue;
            }
            fprintf(stderr, "asymu: every task is blocked and nothing can wake them (deadlock); "
                            "stopping the machine\n");
            kill_everything(m);
            break;
        }
        if (t->state != TASK_RUNNABLE)
            continue;
        load_registers(t);
        if (t->resume && !syscall_resume(t))
            continue;
        signal_deliver(t);
        if (t->state != TASK_RUNNABLE)
            continue;
        run_slice(m, t);
        if (t->state == TASK_RUNNABLE)
            runq_push_tail(m, t);
    }
    kill_everything(m);
    return wait_status_to_shell(init->wait_status);
}
