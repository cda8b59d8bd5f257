/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.c - the machine loop: fires due timers, asks the scheduler for the next
 * (vCPU, task) pair in virtual-time order, carries out its decision (run,
 * SIGKILL, or pick again), loads the task's registers into its engine,
 * completes a blocked syscall or delivers signals, runs one slice and
 * accounts it. Ends when the first process (pid 1) has exited. */
#include "abi.h"
#include "control.h"
#include "insn_count.h"
#include "kcost.h"
#include "emu.h"
#include "engine.h"
#include "ktimer.h"
#include "lifetime.h"
#include "machine.h"
#include "recording.h"
#include "mm.h"
#include "rlimit.h"
#include "scheduler.h"
#include "signals.h"
#include "stop_hooks.h"
#include "syscalls.h"
#include "task.h"
#include "mm_window.h"
#include "script.h"
#include "timers.h"
#include "file.h"
#include "tlb.h"
#include "tracefs.h"
#include "waitq.h"

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>

/* Slices between two looks at host events; a slice is well under 1 ms. */
#define HOST_POLL_EVERY 64

#define task_of(se) ((struct task *)((char *)(se) - offsetof(struct task, se)))

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

/* 3.3: a compat task never executes an instruction outside M. A violation
 * is a bug in asymu; --check-invariants also checks the scheduler's books. */
static bool invariants_hold(struct machine *m, struct task *t, unsigned cpu)
{
    char report[1024];
    if (t->se.compat && !cpumask_test_cpu(cpu, &m->sched.aarch32)) {
        fprintf(stderr, "asymu: invariant violated: 32-bit task %d (%s) about to run on "
                        "64-bit-only cpu%u\n", t->tid, t->se.comm, cpu);
        return false;
    }
    if (m->cfg->check_invariants && sched_check_invariants(&m->sched, report, sizeof report) < 0) {
        fprintf(stderr, "asymu: scheduler invariant violated:\n%s", report);
        return false;
    }
    return true;
}

/* The guest code t ran touched a shared file mapping past the file's end
 * (shmem_bus_recover made the page a zero page): SIGBUS with BUS_ADRERR,
 * as Linux sends it, at the end of the slice. */
static void deliver_bus_fault(struct machine *m, struct task *t)
{
    uint8_t *host = (uint8_t *)m->bus_fault_host;
    m->bus_fault_host = 0;
    for (const struct vma *v = task_mm(t) ? task_mm(t)->vmas : NULL; v; v = v->next) {
        if (host >= v->host && host < v->host + (v->end - v->start)) {
            signal_fault_code(t, SIGBUS, 2 /* BUS_ADRERR */, task_abi(t)->get_pc(task_mm(t)->uc),
                              v->start + (uint64_t)(host - v->host),
                              "access past the end of a mapped file");
            return;
        }
    }
}

/* Each engine's translation buffer holds up to 1 GiB of translated code
 * (engine.c), resident as it is written: a guest that keeps making new code
 * (a JIT, self-modifying code, single steps in ever new CPU states) grows
 * it, and --warm-engines keeps up to 64 of them. Every so many slices the
 * host's free memory is checked; below --host-reserve every engine is
 * parked (mm.c), which frees its buffer: the next run of each opens a new
 * one and translates again, and the guest sees no difference. */
#define ENGINE_CHECK_SLICES 1024u

static void engines_check_host(struct machine *m)
{
    if (++m->slices_unchecked < ENGINE_CHECK_SLICES)
        return;
    m->slices_unchecked = 0;
    if (!host_memory_low(m, 0) || !m->engines_open)
        return;
    if (!m->engines_reclaimed)
        fprintf(stderr, "asymu: the host has less than --host-reserve available: closing every "
                        "engine to free its translated code (said once)\n");
    m->engines_reclaimed = true;
    mm_engines_park_all(m);
}

/* Runs t on cpu until its slice ends; returns the blocks it used. */
static uint64_t run_slice(struct machine *m, struct task *t, unsigned cpu)
{
    engines_check_host(m);
    m->slice_used = 0;
    m->slice_start = sched_now(&m->sched);
    m->slice_cpu = cpu;
    /* What the last slices here left below a whole ns counts on: the time
     * does not depend on how many slices a run is cut into. */
    m->slice_fs = m->sched.cpus[cpu].clock_fs_rem;
    m->slice_insns = 0;
    m->slice_task = t;
    m->insn_fs = sched_cpu_fs(&m->sched, cpu, m->sched.insn_fs);
    if (mm_engine_acquire(task_mm(t)) < 0) {
        fprintf(stderr, "asymu: [pid %d] no host memory for its engine: killed\n", t->proc->pid);
        process_exit_group(t->proc, SIGKILL);
        return m->slice_used;
    }
    mm_engines_trim(m, task_mm(t));
    load_registers(t);
    if (stop_hooks_hold_task(t))
        return m->slice_used;
    bool held = control_task_held(t);
    if (!held && !signal_stopped(t) && t->resume && !syscall_resume(t))
        return m->slice_used;
    if (!held && !signal_stopped(t))
        signal_deliver(t);
    if ((held || signal_stopped(t)) && t->state == TASK_RUNNABLE) {
        /* Stopped: off the runqueue until SIGCONT, SIGKILL or the control
         * socket's `cont PID` wakes it. */
        t->state = TASK_BLOCKED;
        sched_task_block(&m->sched, &t->se);
        waitq_update(t);
    }
    if (t->state != TASK_RUNNABLE || stop_hooks_machine_stopping(m))
        return m->slice_used;
    m->current = t;
    m->running_uc = task_mm(t)->uc;
    t->stop = false;
    struct mm *mm = task_mm(t);
    insn_count_start(m, mm);
    /* The switch to t costs its time before t's code runs (after the
     * resume above, which a replay feeds at the step's start): where it
     * lands does not depend on where slices end. */
    if (m->sched.switched) {
        kcost_charge(t, EMU_COST_CTXSW);
        m->sched.switched = false;
    }
    bool step = stop_hooks_single_step(t);
    if (step)
        engine_step_begin(m, t);
    m->watch_blocks = step || stop_hooks_watch_blocks(m);
    machine_slice_limit(m);
    stop_hooks_before_slice(t);
    engine_run(t);
    /* A slice that ran to its end, not stopped by its task. */
    tlb_after_slice(&mm->tlb, mm->uc,
                    m->slice_insns >= m->insn_stop);
    stop_hooks_after_slice(t);
    engine_step_end(m);
    m->running_uc = NULL;
    if (m->bus_fault_host)
        deliver_bus_fault(m, t);
    if (window_fault_pending(m))
        window_fault_deliver(m, t);
    if (step)
        stop_hooks_step_done(t);
    m->current = NULL;
    free_deferred_mms(m);
    return m->slice_used;
}

