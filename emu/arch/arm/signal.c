/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signal.c (arm) - the AArch32 signal frames a compat task gets: sigframe
 * (ucontext with the core registers and a VFP record in uc_regspace) and
 * rt_sigframe (siginfo first); sigreturn and rt_sigreturn restore them.
 * Layout of arch/arm's uapi headers, which arm64's compat code reproduces. */
#include "abi.h"
#include "mm.h"
#include "signals.h"
#include "task.h"

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define SA_RESTORER 0x04000000
#define VFP_MAGIC 0x56465001
#define CPSR_T 0x20
#define CPSR_USER_FLAGS 0xf80f0000u /* NZCVQ and GE: what sigreturn may set */

struct sigcontext_arm {
    uint32_t trap_no, error_code, oldmask;
    uint32_t r[13]; /* r0-r10, fp, ip */
    uint32_t sp, lr, pc, cpsr, fault_address;
};

struct vfp_sigframe {
    uint32_t magic, size;
    uint64_t fpregs[32];
    uint32_t fpscr, pad;
    uint32_t fpexc, fpinst, fpinst2, pad2;
};

struct ucontext_arm {
    uint32_t uc_flags, uc_link;
    uint32_t ss_sp, ss_flags, ss_size;
    struct sigcontext_arm mcontext;
    uint64_t uc_sigmask;
    int32_t unused[30];
    uint32_t regspace[128]; /* vfp_sigframe, then a zero end marker */
};

struct sigframe_arm {
    struct ucontext_arm uc;
    uint32_t retcode[4];
};

struct rt_sigframe_arm {
    uint8_t info[128];
    struct sigframe_arm sig;
};

static_assert(sizeof(struct vfp_sigframe) == 288, "VFP_STORAGE_SIZE is 288");
static_assert(offsetof(struct ucontext_arm, uc_sigmask) == 104, "uc_sigmask at 104");
static_assert(offsetof(struct ucontext_arm, regspace) == 232, "uc_regspace at 232");
static_assert(sizeof(struct rt_sigframe_arm) == 888, "rt_sigframe is 888 bytes");

static void save_regs(uc_engine *uc, struct sigcontext_arm *sc, struct vfp_sigframe *vfp)
{
    for (int i = 0; i < 13; i++)
        uc_reg_read(uc, UC_ARM_REG_R0 + i, &sc->r[i]);
    uc_reg_read(uc, UC_ARM_REG_SP, &sc->sp);
    uc_reg_read(uc, UC_ARM_REG_LR, &sc->lr);
    uc_reg_read(uc, UC_ARM_REG_PC, &sc->pc);
    uc_reg_read(uc, UC_ARM_REG_CPSR, &sc->cpsr);
    vfp->magic = VFP_MAGIC;
    vfp->size = sizeof *vfp;
    for (int i = 0; i < 32; i++)
        uc_reg_read(uc, UC_ARM_REG_D0 + i, &vfp->fpregs[i]);
    uc_reg_read(uc, UC_ARM_REG_FPSCR, &vfp->fpscr);
    vfp->fpexc = 0x40000000;
}

static void restore_regs(uc_engine *uc, const struct sigcontext_arm *sc,
                         const struct vfp_sigframe *vfp)
{
    for (int i = 0; i < 13; i++)
        uc_reg_write(uc, UC_ARM_REG_R0 + i, &sc->r[i]);
    uc_reg_write(uc, UC_ARM_REG_SP, &sc->sp);
    uc_reg_write(uc, UC_ARM_REG_LR, &sc->lr);
    uint32_t cpsr = 0;
    uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
    cpsr = (cpsr & ~CPSR_USER_FLAGS) | (sc->cpsr & CPSR_USER_FLAGS);
    uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr);
    /* The execution state comes back through bit 0 of the pc. */
    uint32_t pc = (sc->pc & ~1u) | ((sc->cpsr & CPSR_T) ? 1u : 0u);
    uc_reg_write(uc, UC_ARM_REG_PC, &pc);
    if (vfp->magic != VFP_MAGIC)
        return;
    for (int i = 0; i < 32; i++)
        uc_reg_write(uc, UC_ARM_REG_D0 + i, &vfp->fpregs[i]);
    uc_reg_write(uc, UC_ARM_REG_FPSCR, &vfp->fpscr);
}

