/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sched-balance.c - scheduling domains from the topology (sched/
 * topology.c), periodic load balancing at the tick (sched/balance.c) and
 * wake-up and fork placement (sched/place.c): docs/scheduler.md rules
 * B1-B11. Exact values throughout. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler.h"

#include "sched-fixture.h"

/* nr_cpus vCPUs, clusters and capacities per vCPU (NULL: one cluster, all
 * 1024), M = m32 with the boot parameter when non-empty, 1 ms slices (10000
 * blocks of 100 ns), HZ 250. */
static struct vm *boot_topo(unsigned nr_cpus, const uint16_t *cluster, const uint16_t *caps,
                            const char *m32)
{
    struct sched_config cfg = {
        .nr_cpus = nr_cpus,
        .aarch32 = mask_of(m32),
        .allow_mismatched_32bit_el0 = m32[0] != '\0',
        .policy = SCHED_POLICY_UPSTREAM,
        .seed = 1,
        .slice_blocks = 10000,
        .ns_per_block = 100,
        .capacity = caps,
        .cluster = cluster,
    };
    return boot_cfg(&cfg);
}

/* gs201's cpu-map: clusters 0-3, 4-5, 6-7. */
static const uint16_t gs201_clusters[8] = {0, 0, 0, 0, 1, 1, 2, 2};
static const uint16_t gs201_caps[8] = {256, 256, 256, 256, 620, 620, 1024, 1024};

static struct sched_task *step(struct vm *vm)
{
    struct sched_task *t;
    unsigned cpu;
    int d;
    while ((d = sched_pick(&vm->s, &t, &cpu)) == SCHED_MIGRATED)
        ;
    assert_int_equal(d, SCHED_RUN);
    sched_account(&vm->s, t, cpu, t->slice_left);
    return t;
}

/* B1: the levels, spans and flags sd_init() gives. */
static void test_domains_from_topology(void **state)
{
    (void)state;
    /* No clusters: one MC level over every vCPU, the cache domain. */
    struct vm *vm = boot_topo(4, NULL, NULL, "");
    for (unsigned cpu = 0; cpu < 4; cpu++) {
        const struct sched_cpu *rq = &vm->s.cpus[cpu];
        assert_int_equal(rq->nr_sd, 1);
        assert_int_equal(rq->sd[0].level, SCHED_SD_MC);
        assert_mask(&rq->sd[0].span, "0-3");
        assert_int_equal(rq->sd[0].weight, 4);
        assert_int_equal(rq->sd[0].flags, SCHED_SD_SHARE_PKG_RESOURCES | SCHED_SD_PREFER_SIBLING);
        assert_int_equal(rq->sd[0].imbalance_pct, 117);
        assert_int_equal(rq->sd[0].busy_factor, 16);
        assert_int_equal(rq->sd[0].min_interval, 4);
        assert_int_equal(rq->sd[0].max_interval, 8);
        assert_int_equal(rq->sd[0].balance_interval, 4);
        assert_int_equal(rq->sd[0].cache_nice_tries, 1);
    }
    assert_ptr_equal(sched_cpu_llc(&vm->s, 2), &vm->s.cpus[2].sd[0]);
    assert_true(sched_cpus_share_cache(&vm->s, 0, 3));
    shutdown_vm(vm);

    /* Three clusters of different capacities: MC per cluster, DIE over
     * all with SD_ASYM_CPUCAPACITY, which clears the MC's PREFER_SIBLING. */
    vm = boot_topo(8, gs201_clusters, gs201_caps, "");
    const struct sched_cpu *rq = &vm->s.cpus[5];
    assert_int_equal(rq->nr_sd, 2);
    assert_int_equal(rq->sd[0].level, SCHED_SD_MC);
    assert_mask(&rq->sd[0].span, "4-5");
    assert_int_equal(rq->sd[0].flags, SCHED_SD_SHARE_PKG_RESOURCES);
    assert_int_equal(rq->sd[1].level, SCHED_SD_DIE);
    assert_mask(&rq->sd[1].span, "0-7");
    assert_int_equal(rq->sd[1].flags, SCHED_SD_ASYM_CPUCAPACITY | SCHED_SD_PREFER_SIBLING);
    assert_int_equal(rq->sd[1].max_interval, 16);
    assert_mask(&vm->s.cpus[0].sd[0].span, "0-3");
    assert_mask(&vm->s.cpus[7].sd[0].span, "6-7");
    assert_true(sched_cpus_share_cache(&vm->s, 4, 5));
    assert_false(sched_cpus_share_cache(&vm->s, 3, 4));
    shutdown_vm(vm);

    /* One cluster of several capacities (sm8550): one MC level, asymmetric. */
    static const uint16_t one[8] = {0};
    vm = boot_topo(8, one, gs201_caps, "");
    assert_int_equal(vm->s.cpus[0].nr_sd, 1);
    assert_int_equal(vm->s.cpus[0].sd[0].flags, SCHED_SD_SHARE_PKG_RESOURCES |
                                                    SCHED_SD_ASYM_CPUCAPACITY |
                                                    SCHED_SD_PREFER_SIBLING);
    shutdown_vm(vm);

    /* A cluster of one vCPU has no MC level (sd_degenerate()): no cache
     * domain; one vCPU has no domain at all. */
    static const uint16_t lone[3] = {0, 0, 1};
    vm = boot_topo(3, lone, NULL, "");
    assert_int_equal(vm->s.cpus[0].nr_sd, 2);
    assert_int_equal(vm->s.cpus[2].nr_sd, 1);
    assert_int_equal(vm->s.cpus[2].sd[0].level, SCHED_SD_DIE);
    assert_null(sched_cpu_llc(&vm->s, 2));
    assert_false(sched_cpus_share_cache(&vm->s, 1, 2));
    shutdown_vm(vm);
    vm = boot_topo(1, NULL, NULL, "");
    assert_int_equal(vm->s.cpus[0].nr_sd, 0);
    shutdown_vm(vm);
}