/* tracefs_wake()'s callback: the readers waiting on key. */
static void wake_tracing_readers(void *m, const void *key)
{
    file_notify_events(m, key, POLLIN);
}

int machine_run(struct machine *m)
{
    struct process *init = m->init;
    int status = -1;
    unsigned iterations = 0;
    while (!script_machine_done(m)) {
        task_free_exited(m);
        /* Readers of an empty trace_pipe wait for a record: woken here,
         * outside the event stream that added it (the ring buffer's
         * irq_work, rb_wake_up_waiters()). */
        if (m->tracefs)
            tracefs_wake(m->tracefs, wake_tracing_readers, m);
        /* A replay's inputs of this point; a recording's points. */
        if (!recording_step(m)) {
            status = 2;
            break;
        }
        /* Host events (signals, FUSE requests) are looked at every few
         * slices: an epoll_wait on every switch costs more than the switch. */
        if (++iterations % HOST_POLL_EVERY == 0)
            hostio_poll(m);
        if (m->host_signal) {
            recording_host_signal(m, m->host_signal);
            fprintf(stderr, "asymu: stopped by %s\n", m->host_signal == SIGINT ? "SIGINT"
                                                       : m->host_signal == SIGHUP ? "SIGHUP"
                                                                                  : "SIGTERM");
            status = 128 + m->host_signal;
            break;
        }
        /* Stopped from the control socket: only its requests happen. A
         * replay without a socket stopped for good does not match. */
        if (control_paused(m)) {
            if (!control_wait(m) && recording_stalled(m)) {
                status = 2;
                break;
            }
            recording_waited(m);
            continue;
        }
        /* Held by a debugger (gdb's): only its packets happen (a wait for
         * the host). */
        if (stop_hooks_hold_machine(m)) {
            recording_waited(m);
            continue;
        }
        /* Timers, timed waits among them, fire before the tasks due later. */
        struct ktimer *kt = ktimer_next(m);
        if (kt && kt->when <= sched_next_time(&m->sched)) {
            sched_advance(&m->sched, kt->when);
            ktimer_cancel(m, kt);
            kt->fire(kt);
            continue;
        }
        struct sched_task *se;
        unsigned cpu;
        int d = sched_pick(&m->sched, &se, &cpu);
        if (d == -EAGAIN) {
            /* Every task waits: for the host (stdin, FUSE), or forever. */
            if (hostio_wait(m) || control_wait_held(m)) {
                recording_waited(m);
                continue;
            }
            if (recording_stalled(m)) {
                status = 2;
                break;
            }
            fprintf(stderr, "asymu: every task is blocked and nothing can wake them (deadlock); "
                            "stopping the machine\n");
            break;
        }
        if (d == SCHED_MIGRATED)
            continue;
        struct task *t = task_of(se);
        if (d == SCHED_KILL) {
            /* The policy's SIGKILL (K2, K2f, H2): the whole thread group ends. */
            process_exit_group(t->proc, SIGKILL);
            continue;
        }
        if (!invariants_hold(m, t, cpu)) {
            status = 70; /* EX_SOFTWARE: asymu itself is wrong */
            break;
        }
        uint64_t used = run_slice(m, t, cpu);
        /* A switch to t whose slice ran no code is charged once it is over:
         * whatever the slice's start does (a syscall's resume taking
         * recorded input) sees the time the step started at, in a replay
         * too. */
        if (m->sched.switched)
            kcost_charge(t, EMU_COST_CTXSW);
        m->slice_task = NULL;
        uint64_t fs = machine_slice_fs(m);
        m->sched.cpus[cpu].clock_fs_rem = fs % FS_PER_NS;
        sched_account_ns(&m->sched, se, cpu, used, fs / FS_PER_NS);
        cpu_timers_check(t);
        rlimit_cpu_check(t);
        control_slice_done(m);
    }
    kill_everything(m);
    /* A script whose first task could not start (--host-reserve) has no
     * pid 1: its tasks' own outcomes say how it went. */
    if (status < 0 && !init)
        return 0;
    return status >= 0 ? status : wait_status_to_shell(init->wait_status);
}
