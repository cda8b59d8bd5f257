/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sched-fair.c - the fair class on capacities (sched/fair.c, pelt.c;
 * docs/scheduler.md): PELT's series, fits_capacity with uclamp, misfit
 * detection and migration to a bigger vCPU within the allowed CPUs (a
 * 32-bit task never leaves M), select_idle_capacity(), SCHED_IDLE's weight
 * and SCHED_BATCH; time sharing (sched/cfs.c): calc_delta_fair, the scaled
 * sysctls, check_preempt_tick at ticks, place_entity, wake-up preemption,
 * RR turns. Exact values throughout. */
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

#define PERIOD SCHED_PELT_PERIOD_NS

/* nr_cpus vCPUs with M = m32 and the capacities given per vCPU, slices of
 * slice_blocks at 100 ns per block, no jitter. */
static struct vm *boot_caps(unsigned nr_cpus, const char *m32, bool param, const uint16_t *caps,
                            uint32_t slice_blocks)
{
    struct sched_config cfg = {
        .nr_cpus = nr_cpus,
        .aarch32 = mask_of(m32),
        .allow_mismatched_32bit_el0 = param,
        .policy = SCHED_POLICY_UPSTREAM,
        .seed = 1,
        .slice_blocks = slice_blocks,
        .ns_per_block = 100,
        .capacity = caps,
    };
    return boot_cfg(&cfg);
}

static const uint16_t little_big[8] = {512, 512, 512, 512, 1024, 1024, 1024, 1024};

/* Runs the machine's next slice to its end; returns the task that ran. */
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

/* ---- PELT (kernel/sched/pelt.c) ---- */

static void test_pelt_decay_values(void **state)
{
    (void)state;
    /* decay_load(): y^1, y^32 = 1/2, y^64 = 1/4 (the table's y^0 is
     * 0xffffffff / 2^32, so whole half-lives lose one unit, as in Linux). */
    assert_int_equal(sched_pelt_decay(1024, 1), 1002);
    assert_int_equal(sched_pelt_decay(1024, 32), 511);
    assert_int_equal(sched_pelt_decay(1024, 64), 255);
    assert_int_equal(sched_pelt_decay(1024, 16), 724);
    assert_int_equal(sched_pelt_decay(UINT64_C(1) << 40, 32 * 63 + 1), 0);
    /* LOAD_AVG_MAX is the series' fixed point: decayed by one period plus
     * a full period's 1024 gives itself back. */
    assert_int_equal(sched_pelt_decay(SCHED_LOAD_AVG_MAX, 1) + 1024, SCHED_LOAD_AVG_MAX);
}

static void test_pelt_running_32ms_reaches_half(void **state)
{
    (void)state;
    struct sched_pelt a = {0};
    /* 32 periods of running from nothing: 1 - y^32 = 1/2 of the scale. */
    sched_pelt_update(&a, 32 * (uint64_t)PERIOD, true, 1024);
    assert_in_range(a.util_avg, 507, 517);
    assert_int_equal(a.util_avg, 512);
    /* 32 ms exactly is 31.25 periods: util_avg is recomputed at period
     * boundaries only, so it is that of 31 periods' running. */
    struct sched_pelt b = {0};
    sched_pelt_update(&b, 32000000, true, 1024);
    assert_int_equal(b.util_avg, 495);
    /* Then 32 periods asleep halve it. */
    sched_pelt_update(&a, 64 * (uint64_t)PERIOD, false, 1024);
    assert_int_equal(a.util_avg, 255);
    /* Running for long it converges to the full scale, and on a capacity-512
     * vCPU to half of it (capacity invariance). */
    struct sched_pelt big = {0}, little = {0};
    for (uint64_t ms = 1; ms <= 1000; ms++) {
        sched_pelt_update(&big, ms * 1000000, true, 1024);
        sched_pelt_update(&little, ms * 1000000, true, 512);
    }
    assert_int_equal(big.util_avg, 1024);
    assert_int_equal(little.util_avg, 512);
    /* A clock behind the last update (another vCPU's) adds nothing. */
    struct sched_pelt before = little;
    sched_pelt_update(&little, 999000000, true, 512);
    assert_memory_equal(&before, &little, sizeof before);
}

