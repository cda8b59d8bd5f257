/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sched-policy.c - the policy rules of spec section 4, one test per
 * rule and policy: upstream (U1-U4, U7), override (O1, O2), kill (K1-K4),
 * fixup (K1, K2f, K3, K4), and fork inheritance (3.1). Hotplug rules are in
 * test-sched-hotplug.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler.h"

#include "sched-fixture.h"

/* A task named comm on an 8-CPU machine with M = 0-3 and the parameter,
 * given affinity aff (it lands on the lowest CPU of it) and then exec'ing
 * an image, 32-bit if compat. */
static struct vm *with_task(enum sched_policy_id policy, struct sched_task *t, const char *aff,
                            bool compat)
{
    struct vm *vm = boot(8, "0-3", true, policy);
    sched_task_init(&vm->s, t, 100, 100, "launcher");
    assert_int_equal(setaff(vm, t, aff), 0);
    sched_task_set_comm(t, compat ? "prog32" : "prog64");
    assert_int_equal(sched_task_exec(&vm->s, t, compat), 0);
    return vm;
}

static const char *log_after_boot(struct vm *vm)
{
    static char buf[8192];
    /* upstream logs U5 at boot; the tests look at what came after. */
    uint64_t from = vm->s.policy_id == SCHED_POLICY_UPSTREAM ? 1 : 0;
    klog_read(&vm->log, from, 0, buf, sizeof(buf));
    return buf;
}

/* ---- upstream ---- */

static void test_U1_exec_32bit_narrows_to_A_and_M(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "2-5", true);
    assert_mask(&t.affinity, "2-3");
    assert_string_equal(affinity_of(vm, &t), "2-3");
    assert_int_equal(t.cpu, 2);
    assert_string_equal(log_after_boot(vm), "");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_U1_exec_32bit_no_overlap_falls_back_to_M_and_logs(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 100, 100, "launcher");
    assert_int_equal(setaff(vm, &t, "4-7"), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 2), 0);
    sched_advance(&vm->s, UINT64_C(1234567000));
    sched_task_set_comm(&t, "prog32");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_mask(&t.affinity, "0-1,3");
    assert_int_equal(t.cpu, 0);
    assert_true(t.need_resched);
    assert_string_equal(
        dmesg(vm),
        "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on CPU 4; CPU "
        "hot-unplug disabled on CPU 0\n"
        "[    1.234567] Overriding affinity for process 100 (prog32) to CPUs "
        "0-1,3\n");
    assert_int_equal(klog_get(&vm->log, 1)->level, KLOG_WARNING);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* Section 6: a message logged inside a slice carries the time within it
 * (sched_note_time), while placement keeps using the slice's start. */
static void test_6_log_time_within_slice(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 100, 100, "launcher");
    assert_int_equal(setaff(vm, &t, "4-7"), 0);
    sched_note_time(&vm->s, UINT64_C(2000001000));
    sched_note_time(&vm->s, UINT64_C(5)); /* never backwards */
    sched_task_set_comm(&t, "prog32");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(sched_now(&vm->s), 0);
    assert_non_null(strstr(dmesg(vm), "\n[    2.000001] Overriding affinity for process 100 "
                                      "(prog32) to CPUs 0-3\n"));
    shutdown_vm(vm);
}

static void test_U2_first_32bit_exec_saves_mask(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "2-5", true);
    assert_true(t.has_saved_mask);
    assert_mask(&t.saved_mask, "2-5");
    /* A later 32-bit exec keeps the first saved mask. */
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_true(t.has_saved_mask);
    assert_mask(&t.saved_mask, "2-5");
    assert_mask(&t.affinity, "2-3");
    shutdown_vm(vm);
}

static void test_U2_saved_even_when_A_within_M(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "1-2", true);
    assert_true(t.has_saved_mask);
    assert_mask(&t.saved_mask, "1-2");
    assert_mask(&t.affinity, "1-2");
    shutdown_vm(vm);
}

static void test_U2_fallback_saves_nothing(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "4-7", true);
    assert_false(t.has_saved_mask);
    assert_mask(&t.affinity, "0-3");
    shutdown_vm(vm);
}

