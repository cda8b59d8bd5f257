/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrace_regs.c - a tracee's register sets as PTRACE_GETREGSET/SETREGSET
 * carry them: AArch64 user_pt_regs, user_fpsimd_state, TLS and syscall
 * number; AArch32 pt_regs (r0-r15, cpsr, orig_r0), user_vfp, TPIDRURO. A
 * 32-bit tracee has the 32-bit layouts whoever reads them, as a 64-bit
 * Linux tracer gets the compat view of a compat task. The machine's vCPUs
 * have no hardware breakpoints or watchpoints: their regsets say so. */
#include "ptrace.h"
#include "abi.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "task.h"

#include <errno.h>
#include <string.h>
#include <unicorn/unicorn.h>

static bool is64(struct task *t)
{
    return task_abi(t)->isa == LOADER_ISA_AARCH64;
}

/* Unicorn 2.1 reaches the floating-point status registers of a context
 * through a CPU object the context has not got (a host crash): they are
 * read and written through the engine, whose own registers are put back. */
static bool fp_status(int regid, bool is64)
{
    return is64 ? regid == UC_ARM64_REG_FPSR || regid == UC_ARM64_REG_FPCR
                : regid == UC_ARM_REG_FPSCR;
}

static void context_fp_status(struct mm *mm, uc_context *ctx, int regid, void *v, bool write)
{
    uc_context *engine_regs;
    if (!mm->uc || uc_context_alloc(mm->uc, &engine_regs) != UC_ERR_OK) {
        if (!write)
            memset(v, 0, 4); /* a parked engine: the status reads as its reset value */
        return;
    }
    uc_context_save(mm->uc, engine_regs);
    uc_context_restore(mm->uc, ctx);
    if (write) {
        uc_reg_write(mm->uc, regid, v);
        uc_context_save(mm->uc, ctx);
    } else {
        uc_reg_read(mm->uc, regid, v);
    }
    uc_context_restore(mm->uc, engine_regs);
    uc_context_free(engine_regs);
}

/* Registers live in the engine while t is its loaded task, else in t->ctx. */
static void reg_access(struct task *t, int regid, void *v, bool write)
{
    struct mm *mm = task_mm(t);
    if (!(mm->uc && mm->loaded == t) && fp_status(regid, is64(t))) {
        context_fp_status(mm, t->ctx, regid, v, write);
    } else if (mm->uc && mm->loaded == t) {
        if (write)
            uc_reg_write(mm->uc, regid, v);
        else
            uc_reg_read(mm->uc, regid, v);
    } else if (write) {
        uc_context_reg_write(t->ctx, regid, v);
    } else {
        uc_context_reg_read(t->ctx, regid, v);
    }
}

uint64_t ptrace_reg_read(struct task *t, int regid)
{
    uint64_t v = 0;
    reg_access(t, regid, &v, false);
    return is64(t) ? v : (uint32_t)v;
}

void ptrace_reg_write(struct task *t, int regid, uint64_t v)
{
    if (!is64(t))
        v = (uint32_t)v;
    /* Unicorn takes bit 0 of an AArch32 pc as the Thumb state: keep it. */
    if (!is64(t) && regid == UC_ARM_REG_PC && (ptrace_reg_read(t, UC_ARM_REG_CPSR) & 0x20))
        v |= 1;
    reg_access(t, regid, &v, true);
}

static int a64_gpr(unsigned i)
{
    return i < 29 ? UC_ARM64_REG_X0 + (int)i : i == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30;
}

/* AArch32 pt_regs order: r0-r12, sp, lr, pc, cpsr (orig_r0 is the 18th). */
static int a32_reg(unsigned i)
{
    static const int tail[4] = {UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_CPSR};
    return i < 13 ? UC_ARM_REG_R0 + (int)i : tail[i - 13];
}

uint64_t ptrace_pc(struct task *t)
{
    return ptrace_reg_read(t, is64(t) ? UC_ARM64_REG_PC : UC_ARM_REG_PC);
}

uint64_t ptrace_sp(struct task *t)
{
    return ptrace_reg_read(t, is64(t) ? UC_ARM64_REG_SP : UC_ARM_REG_SP);
}

static uint64_t tls_value(struct task *t)
{
    if (t->has_new_tls) /* CLONE_SETTLS not applied yet: the child never ran */
        return t->new_tls;
    return ptrace_reg_read(t, is64(t) ? UC_ARM64_REG_TPIDR_EL0 : UC_ARM_REG_C13_C0_3);
}

/* user_hwdebug_state: dbg_info (the debug architecture << 8 | the number
 * of slots), a pad word, then 16 slots of {addr, ctrl, pad}. */
