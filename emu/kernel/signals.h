/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signals.h - queueing, taking and delivering signals (signal.c), and
 * synchronous faults. */
#ifndef ASYMU_SIGNALS_H
#define ASYMU_SIGNALS_H

#include <stdbool.h>
#include <stdint.h>

struct process;
struct siginfo_lite;
struct task;

/* Ends the whole thread group with the default action of sig. */
void signal_kill_process(struct task *t, int sig);
/* force_sig_info(): sig with info for what t did, to its handler or tracer
 * if it has one that may see it, else the process ends by it. */
void signal_force(struct task *t, int sig, const struct siginfo_lite *info);
/* Queues sig for a process (any thread may take it) or for one thread. */
void signal_queue_process(struct process *p, int sig, const struct siginfo_lite *info);
/* check_kill_permission() for a signal from t's process to p: the same
 * process, CAP_KILL, the caller's real or effective uid being p's real or
 * saved one (kill_ok_by_cred()), or SIGCONT within t's session. */
bool signal_may_send(const struct task *t, const struct process *p, int sig);
void signal_queue_task(struct task *t, int sig, const struct siginfo_lite *info);
/* Delivers t's pending unblocked signals before it returns to user mode:
 * default actions, or a handler frame. t's registers are loaded. */
void signal_deliver(struct task *t);
/* Whether t must sit still because its process is stopped. */
bool signal_stopped(struct task *t);
/* Reads a guest siginfo_t: its si_signo, and what it carries. 0 or -EFAULT. */
int siginfo_from_guest(struct task *t, uint64_t uinfo, int *signo, struct siginfo_lite *info);
/* Takes t's oldest pending signal of set (its own, then its process's)
 * into *info: the signal, or 0 when none is pending. */
int signal_dequeue(struct task *t, uint64_t set, struct siginfo_lite *info);
/* Whether t has a signal it would take now (interrupts blocking waits). */
bool signal_pending(struct task *t);
/* Writes the siginfo_t of signal sig with what si carries, as t's ABI lays
 * it out (t: the task taking it, or a tracer reading it). */
void signal_fill_info(struct task *t, int sig, const struct siginfo_lite *si, uint8_t info[128]);
/* Wakes up to n tasks waiting on the futex at uaddr of t's address space. */
int futex_wake(struct task *t, uint64_t uaddr, int n);
/* A synchronous fault: delivered to a handler if the guest has one, else
 * the process dies with one line on stderr (pid, signal, pc, address). */
void signal_fault(struct task *t, int sig, uint64_t pc, uint64_t addr, const char *what);
/* The same with a given si_code. */
void signal_fault_code(struct task *t, int sig, int code, uint64_t pc, uint64_t addr,
                       const char *what);

#endif
