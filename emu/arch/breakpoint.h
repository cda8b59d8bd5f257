/* SPDX-License-Identifier: GPL-2.0-or-later */
/* breakpoint.h - the debug traps a debugger relies on, as Linux 5.15 on
 * arm64 raises them (breakpoint.c): breakpoint instructions become
 * SIGTRAP with TRAP_BRKPT, and a single-stepped instruction ends with
 * SIGTRAP TRAP_TRACE (ptrace.c decides when a task steps). */
#ifndef ASYMU_BREAKPOINT_H
#define ASYMU_BREAKPOINT_H

#include <stdbool.h>
#include <stdint.h>

struct task;

#define TRAP_BRKPT_ 1
#define TRAP_TRACE_ 2

/* AArch64 BRK and AArch32 BKPT (the engine's breakpoint exception) at pc:
 * SIGTRAP, TRAP_BRKPT, si_addr the pc, which stays on the instruction. */
void breakpoint_trap(struct task *t, uint64_t pc);

/* An AArch32 undefined-instruction exception at t's pc: when it is one of
 * the undefined encodings Linux keeps for debuggers (A32 0xe7f001f0 in any
 * condition, T16 0xde01, T32 0xf7f0a000), raises breakpoint_trap and
 * returns true. */
bool breakpoint_arm_undef(struct task *t);

#endif
