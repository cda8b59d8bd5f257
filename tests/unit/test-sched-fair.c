/* test-sched-fair.c - the fair class on capacities (sched/fair.c, pelt.c;
 * docs/scheduler.md): PELT's series, fits_capacity with uclamp, misfit
 * detection and migration to a bigger vCPU within the allowed CPUs (a
 * 32-bit task never leaves M), select_idle_capacity(), SCHED_IDLE's weight
 * and SCHED_BATCH. Exact values throughout. */
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

static void test_sched_idle_weight_3(void **state)
{
    (void)state;
    struct vm *vm = boot_caps(1, "", false, NULL, 10000);
    struct sched_task a, b;
    sched_task_init(&vm->s, &a, 1, 1, "normal");
    sched_task_fork(&vm->s, &a, &b, 2, 2);
    sched_task_set_fair_policy(&vm->s, &b, true, false);
    assert_int_equal(vm->s.cpus[0].nr_idle_policy, 1);
    for (int i = 0; i < 2000; i++)
        step(vm);
    /* Slices of 10000 * 1024 / 1024 and 10000 * 3 / 1024 blocks. */
    assert_int_equal(a.sum_exec_ns, UINT64_C(1000) * 10000 * 100);
    assert_int_equal(b.sum_exec_ns, UINT64_C(1000) * 29 * 100);
    /* The share, as weight per 1024: 3. */
    assert_int_equal((b.sum_exec_ns * 1024 + a.sum_exec_ns / 2) / a.sum_exec_ns, 3);
    /* Nice does not change SCHED_IDLE's weight; SCHED_BATCH keeps nice's. */
    assert_int_equal(sched_task_set_nice(&vm->s, &b, -20), 0);
    step(vm);
    step(vm);
    assert_int_equal(b.sum_exec_ns, UINT64_C(1001) * 29 * 100);
    sched_task_set_fair_policy(&vm->s, &b, false, true);
    assert_int_equal(vm->s.cpus[0].nr_idle_policy, 0);
    assert_int_equal(sched_task_set_nice(&vm->s, &b, 5), 0);
    step(vm);
    step(vm);
    assert_int_equal(b.sum_exec_ns, UINT64_C(1001) * 29 * 100 + 3271 * 100);
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
        cmocka_unit_test(test_bad_capacity_einval),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