int arm_setup_frame(struct task *t, int sig, const struct sigaction_guest *sa, uint64_t sp)
{
    uc_engine *uc = task_mm(t)->uc;
    bool rt = sa->flags & 4 /* SA_SIGINFO */;
    struct rt_sigframe_arm f;
    memset(&f, 0, sizeof f);
    struct ucontext_arm *uc_ = &f.sig.uc;
    uc_->ss_sp = (uint32_t)t->altstack_sp;
    uc_->ss_size = (uint32_t)t->altstack_size;
    uc_->ss_flags = (uint32_t)t->altstack_flags;
    uc_->uc_sigmask = t->restore_sigmask ? t->saved_sigmask : t->sigmask;
    uc_->mcontext.oldmask = (uint32_t)uc_->uc_sigmask;
    save_regs(uc, &uc_->mcontext, (struct vfp_sigframe *)uc_->regspace);
    size_t size = rt ? sizeof f : sizeof f.sig;
    const void *src = rt ? (const void *)&f : (const void *)&f.sig;
    if (rt)
        signal_fill_info(t, sig, &t->delivering, f.info);
    uint64_t frame = (sp - size) & ~(uint64_t)7;
    uint64_t ucaddr = frame + (rt ? offsetof(struct rt_sigframe_arm, sig) : 0);
    uint32_t lr = (sa->flags & SA_RESTORER) ? (uint32_t)sa->restorer
                                            : (uint32_t)abi_arm.sigtramp + (rt ? 8u : 0u);
    if (copy_to_guest(task_mm(t), frame, src, size) < 0)
        return -EFAULT;
    uint32_t r0 = (uint32_t)sig, r1 = rt ? (uint32_t)frame : 0, r2 = rt ? (uint32_t)ucaddr : 0;
    uint32_t sp32 = (uint32_t)frame, pc = (uint32_t)sa->handler;
    uc_reg_write(uc, UC_ARM_REG_R0, &r0);
    uc_reg_write(uc, UC_ARM_REG_R1, &r1);
    uc_reg_write(uc, UC_ARM_REG_R2, &r2);
    uc_reg_write(uc, UC_ARM_REG_SP, &sp32);
    uc_reg_write(uc, UC_ARM_REG_LR, &lr);
    uc_reg_write(uc, UC_ARM_REG_PC, &pc); /* bit 0 selects Thumb */
    return 0;
}

int64_t arm_sigreturn(struct task *t, bool rt)
{
    uc_engine *uc = task_mm(t)->uc;
    uint32_t sp = 0;
    uc_reg_read(uc, UC_ARM_REG_SP, &sp);
    struct sigframe_arm f;
    uint64_t at = sp + (rt ? offsetof(struct rt_sigframe_arm, sig) : 0);
    if (sp % 8 || copy_from_guest(task_mm(t), &f, at, sizeof f) < 0) {
        signal_kill_process(t, 11);
        return 0;
    }
    t->sigmask = f.uc.uc_sigmask & ~(SIGBIT(9) | SIGBIT(19));
    restore_regs(uc, &f.uc.mcontext, (const struct vfp_sigframe *)f.uc.regspace);
    return f.uc.mcontext.r[0];
}

/* ARM-mode sigreturn and rt_sigreturn calls, at sigtramp and sigtramp + 8. */
const uint32_t arm_sigtramp_code[4] = {
    0xe3a07077, /* mov r7, #119 (sigreturn) */
    0xef000000, /* svc #0 */
    0xe3a070ad, /* mov r7, #173 (rt_sigreturn) */
    0xef000000, /* svc #0 */
};
