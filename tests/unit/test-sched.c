/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sched.c - the scheduler core (sched/scheduler.h): boot parameter cases
 * (spec 1.2), virtual-time picking, round robin, slices, wake and fork
 * placement, idle balancing within affinity, determinism, many tasks, and
 * the invariant checker. Policy rules: test-sched-policy.c; hotplug:
 * test-sched-hotplug.c. */
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

/* ---- spec 1.2: the boot parameter ---- */

static void test_1_2_param_absent_mixed_is_64bit_only(void **state)
{
    (void)state;
    for (int p = SCHED_POLICY_UPSTREAM; p <= SCHED_POLICY_FIXUP; p++) {
        struct vm *vm = boot(8, "0-3", false, (enum sched_policy_id)p);
        assert_false(vm->s.aarch32_el0_allowed);
        assert_false(vm->s.mismatched);
        assert_int_equal(vm->s.protected_cpu, SCHED_NO_CPU);
        struct sched_task t;
        sched_task_init(&vm->s, &t, 1, 1, "init");
        assert_int_equal(sched_exec_check(&vm->s, true), -ENOEXEC);
        assert_int_equal(sched_exec_check(&vm->s, false), 0);
        assert_int_equal(sched_task_exec(&vm->s, &t, true), -ENOEXEC);
        assert_false(t.compat);
        assert_mask(&t.affinity, "0-7");
        assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
        assert_string_equal(dmesg(vm), "");
        assert_invariants(vm);
        shutdown_vm(vm);
    }
}

static void test_1_2_param_present_empty_m_is_64bit_only(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "", true, SCHED_POLICY_UPSTREAM);
    assert_false(vm->s.aarch32_el0_allowed);
    assert_false(vm->s.mismatched);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 1, 1, "init");
    assert_int_equal(sched_exec_check(&vm->s, true), -ENOEXEC);
    assert_int_equal(sched_task_exec(&vm->s, &t, true), -ENOEXEC);
    assert_false(t.compat);
    assert_string_equal(dmesg(vm), "");
    shutdown_vm(vm);
}

static void test_1_2_param_present_mixed_is_mismatched(void **state)
{
    (void)state;
    for (int p = SCHED_POLICY_UPSTREAM; p <= SCHED_POLICY_FIXUP; p++) {
        struct vm *vm = boot(8, "0-3", true, (enum sched_policy_id)p);
        assert_true(vm->s.aarch32_el0_allowed);
        assert_true(vm->s.mismatched);
        assert_int_equal(sched_exec_check(&vm->s, true), 0);
        struct sched_task t;
        sched_task_init(&vm->s, &t, 1, 1, "init");
        assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
        assert_true(t.compat);
        shutdown_vm(vm);
    }
}

/* A symmetric machine: nothing of sections 3-4 applies, under any policy,
 * with or without the parameter. */
static void test_1_2_symmetric_nothing_applies(void **state)
{
    (void)state;
    for (int param = 0; param <= 1; param++) {
        for (int p = SCHED_POLICY_UPSTREAM; p <= SCHED_POLICY_FIXUP; p++) {
            struct vm *vm = boot(4, "0-3", param, (enum sched_policy_id)p);
            assert_true(vm->s.aarch32_el0_allowed);
            assert_false(vm->s.mismatched);
            assert_false(vm->s.switch_check);
            struct sched_task t;
            sched_task_init(&vm->s, &t, 1, 1, "init");
            assert_int_equal(setaff(vm, &t, "3"), 0);
            assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
            assert_true(t.compat);
            assert_false(t.switch_check);
            assert_false(t.check_pending);
            /* Linux 5.15's mismatched switch is on with the parameter
             * whenever some CPU runs 32-bit code: upstream saves A. */
            assert_int_equal(t.has_saved_mask, param && p == SCHED_POLICY_UPSTREAM);
            assert_string_equal(affinity_of(vm, &t), "3");
            assert_int_equal(setaff(vm, &t, "0-3"), 0);
            assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
            assert_string_equal(dmesg(vm), "");
            assert_invariants(vm);
            shutdown_vm(vm);
        }
    }
}

static void test_init_rejects_bad_config(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 4), 0);
    struct sched s;
    struct sched_config good = {.nr_cpus = 8, .aarch32 = mask_of("0-3"), .log = &log};
    struct sched_config cfg = good;
    cfg.nr_cpus = 0;
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    cfg.nr_cpus = NR_CPUS_MAX + 1;
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    cfg = good;
    cfg.aarch32 = mask_of("7-8");
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    cfg = good;
    cfg.log = NULL;
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    cfg = good;
    cfg.policy = (enum sched_policy_id)(SCHED_POLICY_LINUX66 + 1);
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    cfg = good;
    cfg.slice_jitter_pct = 51;
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    assert_int_equal(sched_init(&s, &good), 0);
    assert_int_equal(s.slice_blocks, SCHED_DEFAULT_SLICE_BLOCKS);
    assert_int_equal(s.ns_per_block, SCHED_DEFAULT_NS_PER_BLOCK);
    assert_int_equal(s.policy_id, SCHED_POLICY_UPSTREAM);
    assert_mask(&s.online, "0-7");
    assert_mask(&s.possible, "0-7");
    sched_destroy(&s);
    klog_destroy(&log);
}