static void test_U3_64bit_exec_restores_saved_mask(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "2-5", true);
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_false(t.compat);
    assert_mask(&t.affinity, "2-5");
    assert_false(t.has_saved_mask);
    assert_int_equal(t.cpu, 2);
    assert_string_equal(log_after_boot(vm), "");
    shutdown_vm(vm);
}

static void test_U3_failed_restore_still_clears_saved_mask(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "3-4", true);
    assert_mask(&t.affinity, "3");
    assert_mask(&t.saved_mask, "3-4");
    assert_int_equal(sched_cpu_offline(&vm->s, 4), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_mask(&t.affinity, "0-3");
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "0-3");
    assert_false(t.has_saved_mask);
    shutdown_vm(vm);
}

static void test_U3_64bit_exec_without_saved_mask_keeps_A(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "2-5", false);
    assert_mask(&t.affinity, "2-5");
    assert_false(t.has_saved_mask);
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(setaff(vm, &t, "1"), 0);
    assert_false(t.has_saved_mask);
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "1");
    shutdown_vm(vm);
}

static void test_U4_setaffinity_partial_overlap_keeps_32bit_cpus(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "0-7", true);
    assert_mask(&t.affinity, "0-3");
    assert_int_equal(setaff(vm, &t, "2-5"), 0);
    assert_mask(&t.affinity, "2-3");
    assert_string_equal(affinity_of(vm, &t), "2-3");
    assert_int_equal(t.cpu, 2);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_U4_setaffinity_without_32bit_cpu_einval(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "1-2", true);
    assert_int_equal(setaff(vm, &t, "4-7"), -EINVAL);
    assert_mask(&t.affinity, "1-2");
    assert_true(t.has_saved_mask);
    /* The only 32-bit CPU asked for is offline: no active CPU left. */
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_int_equal(setaff(vm, &t, "3,5"), -EINVAL);
    assert_mask(&t.affinity, "1-2");
    assert_true(t.has_saved_mask);
    shutdown_vm(vm);
}

static void test_U4_success_clears_saved_mask(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "2-5", true);
    assert_true(t.has_saved_mask);
    assert_int_equal(setaff(vm, &t, "0-7"), 0);
    assert_mask(&t.affinity, "0-3");
    assert_false(t.has_saved_mask);
    /* Nothing to restore any more: a 64-bit exec keeps A. */
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "0-3");
    shutdown_vm(vm);
}

static void test_U4_64bit_task_is_not_trimmed(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "0-7", false);
    assert_int_equal(setaff(vm, &t, "4-7"), 0);
    assert_mask(&t.affinity, "4-7");
    assert_int_equal(t.cpu, 4);
    shutdown_vm(vm);
}

/* U4 applies to the target: a 64-bit caller cannot give a compat task a
 * 64-bit-only CPU either. */
static void test_U4_setaffinity_by_64bit_caller_for_compat_target(void **state)
{
    (void)state;
    struct sched_task t, caller;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "0-7", true);
    sched_task_init(&vm->s, &caller, 200, 200, "taskset");
    struct cpumask m = mask_of("3-7");
    assert_int_equal(sched_task_setaffinity(&vm->s, &caller, &t, &m), 0);
    assert_mask(&t.affinity, "3");
    assert_int_equal(t.cpu, 3);
    shutdown_vm(vm);
}

static void test_U7_no_sigkill_path(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    assert_false(vm->s.switch_check);
    struct sched_task tasks[16];
    for (int i = 0; i < 16; i++) {
        sched_task_init(&vm->s, &tasks[i], i + 1, i + 1, "t");
        assert_int_equal(setaff(vm, &tasks[i], i % 2 ? "4-7" : "0-7"), 0);
        assert_int_equal(sched_task_exec(&vm->s, &tasks[i], true), 0);
        assert_false(tasks[i].switch_check);
    }
    for (int i = 0; i < 200; i++) {
        struct sched_task *t;
        unsigned cpu;
        assert_int_equal(sched_pick(&vm->s, &t, &cpu), SCHED_RUN);
        assert_in_range(cpu, 0, 3);
        assert_false(t->kill_pending);
        assert_false(t->check_pending);
        sched_account(&vm->s, t, cpu, 100);
        if (i == 50)
            assert_int_equal(setaff(vm, t, "0-7"), 0);
    }
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* ---- override ---- */

static void test_O1_exec_32bit_narrows_without_saving(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_OVERRIDE, &t, "2-5", true);
    assert_mask(&t.affinity, "2-3");
    assert_false(t.has_saved_mask);
    assert_string_equal(dmesg(vm), "");
    /* No restore on a 64-bit exec. */
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "2-3");
    shutdown_vm(vm);
}

