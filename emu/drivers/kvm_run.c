/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kvm_run.c - KVM_RUN: a vCPU is a nested Unicorn engine at EL1 with the
 * MMU off, over the VM's memory slots (the VMM's own pages, mapped into the
 * engine for the length of one entry). It runs inside the calling task's
 * slice, its blocks counted like the task's own; a VM that uses the slice
 * up waits for the task's next one, invisible to the VMM, as a preempted
 * vCPU thread is on Linux. Exits: MMIO outside the slots, HVC PSCI
 * SYSTEM_OFF/RESET, a pending signal, and the mismatched 32-bit rule V1
 * (Deacon's vcpu_mode_is_bad_32bit(), or Yousef's checks under fixup). */
#include "kvm.h"

#include "emu.h"
#include "engine.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "sysreg.h"
#include "task.h"
#include "page.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#define NESTED_TCG_BYTES (32u << 20)
/* uc_emu_start's `until`: an address the VM's pc never reaches (0 would
 * stop a VM whose code starts at guest physical 0 before its first
 * instruction, and it often does). */
#define NEVER_REACHED UINT64_MAX

#define INSN_ERET 0xd69f03e0u
#define HVC_MASK 0xffe0001fu
#define HVC_BITS 0xd4000002u
#define EXCP_UDEF 1 /* what an HVC is without EL2 in the engine */

#define PSCI_VERSION 0x84000000u
#define PSCI_SYSTEM_OFF 0x84000008u
#define PSCI_SYSTEM_RESET 0x84000009u
#define PSCI_0_2 2u
#define PSCI_NOT_SUPPORTED UINT64_MAX

#define PSTATE_EL1H_MASKED 0x3c5u
#define SPSR_MODE32 0x10u

/* kvm_run's union members */
#define RUN_MMIO_ADDR (KVM_RUN_UNION + 0)
#define RUN_MMIO_DATA (KVM_RUN_UNION + 8)
#define RUN_MMIO_LEN (KVM_RUN_UNION + 16)
#define RUN_MMIO_IS_WRITE (KVM_RUN_UNION + 20)
#define RUN_EVENT_TYPE (KVM_RUN_UNION + 0)
#define RUN_EVENT_FLAGS (KVM_RUN_UNION + 8)

static void run_put32(struct kvm_vcpu *v, unsigned off, uint32_t val)
{
    memcpy(v->run + off, &val, sizeof val);
}

static void run_put64(struct kvm_vcpu *v, unsigned off, uint64_t val)
{
    memcpy(v->run + off, &val, sizeof val);
}

/* The host bytes of guest physical [gpa, gpa+len) while the slots are
 * mapped, or NULL. */
static uint8_t *slot_host(struct kvm_vcpu *v, struct mm *mm, uint64_t gpa, uint64_t len)
{
    for (int i = 0; i < KVM_SLOTS; i++) {
        const struct kvm_slot *s = &v->vm->slots[i];
        if (s->used && gpa >= s->gpa && gpa + len <= s->gpa + s->size)
            return mm_host_ptr(mm, s->uaddr + (gpa - s->gpa), len, PROT_READ | PROT_WRITE);
    }
    return NULL;
}

static bool read_insn(struct kvm_vcpu *v, uint64_t pc, uint32_t *insn)
{
    uint8_t *p = slot_host(v, v->running_mm, pc, 4);
    if (p)
        memcpy(insn, p, 4);
    return p != NULL;
}

/* ---- the engine's hooks ---- */

/* Counts the VM's blocks against the task's slice, and notices the ERET
 * that took the vCPU to AArch32: the engine's PSTATE keeps no trace of
 * it, so the block after an ERET with SPSR_EL1.M[4] set is AArch32. */
