/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-fixture.h - what the scheduler's unit tests share: a booted machine
 * with its kernel log, cpulist helpers, and affinity shorthands. */
#ifndef ASYMU_SCHED_FIXTURE_H
#define ASYMU_SCHED_FIXTURE_H

#include <stdlib.h>

#include "scheduler.h"

/* A booted machine and its kernel log. */
struct vm {
    struct klog log;
    struct sched s;
};

/* Builds a mask from a cpulist the test knows is valid. */
static inline struct cpumask mask_of(const char *list)
{
    struct cpumask m;
    char why[128];
    assert_int_equal(cpulist_parse(list, NR_CPUS_MAX, &m, why, sizeof(why)), 0);
    return m;
}

static inline const char *list_of(const struct cpumask *m)
{
    static char bufs[4][4096];
    static unsigned next;
    char *buf = bufs[next++ % 4];
    cpulist_format(m, buf, 4096);
    return buf;
}

#define assert_mask(m, list) assert_string_equal(list_of(m), (list))

static inline struct vm *boot_cfg(struct sched_config *cfg)
{
    struct vm *vm = calloc(1, sizeof(*vm));
    assert_non_null(vm);
    assert_int_equal(klog_init(&vm->log, 64), 0);
    cfg->log = &vm->log;
    assert_int_equal(sched_init(&vm->s, cfg), 0);
    return vm;
}

/* nr_cpus vCPUs with M = m32, 100-block slices of 10 ns per block. */
static inline struct vm *boot(unsigned nr_cpus, const char *m32, bool param, enum sched_policy_id policy)
{
    struct sched_config cfg = {
        .nr_cpus = nr_cpus,
        .aarch32 = mask_of(m32),
        .allow_mismatched_32bit_el0 = param,
        .policy = policy,
        .seed = 1,
        .slice_blocks = 100,
        .ns_per_block = 10,
    };
    return boot_cfg(&cfg);
}

static inline void shutdown_vm(struct vm *vm)
{
    sched_destroy(&vm->s);
    klog_destroy(&vm->log);
    free(vm);
}

/* The whole kernel log as dmesg prints it. */
static inline const char *dmesg(struct vm *vm)
{
    static char buf[16384];
    klog_read(&vm->log, 0, 0, buf, sizeof(buf));
    return buf;
}

static inline void assert_invariants(struct vm *vm)
{
    char report[4096];
    if (sched_check_invariants(&vm->s, report, sizeof(report)) != 0)
        fail_msg("invariant violated:\n%s", report);
}

static inline const char *affinity_of(struct vm *vm, const struct sched_task *t)
{
    struct cpumask m;
    sched_task_getaffinity(&vm->s, t, &m);
    return list_of(&m);
}

static inline int setaff(struct vm *vm, struct sched_task *t, const char *list)
{
    struct cpumask m = mask_of(list);
    return sched_task_setaffinity(&vm->s, t, t, &m);
}

#endif
