/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stop_hooks.h - where a debugger stops a task or hears of an event: the
 * one interface the kernel layer calls at those points (stop_hooks.c), and
 * that each debugger implements.
 *
 * There are two debuggers. The guest's own tracer (ptrace(2), ptrace.c)
 * stops one task in a ptrace-stop and tells its tracer's wait. A debugger
 * of the host's (`--gdb`'s stub, emu/tools/) stops the whole machine at the
 * next slice boundary. Each registers a `struct stop_hooks` in its slot of
 * the machine (stop_hooks_set): the guest's at machine_boot, the host's
 * while it listens. The kernel layer asks the slots in their fixed order,
 * the guest's tracer first, so a tracee's tracer sees a signal or an event
 * before gdb does; it never names the host's debugger (e2e-house-kernel-
 * includes checks that no emu/kernel/ file includes an emu/tools/ header).
 *
 * The machine layer asks them too, around each slice (run.c: whether a
 * task or the whole machine is held, a single step, the engines' hooks
 * of a slice): it names neither debugger either (e2e-house-kernel-includes
 * fails on run.c naming `gdbstub_*` or ptrace's slice calls).
 *
 * A hook left NULL is one that debugger has no stop or event for. Each
 * hook is a no-op (false) for a task its debugger does not debug. The
 * state only ptrace has (ptrace_stopped, ptrace_hides_exit, ptrace_wait,
 * ...) stays ptrace.h's: those are Linux's rules of a tracee, which gdb,
 * holding the machine rather than the task, takes no part in. */
#ifndef ASYMU_STOP_HOOKS_H
#define ASYMU_STOP_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct process;
struct task;

struct stop_hooks {
    /* Whether the debugger sees t's signals before their handlers and
     * default actions: a fatal signal is not a group exit yet
     * (signal_fatal), a forced fault signal is queued rather than ending
     * the process (signal_force). Not asked for sig_discarded: only a
     * ptrace tracer keeps an ignored signal queued (Linux's
     * sig_task_ignored() looks at t->ptrace alone), so signal.c reads
     * t->ptrace there itself. */
    bool (*traces)(const struct task *t);
    /* signal_deliver took sig (its info in t->delivering): true when t
     * stops instead, the debugger deciding what is delivered on restart
     * (ptrace's signal-delivery-stop; gdb's stop reply `T<sig>`, the
     * signal passed when gdb continues with it). The first debugger that
     * stops t has it; the later ones are not asked. */
    bool (*signal_stop)(struct task *t, int sig);
    /* syscall_dispatch, before decoding: true when t stopped at syscall
     * entry (the svc runs again on restart). ptrace only (PTRACE_SYSCALL,
     * PTRACE_EVENT_EXIT of exit and exit_group): the gdb stub has no
     * syscall catchpoints. The first that stops t has it. */
    bool (*syscall_enter)(struct task *t, uint64_t nr, const uint64_t a[6]);
    /* A syscall finished with ret (in the registers already): ptrace's
     * syscall-exit and event stops. exec_done: a successful execve, whose
     * PTRACE_EVENT_EXEC (or legacy SIGTRAP) ptrace reports from here,
     * before its syscall-exit stop as Linux does. Every debugger is told. */
    void (*syscall_exit)(struct task *t, bool exec_done, int64_t ret);
    /* After syscall_exit of a successful execve: t's process runs a new
     * program. gdb's exec event (its breakpoints went with the old
     * program); NULL for ptrace, which reported it from syscall_exit.
     * Every debugger is told. */
    void (*exec)(struct task *t);
    /* do_clone made child from parent: ptrace's fork, vfork and clone
     * events (the child traced too, per the tracer's options); gdb's fork
     * and vfork events (not for threads: gdb debugs the child process).
     * Every debugger is told. */
    void (*clone)(struct task *parent, struct task *child, uint64_t flags);
    /* The default action of a signal ends t's process with wait status
     * `status`: true when t stops first (ptrace's PTRACE_EVENT_EXIT, not
     * for SIGKILL), the process ending on restart. ptrace only: gdb hears
     * of the end (process_exit). The first that stops t has it. */
    bool (*exit_stop)(struct task *t, int status);
    /* The default action of stop signal sig froze t's process: ptrace's
     * group-stop report. ptrace only: gdb does not stop for it. Every
     * debugger is told. */
    void (*group_stop)(struct task *t, int sig);
    /* p became a zombie (p->wait_status is its status): ptrace detaches
     * p's tracees and tells p's tracer; gdb hears p's exit (`W`/`X`).
     * Every debugger is told, before p's parent. */
    void (*process_exit)(struct process *p);
    /* The engine's block hook while m->watch_blocks (a step under way or
     * a host debugger listening): true when the debugger's single step of
     * m->current ended before this block, the run then stopping there
     * (ptrace's PTRACE_SINGLESTEP is the engine's step, engine_step.c;
     * gdb's is its own). Every debugger is asked: each ends its own step. */
    bool (*block)(struct machine *m);

    /* ---- the machine layer's, around a slice (run.c), in this order ---- */

    /* machine_run, between slices: true when the debugger holds the whole
     * machine (a stop it has not continued from; a stop recorded in the
     * last slice goes to it now), after waiting for the next host event
     * (its packets among them); the loop then runs no task and asks again.
     * gdb only: ptrace holds tracees, not the machine. The first that
     * holds the machine has it. */
    bool (*hold_machine)(struct machine *m);
    /* run_slice, t's registers loaded, before its pending syscall resumes
     * and its signals are delivered: true when t does not run this slice
     * (ptrace carries out its tracer's restart here, or keeps t in its
     * ptrace-stop, off the runqueue). ptrace only: gdb holds the machine
     * (hold_machine, machine_stopping). The first that holds t has it. */
    bool (*hold_task)(struct task *t);
    /* run_slice, a runnable task about to run: true when a stop is on its
     * way to the debugger (an event of this or an earlier slice recorded
     * it), so the task loaded does not run on; the machine loop hands the
     * stop over (hold_machine). gdb only. The first true wins. */
    bool (*machine_stopping)(const struct machine *m);
    /* run_slice: t's slice is the engine's single step, one instruction
     * (engine_step.c), ptrace's PTRACE_SINGLESTEP; step_done follows the
     * slice. NULL for gdb, whose step is a code hook of its own
     * (before_slice). The first true wins. */
    bool (*single_step)(const struct task *t);
    /* run_slice: true when the engine's block hook must take its slow
     * path at every block of this slice (m->watch_blocks), asking block
     * below, besides a single_step's: gdb while it listens, whose steps
     * and stops end at blocks. NULL for ptrace, whose step is
     * single_step's. The first true wins. */
    bool (*watch_blocks)(const struct machine *m);
    /* run_slice, just before t's code runs: the debugger puts its hooks
     * into the engine t runs on for this slice (gdb's breakpoints and
     * single step). Every debugger is told. */
    void (*before_slice)(struct task *t);
    /* run_slice, just after t's code ran: the hooks leave the engine again
     * (it may be parked and another opened at its address). Every debugger
     * is told. */
    void (*after_slice)(struct task *t);
    /* run_slice, after a slice single_step made a step and the faults it
     * raised were delivered: ptrace queues the step's SIGTRAP (TRAP_TRACE)
     * unless the instruction raised its own signal, stopped t or blocks.
     * Every debugger is told: each ends its own step. */
    void (*step_done)(struct task *t);
};

/* The slots, in the order the kernel layer asks them. */
enum stop_hooks_slot {
    STOP_HOOKS_GUEST, /* the guest's ptrace(2) */
    STOP_HOOKS_HOST,  /* a debugger of the host's (--gdb) */
    STOP_HOOKS_N
};

/* Puts hooks (NULL: none) in slot of m. */
void stop_hooks_set(struct machine *m, enum stop_hooks_slot slot, const struct stop_hooks *hooks);

/* The calls of the kernel and machine layers: each asks the slots in
 * order, as its hook's comment says (the first true wins, or every
 * debugger is told). */
bool stop_hooks_traces(const struct task *t);
bool stop_hooks_signal_stop(struct task *t, int sig);
bool stop_hooks_syscall_enter(struct task *t, uint64_t nr, const uint64_t a[6]);
void stop_hooks_syscall_exit(struct task *t, bool exec_done, int64_t ret);
void stop_hooks_exec(struct task *t);
void stop_hooks_clone(struct task *parent, struct task *child, uint64_t flags);
bool stop_hooks_exit_stop(struct task *t, int status);
void stop_hooks_group_stop(struct task *t, int sig);
void stop_hooks_process_exit(struct process *p);
bool stop_hooks_block(struct machine *m);
/* The machine layer's (run.c). */
bool stop_hooks_hold_machine(struct machine *m);
bool stop_hooks_hold_task(struct task *t);
bool stop_hooks_machine_stopping(const struct machine *m);
bool stop_hooks_watch_blocks(const struct machine *m);
bool stop_hooks_single_step(const struct task *t);
void stop_hooks_before_slice(struct task *t);
void stop_hooks_after_slice(struct task *t);
void stop_hooks_step_done(struct task *t);

#endif
