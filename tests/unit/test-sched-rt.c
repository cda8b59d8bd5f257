/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sched-rt.c - the real-time class across vCPUs (sched/rt.c;
 * docs/scheduler.md, rules R1-R8): select_task_rq_rt() with
 * find_lowest_rq() and rt_task_fits_capacity(), push and pull (never
 * outside task_cpu_possible_mask()), RT throttling at 950 ms of every
 * second, and sched_rr_get_interval of a fair task. Exact values. */
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

#define MS UINT64_C(1000000)

/* nr_cpus vCPUs with M = m32 (the parameter on when m32 is not empty) and
 * the capacities given, 1 ms slices (10000 blocks of 100 ns). */
static struct vm *boot_rt(unsigned nr_cpus, const char *m32, const uint16_t *caps)
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
    };
    return boot_cfg(&cfg);
}

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

/* A task forked from parent, pinned to the CPUs of list, of class cls. */
static void spawn(struct vm *vm, struct sched_task *parent, struct sched_task *t, int tid,
                  const char *list, enum sched_class cls, int prio)
{
    assert_int_equal(sched_task_fork(&vm->s, parent, t, tid, tid), 0);
    assert_int_equal(setaff(vm, t, list), 0);
    sched_task_set_class(&vm->s, t, cls, prio, false);
}

/* R1: a FIFO task waking where an RT task of its priority or more runs
 * goes to the vCPU of the lowest priority (CPUPRI_NORMAL: idle or fair),
 * lowest id; with none lower anywhere it stays. */
