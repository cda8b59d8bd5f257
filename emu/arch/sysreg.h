/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysreg.h - the system registers and cache maintenance instructions EL0
 * may use, as Linux 5.15 on arm64 allows, traps or emulates them
 * (sysreg.c; docs/processes.md, "EL0 system registers and cache
 * maintenance"). */
#ifndef ASYMU_SYSREG_H
#define ASYMU_SYSREG_H

#include <stdbool.h>
#include <stdint.h>

#include "uc_fwd.h"

struct machine;
struct mm;
struct task;

/* The generic timer's frequency (CNTFRQ_EL0); CNTVCT_EL0 counts virtual
 * time at this rate from boot, as CLOCK_MONOTONIC does in nanoseconds. */
#define SYSREG_CNTFRQ_HZ 25000000u

/* Sets an AArch64 engine's SCTLR_EL1 as Linux does for EL0 (CTR_EL0, DC ZVA
 * and cache maintenance to the point of unification allowed) and hooks
 * MRS and the cache instructions; the engine is at EL0t already. */
int sysreg_setup_aarch64(uc_engine *uc, struct machine *m);

/* ID_AA64PFR0_EL1 as a CPU reads it: EL0 AArch64 and AArch32 when
 * el0_aarch32, else AArch64 only (also what a KVM guest on a mismatched
 * machine sees, spec V2). */
uint64_t sysreg_id_aa64pfr0(bool el0_aarch32);

/* An AArch32 undefined-instruction exception at t's pc: when it is an
 * MRC/MRRC of a register Linux lets a compat task read (CTR, CNTFRQ,
 * CNTVCT), does the read, steps over it and returns true. */
bool sysreg_emulate_arm_undef(struct task *t);

/* Drops the translated code of guest [start, end), so that what the guest
 * wrote there runs next (IC IVAU, cacheflush). */
void sysreg_flush_icache(struct mm *mm, uint64_t start, uint64_t end);

/* arm's private cacheflush(start, end, flags): EINVAL for flags or an
 * inverted range, EFAULT at the first page not mapped, else 0. */
int64_t sysreg_cacheflush(struct task *t, const uint64_t a[6]);

#endif