static void test_O1_exec_32bit_no_overlap_falls_back_and_logs(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_OVERRIDE, &t, "6", true);
    assert_mask(&t.affinity, "0-3");
    assert_int_equal(t.cpu, 0);
    assert_false(t.has_saved_mask);
    assert_string_equal(dmesg(vm), "[    0.000000] Overriding affinity for process 100 (prog32) "
                                   "to CPUs 0-3\n");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_O2_setaffinity_outside_M_einval(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_OVERRIDE, &t, "0-3", true);
    assert_int_equal(setaff(vm, &t, "2-5"), -EINVAL);
    assert_mask(&t.affinity, "0-3");
    assert_int_equal(setaff(vm, &t, "4"), -EINVAL);
    assert_mask(&t.affinity, "0-3");
    assert_int_equal(setaff(vm, &t, "1-2"), 0);
    assert_mask(&t.affinity, "1-2");
    assert_int_equal(t.cpu, 1);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_O2_64bit_task_unrestricted(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_OVERRIDE, &t, "0-3", false);
    assert_int_equal(setaff(vm, &t, "2-5"), 0);
    assert_mask(&t.affinity, "2-5");
    shutdown_vm(vm);
}

/* ---- kill ---- */

static void test_K1_exec_32bit_flags_check(void **state)
{
    (void)state;
    for (int p = SCHED_POLICY_KILL; p <= SCHED_POLICY_FIXUP; p++) {
        struct sched_task t;
        struct vm *vm = with_task((enum sched_policy_id)p, &t, "0-7", true);
        assert_true(t.check_pending);
        assert_true(t.need_resched);
        assert_mask(&t.affinity, "0-7"); /* exec itself changes nothing */
        assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
        assert_false(t.check_pending);
        shutdown_vm(vm);
    }
    struct sched_task t;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "0-7", true);
    assert_false(t.check_pending);
    shutdown_vm(vm);
}

static void test_K2_kill_exec_on_64bit_cpu_sigkills(void **state)
{
    (void)state;
    struct sched_task t, *p;
    unsigned cpu;
    struct vm *vm = with_task(SCHED_POLICY_KILL, &t, "5", true);
    assert_int_equal(t.cpu, 5);
    sched_advance(&vm->s, UINT64_C(2000001000));
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_ptr_equal(p, &t);
    assert_int_equal(cpu, 5);
    assert_true(t.kill_pending);
    assert_int_equal(t.nr_switches, 0);
    assert_string_equal(dmesg(vm), "[    2.000001] CPU affinity contains CPUs that are not "
                                   "capable of running 32-bit tasks\n");
    assert_int_equal(klog_get(&vm->log, 0)->level, KLOG_WARNING);
    /* Until emu's SIGKILL ends it, it is never run. */
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_invariants(vm);
    sched_task_exit(&vm->s, &t);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), -EAGAIN);
    assert_string_equal(dmesg(vm), "[    2.000001] CPU affinity contains CPUs that are not "
                                   "capable of running 32-bit tasks\n");
    shutdown_vm(vm);
}

static void test_K2_kill_on_32bit_cpu_runs(void **state)
{
    (void)state;
    struct sched_task t, *p;
    unsigned cpu;
    struct vm *vm = with_task(SCHED_POLICY_KILL, &t, "3-4", true);
    assert_int_equal(t.cpu, 3);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_int_equal(cpu, 3);
    assert_false(t.check_pending);
    assert_false(t.kill_pending);
    assert_mask(&t.affinity, "3-4");
    assert_string_equal(dmesg(vm), "");
    shutdown_vm(vm);
}