static void test_init_1024_cpus(void **state)
{
    (void)state;
    struct vm *vm = boot(1024, "512-1023", true, SCHED_POLICY_UPSTREAM);
    assert_true(vm->s.mismatched);
    assert_int_equal(vm->s.protected_cpu, 512);
    assert_string_equal(dmesg(vm),
                        "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on "
                        "CPU 512; CPU hot-unplug disabled on CPU 512\n");
    struct sched_task t;
    sched_task_init(&vm->s, &t, 1, 1, "init");
    assert_int_equal(setaff(vm, &t, "1023"), 0);
    assert_int_equal(t.cpu, 1023);
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_string_equal(affinity_of(vm, &t), "1023");
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* Issue 27 item 1 (docs/timing.md): work takes 1024/capacity times as long,
 * and max/cur frequency times; the base rate is fs per instruction. */
static void test_speed_follows_capacity_and_frequency(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 4), 0);
    struct sched s;
    uint16_t cap[3] = {512, 1024, 0};
    struct sched_config cfg = {.nr_cpus = 3, .log = &log, .capacity = cap};
    assert_int_equal(sched_init(&s, &cfg), 0);
    assert_int_equal(s.insn_fs, 2000000); /* 0.5 instructions per ns: 2 ns */
    assert_int_equal(sched_cpu_fs(&s, 0, 1000), 2000);
    assert_int_equal(sched_cpu_fs(&s, 1, 1000), 1000);
    assert_int_equal(s.cpus[2].capacity, 1024); /* 0: the default */
    assert_int_equal(s.cpus[1].cur_freq_khz, s.cpus[1].max_freq_khz);
    sched_cpu_set_freq(&s, 1, s.cpus[1].max_freq_khz / 2);
    assert_int_equal(sched_cpu_fs(&s, 1, 1000), 2000);
    sched_cpu_set_freq(&s, 1, UINT32_MAX); /* clamped to the maximum */
    assert_int_equal(sched_cpu_fs(&s, 1, 1000), 1000);
    sched_cpu_set_freq(&s, 1, 0); /* clamped to 1 kHz */
    assert_int_equal(s.cpus[1].cur_freq_khz, 1);
    sched_destroy(&s);
    cfg.insn_rate_milli = 3000;
    cap[0] = 1025;
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    cap[0] = 1;
    assert_int_equal(sched_init(&s, &cfg), 0);
    assert_int_equal(s.insn_fs, 333333);
    assert_int_equal(sched_cpu_fs(&s, 0, 1000), 1024000);
    sched_destroy(&s);
    klog_destroy(&log);
}

static void test_policy_names(void **state)
{
    (void)state;
    static const char *const names[] = {"upstream", "override", "kill", "fixup", "linux-6.6"};
    for (int i = 0; i < 5; i++) {
        enum sched_policy_id id;
        assert_int_equal(sched_policy_from_name(names[i], &id), 0);
        assert_int_equal(id, i);
        assert_string_equal(sched_policy_name(id), names[i]);
    }
    enum sched_policy_id id = SCHED_POLICY_KILL;
    assert_int_equal(sched_policy_from_name("linux-5.15", &id), 0);
    assert_int_equal(id, SCHED_POLICY_UPSTREAM);
    id = SCHED_POLICY_KILL;
    assert_int_equal(sched_policy_from_name("Upstream", &id), -EINVAL);
    assert_int_equal(sched_policy_from_name("", &id), -EINVAL);
    assert_int_equal(id, SCHED_POLICY_KILL);
}

/* ---- the machine loop ---- */

static void test_pick_in_virtual_time_order(void **state)
{
    (void)state;
    struct vm *vm = boot(2, "0-1", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, *t;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_init(&vm->s, &b, 2, 2, "b");
    assert_int_equal(a.cpu, 0);
    assert_int_equal(b.cpu, 1);

    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &a);
    assert_int_equal(cpu, 0);
    assert_int_equal(a.slice_left, 100);
    sched_account(&vm->s, &a, 0, 100);
    assert_int_equal(vm->s.cpus[0].clock_ns, 1000);

    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &b);
    assert_int_equal(cpu, 1);
    sched_account(&vm->s, &b, 1, 50);
    assert_int_equal(vm->s.cpus[1].clock_ns, 500);
    assert_int_equal(b.slice_left, 50);

    /* cpu1 is behind: it runs again, the rest of b's slice. */
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &b);
    assert_int_equal(cpu, 1);
    assert_int_equal(b.slice_left, 50);
    assert_int_equal(sched_now(&vm->s), 500);
    sched_account(&vm->s, &b, 1, 50);

    /* Both at 1000: the lowest id goes first. */
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &a);
    assert_int_equal(cpu, 0);
    assert_int_equal(sched_now(&vm->s), 1000);
    assert_int_equal(a.sum_exec_ns, 1000);
    assert_int_equal(b.sum_exec_ns, 1000);
    shutdown_vm(vm);
}

