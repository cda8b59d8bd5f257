/* SPDX-License-Identifier: GPL-2.0-or-later */
/* breakpoint.c - breakpoint instructions as SIGTRAP (breakpoint.h). On an
 * arm64 kernel a compat task's gdb plants undefined instructions rather
 * than BKPT (arm Linux had no BKPT handler); the kernel's undefined
 * instruction path recognises those encodings before it would send
 * SIGILL. */
#include "breakpoint.h"
#include "abi.h"
#include "mm.h"
#include "signals.h"
#include "task.h"

#include <signal.h>
#include <unicorn/unicorn.h>

#define CPSR_T 0x20u
#define A32_BREAK 0x07f001f0u /* any condition field */
#define T16_BREAK 0xde01u
#define T32_BREAK_HI 0xf7f0u
#define T32_BREAK_LO 0xa000u

void breakpoint_trap(struct task *t, uint64_t pc)
{
    signal_fault_code(t, SIGTRAP, TRAP_BRKPT_, pc, pc, "breakpoint");
}

bool breakpoint_arm_undef(struct task *t)
{
    struct mm *mm = task_mm(t);
    if (mm->abi->isa != LOADER_ISA_ARM)
        return false;
    uint32_t cpsr = 0, pc = 0;
    uc_reg_read(mm->uc, UC_ARM_REG_CPSR, &cpsr);
    uc_reg_read(mm->uc, UC_ARM_REG_PC, &pc);
    pc &= ~1u;
    bool hit;
    if (cpsr & CPSR_T) {
        uint16_t hw[2] = {0, 0};
        if (copy_from_guest(mm, hw, pc, 2))
            return false;
        if (hw[0] == T32_BREAK_HI)
            hit = !copy_from_guest(mm, &hw[1], pc + 2, 2) && hw[1] == T32_BREAK_LO;
        else
            hit = hw[0] == T16_BREAK;
    } else {
        uint32_t insn;
        hit = !copy_from_guest(mm, &insn, pc, 4) && (insn & 0x0fffffffu) == A32_BREAK;
    }
    if (hit)
        breakpoint_trap(t, pc);
    return hit;
}
