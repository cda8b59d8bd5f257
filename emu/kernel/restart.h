/* SPDX-License-Identifier: GPL-2.0-or-later */
/* restart.h - what becomes of a syscall a signal interrupted: Linux's four
 * restart kinds, and restart_syscall.
 *
 * A blocking handler, or its resume function, that finds a signal pending
 * returns one of the codes below instead of -EINTR; the code is the call's
 * restart kind. The guest never sees it: the signal delivery decides
 * whether the call fails with EINTR or runs again (pc back on the svc,
 * first argument back in x0/r0):
 *
 *   -ERESTARTSYS     again if no handler ran, or the handler has
 *                    SA_RESTART; else EINTR. read, write, wait4, waitid,
 *                    futex without timeout, accept, connect, recv, send...
 *   -ERESTARTNOINTR  always again (fork-like calls that must not fail).
 *   -ERESTARTNOHAND  again only if no handler ran: rt_sigsuspend, pause,
 *                    ppoll, pselect6, poll without timeout, clock_nanosleep
 *                    with TIMER_ABSTIME.
 *   -ERESTART_RESTARTBLOCK  EINTR after a handler; with no handler the call
 *                    continues as restart_syscall, which runs the function
 *                    restart_block_set() recorded (nanosleep with the time
 *                    left, poll and futex waits with a timeout).
 *
 * A plain -EINTR is never restarted (epoll_wait, epoll_pwait,
 * rt_sigtimedwait). "No handler ran" means the signal was ignored, or it
 * stopped the process and SIGCONT continued it.
 *
 * So a new blocking call declares its kind in one line, e.g.
 *     return signal_pending(t) ? -ERESTARTSYS : RESUME_BLOCK;
 * and a handler that returns -EBLOCK to be re-run whole (the pipe pattern)
 * gets -ERESTARTSYS. */
#ifndef ASYMU_RESTART_H
#define ASYMU_RESTART_H

#include "syscalls.h"
#include "task.h"

#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

/* Whether ret is one of the codes above. */
bool restart_code(int64_t ret);
/* strace's name and note for a code: "ERESTARTSYS", "To be restarted if
 * SA_RESTART is set". */
const char *restart_code_name(int64_t ret, const char **note);
/* The call with arguments args ended with ret: a restart code is kept in t
 * until the signal delivery, and the result register gets -EINTR until
 * then. Returns the value for the register. */
int64_t restart_note(struct task *t, const uint64_t args[6], int64_t ret);
/* The signal delivery settles the interrupted call, if any: a handler with
 * sa_flags is about to run (handler true), or no handler ran. */
void restart_settle(struct task *t, bool handler, uint64_t sa_flags);
/* Points t's pc (registers loaded) back at its syscall instruction, keeping
 * the Thumb state. */
void syscall_rewind_pc(struct task *t);
/* What restart_syscall will run for t after -ERESTART_RESTARTBLOCK, with
 * its state in t->restart_args. */
void restart_block_set(struct task *t, resume_fn fn);
/* sigreturn: a later restart_syscall fails with EINTR, as in Linux. */
void restart_block_clear(struct task *t);

SYSCALL_DECL(restart_syscall);

#endif