static void hook_block(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    struct kvm_vcpu *v = user;
    struct machine *m = v->vm->machine;
    uint32_t insn;
    if (!v->aarch32 && v->last_block_size >= 4 &&
        read_insn(v, v->last_block + v->last_block_size - 4, &insn) && insn == INSN_ERET) {
        uc_arm64_cp_reg spsr = {.op0 = 3, .crn = 4};
        uc_reg_read(uc, UC_ARM64_REG_CP_REG, &spsr);
        if (spsr.val & SPSR_MODE32) {
            v->aarch32 = true;
            v->aarch32_pstate = (uint32_t)spsr.val;
        }
    }
    v->last_block = addr;
    v->last_block_size = size;
    /* A VM's guest code takes time as the task's own does (4-byte
     * instructions: a VM's AArch32 Thumb code is counted as A32), and its
     * batch ends where the engine's would (engine.c's block hooks): at the
     * slice's budget, or at the next timer or tick (insn_stop). */
    if (++m->slice_used > m->slice_budget || m->slice_insns >= m->insn_stop) {
        uc_emu_stop(uc);
        return;
    }
    m->slice_insns += size >> 2;
}

/* An access outside the slots: MMIO. The instruction does not complete;
 * the next KVM_RUN runs it again against the VMM's answer. */
static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                          void *user)
{
    (void)uc;
    struct kvm_vcpu *v = user;
    if (type == UC_MEM_FETCH_UNMAPPED || size > 8) {
        v->exit = KVM_EXIT_INTERNAL_ERROR;
        return false;
    }
    v->exit = KVM_EXIT_MMIO;
    v->mmio_addr = addr;
    v->mmio_len = (unsigned)size;
    v->exit_write = type == UC_MEM_WRITE_UNMAPPED;
    v->exit_value = (uint64_t)value;
    return false;
}

/* PSCI 0.2 over HVC #0: the version, SYSTEM_OFF and SYSTEM_RESET (which
 * exit to the VMM); any other function is NOT_SUPPORTED. */
static void psci_call(struct kvm_vcpu *v, uc_engine *uc)
{
    uint64_t fn = 0, ret;
    uc_reg_read(uc, UC_ARM64_REG_X0, &fn);
    switch ((uint32_t)fn) {
    case PSCI_VERSION:
        ret = PSCI_0_2;
        break;
    case PSCI_SYSTEM_OFF:
    case PSCI_SYSTEM_RESET:
        v->exit = KVM_EXIT_SYSTEM_EVENT;
        v->exit_value = (uint32_t)fn == PSCI_SYSTEM_OFF ? KVM_SYSTEM_EVENT_SHUTDOWN
                                                         : KVM_SYSTEM_EVENT_RESET;
        uc_emu_stop(uc);
        return;
    default:
        ret = PSCI_NOT_SUPPORTED;
    }
    uc_reg_write(uc, UC_ARM64_REG_X0, &ret);
}

/* Exceptions: the engine has no EL2, so HVC is an undefined instruction;
 * HVC goes to PSCI and the vCPU steps over it. The VM cannot take an
 * exception of its own here (docs/kvm.md): any other ends the run. */
static void hook_intr(uc_engine *uc, uint32_t intno, void *user)
{
    struct kvm_vcpu *v = user;
    uint64_t pc = 0;
    uint32_t insn;
    uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
    if (intno == EXCP_UDEF && !v->aarch32 && read_insn(v, pc, &insn) &&
        (insn & HVC_MASK) == HVC_BITS) {
        pc += 4;
        uc_reg_write(uc, UC_ARM64_REG_PC, &pc);
        psci_call(v, uc);
        return;
    }
    v->exit = KVM_EXIT_INTERNAL_ERROR;
    uc_emu_stop(uc);
}

/* V2: the VM reads ID_AA64PFR0_EL1 with EL0 AArch64-only unless every CPU
 * runs AArch32 EL0, as Linux sanitises it on a mismatched system. */
static uint32_t hook_mrs(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *user)
{
    struct kvm_vcpu *v = user;
    if (!(cp->op0 == 3 && cp->op1 == 0 && cp->crn == 0 && cp->crm == 4 && cp->op2 == 0))
        return 0;
    uint64_t val = sysreg_id_aa64pfr0(kvm_aarch32_el0_ok(v->vm->machine)), pc = 0;
    uc_reg_write(uc, reg, &val);
    uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
    pc += 4;
    uc_reg_write(uc, UC_ARM64_REG_PC, &pc);
    return 1;
}

/* Unicorn writes the pc back only at block ends and before hooks: an
 * access outside the slots stops the engine with the pc of the block's
 * start, the instructions before it already done. With an instruction
 * hook the pc is exact, so the MMIO access alone runs again when the VMM
 * answered. The hook itself has nothing to do. */