#define HWDEBUG_STATE_BYTES 264
#define DEBUG_ARCH_V8 0x6 /* ID_AA64DFR0_EL1.DebugVer of the Cortex-A72 */

int ptrace_regset_get(struct task *t, unsigned type, uint8_t *buf, uint64_t orig_a0,
                      int syscall_nr)
{
    switch (type) {
    case NT_PRSTATUS_:
        if (is64(t)) {
            uint64_t r[34];
            for (unsigned i = 0; i < 31; i++)
                r[i] = ptrace_reg_read(t, a64_gpr(i));
            r[31] = ptrace_reg_read(t, UC_ARM64_REG_SP);
            r[32] = ptrace_reg_read(t, UC_ARM64_REG_PC);
            r[33] = (uint32_t)ptrace_reg_read(t, UC_ARM64_REG_PSTATE);
            memcpy(buf, r, sizeof r);
            return sizeof r;
        } else {
            uint32_t r[18];
            for (unsigned i = 0; i < 17; i++)
                r[i] = (uint32_t)ptrace_reg_read(t, a32_reg(i));
            r[17] = (uint32_t)orig_a0;
            memcpy(buf, r, sizeof r);
            return sizeof r;
        }
    case NT_PRFPREG_:
        if (!is64(t))
            return -EINVAL;
        memset(buf, 0, 528);
        for (unsigned i = 0; i < 32; i++)
            reg_access(t, UC_ARM64_REG_Q0 + (int)i, buf + 16 * i, false);
        {
            uint32_t fpsr = (uint32_t)ptrace_reg_read(t, UC_ARM64_REG_FPSR);
            uint32_t fpcr = (uint32_t)ptrace_reg_read(t, UC_ARM64_REG_FPCR);
            memcpy(buf + 512, &fpsr, 4);
            memcpy(buf + 516, &fpcr, 4);
        }
        return 528;
    case NT_ARM_VFP_:
        if (is64(t))
            return -EINVAL;
        for (unsigned i = 0; i < 32; i++)
            reg_access(t, UC_ARM_REG_D0 + (int)i, buf + 8 * i, false);
        {
            uint32_t fpscr = (uint32_t)ptrace_reg_read(t, UC_ARM_REG_FPSCR);
            memcpy(buf + 256, &fpscr, 4);
        }
        return 260;
    case NT_ARM_TLS_: {
        uint64_t v = tls_value(t);
        memcpy(buf, &v, 8);
        return is64(t) ? 8 : 4;
    }
    case NT_ARM_SYSTEM_CALL_:
        memcpy(buf, &syscall_nr, 4);
        return 4;
    case NT_ARM_HW_BREAK_:
    case NT_ARM_HW_WATCH_: {
        uint32_t info = DEBUG_ARCH_V8 << 8; /* and no slots */
        memset(buf, 0, HWDEBUG_STATE_BYTES);
        memcpy(buf, &info, 4);
        return HWDEBUG_STATE_BYTES;
    }
    default:
        return -EINVAL;
    }
}

/* What Linux 5.15 makes of a status register a tracer writes
 * (valid_user_regs, arch/arm64/kernel/ptrace.c), in the SPSR_EL1 layout its
 * pt_regs keep: the bits that are RES0 for EL0 are cleared silently; then
 * anything but EL0 in the task's own execution state, or an exception
 * masked (D, A, I, F), refuses the whole write with EINVAL. A write Unicorn
 * would take as a mode switch (mode 0 aborts the host, a privileged mode
 * hands the guest EL1) never reaches the engine. SS (bit 21) follows
 * TIF_SINGLESTEP in Linux; asymu steps without it, so it is cleared. */
#define SPSR_SS (UINT64_C(1) << 21)
#define A64_RES0 (UINT64_C(0xffffffff00000000) | UINT64_C(0x0cc00000) | UINT64_C(0x001fe000) | 0x20)
#define A64_DAIF 0x3c0u
#define A64_MODE 0x1fu /* nRW and M[3:0]: 0 is EL0t in AArch64 */
#define A32_RES0 (UINT64_C(0xffffffff00000000) | (1u << 22) | (1u << 20))
#define A32_AIF 0x1c0u
#define A32_E (1u << 9)
#define A32_MODE 0x1fu
#define A32_USR 0x10u
#define COMPAT_DIT (1u << 21) /* DIT in the AArch32 CPSR a tracer sees */
#define SPSR_A32_DIT (1u << 24) /* and in SPSR_EL1 (compat_psr_to_pstate) */

