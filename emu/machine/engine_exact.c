/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine_exact.c - the exact guest state at a memory fault (engine_exact.h).
 *
 * Unicorn 2.1.1 ends a run at an unmapped or protected data access with
 * cpu_loop_exit, not cpu_loop_exit_restore: the registers hold every
 * instruction of the translated block before the faulting one (TCG writes
 * its globals back before a guest load or store), but the PC still holds
 * the block's first instruction. Later Unicorns restore it. A signal
 * handler that reads the PC (the JVM's implicit null checks, Go's recover)
 * or returns to it (and would re-run instructions that already ran) needs
 * the faulting instruction's, as Linux gives.
 *
 * QEMU finds it from the host address inside the translated code:
 * cpu_restore_state, which libunicorn exports per architecture, looks the
 * block up by that address and sets the PC (and the AArch32 IT state) of
 * the guest instruction it belongs to. It takes the engine's CPUState,
 * which Unicorn's API does not give: engine_exact_find locates the
 * pointer to it inside the engine once, with a marker written to the PC,
 * and checks it against the CPUState's pointer back to its engine at every
 * engine open; where it is not found, faults keep the block's PC. The cost
 * is paid only when a fault happens. */
#include "engine_exact.h"
#include "abi.h"
#include "loader.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>
#include <unistd.h>
#include <unwind.h>

/* libunicorn's, per architecture (QEMU's accel/tcg/translate-all.c and
 * cpu-exec-common.c). */
bool cpu_restore_state_aarch64(void *cpu, uintptr_t host_pc, bool will_exit);
bool cpu_restore_state_arm(void *cpu, uintptr_t host_pc, bool will_exit);
void cpu_loop_exit_aarch64(void *cpu) __attribute__((noreturn));
void cpu_loop_exit_arm(void *cpu) __attribute__((noreturn));

/* QEMU takes a return address, one past a call: it looks up the
 * instruction holding host_pc - GETPC_ADJ. */
#define GETPC_ADJ 2

/* Where the CPUState pointer lies in an engine, and where the CPUState
 * points back to its engine: facts of the linked libunicorn, the same for
 * every engine of the process, so found once (-1: not found).
 * Process-wide: they describe the process's libunicorn, not a machine. */
static long cpu_field = -1, back_field = -1;
/* /proc/self/maps, opened before the sandbox (engine_exact_open).
 * Process-wide: the host process's map, for every machine of it. */
static int maps_fd = -1;

/* A marker for the PC, word-aligned for both ISAs. */
#define PC_MARK_64 0x5afec0de5afec0d8ull
#define PC_MARK_32 0x5afec0d8u
/* How far into an engine and into a candidate CPUState to look. */
#define ENGINE_SCAN_BYTES 65536
#define CPU_SCAN_BYTES (256 * 1024)

void engine_exact_open(void)
{
    if (maps_fd < 0)
        maps_fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
}

struct range {
    uintptr_t lo, hi;
};

/* The host's readable and writable data mappings, where a CPUState can lie
 * (not code, nor Unicorn's translation buffer): the candidates' words are
 * read only inside them. Returns how many, at most max. */
static size_t readable_ranges(struct range *r, size_t max)
{
    size_t cap = 1 << 20, len = 0, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return 0;
    ssize_t got;
    while (len < cap && (got = pread(maps_fd, buf + len, cap - len, (off_t)len)) > 0)
        len += (size_t)got;
    buf[len] = '\0';
    for (char *line = buf; line && *line && n < max;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        uintptr_t lo, hi;
        char perms[5];
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s", &lo, &hi, perms) == 3 &&
            !strncmp(perms, "rw-", 3))
            r[n++] = (struct range){lo, hi};
        line = next;
    }
    free(buf);
    return n;
}

static const struct range *range_of(const struct range *r, size_t n, uintptr_t p)
{
    for (size_t i = 0; i < n; i++)
        if (p >= r[i].lo && p < r[i].hi)
            return &r[i];
    return NULL;
}

/* Whether [p, p + len) of a candidate CPUState holds the PC marker and a
 * pointer back to uc; *back gets the latter's offset. It reads a mapping,
 * across whatever objects lie in it: AddressSanitizer must not check
 * these loads (the fixed-size copies compile to plain loads). */
__attribute__((no_sanitize("address")))
static bool looks_like_cpu(uintptr_t p, size_t len, bool is64, uc_engine *uc, long *back)
{
    bool mark = false;
    *back = -1;
    for (size_t off = 0; off + 8 <= len; off += 4) {
        const unsigned char *at = (const unsigned char *)p + off;
        uint64_t w64;
        uint32_t w32;
        __builtin_memcpy(&w64, at, 8);
        __builtin_memcpy(&w32, at, 4);
        if (off % 8 == 0 && w64 == (uint64_t)(uintptr_t)uc && *back < 0)
            *back = (long)off;
        if (is64 ? (off % 8 == 0 && w64 == PC_MARK_64) : w32 == PC_MARK_32)
            mark = true;
        if (mark && *back >= 0)
            break;
    }
    return mark && *back >= 0;
}