static void hook_insn_pc(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)uc, (void)addr, (void)size, (void)user;
}

int kvm_vcpu_engine_open(struct kvm_vcpu *v)
{
    uc_engine *uc;
    uc_hook h;
    if (uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc) != UC_ERR_OK)
        return -ENOMEM;
    if (uc_ctl_set_cpu_model(uc, UC_CPU_ARM64_A72) != UC_ERR_OK ||
        uc_ctl(uc, UC_CTL_WRITE(UC_CTL_TCG_BUFFER_SIZE, 1), NESTED_TCG_BYTES) != UC_ERR_OK ||
        engine_first_hook(uc, &h, UC_HOOK_BLOCK, (void *)hook_block, v) != UC_ERR_OK ||
        uc_hook_add(uc, &h, UC_HOOK_CODE, (void *)hook_insn_pc, v, 1, 0) != UC_ERR_OK ||
        uc_hook_add(uc, &h, UC_HOOK_MEM_UNMAPPED, (void *)hook_unmapped, v, 1, 0) != UC_ERR_OK ||
        uc_hook_add(uc, &h, UC_HOOK_INTR, (void *)hook_intr, v, 1, 0) != UC_ERR_OK ||
        uc_hook_add(uc, &h, UC_HOOK_INSN, (void *)hook_mrs, v, 1, 0, UC_ARM64_INS_MRS) != UC_ERR_OK) {
        uc_close(uc);
        return -ENOMEM;
    }
    if (uc_context_alloc(uc, &v->reset_ctx) != UC_ERR_OK ||
        uc_context_save(uc, v->reset_ctx) != UC_ERR_OK) {
        uc_close(uc);
        return -ENOMEM;
    }
    v->uc = uc;
    return 0;
}

/* The AArch64 registers asymu keeps across a return from AArch32. */
static const int kept_regs[] = {
    UC_ARM64_REG_SP_EL0, UC_ARM64_REG_SP_EL1, UC_ARM64_REG_ELR_EL1, UC_ARM64_REG_PC,
    UC_ARM64_REG_X29, UC_ARM64_REG_X30,
};

void kvm_vcpu_leave_aarch32(struct kvm_vcpu *v)
{
    uint64_t x[29], kept[sizeof kept_regs / sizeof *kept_regs];
    for (int i = 0; i < 29; i++)
        uc_reg_read(v->uc, UC_ARM64_REG_X0 + i, &x[i]);
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        uc_reg_read(v->uc, kept_regs[i], &kept[i]);
    /* Unicorn's PSTATE write leaves the engine's execution state alone:
     * only its saved state of a new engine is AArch64 again. */
    uc_context_restore(v->uc, v->reset_ctx);
    for (int i = 0; i < 29; i++)
        uc_reg_write(v->uc, UC_ARM64_REG_X0 + i, &x[i]);
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        uc_reg_write(v->uc, kept_regs[i], &kept[i]);
    v->aarch32 = false;
}

void kvm_vcpu_reset(struct kvm_vcpu *v)
{
    uint32_t ps = PSTATE_EL1H_MASKED;
    uc_context_restore(v->uc, v->reset_ctx); /* registers zero, AArch64 */
    uc_reg_write(v->uc, UC_ARM64_REG_PSTATE, &ps);
    v->aarch32 = false;
    v->mmio_pending = false;
}

/* ---- one entry ---- */

/* Maps a slot into the engine, one piece per VMA of the VMM's memory
 * behind it (their host memory need not be contiguous). */
static int map_slot(struct kvm_vcpu *v, struct mm *mm, const struct kvm_slot *s)
{
    for (uint64_t off = 0; off < s->size;) {
        const struct vma *vma = mm_find_vma(mm, s->uaddr + off);
        uint64_t len = vma ? vma->end - (s->uaddr + off) : 0;
        if (len > s->size - off)
            len = s->size - off;
        void *host = vma ? mm_host_ptr(mm, s->uaddr + off, len, PROT_READ | PROT_WRITE) : NULL;
        if (!host || uc_mem_map_ptr(v->uc, s->gpa + off, len, UC_PROT_ALL, host) != UC_ERR_OK)
            return -EFAULT; /* the VMM unmapped its memory, or made it read-only */
        off += len;
    }
    return 0;
}

