/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel-fixture.h - what the kernel layer's unit tests share: the smallest
 * real machine its syscall handlers run on. The machine is booted as asymu
 * boots one (machine_boot: scheduler, file namespace on an empty scratch
 * sysroot, no sandbox), pid 1 is task_create_init's, and it gets an address
 * space of its own (mm_new: one engine, no program) with a scratch page the
 * tests pass arguments through, as a guest passes them in its memory. No
 * instruction ever runs: a test calls the handlers as syscall_dispatch
 * would, and afterwards reads what they wrote. */
#ifndef ASYMU_KERNEL_FIXTURE_H
#define ASYMU_KERNEL_FIXTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "abi.h"
#include "emu.h"
#include "loader.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"

/* Where the scratch memory lies in the guest, and its size. */
#define KF_SCRATCH 0x200000u
#define KF_SCRATCH_LEN 0x10000u

struct kfix {
    struct machine m;
    struct emu_config cfg;
    struct task *init;
    char root[256]; /* the scratch sysroot (a host directory) */
    uint64_t next;  /* the next free byte of the scratch memory (kf_put) */
};

static inline struct kfix *kf_boot(enum loader_isa isa)
{
    struct kfix *k = calloc(1, sizeof *k);
    assert_non_null(k);
    const char *tmp = getenv("TMPDIR");
    snprintf(k->root, sizeof k->root, "%s/kernel-fixture-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(k->root));
    k->cfg = (struct emu_config){
        .cpus = 2,
        .cmdline = "allow_mismatched_32bit_el0",
        .policy = SCHED_POLICY_UPSTREAM,
        .seed = 1,
        .sysroot = k->root,
        .no_sandbox = true,
        .max_mem = 64u << 20,
        .max_procs = 16,
        .tmp_size = 1u << 20,
    };
    cpumask_set_cpu(0, &k->cfg.aarch32);
    cpumask_set_cpu(1, &k->cfg.aarch32);
    assert_int_equal(machine_boot(&k->m, &k->cfg), 0);
    k->init = task_create_init(&k->m);
    assert_non_null(k->init);
    int err = 0;
    k->init->proc->mm = mm_new(abi_for_isa(isa), &k->m, &err);
    assert_int_equal(err, 0);
    assert_non_null(k->init->proc->mm);
    assert_int_equal(mm_map_fixed(k->init->proc->mm, KF_SCRATCH, KF_SCRATCH_LEN,
                                  PROT_READ | PROT_WRITE),
                     0);
    k->next = KF_SCRATCH;
    return k;
}

static inline void kf_shutdown(struct kfix *k)
{
    machine_shutdown(&k->m);
    rmdir(k->root);
    free(k);
}

/* Copies len bytes into the scratch memory of t (pid 1's, or a forked
 * child's copy of it): their guest address. */
static inline uint64_t kf_put_for(struct kfix *k, struct task *t, const void *p, size_t len)
{
    uint64_t at = (k->next + 15) & ~UINT64_C(15);
    assert_true(at + len <= KF_SCRATCH + KF_SCRATCH_LEN);
    assert_int_equal(copy_to_guest(task_mm(t), at, p, len), 0);
    k->next = at + len;
    return at;
}

static inline uint64_t kf_put(struct kfix *k, const void *p, size_t len)
{
    return kf_put_for(k, k->init, p, len);
}

static inline uint64_t kf_str(struct kfix *k, const char *s)
{
    return kf_put(k, s, strlen(s) + 1);
}

/* Reads len bytes of t's memory at addr. */
static inline void kf_get(struct task *t, uint64_t addr, void *p, size_t len)
{
    assert_int_equal(copy_from_guest(task_mm(t), p, addr, len), 0);
}

/* A syscall handler's result for t with up to six arguments. */
#define KF_CALL(fn, t, ...) ((fn)((t), (const uint64_t[6]){__VA_ARGS__}))

#endif