/* B2: get_sd_balance_interval() in ticks. */
static void test_balance_interval(void **state)
{
    (void)state;
    struct vm *vm = boot_topo(4, NULL, NULL, "");
    const struct sched_domain *sd = &vm->s.cpus[0].sd[0];
    /* 4 ms idle: one tick at HZ 250; busy 64 ms: 16 ticks, less one. */
    assert_int_equal(sched_balance_interval(&vm->s, sd, false), 1);
    assert_int_equal(sched_balance_interval(&vm->s, sd, true), 15);
    shutdown_vm(vm);
    vm = boot_topo(8, gs201_clusters, NULL, "");
    /* DIE of 8: 128 ms busy, 32 ticks less one; MC of 2: 32 ms, 7. */
    assert_int_equal(sched_balance_interval(&vm->s, &vm->s.cpus[6].sd[1], true), 31);
    assert_int_equal(sched_balance_interval(&vm->s, &vm->s.cpus[6].sd[0], true), 7);
    assert_int_equal(sched_balance_interval(&vm->s, &vm->s.cpus[6].sd[0], false), 1);
    shutdown_vm(vm);
    /* max_load_balance_interval: HZ * online CPUs / 10 = 50 on 2 vCPUs. */
    vm = boot_topo(2, NULL, NULL, "");
    struct sched_domain big = vm->s.cpus[0].sd[0];
    big.balance_interval = 1000;
    assert_int_equal(sched_balance_interval(&vm->s, &big, true), 50);
    shutdown_vm(vm);
}

/* B3-B6: 3 hogs on vCPU 0 and 1 on vCPU 1 of two: no vCPU is idle, so only
 * vCPU 1's periodic balance (every 7 ticks when busy) evens them out,
 * pulling the hog that ran least recently; 2 and 2 stay. */
