/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.c - Unicorn engines: open one per guest address space, put it in
 * user mode, hook syscalls and faults, and translate Unicorn errors. This is
 * the one place that knows uc_err. */
#include "abi.h"
#include "breakpoint.h"
#include "emu.h"
#include "engine.h"
#include "engine_exact.h"
#include "insn_count.h"
#include "leakcheck.h"
#include "loader.h"
#include "machine.h"
#include "mm.h"
#include "mm_lazy.h"
#include "signals.h"
#include "stop_hooks.h"
#include "syscalls.h"
#include "mm_window.h"
#include "sysreg.h"
#include "task.h"
#include "uninstrumented.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>

/* Translated code per engine: 1 GiB of address space, qemu-user's default,
 * of which only what is translated becomes resident. Unicorn 2.1.1 crashes
 * (tb_set_jmp_target on a zeroed block, SIGSEGV) when a full buffer is
 * flushed in the middle of a run; python3.11 starting up filled 4-16 MiB
 * buffers and crashed every time, and CPython's test_random filled the old
 * 32 MiB one. With 1 GiB no measured run comes near the flush. */
#define TCG_BUFFER_BYTES (1u << 30)

/* Unicorn's exception numbers (QEMU's EXCP_* for Arm). */
enum { EXCP_UDEF = 1, EXCP_SWI = 2, EXCP_PREFETCH_ABORT = 3, EXCP_DATA_ABORT = 4, EXCP_BKPT = 7 };

int engine_errno(uc_err err)
{
    switch (err) {
    case UC_ERR_OK:
        return 0;
    case UC_ERR_NOMEM:
    case UC_ERR_RESOURCE:
        return -ENOMEM;
    case UC_ERR_MAP:
    case UC_ERR_ARG:
        return -EINVAL;
    case UC_ERR_READ_UNMAPPED:
    case UC_ERR_WRITE_UNMAPPED:
    case UC_ERR_FETCH_UNMAPPED:
    case UC_ERR_READ_PROT:
    case UC_ERR_WRITE_PROT:
    case UC_ERR_FETCH_PROT:
    case UC_ERR_READ_UNALIGNED:
    case UC_ERR_WRITE_UNALIGNED:
    case UC_ERR_FETCH_UNALIGNED:
        return -EFAULT;
    default:
        return -EIO;
    }
}

/* The signal and a short description for an error that ended a slice. */
static int fault_signal(uc_err err, const char **what)
{
    switch (err) {
    case UC_ERR_READ_UNMAPPED:
        *what = "read of unmapped memory";
        return SIGSEGV;
    case UC_ERR_WRITE_UNMAPPED:
        *what = "write to unmapped memory";
        return SIGSEGV;
    case UC_ERR_FETCH_UNMAPPED:
        *what = "instruction fetch from unmapped memory";
        return SIGSEGV;
    case UC_ERR_READ_PROT:
        *what = "read of protected memory";
        return SIGSEGV;
    case UC_ERR_WRITE_PROT:
        *what = "write to protected memory";
        return SIGSEGV;
    case UC_ERR_FETCH_PROT:
        *what = "instruction fetch from non-executable memory";
        return SIGSEGV;
    case UC_ERR_READ_UNALIGNED:
    case UC_ERR_WRITE_UNALIGNED:
    case UC_ERR_FETCH_UNALIGNED:
        *what = "unaligned access";
        return SIGBUS;
    case UC_ERR_INSN_INVALID:
        *what = "undefined instruction";
        return SIGILL;
    default:
        *what = uc_strerror(err);
        return SIGSEGV;
    }
}

/* A PROT_NONE VMA has no engine region (mm.c): an access there is a
 * protection fault, not one on unmapped memory; and an unmapped gap inside
 * an engine window (mm_window.h) is in a region: still unmapped memory. */