static int map_slots(struct kvm_vcpu *v, struct mm *mm)
{
    for (int i = 0; i < KVM_SLOTS; i++) {
        int err = v->vm->slots[i].used ? map_slot(v, mm, &v->vm->slots[i]) : 0;
        if (err)
            return err;
    }
    return 0;
}

/* Unmaps whatever the engine has mapped, a slot's pieces that a failed
 * map_slots left too: between entries it holds no host pointer. */
static void unmap_all(struct kvm_vcpu *v)
{
    uc_mem_region *regions;
    uint32_t n;
    if (uc_mem_regions(v->uc, &regions, &n) != UC_ERR_OK)
        return;
    for (uint32_t i = 0; i < n; i++)
        uc_mem_unmap(v->uc, regions[i].begin, regions[i].end - regions[i].begin + 1);
    uc_free(regions);
}

/* Runs the MMIO access the last exit stopped at once more, against a
 * scratch page holding what the VMM answered (a read's data). */
static int complete_mmio(struct kvm_vcpu *v)
{
    uint64_t page = v->mmio_addr & ~(uint64_t)(PAGE - 1), pc = 0;
    uint64_t off = v->mmio_addr - page;
    v->mmio_pending = false;
    v->exit = 0;
    if (uc_mem_map(v->uc, page, PAGE, UC_PROT_READ | UC_PROT_WRITE) != UC_ERR_OK)
        return -EFAULT;
    if (off + v->mmio_len <= PAGE)
        uc_mem_write(v->uc, v->mmio_addr, v->run + RUN_MMIO_DATA, v->mmio_len);
    uc_reg_read(v->uc, UC_ARM64_REG_PC, &pc);
    uint64_t saved = v->vm->machine->slice_budget;
    v->vm->machine->slice_budget = UINT64_MAX; /* the one instruction is not cut */
    uc_err e = uc_emu_start(v->uc, pc, NEVER_REACHED, 0, 1);
    v->vm->machine->slice_budget = saved;
    uc_mem_unmap(v->uc, page, PAGE);
    return e == UC_ERR_OK && v->exit == 0 ? 0 : -EFAULT;
}

static bool policy_is_fixup(const struct machine *m)
{
    return m->cfg->policy == SCHED_POLICY_FIXUP;
}

/* After each exit: the vCPU caught in AArch32 EL0 on a machine where some
 * CPU cannot run it. Deacon (upstream, override, kill): the target is
 * invalidated; Yousef (fixup): logged. Both: ARM_EXCEPTION_IL. */
static bool caught_in_aarch32(struct task *t, struct kvm_vcpu *v)
{
    struct machine *m = t->machine;
    if (!v->aarch32 || kvm_aarch32_el0_ok(m))
        return false;
    if (policy_is_fixup(m))
        klog_printf(&m->klog, machine_now(m), KLOG_ERR,
                    "kvm [%d]: Detected illegal AArch32 mode at EL0, exiting.", t->tid);
    else
        v->initialized = false;
    run_put32(v, KVM_RUN_EXIT_REASON, KVM_EXIT_FAIL_ENTRY);
    run_put64(v, KVM_RUN_UNION, 0);
    return true;
}

/* What an exit gives the VMM: 1 to go on running. */
static int64_t exit_to_vmm(struct kvm_vcpu *v)
{
    switch (v->exit) {
    case KVM_EXIT_MMIO:
        v->mmio_pending = true;
        run_put32(v, KVM_RUN_EXIT_REASON, KVM_EXIT_MMIO);
        run_put64(v, RUN_MMIO_ADDR, v->mmio_addr);
        memset(v->run + RUN_MMIO_DATA, 0, 8);
        if (v->exit_write)
            memcpy(v->run + RUN_MMIO_DATA, &v->exit_value, v->mmio_len);
        run_put32(v, RUN_MMIO_LEN, v->mmio_len);
        v->run[RUN_MMIO_IS_WRITE] = v->exit_write;
        return 0;
    case KVM_EXIT_SYSTEM_EVENT:
        run_put32(v, KVM_RUN_EXIT_REASON, KVM_EXIT_SYSTEM_EVENT);
        run_put32(v, RUN_EVENT_TYPE, (uint32_t)v->exit_value);
        run_put64(v, RUN_EVENT_FLAGS, 0);
        return 0;
    case KVM_EXIT_INTERNAL_ERROR:
        run_put32(v, KVM_RUN_EXIT_REASON, KVM_EXIT_INTERNAL_ERROR);
        run_put32(v, KVM_RUN_UNION, KVM_INTERNAL_ERROR_EMULATION);
        return 0;
    }
    return 1; /* the slice ended: go on in the next one */
}

