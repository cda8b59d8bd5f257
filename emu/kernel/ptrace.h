/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrace.h - guest ptrace(2): a tracer process, its tracees (tasks), the
 * ptrace-stops they enter (signal-delivery, syscall-enter/exit, event,
 * group and interrupt stops), and what wait4/waitid report of them.
 *
 * A tracee in a ptrace-stop is TASK_BLOCKED and off its runqueue: it runs
 * again only through the scheduler, on its vCPUs, once the tracer restarts
 * it (so a 32-bit tracee never runs outside the 32-bit vCPUs). The kernel
 * layer reaches the stops through the debuggers' interface (stop_hooks.h,
 * ptrace_stop_hooks); the hooks below are the rest of what emu/ calls.
 * Each is a no-op for a task nobody traces (t->ptrace == NULL). See
 * docs/ptrace.md. */
#ifndef ASYMU_PTRACE_H
#define ASYMU_PTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syscalls.h"

struct process;
struct task;

struct ptrace_link;
struct stop_hooks;

/* The stops and events of a tracee (signal-delivery, syscall-enter and
 * -exit, event and group stops; what the kernel and machine layers ask of
 * every debugger, stop_hooks.h): in the machine's STOP_HOOKS_GUEST slot
 * from machine_boot, asked before the host's debugger. Around each slice
 * run_slice asks them whether the tracee is held in its ptrace-stop or
 * restarted (hold_task), and whether the slice is its PTRACE_SINGLESTEP
 * (single_step, step_done). */
extern const struct stop_hooks ptrace_stop_hooks;
/* Whether t sits in a ptrace-stop, or was restarted by its tracer while its
 * process is group-stopped (then it runs, as on Linux). */
bool ptrace_stopped(const struct task *t);
bool ptrace_overrides_group_stop(const struct task *t);
/* PTRACE_INTERRUPT waits for t to trap: its blocking wait ends as a
 * signal's would (signal_pending is true), with the call's own restart code. */
bool ptrace_interrupt_pending(const struct task *t);
/* t is being freed. */
void ptrace_task_free(struct task *t);
/* The exit of c is for its tracer to report first (c's parent waits). */
bool ptrace_hides_exit(const struct process *c);
/* wait4/waitid: a tracee of t's process with something to report. */
struct ptrace_report {
    int pid;    /* its tid */
    int status; /* wait4's status word */
    int code;   /* waitid's si_code: CLD_TRAPPED, CLD_EXITED, ... */
    int child_status;
};
/* 1 with *r filled, 0 when tracees match but none has news, -ECHILD when
 * no tracee matches (idtype and id as waitid's). */
int ptrace_wait(struct task *t, int idtype, int id, int options, struct ptrace_report *r);
/* /proc/PID/status TracerPid: the tracer's pid, or 0. */
int ptrace_tracer_pid(const struct task *t);

SYSCALL_DECL(ptrace);
SYSCALL_DECL(process_vm_readv);
SYSCALL_DECL(process_vm_writev);

/* ---- register sets (ptrace_regs.c) ---- */

#define NT_PRSTATUS_ 1
#define NT_PRFPREG_ 2
#define NT_ARM_VFP_ 0x400
#define NT_ARM_TLS_ 0x401
#define NT_ARM_HW_BREAK_ 0x402
#define NT_ARM_HW_WATCH_ 0x403
#define NT_ARM_SYSTEM_CALL_ 0x404

/* The register set `type` of tracee t, in t's ISA's layout (a 32-bit
 * tracee's NT_PRSTATUS is the 18-word compat set, whoever reads it):
 * its size in bytes written to buf (at least 528 bytes), or -EINVAL. */
int ptrace_regset_get(struct task *t, unsigned type, uint8_t *buf, uint64_t orig_a0,
                      int syscall_nr);
/* Writes the first len bytes of register set `type`: 0 or -EINVAL (a
 * status register Linux's valid_user_regs refuses: nothing is written). */
int ptrace_regset_set(struct task *t, unsigned type, const uint8_t *buf, size_t len);
/* The size of one register of set `type` (user_regset.size): a tracer's
 * length must be a multiple of it (EINVAL, ptrace_regset). */
unsigned ptrace_regset_unit(struct task *t, unsigned type);
/* Whether the tracer's GETREGSET and SETREGSET know set `type` (Linux's
 * task_user_regset_view(); else EINVAL). */
bool ptrace_regset_in_view(struct task *tracer, unsigned type);
/* Register set `type` of the stopped tracee c as ptrace_regset_get gives
 * it, with the first argument and number of the syscall it stopped in. */
int ptrace_stop_regset(struct task *c, unsigned type, uint8_t *buf);
/* A PSTATE (a64) or AArch32 CPSR a tracer or debugger writes, made what
 * Linux's valid_user_regs makes of it in *v: false when Linux refuses it. */
bool ptrace_pstate_valid(bool a64, uint64_t *v);
/* One register of the tracee: from the engine when loaded, else its context. */
uint64_t ptrace_reg_read(struct task *t, int regid);
void ptrace_reg_write(struct task *t, int regid, uint64_t v);
/* The tracee's pc and sp, for PTRACE_GET_SYSCALL_INFO. */
uint64_t ptrace_pc(struct task *t);
uint64_t ptrace_sp(struct task *t);

#endif