static uc_err fault_kind(struct task *t, uc_err err)
{
    bool mapped = mm_find_vma(task_mm(t), t->fault_addr) != NULL;
    switch (err) {
    case UC_ERR_READ_UNMAPPED:
    case UC_ERR_READ_PROT:
        return mapped ? UC_ERR_READ_PROT : UC_ERR_READ_UNMAPPED;
    case UC_ERR_WRITE_UNMAPPED:
    case UC_ERR_WRITE_PROT:
        return mapped ? UC_ERR_WRITE_PROT : UC_ERR_WRITE_UNMAPPED;
    case UC_ERR_FETCH_UNMAPPED:
    case UC_ERR_FETCH_PROT:
        return mapped ? UC_ERR_FETCH_PROT : UC_ERR_FETCH_UNMAPPED;
    default:
        return err;
    }
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *user)
{
    struct machine *m = user;
    struct task *t = m->current;
    const char *what = NULL;
    int sig = 0;
    if (window_fault_pending(m)) {
        /* The block faulted in a window before its last instruction: the
         * fault comes first, the syscall or exception never happens. */
        uc_emu_stop(uc);
        return;
    }
    switch (intno) {
    case EXCP_SWI:
        syscall_dispatch(t);
        /* Its kernel work moved the slice's time on, and it may have armed a timer. */
        machine_slice_limit(m);
        if (t->stop)
            uc_emu_stop(uc);
        return;
    case EXCP_UDEF:
        if (task_abi(t)->isa != LOADER_ISA_AARCH64) {
            /* Through hook_insn_invalid: engine_run looks at it. */
            m->arm_undef = true;
            uc_emu_stop(uc);
            return;
        }
        sig = SIGILL, what = "undefined instruction";
        break;
    case EXCP_BKPT:
        breakpoint_trap(t, task_abi(t)->get_pc(uc));
        uc_emu_stop(uc);
        return;
    case EXCP_PREFETCH_ABORT:
    case EXCP_DATA_ABORT:
        sig = SIGSEGV, what = "memory abort";
        break;
    default:
        sig = SIGILL, what = "unexpected exception";
        break;
    }
    signal_fault(t, sig, task_abi(t)->get_pc(uc), t->fault_addr, what);
    uc_emu_stop(uc);
}

/* Ends the run before the block at pc. Unicorn 2.1.1 puts the pc back at a
 * block's start after a stop asked for before it only while no code hook
 * exists (cpu_tb_exec, TB_EXIT_REQUESTED); with one anywhere (a gdb
 * breakpoint, a step) the pc stayed where the last code-hooked instruction
 * had left it, and the next run resumed there, running instructions twice
 * or never: a 32-bit program under gdb faulted in glibc's __tunables_init
 * once its slices ended at every sync quantum (e2e-gdbstub-fork-exec-aarch64;
 * unit-engine-stop shows it on bare engines). A pc written after the
 * stop is Unicorn's "synced by the user" case, kept either way (bit 0 set
 * for a Thumb block). */
static void stop_before_block(uc_engine *uc, int pc_reg, uint64_t pc)
{
    uc_emu_stop(uc);
    uc_reg_write(uc, pc_reg, &pc);
}

/* The block hooks' slow path: whether the run stops before the block that
 * begins, because a single step (gdb's or ptrace's) ended or the slice did
 * (at the next sync quantum, tick, timer or scheduler event:
 * machine_slice_limit), or else the block's count when it is not the cached
 * one. A block the slice stops at does not run now: it is counted when the
 * next slice runs it. */
static __attribute__((noinline)) void block_slow(uc_engine *uc, uint64_t addr, uint32_t size,
                                                 struct machine *m)
{
    bool a64 = task_abi(m->current)->isa == LOADER_ISA_AARCH64;
    bool stepped = false;
    if (m->watch_blocks) /* ptrace's step (the engine's) and gdb's: each ends its own */
        stepped = stop_hooks_block(m);
    if (stepped || m->slice_insns >= m->insn_stop) {
        uint64_t thumb = !a64 && (task_abi(m->current)->get_pc(uc) & 1);
        stop_before_block(uc, a64 ? UC_ARM64_REG_PC : UC_ARM_REG_PC, addr | thumb);
        return;
    }
    m->slice_insns += a64 ? size >> 2 : insn_count_a32(m, uc, addr, size);
}