/* The balancer may put a compat task on a 64-bit CPU its A allows: the
 * check on that switch kills it (Yousef RFC patch 2). */
static void test_K2_kill_after_balance_onto_64bit_cpu(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_KILL);
    struct sched_task a, b, *p;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_init(&vm->s, &b, 2, 2, "b32");
    assert_int_equal(setaff(vm, &a, "0"), 0);
    assert_int_equal(setaff(vm, &b, "0"), 0);
    assert_int_equal(sched_task_exec(&vm->s, &b, true), 0);
    assert_int_equal(setaff(vm, &b, "0,6"), 0);
    assert_int_equal(b.cpu, 0);
    /* Idle cpu6 pulls b, waiting behind a on cpu0. */
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_ptr_equal(p, &a);
    assert_int_equal(b.cpu, 6);
    sched_account(&vm->s, &a, 0, 100);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_ptr_equal(p, &b);
    assert_int_equal(cpu, 6);
    assert_string_equal(dmesg(vm), "[    0.000000] CPU affinity contains CPUs that are not "
                                   "capable of running 32-bit tasks\n");
    shutdown_vm(vm);
}

static void test_K3_fast_path_flag(void **state)
{
    (void)state;
    struct sched_task t64, t32;
    /* kill and fixup on a mismatched machine: only compat tasks check. */
    for (int p = SCHED_POLICY_KILL; p <= SCHED_POLICY_FIXUP; p++) {
        struct vm *vm = boot(8, "0-3", true, (enum sched_policy_id)p);
        assert_true(vm->s.switch_check);
        sched_task_init(&vm->s, &t64, 1, 1, "t64");
        sched_task_init(&vm->s, &t32, 2, 2, "t32");
        assert_false(t64.switch_check);
        assert_int_equal(sched_task_exec(&vm->s, &t32, true), 0);
        assert_true(t32.switch_check);
        struct sched_task child;
        assert_int_equal(sched_task_fork(&vm->s, &t32, &child, 3, 3), 0);
        assert_true(child.switch_check);
        assert_int_equal(sched_task_exec(&vm->s, &t32, false), 0);
        assert_false(t32.switch_check);
        shutdown_vm(vm);
    }
    /* Symmetric machines and the placing policies: no task checks. */
    struct vm *vm = boot(4, "0-3", true, SCHED_POLICY_KILL);
    assert_false(vm->s.switch_check);
    sched_task_init(&vm->s, &t32, 2, 2, "t32");
    assert_int_equal(sched_task_exec(&vm->s, &t32, true), 0);
    assert_false(t32.switch_check);
    shutdown_vm(vm);
    for (int p = SCHED_POLICY_UPSTREAM; p <= SCHED_POLICY_OVERRIDE; p++) {
        vm = boot(8, "0-3", true, (enum sched_policy_id)p);
        assert_false(vm->s.switch_check);
        sched_task_init(&vm->s, &t32, 2, 2, "t32");
        assert_int_equal(sched_task_exec(&vm->s, &t32, true), 0);
        assert_false(t32.switch_check);
        shutdown_vm(vm);
    }
}

static void test_K4_setaffinity_unrestricted_kill(void **state)
{
    (void)state;
    struct sched_task t, *p;
    unsigned cpu;
    struct vm *vm = with_task(SCHED_POLICY_KILL, &t, "0-7", true);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_int_equal(cpu, 0);
    assert_int_equal(setaff(vm, &t, "6"), 0);
    assert_mask(&t.affinity, "6");
    assert_int_equal(t.cpu, 6);
    assert_true(t.need_resched);
    sched_account(&vm->s, &t, 0, 10);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_int_equal(cpu, 6);
    shutdown_vm(vm);
}

/* ---- fixup ---- */