/* Fair tasks take turns at ticks (HZ 250: every 4 ms), not at the end of
 * each of emu's slices (here 1 us): three at vruntime 0 run 4 ms each in
 * their order (check_preempt_tick(): 4 ms is past each one's 2 ms
 * sched_slice()). Until issue 27 item 4 they rotated every slice. */
static void test_round_robin_within_runqueue(void **state)
{
    (void)state;
    struct vm *vm = boot(1, "", false, SCHED_POLICY_UPSTREAM);
    struct sched_task tasks[3], *t;
    unsigned cpu;
    for (int i = 0; i < 3; i++)
        sched_task_init(&vm->s, &tasks[i], 10 + i, 10 + i, "rr");
    static const int order[] = {10, 11, 12, 10, 11, 12};
    for (int i = 0; i < 6; i++) {
        for (int n = 0; n < 4000; n++) {
            assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
            assert_int_equal(t->tid, order[i]);
            assert_int_equal(cpu, 0);
            sched_account(&vm->s, t, cpu, t->slice_left);
        }
    }
    assert_int_equal(vm->s.cpus[0].clock_ns, 24000000);
    assert_int_equal(vm->s.cpus[0].nr_switches, 6);
    assert_int_equal(tasks[0].nr_switches, 2);
    assert_int_equal(tasks[0].vruntime, 8000000);
    shutdown_vm(vm);
}

/* A slice cut short (a syscall, a host event) continues; only a used-up or
 * yielded slice sends the task behind the others. */
static void test_partial_slice_continues_yield_rotates(void **state)
{
    (void)state;
    struct vm *vm = boot(1, "", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, *t;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_init(&vm->s, &b, 2, 2, "b");
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &a);
    sched_account(&vm->s, &a, 0, 30);
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &a);
    assert_int_equal(a.slice_left, 70);
    assert_int_equal(sched_task_yield(&vm->s, &a), 0);
    assert_true(a.need_resched);
    sched_account(&vm->s, &a, 0, 5);
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &b);
    assert_false(b.need_resched);
    assert_int_equal(vm->s.cpus[0].clock_ns, 350);
    shutdown_vm(vm);
}

/* SCHED_RR tasks of one priority take turns every 100 ms of CPU, however
 * many slices that takes. */