static void test_periodic_balance_evens_busy_cpus(void **state)
{
    (void)state;
    struct vm *vm = boot_topo(2, NULL, NULL, "");
    struct sched_task t[4];
    sched_task_init(&vm->s, &t[0], 1, 1, "h0");
    assert_int_equal(setaff(vm, &t[0], "0"), 0);
    for (int i = 1; i < 4; i++)
        assert_int_equal(sched_task_fork(&vm->s, &t[0], &t[i], 1 + i, 1 + i), 0);
    assert_int_equal(setaff(vm, &t[3], "1"), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(setaff(vm, &t[i], "0-1"), 0);
    assert_int_equal(vm->s.cpus[0].nr_running, 3);
    assert_int_equal(vm->s.cpus[1].nr_running, 1);
    uint64_t moved_at = 0;
    struct sched_task *moved = NULL;
    for (int i = 0; i < 2000 && !moved; i++) {
        step(vm);
        for (int k = 0; k < 3; k++)
            if (t[k].cpu == 1) {
                moved = &t[k];
                moved_at = vm->s.cpus[1].clock_ns;
            }
    }
    assert_non_null(moved);
    /* At vCPU 1's seventh tick (28 ms), of the two hogs waiting on vCPU 0
     * (h2 is at its head, to run next), h0, which ran until 24 ms, not
     * h1, which ran until this tick (least recently run first, and h1 is
     * cache hot). */
    assert_int_equal(moved_at, 28000000);
    assert_ptr_equal(moved, &t[0]);
    assert_int_equal(t[0].exec_start_ns, 24000000);
    assert_int_equal(t[1].exec_start_ns, 28000000);
    assert_int_equal(vm->s.cpus[1].sd[0].balance_interval, 2);
    for (int i = 0; i < 4000; i++)
        step(vm);
    assert_int_equal(vm->s.cpus[0].nr_running, 2);
    assert_int_equal(vm->s.cpus[1].nr_running, 2);
    unsigned migrations = 0;
    for (int i = 0; i < 4; i++)
        migrations += t[i].nr_migrations;
    /* setaffinity moved t[3] once; balancing once. */
    assert_int_equal(migrations, 2);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* 4 hogs allowed on vCPUs 0-1 of four, two on each. Two on vCPU 0 block:
 * idle vCPU 0 pulls one from vCPU 1 at once (B7); they wake on their busy
 * previous vCPU (no idle vCPU they may use, B10): 3 against 1. vCPU 1's
 * periodic balance leaves it so, as 5.15's calculate_imbalance() does:
 * the domain's average load counts the idle vCPUs 2-3, so vCPU 1 (load
 * 1024) is already at the average (4096 over 4 vCPUs) and the imbalance
 * min((3072 - 1024), (1024 - 1024)) is 0; 5.15 evens such affinity-bound
 * loads only through group_imbalanced between levels, which this
 * one-level machine does not have. */
static void test_block_wake_then_periodic_balance(void **state)
{
    (void)state;
    struct vm *vm = boot_topo(4, NULL, NULL, "");
    struct sched_task t[4];
    sched_task_init(&vm->s, &t[0], 1, 1, "h0");
    for (int i = 1; i < 4; i++)
        assert_int_equal(sched_task_fork(&vm->s, &t[0], &t[i], 1 + i, 1 + i), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(setaff(vm, &t[i], i < 2 ? "0" : "1"), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(setaff(vm, &t[i], "0-1"), 0);
    for (int i = 0; i < 200; i++)
        step(vm);
    assert_int_equal(vm->s.cpus[0].nr_running, 2);
    assert_int_equal(vm->s.cpus[1].nr_running, 2);
    struct sched_task *on0[2];
    unsigned n = 0;
    for (int i = 0; i < 4; i++)
        if (t[i].cpu == 0)
            on0[n++] = &t[i];
    assert_int_equal(sched_task_block(&vm->s, on0[0]), 0);
    assert_int_equal(sched_task_block(&vm->s, on0[1]), 0);
    step(vm);
    assert_int_equal(vm->s.cpus[0].nr_running, 1);
    assert_int_equal(vm->s.cpus[1].nr_running, 1);
    assert_int_equal(sched_task_wake(&vm->s, on0[0]), 0);
    assert_int_equal(sched_task_wake(&vm->s, on0[1]), 0);
    assert_int_equal(on0[0]->cpu, 0);
    assert_int_equal(on0[1]->cpu, 0);
    assert_int_equal(vm->s.cpus[0].nr_running, 3);
    for (int i = 0; i < 4000; i++) {
        step(vm);
        assert_int_equal(vm->s.cpus[0].nr_running, 3);
        assert_int_equal(vm->s.cpus[1].nr_running, 1);
        assert_int_equal(vm->s.cpus[2].nr_running + vm->s.cpus[3].nr_running, 0);
    }
    /* vCPU 1 balanced and found nothing to do: its interval doubled. */
    assert_int_equal(vm->s.cpus[1].sd[0].balance_interval, 8);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* B5: can_migrate_task() never goes outside sched__allowed(): 32-bit hogs
 * crowded on the two 32-bit vCPUs stay there while the 64-bit-only vCPUs
 * balance; the 64-bit hog among them is the one pulled. */
static void test_periodic_balance_keeps_32bit_in_m(void **state)
{
    (void)state;
    struct vm *vm = boot_topo(4, NULL, NULL, "0-1");
    struct sched_task t[7];
    sched_task_init(&vm->s, &t[0], 1, 1, "h0");
    for (int i = 1; i < 7; i++)
        assert_int_equal(sched_task_fork(&vm->s, &t[0], &t[i], 1 + i, 1 + i), 0);
    /* h0-h4 32-bit, h5 64-bit pinned among them on vCPU 0, h6 on vCPU 2. */
    for (int i = 0; i < 5; i++)
        assert_int_equal(sched_task_exec(&vm->s, &t[i], true), 0);
    assert_int_equal(setaff(vm, &t[5], "0"), 0);
    assert_int_equal(setaff(vm, &t[6], "2"), 0);
    assert_int_equal(setaff(vm, &t[5], "0-3"), 0);
    assert_int_equal(setaff(vm, &t[6], "0-3"), 0);
    for (int i = 0; i < 3000; i++) {
        step(vm);
        for (int k = 0; k < 5; k++)
            assert_in_range(t[k].cpu, 0, 1);
    }
    /* The idle vCPU 3 took h5 at once, or vCPU 2 at its balance. */
    assert_in_range(t[5].cpu, 2, 3);
    assert_in_range(t[6].cpu, 2, 3);
    assert_int_equal(vm->s.cpus[0].nr_running + vm->s.cpus[1].nr_running, 5);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* B8-B10: a wake-up from a task running on vCPU 0 of a task last on vCPU
 * 1, where two hogs run: wake_affine_weight() takes the waker's vCPU (load
 * 1024 + 1024 against 2048 * 108%); woken by no task (a timer) it stays on
 * prev; an idle prev keeps it (wake_affine_idle()). */
static void test_wake_affine(void **state)
{
    (void)state;
    struct vm *vm = boot_topo(2, NULL, NULL, "");
    struct sched_task w, h, h2, e;
    sched_task_init(&vm->s, &w, 1, 1, "waker");
    assert_int_equal(setaff(vm, &w, "0"), 0);
    assert_int_equal(sched_task_fork(&vm->s, &w, &h, 2, 2), 0);
    assert_int_equal(sched_task_fork(&vm->s, &w, &h2, 4, 4), 0);
    assert_int_equal(sched_task_fork(&vm->s, &w, &e, 3, 3), 0);
    assert_int_equal(setaff(vm, &h, "1"), 0);
    assert_int_equal(setaff(vm, &h2, "1"), 0);
    assert_int_equal(setaff(vm, &e, "1"), 0);
    assert_int_equal(setaff(vm, &e, "0-1"), 0);
    assert_int_equal(e.cpu, 1);
    assert_int_equal(sched_task_block(&vm->s, &e), 0);
    /* Woken from no slice: prev, busy, and no idle vCPU. */
    assert_int_equal(sched_task_wake(&vm->s, &e), 0);
    assert_int_equal(e.cpu, 1);
    /* Woken by w while it runs on vCPU 0. */
    assert_int_equal(sched_task_block(&vm->s, &e), 0);
    struct sched_task *run;
    unsigned cpu;
    assert_int_equal(sched_pick(&vm->s, &run, &cpu), SCHED_RUN);
    assert_ptr_equal(run, &w);
    assert_int_equal(cpu, 0);
    assert_int_equal(sched_task_wake(&vm->s, &e), 0);
    assert_int_equal(e.cpu, 0);
    sched_account(&vm->s, run, cpu, 10);
    /* With vCPU 1 idle, prev wins. */
    assert_int_equal(setaff(vm, &e, "1"), 0);
    assert_int_equal(setaff(vm, &e, "0-1"), 0);
    assert_int_equal(sched_task_block(&vm->s, &e), 0);
    sched_task_exit(&vm->s, &h);
    sched_task_exit(&vm->s, &h2);
    assert_int_equal(sched_pick(&vm->s, &run, &cpu), SCHED_RUN);
    assert_int_equal(cpu, 0);
    assert_int_equal(sched_task_wake(&vm->s, &e), 0);
    assert_int_equal(e.cpu, 1);
    sched_account(&vm->s, run, cpu, 10);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* B11: fork by find_idlest_cpu(): the cluster with the most idle vCPUs
 * (the first of equals), the parent's while it has as many, then its first
 * idle vCPU: 1 and 2 in the parent's cluster, then 4 (0-3 has one idle
 * vCPU left, 4-5 two), 6, back to 3, then 5 and 7. */
static void test_fork_find_idlest_cpu(void **state)
{
    (void)state;
    struct vm *vm = boot_topo(8, gs201_clusters, NULL, "");
    struct sched_task p, kids[7];
    sched_task_init(&vm->s, &p, 1, 1, "parent");
    assert_int_equal(p.cpu, 0);
    static const unsigned want[7] = {1, 2, 4, 6, 3, 5, 7};
    for (int i = 0; i < 7; i++) {
        assert_int_equal(sched_task_fork(&vm->s, &p, &kids[i], 2 + i, 2 + i), 0);
        assert_int_equal(kids[i].cpu, want[i]);
    }
    /* Every vCPU busy: fully busy groups by load; the parent's vCPU's
     * group stays while the idlest is not lighter by imbalance_pct. */
    struct sched_task more;
    assert_int_equal(sched_task_fork(&vm->s, &p, &more, 9, 9), 0);
    assert_int_equal(more.cpu, 0);
    assert_invariants(vm);
    shutdown_vm(vm);
}

int main(void)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_domains_from_topology),
        cmocka_unit_test(test_balance_interval),
        cmocka_unit_test(test_periodic_balance_evens_busy_cpus),
        cmocka_unit_test(test_block_wake_then_periodic_balance),
        cmocka_unit_test(test_periodic_balance_keeps_32bit_in_m),
        cmocka_unit_test(test_wake_affine),
        cmocka_unit_test(test_fork_find_idlest_cpu),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