static void test_K2f_exec_narrows_3_4_to_3(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_FIXUP);
    struct sched_task t, *p;
    unsigned cpu;
    sched_task_init(&vm->s, &t, 100, 100, "launcher");
    assert_int_equal(setaff(vm, &t, "4"), 0);
    assert_int_equal(setaff(vm, &t, "3-4"), 0);
    assert_int_equal(t.cpu, 4);
    sched_task_set_comm(&t, "prog32");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_MIGRATED);
    assert_ptr_equal(p, &t);
    assert_int_equal(cpu, 4);
    assert_int_equal(t.cpu, 3);
    assert_string_equal(affinity_of(vm, &t), "3");
    assert_invariants(vm);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_ptr_equal(p, &t);
    assert_int_equal(cpu, 3);
    assert_string_equal(dmesg(vm), "");
    shutdown_vm(vm);
}

static void test_K2f_on_32bit_cpu_narrows_in_place(void **state)
{
    (void)state;
    struct sched_task t, *p;
    unsigned cpu;
    struct vm *vm = with_task(SCHED_POLICY_FIXUP, &t, "2-5", true);
    assert_mask(&t.affinity, "2-5");
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_int_equal(cpu, 2);
    assert_mask(&t.affinity, "2-3");
    assert_int_equal(t.nr_migrations, 1); /* the move to 2-5 only */
    shutdown_vm(vm);
}

static void test_K2f_no_32bit_cpu_in_A_sigkills(void **state)
{
    (void)state;
    struct sched_task t, *p;
    unsigned cpu;
    struct vm *vm = with_task(SCHED_POLICY_FIXUP, &t, "5-6", true);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_int_equal(cpu, 5);
    assert_true(t.kill_pending);
    assert_mask(&t.affinity, "5-6");
    assert_string_equal(dmesg(vm), "[    0.000000] Failed to fixup affinity of running 32-bit "
                                   "task\n");
    shutdown_vm(vm);
}

/* K1 + K2f: under fixup only a switch onto a vCPU outside M flags the check;
 * so 64-bit CPUs given by sched_task_setaffinity (K4) stay in A while the task
 * keeps being switched in on cpu0, here after sleeping. */
static void test_K1_fixup_switch_onto_m_keeps_A(void **state)
{
    (void)state;
    struct sched_task t, *p;
    unsigned cpu;
    struct vm *vm = with_task(SCHED_POLICY_FIXUP, &t, "0", true);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_int_equal(setaff(vm, &t, "0-7"), 0);
    assert_mask(&t.affinity, "0-7");
    sched_account(&vm->s, &t, 0, 100);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_ptr_equal(p, &t);
    assert_mask(&t.affinity, "0-7");
    assert_int_equal(t.nr_switches, 1);
    assert_int_equal(sched_task_block(&vm->s, &t), 0);
    sched_account(&vm->s, &t, 0, 100);
    assert_int_equal(sched_task_wake(&vm->s, &t), 0);
    assert_int_equal(t.cpu, 0);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_ptr_equal(p, &t);
    assert_int_equal(t.nr_switches, 2);
    assert_mask(&t.affinity, "0-7");
    shutdown_vm(vm);
}

static void test_K4_setaffinity_unrestricted_fixup(void **state)
{
    (void)state;
    struct sched_task t, *p;
    unsigned cpu;
    struct vm *vm = with_task(SCHED_POLICY_FIXUP, &t, "0-3", true);
    assert_int_equal(setaff(vm, &t, "5-7"), 0);
    assert_mask(&t.affinity, "5-7");
    assert_int_equal(t.cpu, 5);
    /* Switched in on cpu5: A & M is empty, so SIGKILL. */
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_int_equal(cpu, 5);
    shutdown_vm(vm);
}

/* ---- 3.1 fork ---- */

static void test_3_1_fork_inherits_affinity_and_compat(void **state)
{
    (void)state;
    for (int p = SCHED_POLICY_UPSTREAM; p <= SCHED_POLICY_FIXUP; p++) {
        struct sched_task t, child;
        struct vm *vm = with_task((enum sched_policy_id)p, &t, "1-2", true);
        assert_int_equal(sched_task_set_nice(&vm->s, &t, 3), 0);
        assert_int_equal(sched_task_fork(&vm->s, &t, &child, 101, 101), 0);
        assert_true(child.compat);
        assert_mask(&child.affinity, "1-2");
        assert_int_equal(child.nice, 3);
        assert_string_equal(child.comm, "prog32");
        assert_int_equal(child.cpu, 2);
        assert_false(child.kill_pending);
        assert_invariants(vm);
        shutdown_vm(vm);
    }
}

