/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_syscall.c - the syscall layer, coverage-guided: syscalls with
 * numbers and arguments decoded from the input, issued through the real
 * dispatch path into pid 1 of a booted machine (one per ISA, booted once),
 * as tests/guest/fuzz.c does from inside a guest at random.
 *
 * Input: byte 0 picks the ISA (bit 0: 0 aarch64, 1 armhf); byte 1 * 16
 * bytes follow that are copied to a scratch buffer in guest memory (at
 * SCRATCH_ADDR, the rest zero); then up to MAX_CALLS calls, each a 16-bit
 * number and six arguments of a 1-byte kind plus its value (see argument()).
 *
 * Left out, because they end or replace the process or make tasks that
 * never run: exit, exit_group, execve, execveat, clone, clone3, fork,
 * vfork. Everything else is issued, signals to self included; a call that
 * waits is resumed once and then abandoned (nothing else runs to wake it).
 * If a call ends the process anyway (a SIGKILL to itself), or every
 * REBOOT_EVERY inputs, the machine is booted again; between inputs the
 * descriptors above 2, the signal state, the resource limits and the
 * working directory are reset. If the scratch buffer still cannot be
 * mapped (a limit earlier inputs reached, such as the mapping count), the
 * machine is booted again for that input. */
#include "abi.h"
#include "file.h"
#include "fuzz_input.h"
#include "fuzz_machine.h"
#include "loader.h"
#include "machine.h"
#include "mm.h"
#include "rlimit.h"
#include "task.h"

#include <string.h>
#include <sys/resource.h>
#include <unicorn/unicorn.h>

#define SCRATCH_ADDR 0x20000000u
#define SCRATCH_SIZE 0x10000u
#define MAX_CALLS 32
#define REBOOT_EVERY 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_state {
    struct machine *m;
    uint64_t sp; /* the stack pointer exec left */
    unsigned inputs;
};

static struct fuzz_state machines[2];

static const char *const left_out[] = {"exit",  "exit_group", "execve", "execveat",
                                       "clone", "clone3",     "fork",   "vfork"};

static bool is_left_out(const struct abi *abi, uint64_t nr)
{
    const char *name = abi->syscall_name(nr);
    for (size_t i = 0; name && i < sizeof left_out / sizeof *left_out; i++)
        if (strcmp(name, left_out[i]) == 0)
            return true;
    return false;
}

static uint64_t stack_pointer(struct task *t)
{
    uint64_t sp = 0;
    if (task_abi(t)->isa == LOADER_ISA_AARCH64) {
        uc_reg_read(task_mm(t)->uc, UC_ARM64_REG_SP, &sp);
    } else {
        uint32_t r = 0;
        uc_reg_read(task_mm(t)->uc, UC_ARM_REG_SP, &r);
        sp = r;
    }
    return sp;
}

static struct fuzz_state *machine_for(unsigned isa_bit, bool reboot)
{
    struct fuzz_state *s = &machines[isa_bit];
    struct task *t = s->m ? emu_fuzz_task(s->m) : NULL;
    bool dead = t && (t->state == TASK_DEAD || t->proc->exiting || t->proc->zombie);
    if (s->m && (reboot || dead || s->inputs >= REBOOT_EVERY)) {
        emu_fuzz_shutdown(s->m);
        s->m = NULL;
    }
    if (!s->m) {
        s->m = fuzz_machine_boot(isa_bit ? LOADER_ISA_ARM : LOADER_ISA_AARCH64);
        s->sp = stack_pointer(emu_fuzz_task(s->m));
        s->inputs = 0;
    }
    s->inputs++;
    return s;
}

/* The state one input leaves that would make the next one behave
 * differently: its descriptors, signals, limits and working directory.
 * (An RLIMIT_AS below what is mapped made the scratch mapping fail.) */
static void reset_task(struct task *t)
{
    for (int fd = 3; fd < FD_MAX; fd++)
        if (t->proc->files->fd[fd])
            fd_close(t, fd);
    t->sigmask = 0;
    t->restore_sigmask = false;
    memset(&t->pending, 0, sizeof t->pending);
    memset(&t->proc->pending, 0, sizeof t->proc->pending);
    strcpy(t->proc->cwd, "/");
    rlimit_init(t->proc);
    task_mm(t)->max_as = rlimit_cur(t->proc, RLIMIT_AS);
}

/* Pid 1 of the machine for the input's ISA, reset, with the scratch
 * buffer mapped afresh (zeroed). */
static struct task *prepare_task(struct fuzz_state **s, unsigned isa_bit)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        *s = machine_for(isa_bit, attempt > 0);
        struct task *t = emu_fuzz_task((*s)->m);
        reset_task(t);
        if (mm_map_fixed(task_mm(t), SCRATCH_ADDR, SCRATCH_SIZE, 3 /* PROT_READ | PROT_WRITE */) == 0)
            return t;
    }
    abort(); /* not even a machine just booted can map it */
}

static uint64_t argument(struct fuzz_input *in, const struct fuzz_state *s,
                         const int64_t *results, unsigned ncalls)
{
    static const uint64_t interesting[] = {
        0, 1, 2, 3, 4, 8, 16, 64, 255, 256, 1024, 4096, 65536, 0x7fffffff, 0x80000000,
        0xffffffff, UINT64_MAX, (uint64_t)-100 /* AT_FDCWD */, 0x800 /* O_NONBLOCK */,
        0x80000 /* O_CLOEXEC */, 0x4000 /* guest O_DIRECTORY */};
    unsigned kind = (unsigned)fuzz_take(in, 1);
    switch (kind % 8) {
    case 0:
        return (uint64_t)(int64_t)(int8_t)fuzz_take(in, 1);
    case 1:
        return SCRATCH_ADDR + fuzz_take(in, 2) % SCRATCH_SIZE;
    case 2:
        return fuzz_take(in, 4);
    case 3:
        return fuzz_take(in, 8);
    case 4:
        return s->sp + (uint64_t)(int64_t)(int16_t)fuzz_take(in, 2);
    case 5: /* what an earlier call returned: a descriptor, an address */
        return ncalls ? (uint64_t)results[fuzz_take(in, 1) % ncalls] : 0;
    case 6:
        return interesting[fuzz_take(in, 1) % (sizeof interesting / sizeof *interesting)];
    default: /* unmapped: the null page, or the top of the address space */
        return fuzz_take(in, 1) & 1 ? 8 : UINT64_MAX - 4095;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size, 0};
    struct fuzz_state *s;
    struct task *t = prepare_task(&s, fuzz_take(&in, 1) & 1);
    struct mm *mm = task_mm(t);
    size_t memlen = fuzz_take(&in, 1) * 16;
    if (memlen > in.size - in.pos)
        memlen = in.size - in.pos;
    if (copy_to_guest(mm, SCRATCH_ADDR, in.data + in.pos, memlen) < 0)
        abort();
    in.pos += memlen;

    int64_t results[MAX_CALLS];
    unsigned ncalls = 0;
    while (fuzz_more(&in) && ncalls < MAX_CALLS) {
        uint64_t v = fuzz_take(&in, 2), a[6];
        /* The top values reach ARM's private calls (0xf0001...). */
        uint64_t nr = v >= 0xff00 ? 0xf0000 + (v & 0xff) : v % 512;
        for (int i = 0; i < 6; i++)
            a[i] = argument(&in, s, results, ncalls);
        if (is_left_out(task_abi(t), nr))
            continue;
        results[ncalls++] = emu_fuzz_syscall(s->m, nr, a);
        if (t->state == TASK_DEAD || t->proc->exiting)
            break;
    }
    return 0;
}