/* ---- fits_capacity and uclamp_task_util (kernel/sched/fair.c) ---- */

static void test_fits_capacity_and_uclamp(void **state)
{
    (void)state;
    assert_true(sched_fits_capacity(409, 512));
    assert_false(sched_fits_capacity(410, 512));
    assert_true(sched_fits_capacity(819, 1024));
    assert_false(sched_fits_capacity(820, 1024));
    assert_true(sched_capacity_greater(1024, 512));
    assert_false(sched_capacity_greater(1050, 1024));

    struct vm *vm = boot_caps(8, "", false, little_big, 100);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 1, 1, "t");
    assert_int_equal(sched_task_util(&t), 0);
    assert_true(sched_task_fits_cpu(&vm->s, &t, 0));
    t.util_min = 600;
    t.util_min_set = true;
    assert_int_equal(sched_task_util(&t), 600);
    assert_false(sched_task_fits_cpu(&vm->s, &t, 0));
    assert_true(sched_task_fits_cpu(&vm->s, &t, 4));
    t.util_min_set = false;
    t.pelt.util_avg = 1000;
    t.util_max = 300;
    t.util_max_set = true;
    assert_int_equal(sched_task_util(&t), 300);
    assert_true(sched_task_fits_cpu(&vm->s, &t, 0));
    /* An RT task's default minimum is the full scale. */
    t.util_max_set = false;
    t.pelt.util_avg = 0;
    t.cls = SCHED_CLASS_RT;
    assert_int_equal(sched_task_util(&t), 1024);
    t.cls = SCHED_CLASS_FAIR;
    shutdown_vm(vm);
}

/* ---- update_misfit_status() and misfit migration ---- */

static void test_misfit_64bit_moves_to_big(void **state)
{
    (void)state;
    /* 1 ms slices. */
    struct vm *vm = boot_caps(8, "", false, little_big, 10000);
    assert_true(vm->s.asym_capacity);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 1, 1, "hog");
    assert_int_equal(t.cpu, 0);
    unsigned slices = 0, last_util = 0;
    while (t.cpu == 0) {
        last_util = t.pelt.util_avg;
        assert_ptr_equal(step(vm), &t);
        slices++;
        assert_true(slices < 1000);
        /* Misfit exactly when it no longer fits capacity 512. */
        if (t.cpu == 0)
            assert_int_equal(vm->s.cpus[0].misfit_util != 0, t.pelt.util_avg >= 410);
        assert_invariants(vm);
    }
    /* Balanced at the pick after the slice that made it misfit (util 412
     * does not fit 512): to the biggest idle vCPU, lowest id. */
    assert_int_equal(t.cpu, 4);
    assert_int_equal(last_util, 412);
    assert_int_equal(slices, 80);
    assert_int_equal(t.pelt.util_avg, 412);
    assert_int_equal(t.nr_migrations, 1);
    assert_int_equal(vm->s.cpus[0].misfit_util, 0);
    /* Its utilisation went with it (attach/detach_entity_load_avg). */
    assert_true(vm->s.cpus[4].pelt.util_avg >= 410);
    /* It stays on the big vCPU; running on, its util grows past what 1024
     * fits (819), so it is misfit there too, as in Linux, but no vCPU is
     * bigger. Pinned to one vCPU it is never misfit. */
    for (int i = 0; i < 300; i++)
        step(vm);
    assert_int_equal(t.cpu, 4);
    assert_int_equal(t.nr_migrations, 1);
    assert_int_equal(t.pelt.util_avg, 1023);
    assert_int_equal(vm->s.cpus[4].misfit_util, 1023);
    assert_int_equal(setaff(vm, &t, "4"), 0);
    step(vm);
    assert_int_equal(vm->s.cpus[4].misfit_util, 0);
    assert_invariants(vm);
    sched_task_exit(&vm->s, &t);
    shutdown_vm(vm);
}