static void test_3_1_fork_inherits_saved_mask_upstream(void **state)
{
    (void)state;
    struct sched_task t, child, grandchild;
    struct vm *vm = with_task(SCHED_POLICY_UPSTREAM, &t, "2-5", true);
    assert_int_equal(sched_task_fork(&vm->s, &t, &child, 101, 101), 0);
    assert_true(child.has_saved_mask);
    assert_mask(&child.saved_mask, "2-5");
    assert_mask(&child.affinity, "2-3");
    assert_int_equal(sched_task_fork(&vm->s, &child, &grandchild, 102, 102), 0);
    assert_mask(&grandchild.saved_mask, "2-5");
    /* The child's 64-bit exec restores the parent's saved mask. */
    assert_int_equal(sched_task_exec(&vm->s, &child, false), 0);
    assert_mask(&child.affinity, "2-5");
    assert_false(child.has_saved_mask);
    assert_true(t.has_saved_mask);
    assert_true(grandchild.has_saved_mask);
    shutdown_vm(vm);
}

int main(void)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_U1_exec_32bit_narrows_to_A_and_M),
        cmocka_unit_test(test_U1_exec_32bit_no_overlap_falls_back_to_M_and_logs),
        cmocka_unit_test(test_6_log_time_within_slice),
        cmocka_unit_test(test_U2_first_32bit_exec_saves_mask),
        cmocka_unit_test(test_U2_saved_even_when_A_within_M),
        cmocka_unit_test(test_U2_fallback_saves_nothing),
        cmocka_unit_test(test_U3_64bit_exec_restores_saved_mask),
        cmocka_unit_test(test_U3_failed_restore_still_clears_saved_mask),
        cmocka_unit_test(test_U3_64bit_exec_without_saved_mask_keeps_A),
        cmocka_unit_test(test_U4_setaffinity_partial_overlap_keeps_32bit_cpus),
        cmocka_unit_test(test_U4_setaffinity_without_32bit_cpu_einval),
        cmocka_unit_test(test_U4_success_clears_saved_mask),
        cmocka_unit_test(test_U4_64bit_task_is_not_trimmed),
        cmocka_unit_test(test_U4_setaffinity_by_64bit_caller_for_compat_target),
        cmocka_unit_test(test_U7_no_sigkill_path),
        cmocka_unit_test(test_O1_exec_32bit_narrows_without_saving),
        cmocka_unit_test(test_O1_exec_32bit_no_overlap_falls_back_and_logs),
        cmocka_unit_test(test_O2_setaffinity_outside_M_einval),
        cmocka_unit_test(test_O2_64bit_task_unrestricted),
        cmocka_unit_test(test_K1_exec_32bit_flags_check),
        cmocka_unit_test(test_K2_kill_exec_on_64bit_cpu_sigkills),
        cmocka_unit_test(test_K2_kill_on_32bit_cpu_runs),
        cmocka_unit_test(test_K2_kill_after_balance_onto_64bit_cpu),
        cmocka_unit_test(test_K3_fast_path_flag),
        cmocka_unit_test(test_K4_setaffinity_unrestricted_kill),
        cmocka_unit_test(test_K2f_exec_narrows_3_4_to_3),
        cmocka_unit_test(test_K2f_on_32bit_cpu_narrows_in_place),
        cmocka_unit_test(test_K2f_no_32bit_cpu_in_A_sigkills),
        cmocka_unit_test(test_K1_fixup_switch_onto_m_keeps_A),
        cmocka_unit_test(test_K4_setaffinity_unrestricted_fixup),
        cmocka_unit_test(test_3_1_fork_inherits_affinity_and_compat),
        cmocka_unit_test(test_3_1_fork_inherits_saved_mask_upstream),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