/* Counts the block's instructions for virtual time (docs/timing.md), or
 * stops the run before it. Called at every block, so the common case (no
 * step, the slice goes on, a cached count) tests what it must and returns,
 * and everything else is block_slow's: a hook that only counted blocks
 * against a budget took 14.5% of armhf gzip's time, one that also called
 * out and looked the count up 31.6% (bench/README.md). AArch64: 4 bytes an
 * instruction; an engine has one ISA, so it gets one of the two hooks.
 * Both are UNINSTRUMENTED in sanitized builds (uninstrumented.h). */
UNINSTRUMENTED static void hook_block_a64(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    struct machine *m = user;
    m->slice_used++;
    if (__builtin_expect(!m->watch_blocks && m->slice_insns < m->insn_stop, 1)) {
        m->slice_insns += size >> 2;
        return;
    }
    block_slow(uc, addr, size, m);
}

/* AArch32: A32 or Thumb, counted by insn_count.h's cache. */
UNINSTRUMENTED static void hook_block_a32(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    struct machine *m = user;
    m->slice_used++;
    const struct insn_cache *c = m->insn_cache;
    if (__builtin_expect(!m->watch_blocks && m->slice_insns < m->insn_stop && c, 1)) {
        const struct insn_cache_entry *e = &c->e[(addr >> 1) & (INSN_CACHE_ENTRIES - 1)];
        if (__builtin_expect(e->addr == (uint32_t)addr && e->size == size, 1)) {
            m->slice_insns += e->count;
            return;
        }
    }
    block_slow(uc, addr, size, m);
}

/* Unicorn 2.1.1's Arm engine sends YIELD and WFE, which QEMU raises as
 * EXCP_YIELD to let another vCPU run, down the path of an undefined
 * instruction, which ends the run with UC_ERR_INSN_INVALID unless this
 * hook takes it (Go's linux/arm spin loops yield). Taken, a YIELD or WFE
 * goes on as the no-op it is at EL0, and an undefined instruction reaches
 * hook_intr as EXCP_UDEF. */
static bool hook_insn_invalid(uc_engine *uc, void *user)
{
    (void)uc, (void)user;
    return true;
}

static bool hook_mem_invalid(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
                             int64_t value, void *user)
{
    (void)size, (void)value;
    struct machine *m = user;
    /* The first touch of a lazy mapping's chunk (mm_lazy.h): mapped now,
     * Unicorn retries the access. */
    if ((type == UC_MEM_READ_UNMAPPED || type == UC_MEM_WRITE_UNMAPPED ||
         type == UC_MEM_FETCH_UNMAPPED) &&
        lazy_fault(task_mm(m->current), addr))
        return true;
    m->current->fault_addr = addr;
    /* A data access: the PC of the instruction that made it, not of its
     * block (engine_exact.h). An instruction fetch stops at its block's
     * start, which is the PC already. */
    if (type != UC_MEM_FETCH_UNMAPPED && type != UC_MEM_FETCH_PROT)
        engine_exact_restore_caller(uc, task_abi(m->current));
    return false;
}

/* A run ends only when asymu stops it (a syscall, the slice's budget, a
 * fault), never at an address: the engine uses Unicorn's exit set, left
 * empty, instead of uc_emu_start's `until`. Unicorn invalidates the
 * translation at `until` after every run, a failed soft-TLB fill of an
 * unmapped page each time: 11% of a sched_yield ping-pong between two
 * threads (bench/README.md, "Every run's end"). */
/* An engine's first hook makes Unicorn 2.1.1 initialise it
 * (uc_init_engine), which allocates a GArray that uc_close never frees (32
 * bytes an engine). LeakSanitizer reported it at every exit, and matching
 * it against a suppression made it symbolize the stack through all of
 * asymu's debug information: 0.3 s of CPU per sanitized run, about a third
 * of the sanitized suite. That one call runs with leak checking paused. */
