/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timers.h - CPU time (cputime.c), POSIX timers (posix_timer.c) and
 * itimers (itimer.c): what a process owns besides its threads, on virtual
 * wall time and on virtual CPU time. */
#ifndef ASYMU_TIMERS_H
#define ASYMU_TIMERS_H

#include "ktimer.h"
#include "syscalls.h"

struct process;
struct siginfo_lite;
struct task;

/* ---- CPU time (cputime.c) ---- */

/* CPU time t has used, the running slice included: all of it, and the part
 * spent in syscalls (system time; the rest is user time). */
uint64_t task_cpu_ns(const struct task *t);
uint64_t task_sys_ns(const struct task *t);
/* The same summed over p's threads, live and dead. */
uint64_t process_cpu_ns(const struct process *p);
uint64_t process_sys_ns(const struct process *p);
/* A CPU clock as clock_gettime names it: CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID, or a clockid from clock_getcpuclockid /
 * pthread_getcpuclockid (negative: pid or tid and which sum). 0, or
 * -EINVAL when clk is no CPU clock t may read. */
int cpu_clock_now(struct task *t, int clk, uint64_t *ns);
/* Whether clk names a CPU clock (valid or not). */
bool cpu_clock_id(int clk);
/* p is reaped by its parent: its CPU time joins the parent's children's. */
void cputime_reap(struct process *p);
/* struct rusage for wait4 and getrusage: the times, the rest zero. */
int rusage_to_guest(struct task *t, uint64_t addr, uint64_t utime_ns, uint64_t stime_ns);

/* ---- timers of a process ---- */

struct ptimer;

/* Allocated at a process's first timer_create or setitimer; not inherited
 * by fork. */
struct proc_timers {
    struct process *proc;
    struct ptimer *list;       /* POSIX timers, by creation */
    int next_id;               /* Linux hands out ids 0, 1, 2... per process */
    int count;
    struct ktimer real;        /* ITIMER_REAL on virtual time */
    uint64_t real_interval;
    uint64_t virt_expiry, virt_interval; /* ITIMER_VIRTUAL on user time, 0: off */
    uint64_t prof_expiry, prof_interval; /* ITIMER_PROF on user + system time */
};

/* p's timers, allocated on first use: NULL when out of memory. */
struct proc_timers *proc_timers_get(struct process *p);
/* execve: POSIX timers go, itimers stay. */
void posix_timers_exec(struct process *p);
/* The process is gone: every timer goes. */
void proc_timers_release(struct process *p);
/* t just used CPU time: CPU-clock timers and itimers that are due fire. */
void cpu_timers_check(struct task *t);
void cpu_itimers_check(struct task *t);
/* A signal a timer sent is taken (delivered or waited for): an interval
 * timer rearms and si_overrun is filled in; SIGALRM rearms ITIMER_REAL. */
void timer_signal_taken(struct task *t, int sig, struct siginfo_lite *info);
/* What firing an interval timer late means: the expiries at or before now
 * are skipped (their count is returned) and *expiry moves past now. */
uint64_t timer_forward(uint64_t *expiry, uint64_t interval, uint64_t now);

/* timer_settime and timer_gettime with `field`-byte timespec members (8 on
 * arm64 and for arm's *_time64 calls, 4 for arm's legacy ones). */
int64_t do_timer_settime(struct task *t, int id, int flags, uint64_t unew, uint64_t uold,
                         unsigned field);
int64_t do_timer_gettime(struct task *t, int id, uint64_t addr, unsigned field);

SYSCALL_DECL(timer_create);
SYSCALL_DECL(timer_settime);
SYSCALL_DECL(timer_gettime);
SYSCALL_DECL(timer_getoverrun);
SYSCALL_DECL(timer_delete);
SYSCALL_DECL(setitimer);
SYSCALL_DECL(getitimer);
SYSCALL_DECL(times);
SYSCALL_DECL(getrusage);

#endif