/* Runs the vCPU until an exit for the VMM (0 or an errno) or until the
 * slice is used up (1). */
static int64_t enter(struct task *t, struct kvm_vcpu *v)
{
    struct machine *m = t->machine;
    v->running_mm = task_mm(t);
    int64_t ret = map_slots(v, task_mm(t));
    if (ret == 0 && v->mmio_pending)
        ret = complete_mmio(v);
    if (ret == 0 && v->run[KVM_RUN_IMMEDIATE_EXIT])
        ret = -EINTR; /* the MMIO read completed, exit_reason untouched */
    else if (ret == 0)
        run_put32(v, KVM_RUN_EXIT_REASON, 0);
    while (ret == 0) {
        if (signal_pending(t)) {
            run_put32(v, KVM_RUN_EXIT_REASON, KVM_EXIT_INTR);
            ret = -EINTR;
            break;
        }
        if (m->slice_used >= m->slice_budget || m->slice_insns >= m->insn_stop) {
            ret = 1;
            break;
        }
        uint64_t pc = 0;
        uc_reg_read(v->uc, UC_ARM64_REG_PC, &pc);
        v->exit = 0;
        v->last_block_size = 0;
        uint64_t used = m->slice_used;
        uc_err e = uc_emu_start(v->uc, pc, NEVER_REACHED, 0, 0);
        /* An engine error no hook saw, or a stop that ran nothing: never
         * spin here. */
        if (v->exit == 0 && (e != UC_ERR_OK || m->slice_used == used))
            v->exit = KVM_EXIT_INTERNAL_ERROR;
        if (caught_in_aarch32(t, v))
            ret = -EINVAL;
        else if (exit_to_vmm(v) == 0)
            break;
    }
    unmap_all(v);
    return ret;
}

/* The checks before the first entry: 0 to run. */
static int64_t may_enter(struct task *t, struct kvm_vcpu *v)
{
    struct machine *m = t->machine;
    /* Yousef: a vCPU already in AArch32 is not entered at all. */
    if (policy_is_fixup(m) && v->aarch32 && !kvm_aarch32_el0_ok(m)) {
        klog_printf(&m->klog, machine_now(m), KLOG_ERR,
                    "kvm [%d]: Illegal AArch32 mode at EL0, can't run.", t->tid);
        return -ENOEXEC;
    }
    if (!v->initialized)
        return -ENOEXEC;
    if (v->run[KVM_RUN_IMMEDIATE_EXIT] && !v->mmio_pending)
        return -EINTR;
    return 0;
}

/* The task waits for its next slice, where the handler runs again (the
 * pipe pattern: no reference held, a killed task leaves nothing behind). */
static int64_t wait_next_slice(struct task *t, struct kvm_vcpu *v)
{
    t->wait_obj = v;
    t->deadline_ns = machine_now(t->machine);
    return -EBLOCK;
}

int64_t kvm_vcpu_run(struct task *t, struct file *f)
{
    struct kvm_vcpu *v = f->priv;
    struct machine *m = t->machine;
    /* Called from the task's own engine (a syscall hook): a Unicorn engine
     * must not run inside another one's hook, so the vCPU runs from the
     * task's next slice on, before its own engine resumes. */
    if (m->running_uc) {
        int64_t err = may_enter(t, v);
        return err ? err : wait_next_slice(t, v);
    }
    /* The VM's code runs in batches of --slice blocks, and stops at the
     * next quantum, timer or tick like the task's own. */
    m->slice_budget = t->se.slice_left ? t->se.slice_left : 1;
    machine_slice_limit(m);
    /* A VM that outlasts the slice goes on in the task's next one, the
     * task runnable meanwhile: its time is the fair class's running time,
     * and the tick preempts it like any task (no block and wake-up). */
    int64_t ret = enter(t, v);
    return ret == 1 ? -ESLICE : ret;
}