static void test_rr_turns_every_100ms(void **state)
{
    (void)state;
    struct vm *vm = boot(2, "0-1", true, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, *picked;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    assert_int_equal(setaff(vm, &a, "0"), 0);
    assert_int_equal(sched_task_fork(&vm->s, &a, &b, 2, 2), 0);
    sched_task_set_class(&vm->s, &a, SCHED_CLASS_RT, 30, true);
    sched_task_set_class(&vm->s, &b, SCHED_CLASS_RT, 30, true);
    const struct sched_task *first = NULL;
    uint64_t ran_ns = 0, last_ns = 0;
    for (;;) {
        assert_int_equal(sched_pick(&vm->s, &picked, &cpu), SCHED_RUN);
        if (first && picked != first)
            break;
        first = picked;
        last_ns = (uint64_t)picked->slice_left * vm->s.ns_per_block;
        ran_ns += last_ns;
        sched_account(&vm->s, picked, cpu, picked->slice_left);
    }
    /* The turn ended with the slice that completed its 100 ms. */
    assert_true(ran_ns >= SCHED_RR_TIMESLICE_NS);
    assert_true(ran_ns - last_ns < SCHED_RR_TIMESLICE_NS);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* sched_setscheduler's real-time classes run first on their runqueue: a
 * SCHED_FIFO task keeps the CPU, a higher priority (RR or FIFO alike)
 * takes it, and they give it back when they stop being real-time. Three
 * tasks pinned to cpu0: a, b, then c made real-time. */
static void test_rt_runs_first(void **state)
{
    (void)state;
    struct vm *vm = boot(2, "0-1", true, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, c, *picked;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    assert_int_equal(setaff(vm, &a, "0"), 0);
    assert_int_equal(sched_task_fork(&vm->s, &a, &b, 2, 2), 0);
    assert_int_equal(sched_task_fork(&vm->s, &a, &c, 3, 3), 0);
    sched_task_set_class(&vm->s, &c, SCHED_CLASS_RT, 40, false);
    assert_true(c.need_resched);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(sched_pick(&vm->s, &picked, &cpu), SCHED_RUN);
        assert_ptr_equal(picked, &c); /* FIFO: it keeps the CPU */
        sched_account(&vm->s, picked, cpu, picked->slice_left);
    }
    sched_task_set_class(&vm->s, &b, SCHED_CLASS_RT, 50, true);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(sched_pick(&vm->s, &picked, &cpu), SCHED_RUN);
        assert_ptr_equal(picked, &b); /* RR 50 before FIFO 40 */
        sched_account(&vm->s, picked, cpu, picked->slice_left);
    }
    sched_task_set_class(&vm->s, &c, SCHED_CLASS_RT, 60, false);
    assert_int_equal(sched_pick(&vm->s, &picked, &cpu), SCHED_RUN);
    assert_ptr_equal(picked, &c); /* FIFO 60 before RR 50 */
    sched_account(&vm->s, picked, cpu, picked->slice_left);
    sched_task_set_class(&vm->s, &b, SCHED_CLASS_FAIR, 0, false);
    sched_task_set_class(&vm->s, &c, SCHED_CLASS_FAIR, 0, false);
    unsigned seen_a = 0;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(sched_pick(&vm->s, &picked, &cpu), SCHED_RUN);
        seen_a += picked == &a;
        sched_account(&vm->s, picked, cpu, picked->slice_left);
    }
    /* The fair class again: a has the smallest vruntime (its children
     * started a slice later, START_DEBIT) and keeps the CPU until a tick
     * (round robin per slice until issue 27 item 4). */
    assert_int_equal(seen_a, 3);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_nice_scales_slice(void **state)
{
    (void)state;
    struct sched_config cfg = {.nr_cpus = 1, .slice_blocks = 1024, .ns_per_block = 1};
    struct vm *vm = boot_cfg(&cfg);
    struct sched_task a, *t;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    /* The weight is sched_prio_to_weight's; emu's slice (a batch) no
     * longer follows it: the share comes from vruntime (cfs.c). */
    static const struct {
        int nice;
        uint32_t weight;
    } cases[] = {{0, 1024}, {5, 335}, {-20, 88761}, {19, 15}, {-1, 1277}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(sched_task_set_nice(&vm->s, &a, cases[i].nice), 0);
        assert_int_equal(sched_task_weight(&a), cases[i].weight);
        assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
        assert_int_equal(a.slice_left, 1024);
        sched_account(&vm->s, &a, 0, a.slice_left);
    }
    assert_int_equal(sched_task_set_nice(&vm->s, &a, 20), -EINVAL);
    assert_int_equal(sched_task_set_nice(&vm->s, &a, -21), -EINVAL);
    assert_int_equal(a.nice, -1);
    shutdown_vm(vm);
}

static void test_slice_jitter_is_seeded(void **state)
{
    (void)state;
    uint32_t slices[2][6];
    for (int run = 0; run < 2; run++) {
        struct sched_config cfg = {
            .nr_cpus = 1, .slice_blocks = 1000, .seed = 42, .slice_jitter_pct = 20};
        struct vm *vm = boot_cfg(&cfg);
        struct sched_task a, *t;
        unsigned cpu;
        sched_task_init(&vm->s, &a, 1, 1, "a");
        for (int i = 0; i < 6; i++) {
            assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
            slices[run][i] = a.slice_left;
            assert_in_range(a.slice_left, 800, 1200);
            sched_account(&vm->s, &a, 0, a.slice_left);
        }
        shutdown_vm(vm);
    }
    assert_memory_equal(slices[0], slices[1], sizeof(slices[0]));
    bool varied = false;
    for (int i = 1; i < 6; i++)
        varied |= slices[0][i] != slices[0][0];
    assert_true(varied);
}

static void test_nothing_runnable_eagain(void **state)
{
    (void)state;
    struct vm *vm = boot(2, "", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, *t = NULL;
    unsigned cpu = 77;
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), -EAGAIN);
    assert_int_equal(sched_next_time(&vm->s), UINT64_MAX);
    sched_task_init(&vm->s, &a, 1, 1, "a");
    assert_int_equal(sched_task_block(&vm->s, &a), 0);
    assert_true(a.need_resched);
    assert_int_equal(a.state, SCHED_TASK_BLOCKED);
    assert_int_equal(sched_task_block(&vm->s, &a), -EINVAL);
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), -EAGAIN);
    assert_null(t);
    assert_int_equal(cpu, 77);
    sched_advance(&vm->s, 5000);
    sched_advance(&vm->s, 4000);
    assert_int_equal(sched_now(&vm->s), 5000);
    assert_int_equal(sched_task_wake(&vm->s, &a), 0);
    assert_int_equal(sched_task_wake(&vm->s, &a), 0);
    assert_int_equal(sched_next_time(&vm->s), 5000);
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &a);
    shutdown_vm(vm);
}

