/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signal.c (aarch64) - the arm64 rt_sigframe: siginfo, ucontext with the
 * general registers and an fpsimd_context record, and a frame record; and
 * rt_sigreturn, which restores them. Layout of arch/arm64's uapi headers. */
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
#define SA_ONSTACK 0x08000000
#define SA_SIGINFO 0x00000004
#define FPSIMD_MAGIC 0x46508001
#define PSTATE_NZCV 0xf0000000u

struct fpsimd_context {
    uint32_t magic, size, fpsr, fpcr;
    uint8_t vregs[32][16];
};

struct sigcontext_a64 {
    uint64_t fault_address, regs[31], sp, pc, pstate;
    uint64_t pad;
    uint8_t reserved[4096]; /* 16-aligned: fpsimd_context, then a zero header */
};

struct ucontext_a64 {
    uint64_t uc_flags, uc_link;
    uint64_t ss_sp;
    int32_t ss_flags, ss_pad;
    uint64_t ss_size;
    uint64_t uc_sigmask;
    uint8_t unused[120];
    uint64_t pad;
    struct sigcontext_a64 mcontext;
};

struct rt_sigframe_a64 {
    uint8_t info[128];
    struct ucontext_a64 uc;
    uint64_t fp, lr; /* the frame record x29 points at */
};

static_assert(offsetof(struct ucontext_a64, mcontext) == 176, "uc_mcontext at 176");
static_assert(offsetof(struct sigcontext_a64, reserved) == 288, "__reserved at 288");
static_assert(sizeof(struct rt_sigframe_a64) % 16 == 0, "frame keeps sp aligned");

static void save_regs(uc_engine *uc, struct sigcontext_a64 *sc)
{
    for (int i = 0; i < 29; i++)
        uc_reg_read(uc, UC_ARM64_REG_X0 + i, &sc->regs[i]);
    uc_reg_read(uc, UC_ARM64_REG_X29, &sc->regs[29]);
    uc_reg_read(uc, UC_ARM64_REG_X30, &sc->regs[30]);
    uc_reg_read(uc, UC_ARM64_REG_SP, &sc->sp);
    uc_reg_read(uc, UC_ARM64_REG_PC, &sc->pc);
    uint32_t nzcv = 0;
    uc_reg_read(uc, UC_ARM64_REG_NZCV, &nzcv);
    sc->pstate = nzcv & PSTATE_NZCV;
    struct fpsimd_context *fp = (struct fpsimd_context *)sc->reserved;
    fp->magic = FPSIMD_MAGIC;
    fp->size = sizeof *fp;
    uint64_t v = 0;
    uc_reg_read(uc, UC_ARM64_REG_FPSR, &v);
    fp->fpsr = (uint32_t)v;
    uc_reg_read(uc, UC_ARM64_REG_FPCR, &v);
    fp->fpcr = (uint32_t)v;
    for (int i = 0; i < 32; i++)
        uc_reg_read(uc, UC_ARM64_REG_V0 + i, fp->vregs[i]);
}

static void restore_regs(uc_engine *uc, const struct sigcontext_a64 *sc)
{
    for (int i = 0; i < 29; i++)
        uc_reg_write(uc, UC_ARM64_REG_X0 + i, &sc->regs[i]);
    uc_reg_write(uc, UC_ARM64_REG_X29, &sc->regs[29]);
    uc_reg_write(uc, UC_ARM64_REG_X30, &sc->regs[30]);
    uc_reg_write(uc, UC_ARM64_REG_SP, &sc->sp);
    uc_reg_write(uc, UC_ARM64_REG_PC, &sc->pc);
    uint32_t nzcv = (uint32_t)sc->pstate & PSTATE_NZCV;
    uc_reg_write(uc, UC_ARM64_REG_NZCV, &nzcv);
    const struct fpsimd_context *fp = (const struct fpsimd_context *)sc->reserved;
    if (fp->magic != FPSIMD_MAGIC)
        return;
    uint64_t v = fp->fpsr;
    uc_reg_write(uc, UC_ARM64_REG_FPSR, &v);
    v = fp->fpcr;
    uc_reg_write(uc, UC_ARM64_REG_FPCR, &v);
    for (int i = 0; i < 32; i++)
        uc_reg_write(uc, UC_ARM64_REG_V0 + i, fp->vregs[i]);
}

int aarch64_setup_frame(struct task *t, int sig, const struct sigaction_guest *sa, uint64_t sp)
{
    uc_engine *uc = task_mm(t)->uc;
    struct rt_sigframe_a64 f;
    memset(&f, 0, sizeof f);
    signal_fill_info(t, sig, &t->delivering, f.info);
    f.uc.ss_sp = t->altstack_sp;
    f.uc.ss_size = t->altstack_size;
    f.uc.ss_flags = t->altstack_flags;
    f.uc.uc_sigmask = t->restore_sigmask ? t->saved_sigmask : t->sigmask;
    save_regs(uc, &f.uc.mcontext);
    f.fp = f.uc.mcontext.regs[29];
    f.lr = f.uc.mcontext.regs[30];
    uint64_t frame = (sp - sizeof f) & ~(uint64_t)15;
    if (copy_to_guest(task_mm(t), frame, &f, sizeof f) < 0)
        return -EFAULT;
    uint64_t restorer = (sa->flags & SA_RESTORER) ? sa->restorer : abi_aarch64.sigtramp;
    uint64_t x0 = (uint64_t)sig, x1 = frame + offsetof(struct rt_sigframe_a64, info);
    uint64_t x2 = frame + offsetof(struct rt_sigframe_a64, uc);
    uint64_t x29 = frame + offsetof(struct rt_sigframe_a64, fp);
    uc_reg_write(uc, UC_ARM64_REG_X0, &x0);
    uc_reg_write(uc, UC_ARM64_REG_X1, &x1);
    uc_reg_write(uc, UC_ARM64_REG_X2, &x2);
    uc_reg_write(uc, UC_ARM64_REG_X29, &x29);
    uc_reg_write(uc, UC_ARM64_REG_X30, &restorer);
    uc_reg_write(uc, UC_ARM64_REG_SP, &frame);
    uc_reg_write(uc, UC_ARM64_REG_PC, &sa->handler);
    return 0;
}

int64_t aarch64_sigreturn(struct task *t, bool rt)
{
    (void)rt;
    uc_engine *uc = task_mm(t)->uc;
    struct rt_sigframe_a64 f;
    uint64_t sp = 0;
    uc_reg_read(uc, UC_ARM64_REG_SP, &sp);
    if (sp % 16 || copy_from_guest(task_mm(t), &f, sp, sizeof f) < 0) {
        signal_kill_process(t, 11);
        return 0;
    }
    t->sigmask = f.uc.uc_sigmask & ~(SIGBIT(9) | SIGBIT(19));
    restore_regs(uc, &f.uc.mcontext);
    return (int64_t)f.uc.mcontext.regs[0];
}

/* `mov x8, #139 (rt_sigreturn); svc #0`: what the vDSO's sigreturn does. */
const uint32_t aarch64_sigtramp_code[2] = {0xd2801168, 0xd4000001};