static void test_misfit_32bit_never_leaves_m(void **state)
{
    (void)state;
    /* M = 0-3, all little: the 32-bit hog is misfit but has nowhere to go. */
    struct vm *vm = boot_caps(8, "0-3", true, little_big, 10000);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 1, 1, "hog32");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    for (int i = 0; i < 500; i++) {
        step(vm);
        assert_in_range(t.cpu, 0, 3);
        assert_invariants(vm);
    }
    assert_int_equal(t.nr_migrations, 0);
    assert_int_not_equal(vm->s.cpus[t.cpu].misfit_util, 0);
    sched_task_exit(&vm->s, &t);
    shutdown_vm(vm);

    /* M = 0-3 with 2-3 big: it moves to a big vCPU of M (2), never to 4-7. */
    static const uint16_t caps[8] = {512, 512, 1024, 1024, 1024, 1024, 1024, 1024};
    vm = boot_caps(8, "0-3", true, caps, 10000);
    sched_task_init(&vm->s, &t, 1, 1, "hog32");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(t.cpu, 0);
    for (int i = 0; i < 500; i++) {
        step(vm);
        assert_in_range(t.cpu, 0, 3);
        assert_invariants(vm);
    }
    assert_int_equal(t.cpu, 2);
    assert_int_equal(t.nr_migrations, 1);
    sched_task_exit(&vm->s, &t);
    shutdown_vm(vm);
}

static void test_symmetric_capacity_changes_nothing(void **state)
{
    (void)state;
    static const uint16_t little[4] = {512, 512, 512, 512};
    struct vm *vm = boot_caps(4, "", false, little, 10000);
    assert_false(vm->s.asym_capacity);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 1, 1, "hog");
    for (int i = 0; i < 300; i++)
        step(vm);
    /* It does not fit 512 but there is nothing bigger: no misfit state. */
    assert_int_equal(t.pelt.util_avg, 511);
    assert_int_equal(vm->s.cpus[0].misfit_util, 0);
    assert_int_equal(t.cpu, 0);
    sched_task_exit(&vm->s, &t);
    shutdown_vm(vm);
}

/* ---- select_idle_capacity() and select_idle_sibling() ---- */

static void test_select_idle_capacity_choices(void **state)
{
    (void)state;
    struct vm *vm = boot_caps(8, "", false, little_big, 100);
    struct sched_task t, busy4, busy6;
    struct cpumask all = mask_of("0-7"), littles = mask_of("0-3");
    sched_task_init(&vm->s, &t, 1, 1, "t");
    /* t sits on cpu 0. A task of util 0 fits anywhere: the first idle from
     * the target. */
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 1), 1);
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 0), 1);
    /* util_min 600 fits only the bigs: the first idle big from the target. */
    t.util_min = 600;
    t.util_min_set = true;
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 1), 4);
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 6), 6);
    sched_task_fork(&vm->s, &t, &busy4, 2, 2);
    assert_int_equal(setaff(vm, &busy4, "4"), 0);
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 1), 5);
    /* Nothing fits 1024 with the margin: the biggest idle, first found. */
    t.util_min = 1024;
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 1), 5);
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 7), 7);
    /* Within the allowed CPUs only: the biggest idle little. */
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &littles, 2), 2);
    /* A vCPU running only SCHED_IDLE tasks counts as idle (sched_idle_cpu()). */
    sched_task_fork(&vm->s, &t, &busy6, 3, 3);
    assert_int_equal(setaff(vm, &busy6, "6"), 0);
    t.util_min = 600;
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 6), 7);
    sched_task_set_fair_policy(&vm->s, &busy6, true, false);
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &all, 6), 6);
    /* No idle vCPU in the allowed ones: none. */
    struct cpumask four = mask_of("4");
    assert_int_equal(sched_select_idle_capacity(&vm->s, &t, &four, 4), SCHED_NO_CPU);

    /* Wake-up: t (util_min 600) blocked on little cpu 0 wakes on idle big 5;
     * with util_min 0 it fits cpu 0 again and stays there. */
    assert_int_equal(t.cpu, 0);
    assert_int_equal(sched_task_block(&vm->s, &t), 0);
    assert_int_equal(sched_task_wake(&vm->s, &t), 0);
    assert_int_equal(t.cpu, 5);
    t.util_min = 0;
    assert_int_equal(setaff(vm, &t, "0"), 0);
    assert_int_equal(setaff(vm, &t, "0-7"), 0);
    assert_int_equal(sched_task_block(&vm->s, &t), 0);
    assert_int_equal(sched_task_wake(&vm->s, &t), 0);
    assert_int_equal(t.cpu, 0);
    /* Fork of a child that must fit a big: least loaded (1) would not. */
    struct sched_task child;
    t.util_min = 900;
    sched_task_fork(&vm->s, &t, &child, 4, 4);
    assert_int_equal(child.cpu, 5);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* ---- SCHED_IDLE and SCHED_BATCH ---- */