static void find_cpu_field(uc_engine *uc, const struct abi *abi)
{
    bool is64 = abi->isa == LOADER_ISA_AARCH64;
    struct range *r = malloc(4096 * sizeof *r);
    size_t n = r ? readable_ranges(r, 4096) : 0;
    int pc_reg = is64 ? UC_ARM64_REG_PC : UC_ARM_REG_PC;
    uint64_t pc = 0, mark = is64 ? PC_MARK_64 : PC_MARK_32;
    uc_reg_read(uc, pc_reg, &pc);
    uc_reg_write(uc, pc_reg, &mark);
    size_t size = malloc_usable_size(uc);
    if (size > ENGINE_SCAN_BYTES)
        size = ENGINE_SCAN_BYTES;
    for (size_t k = 0; n && k + sizeof(uintptr_t) <= size; k += sizeof(uintptr_t)) {
        uintptr_t p;
        memcpy(&p, (const char *)uc + k, sizeof p);
        const struct range *in = range_of(r, n, p);
        if (!in || p % sizeof(uintptr_t))
            continue;
        size_t len = in->hi - p < CPU_SCAN_BYTES ? in->hi - p : CPU_SCAN_BYTES;
        long back;
        if (looks_like_cpu(p, len, is64, uc, &back)) {
            cpu_field = (long)k, back_field = back;
            break;
        }
    }
    uc_reg_write(uc, pc_reg, &pc);
    free(r);
}

/* uc's CPUState, or NULL where it was not found. */
static void *engine_exact_cpu(uc_engine *uc)
{
    if (cpu_field < 0)
        return NULL;
    void *cpu;
    memcpy(&cpu, (const char *)uc + cpu_field, sizeof cpu);
    uc_engine *back;
    memcpy(&back, (const char *)cpu + back_field, sizeof back);
    return back == uc ? cpu : NULL;
}

void engine_exact_find(uc_engine *uc, const struct abi *abi)
{
    if (cpu_field < 0 && maps_fd >= 0)
        find_cpu_field(uc, abi);
}

bool engine_exact_restore(uc_engine *uc, const struct abi *abi, uintptr_t host_pc)
{
    void *cpu = engine_exact_cpu(uc);
    if (!cpu)
        return false;
    return abi->isa == LOADER_ISA_AARCH64 ? cpu_restore_state_aarch64(cpu, host_pc, true)
                                          : cpu_restore_state_arm(cpu, host_pc, true);
}

struct unwind_walk {
    uc_engine *uc;
    const struct abi *abi;
    bool restored;
};

/* The guest access's place in the translated code, seen from the return
 * address of a call into a memory helper. TCG's x86-64 back end calls the
 * load helpers from a slow path after the block's code, passing the inline
 * place as the helper's last argument: `lea disp32(%rip), %rcx` (or
 * `movabs $imm64, %rcx`), then `call rel32` (or `call *disp32(%rip)`).
 * The store helpers are entered by `push %r8; jmp`, so their return
 * address is the inline place itself (QEMU 5's tcg/i386 ldst slow paths). */
static uintptr_t inline_place(uintptr_t ret)
{
    const uint8_t *r = (const uint8_t *)ret;
    const uint8_t *call = r[-5] == 0xe8 ? r - 5 : r[-6] == 0xff && r[-5] == 0x15 ? r - 6 : NULL;
    if (!call)
        return ret;
    if (call[-7] == 0x48 && call[-6] == 0x8d && call[-5] == 0x0d) {
        int32_t disp;
        memcpy(&disp, call - 4, sizeof disp);
        return (uintptr_t)call + (uintptr_t)(intptr_t)disp;
    }
    if (call[-10] == 0x48 && call[-9] == 0xb9) {
        uint64_t imm;
        memcpy(&imm, call - 8, sizeof imm);
        return (uintptr_t)imm;
    }
    return ret;
}

/* Each frame's return address, innermost first: the first one that lies in
 * translated code is the memory helper's caller. */
static _Unwind_Reason_Code unwind_frame(struct _Unwind_Context *ctx, void *arg)
{
    struct unwind_walk *w = arg;
    uintptr_t ip = (uintptr_t)_Unwind_GetIP(ctx);
    /* In translated code: a block holds it (restoring from a slow path's
     * address, past every instruction's code, changes nothing). */
    if (ip && engine_exact_restore(w->uc, w->abi, ip)) {
        uintptr_t place = inline_place(ip);
        w->restored = place == ip || engine_exact_restore(w->uc, w->abi, place);
        return _URC_END_OF_STACK;
    }
    return _URC_NO_REASON;
}

bool engine_exact_restore_caller(uc_engine *uc, const struct abi *abi)
{
    if (!engine_exact_cpu(uc))
        return false;
    struct unwind_walk w = {uc, abi, false};
    _Unwind_Backtrace(unwind_frame, &w);
    return w.restored;
}

bool engine_exact_abort(uc_engine *uc, const struct abi *abi, int sig, uintptr_t host_pc)
{
    void *cpu = engine_exact_cpu(uc);
    /* The access is translated code's own (a soft-TLB hit), or a memory
     * helper's that translated code called (a miss): through the signal
     * frame to that code. */
    if (!cpu || (!engine_exact_restore(uc, abi, host_pc + GETPC_ADJ) &&
                 !engine_exact_restore_caller(uc, abi)))
        return false;
    uc_emu_stop(uc);
    /* Unicorn's sigsetjmp keeps no signal mask: leaving the handler by
     * longjmp would leave sig blocked. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    if (abi->isa == LOADER_ISA_AARCH64)
        cpu_loop_exit_aarch64(cpu);
    cpu_loop_exit_arm(cpu);
}