static void test_select_task_rq_rt_lowest(void **state)
{
    (void)state;
    struct vm *vm = boot_rt(3, "", NULL);
    struct sched_task init, a, b, c;
    sched_task_init(&vm->s, &init, 1, 1, "init");
    spawn(vm, &init, &a, 2, "0", SCHED_CLASS_RT, 10);
    spawn(vm, &init, &b, 3, "0-2", SCHED_CLASS_RT, 10);
    assert_int_equal(sched_task_block(&vm->s, &b), 0);
    assert_int_equal(setaff(vm, &init, "2"), 0);
    /* cpu 0 runs a (RT 10), cpu 1 idles, cpu 2 runs init (fair). */
    assert_int_equal(a.cpu, 0);
    b.cpu = 0;
    assert_int_equal(sched_task_wake(&vm->s, &b), 0);
    assert_int_equal(b.cpu, 1);
    /* Every vCPU at RT 10 or more: b (RT 5) stays on its vCPU. */
    spawn(vm, &init, &c, 4, "2", SCHED_CLASS_RT, 20);
    assert_int_equal(sched_task_block(&vm->s, &b), 0);
    sched_task_set_class(&vm->s, &b, SCHED_CLASS_RT, 5, false);
    b.cpu = 0;
    struct sched_task d;
    spawn(vm, &init, &d, 5, "1", SCHED_CLASS_RT, 30);
    assert_int_equal(sched_task_wake(&vm->s, &b), 0);
    assert_int_equal(b.cpu, 0);
    assert_ptr_equal(vm->s.cpus[0].head, &a);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* R2: on an asymmetric machine an RT task (UCLAMP_MIN 1024 by default)
 * leaves a little idle vCPU for a big one it fits; with UCLAMP_MIN 256 it
 * fits the little one and stays; a 32-bit task whose M holds only little
 * vCPUs stays on them (the fallback to any vCPU, within M). */
static void test_rt_task_fits_capacity(void **state)
{
    (void)state;
    static const uint16_t caps[3] = {512, 512, 1024};
    struct vm *vm = boot_rt(3, "0-1", caps);
    struct sched_task init, r;
    sched_task_init(&vm->s, &init, 1, 1, "init");
    assert_int_equal(setaff(vm, &init, "1"), 0);
    spawn(vm, &init, &r, 2, "0-2", SCHED_CLASS_RT, 10);
    assert_int_equal(sched_task_block(&vm->s, &r), 0);
    r.cpu = 0;
    assert_int_equal(sched_task_wake(&vm->s, &r), 0);
    assert_int_equal(r.cpu, 2);
    assert_int_equal(sched_task_block(&vm->s, &r), 0);
    r.util_min = 256;
    r.util_min_set = true;
    r.cpu = 0;
    assert_int_equal(sched_task_wake(&vm->s, &r), 0);
    assert_int_equal(r.cpu, 0);
    /* 32-bit: task_cpu_possible_mask() is {0,1}, neither fits 1024. */
    assert_int_equal(sched_task_block(&vm->s, &r), 0);
    r.util_min_set = false;
    assert_int_equal(sched_task_exec(&vm->s, &r, true), 0);
    r.cpu = 0;
    assert_int_equal(sched_task_wake(&vm->s, &r), 0);
    assert_int_equal(r.cpu, 0);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* R3: two FIFO hogs of one priority on vCPU 0 while vCPU 1 runs a fair
 * hog: the waiting one is pushed to vCPU 1 and preempts the fair task
 * there (the idle balance alone would not move it: vCPU 1 is busy). */
static void test_push_to_lower_priority(void **state)
{
    (void)state;
    struct vm *vm = boot_rt(2, "", NULL);
    struct sched_task f, a, b;
    sched_task_init(&vm->s, &f, 1, 1, "fair");
    assert_int_equal(setaff(vm, &f, "1"), 0);
    spawn(vm, &f, &a, 2, "0", SCHED_CLASS_RT, 10);
    spawn(vm, &f, &b, 3, "0", SCHED_CLASS_RT, 10);
    assert_int_equal(vm->s.cpus[0].nr_running, 2);
    assert_int_equal(setaff(vm, &b, "0-1"), 0);
    assert_int_equal(b.cpu, 0);
    uint64_t moves = b.nr_migrations;
    step(vm);
    assert_int_equal(b.cpu, 1);
    assert_int_equal(b.nr_migrations, moves + 1);
    assert_ptr_equal(vm->s.cpus[1].head, &b);
    assert_ptr_equal(vm->s.cpus[0].head, &a);
    /* a ran the first slice; then both vCPUs run their RT hog. */
    for (int i = 0; i < 20; i++)
        step(vm);
    assert_int_equal(a.sum_exec_ns, 11 * MS);
    assert_int_equal(b.sum_exec_ns, 10 * MS);
    assert_int_equal(f.sum_exec_ns, 0);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* R4: a waiting RT task that could not be pushed (vCPU 1 ran RT 40) is
 * pulled when vCPU 1's RT task blocks and its priority drops. */
static void test_pull_when_priority_drops(void **state)
{
    (void)state;
    struct vm *vm = boot_rt(2, "", NULL);
    struct sched_task f, a, b, c;
    sched_task_init(&vm->s, &f, 1, 1, "fair");
    assert_int_equal(setaff(vm, &f, "1"), 0);
    spawn(vm, &f, &c, 2, "1", SCHED_CLASS_RT, 40);
    spawn(vm, &f, &a, 3, "0", SCHED_CLASS_RT, 30);
    spawn(vm, &f, &b, 4, "0", SCHED_CLASS_RT, 20);
    assert_int_equal(setaff(vm, &b, "0-1"), 0);
    step(vm);
    step(vm);
    assert_int_equal(b.cpu, 0);
    assert_int_equal(b.sum_exec_ns, 0);
    assert_int_equal(sched_task_block(&vm->s, &c), 0);
    step(vm);
    assert_int_equal(b.cpu, 1);
    assert_ptr_equal(vm->s.cpus[1].head, &b);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* R5: a 32-bit FIFO task waiting behind another on a 32-bit vCPU is never
 * pushed or pulled to the 64-bit-only vCPU 2, though it idles; a 64-bit
 * one in its place goes there. */
static void test_push_never_leaves_m(void **state)
{
    (void)state;
    struct vm *vm = boot_rt(3, "0-1", NULL);
    struct sched_task init, a, b, c;
    sched_task_init(&vm->s, &init, 1, 1, "init");
    spawn(vm, &init, &c, 2, "1", SCHED_CLASS_RT, 50);
    spawn(vm, &init, &a, 3, "0", SCHED_CLASS_RT, 10);
    spawn(vm, &init, &b, 4, "0", SCHED_CLASS_RT, 10);
    assert_int_equal(setaff(vm, &init, "1"), 0);
    assert_int_equal(sched_task_exec(&vm->s, &b, true), 0);
    assert_int_equal(setaff(vm, &b, "0-2"), 0);
    assert_string_equal(affinity_of(vm, &b), "0-1");
    for (int i = 0; i < 10; i++)
        step(vm);
    assert_int_equal(b.cpu, 0);
    assert_int_equal(b.sum_exec_ns, 0);
    assert_null(vm->s.cpus[2].head);
    /* The same task 64-bit: pushed to the idle vCPU 2. */
    assert_int_equal(sched_task_exec(&vm->s, &b, false), 0);
    assert_int_equal(setaff(vm, &b, "0-2"), 0);
    step(vm);
    assert_int_equal(b.cpu, 2);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* R6, R7: a FIFO hog and a fair task on one vCPU. The hog exceeds 950 ms
 * at the tick of 952 ms and is throttled; the fair task runs until the
 * period ends at 1 s, which gives 950 ms back (2 ms are left); the next
 * throttle is at 1952 ms. "sched: RT throttling activated" is logged once. */
static void test_rt_throttling(void **state)
{
    (void)state;
    struct vm *vm = boot_rt(1, "", NULL);
    struct sched_task f, h;
    sched_task_init(&vm->s, &f, 1, 1, "fair");
    spawn(vm, &f, &h, 2, "0", SCHED_CLASS_RT, 10);
    while (vm->s.cpus[0].clock_ns < 2000 * MS)
        step(vm);
    assert_int_equal(vm->s.cpus[0].clock_ns, 2000 * MS);
    assert_int_equal(h.sum_exec_ns, 1904 * MS);
    assert_int_equal(f.sum_exec_ns, 96 * MS);
    assert_int_equal(vm->s.cpus[0].rt_time_ns, 4 * MS);
    assert_false(vm->s.cpus[0].rt_throttled);
    assert_non_null(strstr(dmesg(vm), "sched: RT throttling activated"));
    assert_null(strstr(strstr(dmesg(vm), "RT throttling") + 1, "RT throttling"));
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* R6: alone, a throttled hog leaves its vCPU idle until the period ends
 * (the loop's last slice is the 1 ms from 2000 ms); sched_rt_runtime_us -1
 * turns throttling off. */
static void test_rt_throttling_idle_and_off(void **state)
{
    (void)state;
    struct vm *vm = boot_rt(1, "", NULL);
    struct sched_task h;
    sched_task_init(&vm->s, &h, 1, 1, "hog");
    sched_task_set_class(&vm->s, &h, SCHED_CLASS_RT, 10, false);
    while (vm->s.cpus[0].clock_ns < 2000 * MS)
        step(vm);
    assert_int_equal(vm->s.cpus[0].clock_ns, 2001 * MS);
    assert_int_equal(h.sum_exec_ns, 1905 * MS);
    shutdown_vm(vm);

    vm = boot_rt(1, "", NULL);
    struct sched_task f, g;
    sched_task_init(&vm->s, &f, 1, 1, "fair");
    assert_int_equal(sched_dl_set_global(&vm->s, false, -1), 0);
    spawn(vm, &f, &g, 2, "0", SCHED_CLASS_RT, 10);
    while (vm->s.cpus[0].clock_ns < 2000 * MS)
        step(vm);
    assert_int_equal(g.sum_exec_ns, 2000 * MS);
    assert_int_equal(f.sum_exec_ns, 0);
    assert_null(strstr(dmesg(vm), "RT throttling"));
    shutdown_vm(vm);
    /* Runtime 0 written while throttled: the period's end lets it run. */
    vm = boot_rt(1, "", NULL);
    sched_task_init(&vm->s, &h, 1, 1, "hog");
    sched_task_set_class(&vm->s, &h, SCHED_CLASS_RT, 10, false);
    while (!vm->s.cpus[0].rt_throttled)
        step(vm);
    assert_int_equal(vm->s.cpus[0].clock_ns, 952 * MS);
    /* Timers due before the period's end fire first. */
    assert_int_equal(sched_next_time(&vm->s), 1000 * MS);
    assert_int_equal(sched_dl_set_global(&vm->s, false, 0), 0);
    assert_ptr_equal(step(vm), &h);
    assert_int_equal(vm->s.cpus[0].clock_ns, 1001 * MS);
    assert_false(vm->s.cpus[0].rt_throttled);
    shutdown_vm(vm);

    /* A runtime of the whole period does not throttle either. */
    vm = boot_rt(1, "", NULL);
    sched_task_init(&vm->s, &f, 1, 1, "fair");
    assert_int_equal(sched_dl_set_global(&vm->s, false, 1000000), 0);
    spawn(vm, &f, &g, 2, "0", SCHED_CLASS_RT, 10);
    while (vm->s.cpus[0].clock_ns < 2000 * MS)
        step(vm);
    assert_int_equal(f.sum_exec_ns, 0);
    shutdown_vm(vm);
}

/* R8: get_rr_interval_fair(): sched_slice() in whole jiffies (4 ms). */
static void test_rr_interval_fair(void **state)
{
    (void)state;
    struct vm *vm = boot_rt(1, "", NULL);
    struct sched_task a, b;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    /* Alone: the 6 ms latency (5999998 ns) is one jiffy. */
    assert_int_equal(sched_rr_interval_fair(&vm->s, &a), 4 * MS);
    /* Two nice-0 tasks: 3 ms each, no whole jiffy. */
    sched_task_fork(&vm->s, &a, &b, 2, 2);
    assert_int_equal(sched_rr_interval_fair(&vm->s, &a), 0);
    shutdown_vm(vm);
    /* Two vCPUs: the latency is 12 ms, which __calc_delta()'s inverse
     * weight makes 11999997 ns: two whole jiffies. */
    vm = boot_rt(2, "", NULL);
    sched_task_init(&vm->s, &a, 1, 1, "a");
    assert_int_equal(sched_rr_interval_fair(&vm->s, &a), 8 * MS);
    /* Blocked on a runqueue without fair tasks: 0. */
    assert_int_equal(sched_task_block(&vm->s, &a), 0);
    assert_int_equal(sched_rr_interval_fair(&vm->s, &a), 0);
    shutdown_vm(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_task_rq_rt_lowest),
        cmocka_unit_test(test_rt_task_fits_capacity),
        cmocka_unit_test(test_push_to_lower_priority),
        cmocka_unit_test(test_pull_when_priority_drops),
        cmocka_unit_test(test_push_never_leaves_m),
        cmocka_unit_test(test_rt_throttling),
        cmocka_unit_test(test_rt_throttling_idle_and_off),
        cmocka_unit_test(test_rr_interval_fair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