/* Runs cpu 0's tasks for ms milliseconds in slices of 1 ms (10000 blocks of
 * 100 ns); returns the longest time one task ran without a switch. */
static uint64_t run_ms(struct vm *vm, unsigned ms)
{
    uint64_t longest = 0, since = vm->s.cpus[0].clock_ns;
    struct sched_task *last = NULL;
    for (unsigned i = 0; i < ms; i++) {
        uint64_t start = vm->s.cpus[0].clock_ns;
        struct sched_task *t = step(vm);
        if (t != last) {
            last = t;
            since = start;
        }
        uint64_t ran = vm->s.cpus[0].clock_ns - since;
        longest = ran > longest ? ran : longest;
    }
    return longest;
}

static void test_sched_idle_weight_3(void **state)
{
    (void)state;
    struct vm *vm = boot_caps(1, "", false, NULL, 10000);
    struct sched_task a, b;
    sched_task_init(&vm->s, &a, 1, 1, "normal");
    sched_task_fork(&vm->s, &a, &b, 2, 2);
    sched_task_set_fair_policy(&vm->s, &b, true, false);
    assert_int_equal(vm->s.cpus[0].nr_idle_policy, 1);
    assert_int_equal(sched_task_weight(&b), 3);
    /* Each turn of the SCHED_IDLE task lasts a tick (4 ms, past its 0.75 ms
     * sysctl_sched_idle_min_granularity) and moves its vruntime on by
     * 4 ms * 1024 / 3: the nice-0 one then runs 1365 ms. Over 20 s the
     * shares are the weights' 3:1024. */
    run_ms(vm, 20000);
    assert_int_equal(a.sum_exec_ns + b.sum_exec_ns, UINT64_C(20000) * 1000000);
    assert_int_equal(b.sum_exec_ns, UINT64_C(60) * 1000000);
    assert_int_equal((b.sum_exec_ns * 1024 + a.sum_exec_ns / 2) / a.sum_exec_ns, 3);
    /* Nice does not change SCHED_IDLE's weight; SCHED_BATCH keeps nice's. */
    assert_int_equal(sched_task_set_nice(&vm->s, &b, -20), 0);
    assert_int_equal(sched_task_weight(&b), 3);
    sched_task_set_fair_policy(&vm->s, &b, false, true);
    assert_int_equal(vm->s.cpus[0].nr_idle_policy, 0);
    assert_int_equal(sched_task_set_nice(&vm->s, &b, 5), 0);
    assert_int_equal(sched_task_weight(&b), 335);
    /* Children keep SCHED_IDLE, reset-on-fork too. */
    struct sched_task c;
    sched_task_set_fair_policy(&vm->s, &b, true, false);
    b.reset_on_fork = true;
    sched_task_fork(&vm->s, &b, &c, 3, 3);
    assert_true(c.idle_policy);
    assert_int_equal(vm->s.cpus[0].nr_idle_policy, 2);
    sched_task_exit(&vm->s, &c);
    assert_int_equal(vm->s.cpus[0].nr_idle_policy, 1);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* ---- Time sharing (sched/cfs.c) ---- */

static void test_calc_delta_and_sysctls(void **state)
{
    (void)state;
    /* __calc_delta(): 1 ms of a nice-5 task is 1 ms * 1024 / 335 of
     * vruntime in the kernel's fixed point (inverse weight 2^32-1 / 335). */
    assert_int_equal(sched_calc_delta(1000000, 1024, 335), 3056716);
    assert_int_equal(sched_calc_delta(1000000, 1024, 3), 341333333);
    assert_int_equal(sched_calc_delta(6000000, 1024, 2048), 2999998);
    assert_int_equal(sched_calc_delta(6000000, 335, 1359), 1479028);
    /* update_sysctl(): 1 + ilog2(min(CPUs, 8)) times 6 ms, 0.75 ms, 1 ms. */
    static const struct {
        unsigned cpus, factor;
    } cases[] = {{1, 1}, {2, 2}, {3, 2}, {4, 3}, {8, 4}, {16, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct vm *vm = boot_caps(cases[i].cpus, "", false, NULL, 10000);
        assert_int_equal(vm->s.cfs_factor, cases[i].factor);
        assert_int_equal(vm->s.sched_latency_ns, 6000000 * cases[i].factor);
        assert_int_equal(vm->s.sched_min_gran_ns, 750000 * cases[i].factor);
        assert_int_equal(vm->s.sched_wakeup_gran_ns, 1000000 * cases[i].factor);
        /* __sched_period(): past sched_nr_latency (8) tasks, n * min_gran. */
        assert_int_equal(sched_period(&vm->s, 8), 6000000 * cases[i].factor);
        assert_int_equal(sched_period(&vm->s, 9), 9 * 750000 * cases[i].factor);
        assert_int_equal(vm->s.tick_ns, 4000000); /* CONFIG_HZ=250 */
        shutdown_vm(vm);
    }
    struct sched_config cfg = {.nr_cpus = 1, .hz = 1000, .seed = 1};
    struct vm *vm = boot_cfg(&cfg);
    assert_int_equal(vm->s.tick_ns, 1000000);
    shutdown_vm(vm);
    struct klog log;
    struct sched s;
    assert_int_equal(klog_init(&log, 8), 0);
    struct sched_config bad = {.nr_cpus = 1, .hz = 200, .log = &log};
    assert_int_equal(sched_init(&s, &bad), -EINVAL);
    klog_destroy(&log);
}

/* Two nice-0 hogs on one vCPU: sched_slice() 3 ms each, so each runs a
 * tick (4 ms) and gives way; 50/50; and none runs past the latency target
 * (6 ms). On two vCPUs (latency 12 ms, slices 6 ms) they take 8 ms turns. */
static void test_two_hogs_share_at_ticks(void **state)
{
    (void)state;
    for (unsigned cpus = 1; cpus <= 2; cpus++) {
        struct vm *vm = boot_caps(cpus, "", false, NULL, 10000);
        struct sched_task a, b;
        sched_task_init(&vm->s, &a, 1, 1, "a");
        sched_task_fork(&vm->s, &a, &b, 2, 2);
        if (cpus == 2) {
            struct cpumask zero = mask_of("0");
            assert_int_equal(sched_task_setaffinity(&vm->s, &a, &b, &zero), 0);
            assert_int_equal(sched_task_setaffinity(&vm->s, &a, &a, &zero), 0);
        }
        assert_int_equal(sched_slice(&vm->s, &vm->s.cpus[0], &a, true), cpus == 1 ? 2999998 : 5999997);
        /* 1008 ms: a whole number of pairs of turns either way. */
        uint64_t longest = run_ms(vm, 1008);
        assert_int_equal(longest, cpus == 1 ? 4000000 : 8000000);
        assert_true(longest <= vm->s.sched_latency_ns);
        assert_int_equal(a.sum_exec_ns, 504000000);
        assert_int_equal(b.sum_exec_ns, 504000000);
        shutdown_vm(vm);
    }
}

/* A task whose slice ran out at a tick while it was still the leftmost
 * is picked again without a new turn (5.15's pick_next_task_fair() with
 * CONFIG_FAIR_GROUP_SCHED: no set_next_entity() when it picks prev): its
 * slice's count goes on, and the next tick gives the vCPU to the other.
 * Issue 27's defect: two hogs pinned to vCPU 0 of an 8-vCPU machine
 * (latency 24 ms, slices 12 ms less the weights' rounding), the first
 * picked at a tick; b forked 1 ms in starts at 1 ms + 11.999994 ms. At
 * 12 ms a has run 12 ms > 11999994 ns but its vruntime (12 ms) is still
 * the smaller: it runs on and gives way at 16 ms, not a whole slice later
 * at 24 ms. */
static void test_repicked_task_keeps_slice_count(void **state)
{
    (void)state;
    struct vm *vm = boot_caps(8, "", false, NULL, 10000);
    struct sched_task a, b;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    struct cpumask zero = mask_of("0");
    assert_int_equal(sched_task_setaffinity(&vm->s, &a, &a, &zero), 0);
    assert_ptr_equal(step(vm), &a);
    sched_task_fork(&vm->s, &a, &b, 2, 2);
    assert_int_equal(b.cpu, 0);
    assert_int_equal(sched_slice(&vm->s, &vm->s.cpus[0], &a, true), 11999994);
    assert_int_equal(b.vruntime, 1000000 + 11999994);
    /* 11 more 1 ms slices of a: at the 12 ms tick its slice has run out,
     * it is put back and picked again, its count not restarted. */
    for (unsigned i = 0; i < 11; i++)
        assert_ptr_equal(step(vm), &a);
    assert_int_equal(vm->s.cpus[0].clock_ns, 12000000);
    assert_true(a.need_resched);
    assert_ptr_equal(step(vm), &a);
    assert_int_equal(a.prev_sum_ns, 0);
    assert_int_equal(vm->s.cpus[0].nr_switches, 1); /* no context switch to itself */
    for (unsigned i = 0; i < 3; i++)
        assert_ptr_equal(step(vm), &a);
    /* The 16 ms tick: ahead of b, a gives way. */
    assert_ptr_equal(step(vm), &b);
    assert_int_equal(a.sum_exec_ns, 16000000);
    assert_int_equal(b.sum_exec_ns, 1000000);
    assert_int_equal(vm->s.cpus[0].nr_switches, 2);
    /* Then turns of 12 ms (3 ticks), the slice counted from each pick. */
    for (unsigned i = 1; i < 12; i++)
        assert_ptr_equal(step(vm), &b);
    assert_ptr_equal(step(vm), &a);
    assert_int_equal(b.sum_exec_ns, 12000000);
    shutdown_vm(vm);
}

/* nice 0 and nice 5 (weights 1024 and 335) share one vCPU 1024:335. */
static void test_nice_5_share(void **state)
{
    (void)state;
    struct vm *vm = boot_caps(1, "", false, NULL, 10000);
    struct sched_task a, b;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_fork(&vm->s, &a, &b, 2, 2);
    assert_int_equal(sched_task_set_nice(&vm->s, &b, 5), 0);
    run_ms(vm, 10000);
    assert_int_equal(a.sum_exec_ns + b.sum_exec_ns, UINT64_C(10000) * 1000000);
    assert_int_equal(b.sum_exec_ns, UINT64_C(2464) * 1000000);
    assert_int_equal((b.sum_exec_ns * 1024 + a.sum_exec_ns / 2) / a.sum_exec_ns, 335);
    shutdown_vm(vm);
}

/* place_entity(): a forked child starts a virtual slice after
 * min_vruntime (START_DEBIT); a task waking from a long sleep at half the
 * latency before it (GENTLE_FAIR_SLEEPERS), which preempts the running hog
 * at once (vruntime ahead by more than wakeup_gran()); a SCHED_BATCH or
 * SCHED_IDLE waker does not; a SCHED_IDLE hog is preempted by any other. */
static void test_place_entity_and_wakeup_preemption(void **state)
{
    (void)state;
    struct vm *vm = boot_caps(1, "", false, NULL, 10000);
    struct sched_task a, b;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    run_ms(vm, 10);
    /* vruntime is brought up to date at events: the ticks, the fork. */
    assert_int_equal(a.vruntime, 8000000);
    sched_task_fork(&vm->s, &a, &b, 2, 2);
    assert_int_equal(a.vruntime, 10000000);
    /* min_vruntime 10 ms, plus sched_vslice() of 2 tasks: 3 ms. */
    assert_int_equal(b.vruntime, 10000000 + 2999998);
    assert_false(a.need_resched);
    assert_int_equal(sched_task_block(&vm->s, &b), 0);
    run_ms(vm, 100);
    assert_int_equal(a.vruntime, 108000000); /* at the last tick */
    /* b wakes: max(its vruntime, 110 ms - 3 ms), 107 ms behind a by more
     * than 1 ms: a is preempted and b runs next. */
    assert_int_equal(sched_task_wake(&vm->s, &b), 0);
    assert_int_equal(b.vruntime, 107000000);
    assert_true(a.need_resched);
    assert_ptr_equal(step(vm), &b);
    /* A SCHED_BATCH waker never preempts. */
    assert_int_equal(sched_task_block(&vm->s, &b), 0);
    run_ms(vm, 100);
    sched_task_set_fair_policy(&vm->s, &b, false, true);
    a.need_resched = false;
    assert_int_equal(sched_task_wake(&vm->s, &b), 0);
    assert_false(a.need_resched);
    assert_ptr_equal(step(vm), &a);
    /* A SCHED_IDLE running task gives way to any non-idle waker. */
    assert_int_equal(sched_task_block(&vm->s, &b), 0);
    sched_task_set_fair_policy(&vm->s, &a, true, false);
    sched_task_set_fair_policy(&vm->s, &b, false, false);
    run_ms(vm, 1);
    assert_int_equal(sched_task_wake(&vm->s, &b), 0);
    assert_true(a.need_resched);
    assert_ptr_equal(step(vm), &b);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* SCHED_RR tasks of one priority take turns every HZ/10 ticks they run
 * (task_tick_rt(): 25 ticks of 4 ms at HZ 250, 100 ms), not per slice. */
static void test_rr_turns_at_ticks(void **state)
{
    (void)state;
    struct vm *vm = boot_caps(1, "", false, NULL, 10000);
    struct sched_task a, b;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_fork(&vm->s, &a, &b, 2, 2);
    sched_task_set_class(&vm->s, &a, SCHED_CLASS_RT, 10, true);
    sched_task_set_class(&vm->s, &b, SCHED_CLASS_RT, 10, true);
    uint64_t longest = run_ms(vm, 300);
    assert_int_equal(longest, 100000000);
    assert_int_equal(a.sum_exec_ns, 200000000);
    assert_int_equal(b.sum_exec_ns, 100000000);
    shutdown_vm(vm);
}

/* A SCHED_FIFO task that wakes takes the vCPU from a fair hog at once
 * (check_preempt_curr()), not at a tick or a slice's end. */
static void test_fifo_preempts_hog_at_wakeup(void **state)
{
    (void)state;
    struct vm *vm = boot_caps(1, "", false, NULL, 10000);
    struct sched_task a, r;
    sched_task_init(&vm->s, &a, 1, 1, "hog");
    sched_task_fork(&vm->s, &a, &r, 2, 2);
    sched_task_set_class(&vm->s, &r, SCHED_CLASS_RT, 10, false);
    assert_int_equal(sched_task_block(&vm->s, &r), 0);
    run_ms(vm, 2);
    a.need_resched = false;
    assert_int_equal(sched_task_wake(&vm->s, &r), 0);
    assert_true(a.need_resched);
    assert_ptr_equal(vm->s.cpus[0].head, &r);
    assert_ptr_equal(step(vm), &r);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_bad_capacity_einval(void **state)
{
    (void)state;
    struct klog log;
    struct sched s;
    assert_int_equal(klog_init(&log, 16), 0);
    static const uint16_t caps[2] = {1024, 1025};
    struct sched_config cfg = {.nr_cpus = 2, .log = &log, .capacity = caps};
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    klog_destroy(&log);
}

int main(void)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pelt_decay_values),
        cmocka_unit_test(test_pelt_running_32ms_reaches_half),
        cmocka_unit_test(test_fits_capacity_and_uclamp),
        cmocka_unit_test(test_misfit_64bit_moves_to_big),
        cmocka_unit_test(test_misfit_32bit_never_leaves_m),
        cmocka_unit_test(test_symmetric_capacity_changes_nothing),
        cmocka_unit_test(test_select_idle_capacity_choices),
        cmocka_unit_test(test_sched_idle_weight_3),
        cmocka_unit_test(test_calc_delta_and_sysctls),
        cmocka_unit_test(test_two_hogs_share_at_ticks),
        cmocka_unit_test(test_repicked_task_keeps_slice_count),
        cmocka_unit_test(test_nice_5_share),
        cmocka_unit_test(test_place_entity_and_wakeup_preemption),
        cmocka_unit_test(test_fifo_preempts_hog_at_wakeup),
        cmocka_unit_test(test_rr_turns_at_ticks),
        cmocka_unit_test(test_bad_capacity_einval),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
