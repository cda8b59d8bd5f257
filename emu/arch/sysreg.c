/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysreg.c - the system registers EL0 reads and the cache maintenance it
 * does, as on arm64 Linux 5.15: what the CPU lets user space read
 * (SCTLR_EL1.UCT, DZE, UCI and CNTKCTL_EL1.EL0VCTEN set, as Linux sets
 * them), what Linux emulates when EL0 traps (the ID registers through
 * "emulate MRS"), and the translated code a JIT must drop when it rewrites
 * code (IC IVAU, arm's cacheflush). */
#include "abi.h"
#include "scheduler.h"
#include "sysreg.h"

#include "cpu_model.h"
#include "engine.h"
#include "loader.h"
#include "emu.h"
#include "machine.h"
#include "mm.h"
#include "task.h"

#include <errno.h>
#include <sys/mman.h>

/* A system register by its encoding. */
#define SYSREG(op0, op1, crn, crm, op2)                                                           \
    (((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2))
#define SYSREG_OF(cp) SYSREG((cp)->op0, (cp)->op1, (cp)->crn, (cp)->crm, (cp)->op2)

#define CTR_EL0 SYSREG(3, 3, 0, 0, 1)
#define CNTFRQ_EL0 SYSREG(3, 3, 14, 0, 0)
#define CNTVCT_EL0 SYSREG(3, 3, 14, 0, 2)
#define MIDR_EL1 SYSREG(3, 0, 0, 0, 0)
#define MPIDR_EL1 SYSREG(3, 0, 0, 0, 5)
#define REVIDR_EL1 SYSREG(3, 0, 0, 0, 6)
#define ID_AA64PFR0_EL1 SYSREG(3, 0, 0, 4, 0)
#define ID_AA64DFR0_EL1 SYSREG(3, 0, 0, 5, 0)
#define ID_AA64ISAR0_EL1 SYSREG(3, 0, 0, 6, 0)
#define ID_AA64MMFR0_EL1 SYSREG(3, 0, 0, 7, 0)
#define IC_IVAU SYSREG(1, 3, 7, 5, 1)

/* CTR_EL0 of every vCPU: 64-byte lines (DminLine, IminLine 4 words log2),
 * PIPT instruction cache, and neither IDC nor DIC, so that code writers
 * clean and invalidate by line (IC IVAU), which is how asymu learns of the
 * code they rewrote. One value for all CPUs: Linux then lets EL0 read the
 * register itself instead of trapping it. */
#define CTR_MODEL 0x8444c004u
#define ICACHE_LINE 64u

/* What Linux's "emulate MRS" gives for MPIDR_EL1 (SYS_MPIDR_SAFE_VAL: only
 * the RES1 bit) and for the ID registers with nonzero fields: the
 * sanitised user view of arch/arm64/kernel/cpufeature.c, where hidden
 * fields read their safe value. ISAR0: AES+PMULL, SHA1, SHA2, CRC32 (the
 * hwcaps); DFR0: DebugVer 6; MMFR0: the stage-2 granule fields (1) and
 * TGran4/TGran64 "not implemented" (0xf). */
#define MPIDR_SAFE 0x80000000u
#define ISAR0_USER 0x11120u
#define DFR0_USER 0x6u
#define MMFR0_USER UINT64_C(0x00000111ff000000)
/* ID_AA64PFR0_EL1 as each vCPU reads it (spec 1.1): EL0 is 0x2 (AArch64
 * and AArch32) on the vCPUs of M, 0x1 (AArch64 only) on the others; EL1 is
 * AArch64 only everywhere; FP and AdvSIMD are implemented (0). */
#define PFR0_EL0_BOTH 0x12u
#define PFR0_EL0_64ONLY 0x11u

#define SCTLR_EL1_DZE (1u << 14)
#define SCTLR_EL1_UCT (1u << 15)
#define SCTLR_EL1_UCI (1u << 26)

static uint64_t counter_ticks(const struct machine *m)
{
    return machine_now(m) / (1000000000u / SYSREG_CNTFRQ_HZ);
}

static bool runs_aarch32(const struct machine *m)
{
    return cpumask_test_cpu(m->slice_cpu, &m->sched.aarch32);
}

/* The value of an MRS that asymu answers itself: the ID registers Linux
 * emulates (op0 3, op1 0, CRn 0, CRm 0 or 4-7) and the timer and cache
 * registers whose values come from the machine model. False for the
 * rest: the engine reads EL0's own registers (TPIDR_EL0, TPIDRRO_EL0,
 * DCZID_EL0, NZCV, FPCR, FPSR) and traps everything else, as the CPU does. */
static bool mrs_value(const struct machine *m, unsigned reg, uint64_t *v)
{
    switch (reg) {
    case CTR_EL0:
        *v = CTR_MODEL;
        return true;
    case CNTFRQ_EL0:
        *v = SYSREG_CNTFRQ_HZ;
        return true;
    case CNTVCT_EL0:
        *v = counter_ticks(m);
        return true;
    case MIDR_EL1:
        *v = cpu_layout_midr(&m->cfg->layout, m->slice_cpu, runs_aarch32(m));
        return true;
    case MPIDR_EL1:
        *v = MPIDR_SAFE;
        return true;
    case REVIDR_EL1:
        *v = 0; /* IMPLEMENTATION DEFINED: Linux emulates it as 0 */
        return true;
    case ID_AA64PFR0_EL1:
        *v = sysreg_id_aa64pfr0(runs_aarch32(m));
        return true;
    case ID_AA64DFR0_EL1:
        *v = DFR0_USER;
        return true;
    case ID_AA64ISAR0_EL1:
        *v = ISAR0_USER;
        return true;
    case ID_AA64MMFR0_EL1:
        *v = MMFR0_USER;
        return true;
    }
    /* The rest of the ID space Linux emulates reads 0: features this CPU
     * lacks, and registers it does not track (RAZ). The other registers of
     * CRm 0 (CCSIDR, CLIDR, AIDR...) are not emulated: SIGILL. */
    unsigned crm = (reg >> 3) & 15;
    if (reg >> 7 == SYSREG(3, 0, 0, 0, 0) >> 7 && crm >= 4 && crm <= 7) {
        *v = 0;
        return true;
    }
    return false;
}

uint64_t sysreg_id_aa64pfr0(bool el0_aarch32)
{
    return el0_aarch32 ? PFR0_EL0_BOTH : PFR0_EL0_64ONLY;
}

static uint32_t hook_mrs(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *user)
{
    uint64_t v, pc = 0;
    if (!mrs_value(user, SYSREG_OF(cp), &v))
        return 0; /* the engine's own answer, or its trap */
    uc_reg_write(uc, reg, &v);
    /* Skipped, the instruction ends its block when the engine would have
     * trapped it, with the pc still on it: step over it here. */
    uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
    pc += 4;
    uc_reg_write(uc, UC_ARM64_REG_PC, &pc);
    return 1;
}

/* SYS instructions: IC IVAU drops the translations of its line, then goes
 * on as the no-op the engine makes of it. DC ZVA and the DC cleans the
 * engine does itself (SCTLR_EL1.DZE, UCI). */
static uint32_t hook_sys(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *user)
{
    struct machine *m = user;
    if (SYSREG_OF(cp) == IC_IVAU) {
        uint64_t addr = 0;
        uc_reg_read(uc, reg, &addr);
        addr &= ~(uint64_t)(ICACHE_LINE - 1);
        sysreg_flush_icache(task_mm(m->current), addr, addr + ICACHE_LINE);
    }
    return 0;
}

int sysreg_setup_aarch64(uc_engine *uc, struct machine *m)
{
    /* Writing SCTLR_EL1 also makes the engine recompute its cached view of
     * the CPU state, which the PSTATE write to EL0t leaves at EL1: without
     * it, EL1 registers (SCTLR_EL1, CurrentEL) read at EL0. */
    uc_arm64_cp_reg sctlr = {.op0 = 3, .crn = 1};
    uc_hook h;
    uc_err e = uc_reg_read(uc, UC_ARM64_REG_CP_REG, &sctlr);
    sctlr.val |= SCTLR_EL1_DZE | SCTLR_EL1_UCT | SCTLR_EL1_UCI;
    if (e == UC_ERR_OK)
        e = uc_reg_write(uc, UC_ARM64_REG_CP_REG, &sctlr);
    if (e == UC_ERR_OK)
        e = uc_hook_add(uc, &h, UC_HOOK_INSN, (void *)hook_mrs, m, 1, 0, UC_ARM64_INS_MRS);
    if (e == UC_ERR_OK)
        e = uc_hook_add(uc, &h, UC_HOOK_INSN, (void *)hook_sys, m, 1, 0, UC_ARM64_INS_SYS);
    return engine_errno(e);
}

/* ---- AArch32: the reads a compat task may do at PL0 ---- */

#define CPSR_T 0x20u
#define CPSR_IT 0x0600fc00u /* ITSTATE: an IT block is under way */

static const int arm_core_regs[15] = {
    UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,  UC_ARM_REG_R3,  UC_ARM_REG_R4,
    UC_ARM_REG_R5, UC_ARM_REG_R6, UC_ARM_REG_R7,  UC_ARM_REG_R8,  UC_ARM_REG_R9,
    UC_ARM_REG_R10, UC_ARM_REG_R11, UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR,
};

/* The CP15 read an instruction makes (MRC or MRRC, A32 or T32, which share
 * the layout once T32's halfwords are joined): its value(s), false when it
 * is no read Linux allows. */
static bool arm_cp15_read(const struct machine *m, uint32_t insn, unsigned *rt, unsigned *rt2,
                          uint64_t *v)
{
    if ((insn & 0x0f100f10u) == 0x0e100f10u) { /* MRC p15, opc1, Rt, CRn, CRm, opc2 */
        unsigned opc1 = (insn >> 21) & 7, crn = (insn >> 16) & 15, opc2 = (insn >> 5) & 7,
                 crm = insn & 15;
        *rt = (insn >> 12) & 15, *rt2 = 15;
        if (*rt == 15 || opc1 != 0 || crm != 0)
            return false;
        if (crn == 0 && opc2 == 1)
            *v = CTR_MODEL;
        else if (crn == 14 && opc2 == 0)
            *v = SYSREG_CNTFRQ_HZ;
        else
            return false;
        return true;
    }
    if ((insn & 0x0ff00f00u) == 0x0c500f00u) { /* MRRC p15, opc1, Rt, Rt2, CRm */
        unsigned opc1 = (insn >> 4) & 15, crm = insn & 15;
        *rt = (insn >> 12) & 15, *rt2 = (insn >> 16) & 15;
        if (*rt == 15 || *rt2 == 15 || *rt == *rt2 || opc1 != 1 || crm != 14)
            return false; /* only CNTVCT; the rest traps, or is UNPREDICTABLE */
        *v = counter_ticks(m);
        return true;
    }
    return false;
}

bool sysreg_emulate_arm_undef(struct task *t)
{
    struct mm *mm = task_mm(t);
    if (mm->abi->isa != LOADER_ISA_ARM)
        return false;
    uint32_t cpsr = 0, pc = 0, insn;
    uc_reg_read(mm->uc, UC_ARM_REG_CPSR, &cpsr);
    uc_reg_read(mm->uc, UC_ARM_REG_PC, &pc);
    bool thumb = cpsr & CPSR_T;
    if (thumb && (cpsr & CPSR_IT)) /* stepping over it would have to advance ITSTATE */
        return false;
    if (thumb) {
        uint16_t hw[2];
        if (copy_from_guest(mm, hw, pc, sizeof hw))
            return false;
        insn = (uint32_t)hw[0] << 16 | hw[1];
        if (insn >> 28 != 0xe) /* T32's coprocessor space starts 1110 11x0 */
            return false;
    } else if (copy_from_guest(mm, &insn, pc, sizeof insn)) {
        return false;
    }
    /* The engine traps a conditional A32 read only when its condition
     * holds, so a trapped one is always executed. */
    unsigned rt, rt2;
    uint64_t v;
    if (!arm_cp15_read(t->machine, insn, &rt, &rt2, &v))
        return false;
    uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
    uc_reg_write(mm->uc, arm_core_regs[rt], &lo);
    if (rt2 != 15)
        uc_reg_write(mm->uc, arm_core_regs[rt2], &hi);
    pc = (pc + 4) | (thumb ? 1u : 0u); /* bit 0 keeps the engine in Thumb */
    uc_reg_write(mm->uc, UC_ARM_REG_PC, &pc);
    return true;
}

/* ---- dropping translated code ---- */

/* The I-cache is physically indexed: a flush by one address reaches the
 * code at every other address of the same memory, so for shared memory the
 * other mappings of the object in this address space are flushed too (the
 * writable alias and the executable one of libffi's closures). */
void sysreg_flush_icache(struct mm *mm, uint64_t start, uint64_t end)
{
    if (end <= start)
        return;
    uc_ctl_remove_cache(mm->uc, start, end);
    for (const struct vma *v = mm->vmas; v && v->start < end; v = v->next) {
        if (v->end <= start || !v->shm)
            continue;
        uint64_t lo = (start > v->start ? start : v->start) - v->start + v->shm_off;
        uint64_t hi = (end < v->end ? end : v->end) - v->start + v->shm_off;
        for (const struct vma *o = mm->vmas; o; o = o->next) {
            if (o == v || o->shm != v->shm || !(o->prot & PROT_EXEC))
                continue;
            uint64_t olo = o->shm_off, ohi = o->shm_off + (o->end - o->start);
            uint64_t a = lo > olo ? lo : olo, b = hi < ohi ? hi : ohi;
            if (a < b)
                uc_ctl_remove_cache(mm->uc, o->start + (a - olo), o->start + (b - olo));
        }
    }
}

int64_t sysreg_cacheflush(struct task *t, const uint64_t a[6])
{
    uint64_t start = a[0], end = a[1];
    if (end < start || a[2] != 0)
        return -EINVAL;
    /* Linux cleans and invalidates page by page and stops with EFAULT at
     * the first page it cannot touch; what came before is done. */
    struct mm *mm = task_mm(t);
    uint64_t at = start;
    while (at < end) {
        const struct vma *v = mm_find_vma(mm, at);
        if (!v || v->prot == PROT_NONE) {
            sysreg_flush_icache(mm, start, at);
            return -EFAULT;
        }
        at = v->end;
    }
    sysreg_flush_icache(mm, start, end);
    return 0;
}