uc_err engine_first_hook(uc_engine *uc, uc_hook *h, int type, void *callback, void *data)
{
    leakcheck_pause();
    uc_err e = uc_hook_add(uc, h, type, callback, data, 1, 0);
    leakcheck_resume();
    return e;
}

int engine_open(const struct abi *abi, struct machine *m, uc_engine **out)
{
    uc_engine *uc;
    uc_err e = uc_open(abi->arch, abi->mode, &uc);
    if (e != UC_ERR_OK)
        return engine_errno(e);
    uc_hook h;
    int err;
    int model = abi->isa == LOADER_ISA_AARCH64 ? UC_CPU_ARM64_A72 : UC_CPU_ARM_MAX;
    if ((e = uc_ctl_set_cpu_model(uc, model)) != UC_ERR_OK ||
        (e = uc_ctl(uc, UC_CTL_WRITE(UC_CTL_TCG_BUFFER_SIZE, 1), TCG_BUFFER_BYTES)) !=
            UC_ERR_OK ||
        (e = uc_ctl_exits_enable(uc)) != UC_ERR_OK ||
        (e = engine_first_hook(uc, &h, UC_HOOK_INTR, (void *)hook_intr, m)) != UC_ERR_OK ||
        (e = uc_hook_add(uc, &h, UC_HOOK_MEM_INVALID, (void *)hook_mem_invalid, m, 1, 0)) !=
            UC_ERR_OK ||
        (e = uc_hook_add(uc, &h, UC_HOOK_BLOCK,
                         abi->isa == LOADER_ISA_AARCH64 ? (void *)hook_block_a64
                                                        : (void *)hook_block_a32,
                         m, 1, 0)) != UC_ERR_OK) {
        err = engine_errno(e);
        goto fail_setup;
    }
    if (abi->isa != LOADER_ISA_AARCH64 &&
        (e = uc_hook_add(uc, &h, UC_HOOK_INSN_INVALID, (void *)hook_insn_invalid, m, 1, 0)) !=
            UC_ERR_OK) {
        err = engine_errno(e);
        goto fail_setup;
    }
    err = abi->setup_cpu(uc);
    if (!err && abi->isa == LOADER_ISA_AARCH64)
        err = sysreg_setup_aarch64(uc, m);
    if (err)
        goto fail_setup;
    engine_exact_find(uc, abi);
    *out = uc;
    return 0;

fail_setup:
    uc_close(uc);
    return err;
}

void engine_close(uc_engine *uc)
{
    uc_close(uc);
}

int engine_run(struct task *t)
{
    struct mm *mm = task_mm(t);
    const struct abi *abi = mm->abi;
    uc_engine *uc = mm->uc;
    uint64_t pc = abi->get_pc(uc);
    t->fault_addr = 0;
    uc_err e = uc_emu_start(uc, pc, 0 /* no `until`: engine_open */, 0, 0);
    if (t->machine->arm_undef) {
        t->machine->arm_undef = false;
        e = UC_ERR_INSN_INVALID;
    }
    if (e == UC_ERR_OK)
        return 0;
    /* An AArch32 undefined instruction ends the run (hook_intr): it may be
     * a register read Linux allows a compat task, or a debugger's
     * breakpoint. */
    if (e == UC_ERR_INSN_INVALID && (sysreg_emulate_arm_undef(t) || breakpoint_arm_undef(t)))
        return 0;
    const char *what;
    uc_err kind = fault_kind(t, e);
    int sig = fault_signal(kind, &what);
    bool denied = kind == UC_ERR_READ_PROT || kind == UC_ERR_WRITE_PROT || kind == UC_ERR_FETCH_PROT;
    signal_fault_code(t, sig, denied ? SEGV_ACCERR : 1 /* SEGV_MAPERR, BUS_ADRALN, ILL_ILLOPC */,
                      abi->get_pc(uc), t->fault_addr, what);
    return 0;
}

void emu_unicorn_version(char *out, size_t len)
{
    unsigned major, minor;
    unsigned full = uc_version(&major, &minor);
    snprintf(out, len, "%u.%u.%u", major, minor, (full >> 8) & 0xff);
}