bool ptrace_pstate_valid(bool a64, uint64_t *v)
{
    if (a64) {
        uint64_t p = *v & ~A64_RES0 & ~SPSR_SS; /* valid_native_regs */
        if ((p & A64_MODE) || (p & A64_DAIF))
            return false;
        *v = p;
        return true;
    }
    /* compat_psr_to_pstate, valid_compat_regs, pstate_to_compat_psr. The
     * machine reports no mixed-endian EL0 (ID_AA64MMFR0_EL1, sysreg.c), so
     * E is cleared as Linux does on such a CPU. */
    uint64_t psr = (uint32_t)*v, p = psr & ~(uint64_t)COMPAT_DIT;
    if (psr & COMPAT_DIT)
        p |= SPSR_A32_DIT;
    p &= ~A32_RES0 & ~SPSR_SS & ~(uint64_t)A32_E;
    if ((p & A32_MODE) != A32_USR || (p & A32_AIF))
        return false;
    psr = p & ~(uint64_t)SPSR_A32_DIT;
    if (p & SPSR_A32_DIT)
        psr |= COMPAT_DIT;
    *v = psr;
    return true;
}

bool ptrace_regset_in_view(struct task *tracer, unsigned type)
{
    /* A 32-bit tracer's requests see user_aarch32_view, arm's regsets:
     * no hardware debug registers there. */
    return is64(tracer) || (type != NT_ARM_HW_BREAK_ && type != NT_ARM_HW_WATCH_);
}

unsigned ptrace_regset_unit(struct task *t, unsigned type)
{
    /* user_regset.size of arm64's regsets (user_aarch64_view and the
     * compat ones): a register of the general set is a word of the
     * tracee's ISA, every other set counts in 32-bit words but TLS. */
    if (type == NT_PRSTATUS_ || type == NT_ARM_TLS_)
        return is64(t) ? 8 : 4;
    return 4;
}

int ptrace_regset_set(struct task *t, unsigned type, const uint8_t *buf, size_t len)
{
    unsigned w = is64(t) ? 8 : 4;
    switch (type) {
    case NT_PRSTATUS_: {
        /* gpr_set and compat_gpr_set: the new set is checked whole before
         * any of it is written, so a refused write leaves every register. */
        unsigned n = (unsigned)(len / w), count = is64(t) ? 34u : 17u;
        uint64_t v[34];
        for (unsigned i = 0; i < count; i++) {
            v[i] = 0;
            if (i < n)
                memcpy(&v[i], buf + i * w, w);
        }
        if (n >= count && !ptrace_pstate_valid(is64(t), &v[count - 1]))
            return -EINVAL;
        for (unsigned i = 0; i < n && i < count; i++) {
            int reg = is64(t) ? (i < 31 ? a64_gpr(i) : i == 31 ? UC_ARM64_REG_SP
                                                     : i == 32 ? UC_ARM64_REG_PC
                                                               : UC_ARM64_REG_PSTATE)
                              : a32_reg(i);
            ptrace_reg_write(t, reg, v[i]);
        }
        return 0;
    }
    case NT_PRFPREG_:
        if (!is64(t))
            return -EINVAL;
        for (unsigned i = 0; i < 32 && 16 * (i + 1) <= len; i++) {
            uint8_t q[16];
            memcpy(q, buf + 16 * i, 16);
            reg_access(t, UC_ARM64_REG_Q0 + (int)i, q, true);
        }
        return 0;
    case NT_ARM_VFP_:
        if (is64(t))
            return -EINVAL;
        for (unsigned i = 0; i < 32 && 8 * (i + 1) <= len; i++) {
            uint64_t d;
            memcpy(&d, buf + 8 * i, 8);
            reg_access(t, UC_ARM_REG_D0 + (int)i, &d, true);
        }
        return 0;
    case NT_ARM_TLS_: {
        uint64_t v = 0;
        memcpy(&v, buf, len < w ? len : w);
        t->has_new_tls = false;
        ptrace_reg_write(t, is64(t) ? UC_ARM64_REG_TPIDR_EL0 : UC_ARM_REG_C13_C0_3, v);
        return 0;
    }
    case NT_ARM_SYSTEM_CALL_: {
        int32_t nr = 0;
        memcpy(&nr, buf, len < 4 ? len : 4);
        ptrace_reg_write(t, is64(t) ? UC_ARM64_REG_X8 : UC_ARM_REG_R7, (uint64_t)(int64_t)nr);
        return 0;
    }
    case NT_ARM_HW_BREAK_:
    case NT_ARM_HW_WATCH_:
        /* Past the header every slot is one Linux would have to reserve. */
        return len > 8 ? -ENOSPC : 0;
    default:
        return -EINVAL;
    }
}
