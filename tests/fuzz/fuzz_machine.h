/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_machine.h - the emulated machine the kernel-layer harnesses boot:
 * 8 vCPUs with AArch32 on 0-3 (as `asymu run` by default), an empty
 * read-only sysroot, no seccomp sandbox (the fuzzer itself needs host
 * calls), and pid 1 a real static program of the chosen ISA. */
#ifndef ASYMU_FUZZ_MACHINE_H
#define ASYMU_FUZZ_MACHINE_H

#include "emu.h"
#include "fuzz_entry.h"
#include "loader.h"

#include <stdlib.h>

struct machine;

static inline struct machine *fuzz_machine_boot(enum loader_isa isa)
{
    static char *argv_aarch64[] = {FUZZ_GUEST_AARCH64, NULL};
    static char *argv_armhf[] = {FUZZ_GUEST_ARMHF, NULL};
    static char *envp[] = {"PATH=/bin", NULL};
    static struct emu_config cfg[2];
    struct emu_config *c = &cfg[isa == LOADER_ISA_ARM];
    *c = (struct emu_config){
        .cpus = 8,
        .cmdline = "allow_mismatched_32bit_el0",
        .policy = SCHED_POLICY_UPSTREAM,
        .seed = 1,
        .sysroot = FUZZ_SYSROOT,
        .no_sandbox = true,
        .max_mem = 256u << 20,
        .max_procs = 16,
        .argc = 1,
        .argv = isa == LOADER_ISA_ARM ? argv_armhf : argv_aarch64,
        .envp = envp,
    };
    for (unsigned cpu = 0; cpu < 4; cpu++)
        cpumask_set_cpu(cpu, &c->aarch32);
    struct machine *m = emu_fuzz_boot(c);
    if (!m)
        abort(); /* the harness cannot work at all: say so at once */
    return m;
}

#endif