/* ---- placement ---- */

static void test_fork_places_least_loaded_lowest_id(void **state)
{
    (void)state;
    struct vm *vm = boot(4, "", false, SCHED_POLICY_UPSTREAM);
    struct sched_task parent, kids[4];
    sched_task_init(&vm->s, &parent, 1, 1, "parent");
    static const unsigned want[] = {1, 2, 3, 0};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(sched_task_fork(&vm->s, &parent, &kids[i], 2 + i, 2 + i), 0);
        assert_int_equal(kids[i].cpu, want[i]);
        assert_int_equal(kids[i].state, SCHED_TASK_RUNNABLE);
        assert_string_equal(kids[i].comm, "parent");
    }
    assert_int_equal(vm->s.nr_tasks, 5);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_wake_placement(void **state)
{
    (void)state;
    struct vm *vm = boot(4, "", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, c, d, e;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_init(&vm->s, &b, 2, 2, "b");
    sched_task_init(&vm->s, &c, 3, 3, "c");
    sched_task_init(&vm->s, &d, 4, 4, "d");
    sched_task_init(&vm->s, &e, 5, 5, "e");
    assert_int_equal(e.cpu, 0);
    assert_int_equal(sched_task_block(&vm->s, &d), 0);
    assert_int_equal(sched_task_block(&vm->s, &e), 0);
    /* select_idle_sibling(): the previous CPU (0) runs a, so the first
     * idle CPU of its cache domain after it, cpu3 (it was cpu 0 before
     * B10). */
    assert_int_equal(sched_task_wake(&vm->s, &e), 0);
    assert_int_equal(e.cpu, 3);
    /* A blocked task keeps its CPU when its affinity changes... */
    assert_int_equal(sched_task_block(&vm->s, &e), 0);
    assert_int_equal(setaff(vm, &e, "0-2"), 0);
    assert_int_equal(e.cpu, 3);
    /* ...and wakes on the least loaded allowed CPU, ties to the lowest id
     * (0, 1 and 2 run one task each, none is idle). */
    assert_int_equal(sched_task_wake(&vm->s, &e), 0);
    assert_int_equal(e.cpu, 0);
    /* With a previous CPU allowed and busy and no idle CPU it may use,
     * it stays there. */
    assert_int_equal(sched_task_block(&vm->s, &e), 0);
    assert_int_equal(setaff(vm, &e, "0,2"), 0);
    assert_int_equal(sched_task_wake(&vm->s, &e), 0);
    assert_int_equal(e.cpu, 0);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_wake_on_idle_cpu_starts_now(void **state)
{
    (void)state;
    struct vm *vm = boot(2, "", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, *t;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_init(&vm->s, &b, 2, 2, "b");
    assert_int_equal(sched_task_block(&vm->s, &b), 0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
        assert_ptr_equal(t, &a);
        sched_account(&vm->s, t, cpu, 100);
    }
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_int_equal(sched_now(&vm->s), 3000);
    assert_int_equal(sched_task_wake(&vm->s, &b), 0);
    assert_int_equal(b.cpu, 1);
    assert_int_equal(vm->s.cpus[1].clock_ns, 3000);
    sched_account(&vm->s, &a, 0, 100);
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &b);
    assert_int_equal(cpu, 1);
    shutdown_vm(vm);
}

static void test_balance_pulls_within_affinity(void **state)
{
    (void)state;
    struct vm *vm = boot(4, "", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, c, d, *t;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_init(&vm->s, &b, 2, 2, "b");
    sched_task_init(&vm->s, &c, 3, 3, "c");
    sched_task_init(&vm->s, &d, 4, 4, "d");
    assert_int_equal(setaff(vm, &b, "0"), 0);
    assert_int_equal(setaff(vm, &c, "0"), 0);
    assert_int_equal(setaff(vm, &d, "0"), 0);
    assert_int_equal(setaff(vm, &a, "0"), 0);
    assert_int_equal(b.cpu, 0);
    assert_int_equal(setaff(vm, &b, "0,3"), 0);
    assert_int_equal(setaff(vm, &c, "0-1"), 0);
    assert_int_equal(vm->s.cpus[0].nr_running, 4);
    /* Queue on cpu0: a (running), b, c, d. Idle cpu1 takes c, cpu2 nothing
     * (d is pinned, a is running), cpu3 takes b. */
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &a);
    assert_int_equal(cpu, 0);
    assert_int_equal(c.cpu, 1);
    assert_int_equal(b.cpu, 3);
    assert_int_equal(d.cpu, 0);
    assert_int_equal(a.cpu, 0);
    assert_mask(&vm->s.busy, "0-1,3");
    assert_int_equal(c.nr_migrations, 2);
    assert_int_equal(d.nr_migrations, 1);
    /* The running task is not pulled... */
    assert_int_equal(setaff(vm, &a, "0,2"), 0);
    assert_int_equal(a.cpu, 0);
    /* ...but once it yields it waits behind d, and cpu2 takes it. */
    sched_task_yield(&vm->s, &a);
    sched_account(&vm->s, &a, 0, 100);
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_int_equal(a.cpu, 2);
    assert_ptr_equal(t, &c);
    assert_int_equal(cpu, 1);
    assert_mask(&vm->s.busy, "0-3");
    assert_int_equal(vm->s.cpus[2].clock_ns, 0);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_getaffinity_is_affinity_and_active(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_KILL);
    struct sched_task a;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    assert_int_equal(sched_cpu_offline(&vm->s, 5), 0);
    assert_string_equal(affinity_of(vm, &a), "0-4,6-7");
    assert_mask(&a.affinity, "0-7");
    assert_int_equal(sched_cpu_online(&vm->s, 5), 0);
    assert_string_equal(affinity_of(vm, &a), "0-7");
    shutdown_vm(vm);
}

static void test_setaffinity_without_online_cpu_einval(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task a;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    assert_int_equal(setaff(vm, &a, ""), -EINVAL);
    assert_int_equal(setaff(vm, &a, "8-1023"), -EINVAL);
    assert_int_equal(sched_cpu_offline(&vm->s, 6), 0);
    assert_int_equal(setaff(vm, &a, "6"), -EINVAL);
    assert_mask(&a.affinity, "0-7");
    /* Bits beyond the machine are dropped, and so are offline CPUs (U8). */
    assert_int_equal(setaff(vm, &a, "6-7,9,100"), 0);
    assert_mask(&a.affinity, "7");
    assert_int_equal(a.cpu, 7);
    assert_true(a.need_resched);
    assert_int_equal(a.nr_migrations, 1);
    assert_string_equal(affinity_of(vm, &a), "7");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_exit_and_dead_tasks(void **state)
{
    (void)state;
    struct vm *vm = boot(1, "0", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, *t;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_init(&vm->s, &b, 2, 2, "b");
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &a);
    sched_task_exit(&vm->s, &a);
    sched_account(&vm->s, &a, 0, 40);
    assert_int_equal(a.state, SCHED_TASK_DEAD);
    assert_int_equal(vm->s.nr_tasks, 1);
    assert_int_equal(vm->s.cpus[0].nr_running, 1);
    assert_int_equal(vm->s.cpus[0].clock_ns, 400);
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
    assert_ptr_equal(t, &b);
    struct cpumask m = mask_of("0");
    /* 2.4: an unreaped task keeps an affinity that can be read and set. */
    assert_int_equal(sched_task_setaffinity(&vm->s, &b, &a, &m), 0);
    assert_string_equal(affinity_of(vm, &a), "0");
    assert_int_equal(sched_task_exec(&vm->s, &a, false), -ESRCH);
    assert_int_equal(sched_task_wake(&vm->s, &a), -EINVAL);
    assert_int_equal(sched_task_fork(&vm->s, &a, &b, 3, 3), -ESRCH);
    sched_task_exit(&vm->s, &b);
    assert_int_equal(vm->s.nr_tasks, 0);
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), -EAGAIN);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* ---- determinism and load ---- */

/* A small deterministic generator for the tests' own choices. */
static uint32_t rnd(uint64_t *state)
{
    *state = *state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (uint32_t)(*state >> 33);
}

/* Runs a fixed script of forks, execs, blocks and wakes on a machine whose
 * slices jitter from seed, and writes what ran where into trace. */
static void scripted_run(uint64_t seed, char *trace, size_t len)
{
    struct sched_config cfg = {
        .nr_cpus = 4,
        .aarch32 = mask_of("0-1"),
        .allow_mismatched_32bit_el0 = true,
        .policy = SCHED_POLICY_FIXUP,
        .seed = seed,
        .slice_blocks = 100,
        .ns_per_block = 1,
        .slice_jitter_pct = 30,
    };
    struct vm *vm = boot_cfg(&cfg);
    struct sched_task tasks[20];
    unsigned n = 1;
    uint64_t r = 99;
    size_t used = 0;
    trace[0] = '\0';
    sched_task_init(&vm->s, &tasks[0], 1, 1, "t");
    for (int step = 0; step < 300; step++) {
        struct sched_task *t;
        unsigned cpu;
        int d = sched_pick(&vm->s, &t, &cpu);
        if (d == -EAGAIN) {
            for (unsigned i = 0; i < n; i++)
                sched_task_wake(&vm->s, &tasks[i]);
            continue;
        }
        used += (size_t)snprintf(trace + used, len - used, "%d@%u:%d ", t->tid, cpu, d);
        assert_true(used < len);
        if (d != SCHED_RUN)
            continue;
        uint32_t what = rnd(&r) % 10;
        if (what == 0 && n < 20) {
            assert_int_equal(sched_task_fork(&vm->s, t, &tasks[n], (int)n + 1, (int)n + 1), 0);
            n++;
        } else if (what == 1) {
            assert_int_equal(sched_task_exec(&vm->s, t, !t->compat), 0);
        } else if (what == 2) {
            sched_task_block(&vm->s, t);
        } else if (what == 3) {
            sched_task_wake(&vm->s, &tasks[rnd(&r) % n]);
        }
        sched_account(&vm->s, t, cpu, t->slice_left / 2 + 1);
        assert_invariants(vm);
    }
    shutdown_vm(vm);
}

static void test_determinism_same_calls_same_placement(void **state)
{
    (void)state;
    static char one[16384], two[16384], other[16384];
    scripted_run(7, one, sizeof(one));
    scripted_run(7, two, sizeof(two));
    assert_string_equal(one, two);
    scripted_run(8, other, sizeof(other));
    assert_string_not_equal(one, other);
}

/* 200 compat and 64-bit tasks over 8 vCPUs under each policy, with forks,
 * execs, blocks, affinity calls and hotplug: the invariants hold after every
 * step, and no compat task is ever run outside M. */
static void test_200_tasks_over_8_vcpus_invariants_hold(void **state)
{
    (void)state;
    for (int p = SCHED_POLICY_UPSTREAM; p <= SCHED_POLICY_FIXUP; p++) {
        struct vm *vm = boot(8, "0-3", true, (enum sched_policy_id)p);
        struct sched_task *tasks = calloc(200, sizeof(*tasks));
        assert_non_null(tasks);
        const struct cpumask m32 = mask_of("0-3");
        unsigned n = 1, kills = 0, runs_compat = 0, live = 1;
        uint64_t r = 12345 + (uint64_t)p;
        sched_task_init(&vm->s, &tasks[0], 1, 1, "init");
        for (int step = 0; live > 0; step++) {
            assert_true(step < 200000);
            struct sched_task *t;
            unsigned cpu;
            int d = sched_pick(&vm->s, &t, &cpu);
            if (d == -EAGAIN) {
                for (unsigned i = 0; i < n; i++)
                    if (tasks[i].state == SCHED_TASK_BLOCKED)
                        sched_task_wake(&vm->s, &tasks[i]);
                continue;
            }
            assert_invariants(vm);
            if (d == SCHED_KILL) {
                kills++;
                sched_task_exit(&vm->s, t);
                live--;
                assert_invariants(vm);
                continue;
            }
            if (d == SCHED_MIGRATED)
                continue;
            assert_int_equal(d, SCHED_RUN);
            if (t->compat) {
                runs_compat++;
                assert_true(cpumask_test_cpu(cpu, &m32));
            }
            uint32_t what = rnd(&r) % 100;
            if (what < 12 && n < 200) {
                assert_int_equal(sched_task_fork(&vm->s, t, &tasks[n], (int)n + 1, (int)n + 1), 0);
                n++;
                live++;
            } else if (what < 22) {
                assert_int_equal(sched_task_exec(&vm->s, t, rnd(&r) % 2), 0);
            } else if (what < 32) {
                assert_int_equal(sched_task_block(&vm->s, t), 0);
            } else if (what < 37) {
                struct cpumask m;
                cpumask_clear(&m);
                m.bits[0] = rnd(&r) & 0xff;
                int err = sched_task_setaffinity(&vm->s, t, &tasks[rnd(&r) % n], &m);
                assert_true(err == 0 || err == -EINVAL || err == -ESRCH);
            } else if (what < 40 && n == 200) {
                sched_task_exit(&vm->s, t);
                live--;
            } else if (what < 42) {
                unsigned c = rnd(&r) % 8;
                int err = sched_cpu_is_online(&vm->s, c) ? sched_cpu_offline(&vm->s, c)
                                                         : sched_cpu_online(&vm->s, c);
                assert_true(err == 0 || err == -EPERM || err == -EBUSY);
            }
            if (rnd(&r) % 4 == 0) {
                struct sched_task *w = &tasks[rnd(&r) % n];
                if (w->state != SCHED_TASK_DEAD)
                    assert_int_equal(sched_task_wake(&vm->s, w), 0);
            }
            sched_account(&vm->s, t, cpu, rnd(&r) % (t->slice_left + 1));
            assert_invariants(vm);
        }
        assert_int_equal(n, 200);
        assert_int_equal(vm->s.nr_tasks, 0);
        assert_true(runs_compat > 100);
        if (p == SCHED_POLICY_UPSTREAM || p == SCHED_POLICY_OVERRIDE)
            assert_int_equal(kills, 0);
        else
            assert_true(kills > 0);
        free(tasks);
        shutdown_vm(vm);
    }
}

/* ---- the invariant checker catches what it should ---- */

static void test_invariants_report_violations(void **state)
{
    (void)state;
    char report[1024];
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task a;
    sched_task_init(&vm->s, &a, 7, 7, "prog");
    assert_int_equal(sched_task_exec(&vm->s, &a, true), 0);
    assert_int_equal(a.cpu, 0);
    assert_int_equal(sched_check_invariants(&vm->s, report, sizeof(report)), 0);
    assert_string_equal(report, "");
    /* Pretend cpu0 had no AArch32: a compat task sits outside M. */
    cpumask_clear_cpu(0, &vm->s.aarch32);
    assert_int_equal(sched_check_invariants(&vm->s, report, sizeof(report)), -EINVAL);
    assert_string_equal(report, "task 7 (prog) is 32-bit and placed on cpu0, outside M");
    cpumask_set_cpu(0, &vm->s.aarch32);
    vm->s.cpus[0].nr_running = 2;
    assert_int_equal(sched_check_invariants(&vm->s, report, sizeof(report)), -EINVAL);
    assert_string_equal(report, "cpu0: nr_running is 2 but the runqueue holds 1");
    vm->s.cpus[0].nr_running = 1;
    a.affinity = mask_of("1-3");
    assert_int_equal(sched_check_invariants(&vm->s, report, sizeof(report)), -EINVAL);
    assert_string_equal(report, "task 7 (prog) is on cpu0, outside its affinity");
    a.affinity = mask_of("0-3");
    a.state = SCHED_TASK_BLOCKED;
    assert_int_equal(sched_check_invariants(&vm->s, report, sizeof(report)), -EINVAL);
    assert_string_equal(report, "cpu0: task 7 (prog) is on the runqueue but not runnable\n"
                                "task 7 (prog) is not runnable but on a runqueue");
    a.state = SCHED_TASK_RUNNABLE;
    assert_int_equal(sched_check_invariants(&vm->s, NULL, 0), 0);
    shutdown_vm(vm);

    /* Under kill a compat task may sit outside M until its check ran. */
    vm = boot(8, "0-3", true, SCHED_POLICY_KILL);
    sched_task_init(&vm->s, &a, 8, 8, "prog32");
    assert_int_equal(setaff(vm, &a, "5"), 0);
    assert_int_equal(sched_task_exec(&vm->s, &a, true), 0);
    assert_int_equal(sched_check_invariants(&vm->s, report, sizeof(report)), 0);
    struct sched_task *t;
    unsigned cpu;
    assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_KILL);
    assert_int_equal(sched_check_invariants(&vm->s, report, sizeof(report)), 0);
    /* Had it run there, the checker would say so. */
    a.kill_pending = false;
    vm->s.cpus[5].last = &a;
    assert_int_equal(sched_check_invariants(&vm->s, report, sizeof(report)), -EINVAL);
    assert_string_equal(report, "task 8 (prog32) is 32-bit and placed on cpu5, outside M");
    shutdown_vm(vm);
}

int main(void)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1_2_param_absent_mixed_is_64bit_only),
        cmocka_unit_test(test_1_2_param_present_empty_m_is_64bit_only),
        cmocka_unit_test(test_1_2_param_present_mixed_is_mismatched),
        cmocka_unit_test(test_1_2_symmetric_nothing_applies),
        cmocka_unit_test(test_init_rejects_bad_config),
        cmocka_unit_test(test_speed_follows_capacity_and_frequency),
        cmocka_unit_test(test_init_1024_cpus),
        cmocka_unit_test(test_policy_names),
        cmocka_unit_test(test_pick_in_virtual_time_order),
        cmocka_unit_test(test_round_robin_within_runqueue),
        cmocka_unit_test(test_partial_slice_continues_yield_rotates),
        cmocka_unit_test(test_rt_runs_first),
        cmocka_unit_test(test_rr_turns_every_100ms),
        cmocka_unit_test(test_nice_scales_slice),
        cmocka_unit_test(test_slice_jitter_is_seeded),
        cmocka_unit_test(test_nothing_runnable_eagain),
        cmocka_unit_test(test_fork_places_least_loaded_lowest_id),
        cmocka_unit_test(test_wake_placement),
        cmocka_unit_test(test_wake_on_idle_cpu_starts_now),
        cmocka_unit_test(test_balance_pulls_within_affinity),
        cmocka_unit_test(test_getaffinity_is_affinity_and_active),
        cmocka_unit_test(test_setaffinity_without_online_cpu_einval),
        cmocka_unit_test(test_exit_and_dead_tasks),
        cmocka_unit_test(test_determinism_same_calls_same_placement),
        cmocka_unit_test(test_200_tasks_over_8_vcpus_invariants_hold),
        cmocka_unit_test(test_invariants_report_violations),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
