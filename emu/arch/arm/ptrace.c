/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrace.c (arm) - the ptrace requests a 32-bit tracer has beyond every
 * ABI's (arm64 Linux's compat_arch_ptrace(), arch/arm64/kernel/ptrace.c):
 * the user area (PEEKUSR, POKEUSR), the general registers (GETREGS,
 * SETREGS), TPIDRURO (GET_THREAD_AREA), the debug registers (GETHBPREGS)
 * and the syscall number (SET_SYSCALL), each of a 32-bit tracee. Reached
 * through abi->arch_ptrace for what sys_ptrace (emu/kernel/ptrace.c) does
 * not know itself, so that a 64-bit tracer never sees them. */
#include "abi.h"
#include "mm.h"
#include "ptrace.h"
#include "syscall_table.h"
#include "task.h"

#include <errno.h>
#include <string.h>

enum {
    PT_PEEKUSR = 3, PT_POKEUSR = 6, PT_GETREGS = 12, PT_SETREGS = 13, PT_GET_THREAD_AREA = 22,
    PT_SET_SYSCALL = 23, PT_GETHBPREGS = 29,
};

/* The 32-bit user area PEEKUSR reads: pt_regs first, zeros to its end. */
#define USER_AREA 296
/* struct pt_regs: r0-r15, cpsr, orig_r0; SETREGS writes up to orig_r0. */
#define PT_REGS_SIZE 72
#define ORIG_R0 68

static int64_t peek_user(struct task *t, struct task *c, uint64_t addr, uint64_t data)
{
    uint8_t regs[528];
    uint32_t word = 0;
    ptrace_stop_regset(c, NT_PRSTATUS_, regs);
    if (addr < PT_REGS_SIZE)
        memcpy(&word, regs + addr, 4);
    return copy_to_guest(task_mm(t), data, &word, 4);
}

/* compat_ptrace_write_user: one word of pt_regs, checked with the rest as
 * valid_user_regs does (a bad CPSR is EINVAL); the words past pt_regs up
 * to the user area's end are taken and dropped. */
static int64_t poke_user(struct task *c, uint64_t addr, uint64_t data)
{
    if (addr >= PT_REGS_SIZE)
        return 0;
    if (addr == ORIG_R0)
        return 0; /* not kept apart from r0, as SETREGS drops it */
    uint8_t regs[528];
    uint32_t word = (uint32_t)data;
    ptrace_stop_regset(c, NT_PRSTATUS_, regs);
    memcpy(regs + addr, &word, 4);
    return ptrace_regset_set(c, NT_PRSTATUS_, regs, ORIG_R0);
}

static int64_t get_regs(struct task *t, struct task *c, uint64_t data)
{
    uint8_t regs[528];
    ptrace_stop_regset(c, NT_PRSTATUS_, regs);
    return copy_to_guest(task_mm(t), data, regs, PT_REGS_SIZE);
}

static int64_t set_regs(struct task *t, struct task *c, uint64_t data)
{
    uint8_t regs[528];
    if (copy_from_guest(task_mm(t), regs, data, PT_REGS_SIZE) < 0)
        return -EFAULT;
    return ptrace_regset_set(c, NT_PRSTATUS_, regs, ORIG_R0);
}

/* The debug registers: 0 is the resource word (debug architecture << 24,
 * watchpoint length 8 << 16, no watchpoints << 8, no breakpoints); a slot
 * reads as unused. */
static int64_t get_hbp_regs(struct task *t, uint64_t addr, uint64_t data)
{
    int32_t num = (int32_t)addr;
    uint32_t idx = (uint32_t)((num < 0 ? -(int64_t)num : num) - 1) >> 1;
    if (num != 0 && idx >= 16)
        return -EINVAL;
    uint32_t v = num == 0 ? 0x06080000u : 0;
    return copy_to_guest(task_mm(t), data, &v, 4);
}

int64_t arm_arch_ptrace(struct task *t, struct task *c, long req, uint64_t addr, uint64_t data)
{
    if (task_abi(c)->isa != LOADER_ISA_ARM)
        return -EIO;
    switch (req) {
    case PT_PEEKUSR:
        if ((addr & 3) || addr >= USER_AREA)
            return -EIO;
        return peek_user(t, c, addr, data);
    case PT_POKEUSR:
        if ((addr & 3) || addr >= USER_AREA)
            return -EIO;
        return poke_user(c, addr, data);
    case PT_GETREGS:
        return get_regs(t, c, data);
    case PT_SETREGS:
        return set_regs(t, c, data);
    case PT_GET_THREAD_AREA: {
        uint8_t tls[8];
        ptrace_regset_get(c, NT_ARM_TLS_, tls, 0, 0);
        return copy_to_guest(task_mm(t), data, tls, 4);
    }
    case PT_GETHBPREGS:
        return get_hbp_regs(t, addr, data);
    case PT_SET_SYSCALL: {
        int32_t nr = (int32_t)data;
        return ptrace_regset_set(c, NT_ARM_SYSTEM_CALL_, (const uint8_t *)&nr, 4);
    }
    default:
        return -EIO;
    }
}
