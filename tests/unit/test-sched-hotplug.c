/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sched-hotplug.c - CPU hotplug under every policy: H1 (offline,
 * online, errors, rewriting the same state), U5 (the protected CPU and its
 * boot message), U6/O3 (migration and fallback order) and H2 (compat tasks
 * with nowhere to run are killed when next scheduled). */
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

/* A task "prog32" (compat) or "prog64" with affinity aff, on an 8-CPU
 * machine with M = 0-3 and the parameter. */
static void add_task(struct vm *vm, struct sched_task *t, int tid, const char *aff, bool compat)
{
    sched_task_init(&vm->s, t, tid, tid, "launcher");
    assert_int_equal(setaff(vm, t, aff), 0);
    sched_task_set_comm(t, compat ? "prog32" : "prog64");
    assert_int_equal(sched_task_exec(&vm->s, t, compat), 0);
}

/* ---- H1 ---- */

static void test_H1_offline_migrates_and_removes_cpu(void **state)
{
    (void)state;
    for (int p = SCHED_POLICY_UPSTREAM; p <= SCHED_POLICY_FIXUP; p++) {
        struct vm *vm = boot(4, "0-3", false, (enum sched_policy_id)p);
        struct sched_task t[5];
        for (int i = 0; i < 5; i++)
            sched_task_init(&vm->s, &t[i], i + 1, i + 1, "t");
        assert_int_equal(t[2].cpu, 2);
        assert_int_equal(sched_cpu_offline(&vm->s, 2), 0);
        assert_mask(&vm->s.online, "0-1,3");
        assert_false(sched_cpu_is_online(&vm->s, 2));
        assert_int_equal(t[2].cpu, 0);
        assert_true(t[2].need_resched);
        assert_mask(&t[2].affinity, "0-3");
        assert_int_equal(vm->s.cpus[2].nr_running, 0);
        /* A blocked task finds a CPU when it wakes. */
        assert_int_equal(sched_task_block(&vm->s, &t[3]), 0);
        assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
        assert_int_equal(t[3].cpu, 3);
        assert_int_equal(sched_task_wake(&vm->s, &t[3]), 0);
        assert_int_equal(t[3].cpu, 1);
        assert_string_equal(dmesg(vm), "");
        assert_invariants(vm);
        shutdown_vm(vm);
    }
}

static void test_H1_online_brings_cpu_back(void **state)
{
    (void)state;
    struct vm *vm = boot(4, "0-3", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, *p;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_string_equal(affinity_of(vm, &a), "0-2");
    for (int i = 0; i < 4; i++) {
        assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
        sched_account(&vm->s, p, cpu, 100);
    }
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_int_equal(sched_cpu_online(&vm->s, 3), 0);
    assert_mask(&vm->s.online, "0-3");
    assert_string_equal(affinity_of(vm, &a), "0-3");
    assert_int_equal(vm->s.cpus[3].clock_ns, 4000);
    assert_int_equal(setaff(vm, &a, "3"), 0);
    assert_int_equal(a.cpu, 3);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_H1_offline_last_cpu_ebusy(void **state)
{
    (void)state;
    for (int p = SCHED_POLICY_UPSTREAM; p <= SCHED_POLICY_FIXUP; p++) {
        struct vm *vm = boot(2, "0-1", false, (enum sched_policy_id)p);
        assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
        assert_int_equal(sched_cpu_offline(&vm->s, 1), -EBUSY);
        assert_mask(&vm->s.online, "1");
        shutdown_vm(vm);
    }
}

static void test_H1_writing_current_state_changes_nothing(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task a;
    add_task(vm, &a, 100, "4", false);
    assert_int_equal(sched_cpu_offline(&vm->s, 5), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 5), 0);
    assert_mask(&vm->s.online, "0-4,6-7");
    assert_int_equal(sched_cpu_online(&vm->s, 4), 0);
    assert_int_equal(a.cpu, 4);
    assert_int_equal(a.nr_migrations, 1);
    assert_mask(&vm->s.online, "0-4,6-7");
    /* Writing 1 to an online CPU, the protected one included, is a no-op. */
    assert_int_equal(sched_cpu_online(&vm->s, 0), 0);
    assert_int_equal(klog_next_seq(&vm->log), 1);
    shutdown_vm(vm);
}

static void test_H1_bad_cpu_einval(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_KILL);
    assert_int_equal(sched_cpu_offline(&vm->s, 8), -EINVAL);
    assert_int_equal(sched_cpu_online(&vm->s, 8), -EINVAL);
    assert_int_equal(sched_cpu_offline(&vm->s, NR_CPUS_MAX), -EINVAL);
    assert_int_equal(sched_cpu_online(&vm->s, SCHED_NO_CPU), -EINVAL);
    assert_mask(&vm->s.online, "0-7");
    shutdown_vm(vm);
}

/* A task that writes 0 to its own CPU's online file is moved off it during
 * its slice; the slice still counts on the old CPU. */
static void test_H1_offline_own_cpu_during_slice(void **state)
{
    (void)state;
    struct vm *vm = boot(2, "0-1", false, SCHED_POLICY_UPSTREAM);
    struct sched_task a, b, *p;
    unsigned cpu;
    sched_task_init(&vm->s, &a, 1, 1, "a");
    sched_task_init(&vm->s, &b, 2, 2, "b");
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_ptr_equal(p, &a);
    assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
    assert_true(a.need_resched);
    assert_int_equal(a.cpu, 1);
    sched_account(&vm->s, &a, 0, 30);
    assert_int_equal(vm->s.cpus[0].clock_ns, 300);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_ptr_equal(p, &b);
    assert_int_equal(cpu, 1);
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* ---- U5 ---- */

static void test_U5_boot_message_and_protected_cpu(void **state)
{
    (void)state;
    static const struct {
        const char *m32;
        unsigned protected_cpu;
        const char *log;
    } cases[] = {
        {"0-3", 0,
         "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on CPU 4; CPU "
         "hot-unplug disabled on CPU 0\n"},
        {"4-7", 4,
         "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on CPU 4; CPU "
         "hot-unplug disabled on CPU 4\n"},
        {"2,5", 2,
         "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on CPU 2; CPU "
         "hot-unplug disabled on CPU 2\n"},
        {"0-6", 0,
         "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on CPU 7; CPU "
         "hot-unplug disabled on CPU 0\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct vm *vm = boot(8, cases[i].m32, true, SCHED_POLICY_UPSTREAM);
        assert_int_equal(vm->s.protected_cpu, cases[i].protected_cpu);
        assert_string_equal(dmesg(vm), cases[i].log);
        assert_int_equal(klog_get(&vm->log, 0)->level, KLOG_INFO);
        shutdown_vm(vm);
    }
}

static void test_U5_protected_cpu_eperm(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    assert_int_equal(sched_cpu_offline(&vm->s, 0), -EPERM);
    assert_true(sched_cpu_is_online(&vm->s, 0));
    for (unsigned cpu = 1; cpu < 8; cpu++)
        assert_int_equal(sched_cpu_offline(&vm->s, cpu), 0);
    /* Even as the last online CPU, EPERM comes first. */
    assert_int_equal(sched_cpu_offline(&vm->s, 0), -EPERM);
    assert_mask(&vm->s.online, "0");
    shutdown_vm(vm);
}

static void test_U5_only_upstream_protects(void **state)
{
    (void)state;
    for (int p = SCHED_POLICY_OVERRIDE; p <= SCHED_POLICY_FIXUP; p++) {
        struct vm *vm = boot(8, "0-3", true, (enum sched_policy_id)p);
        assert_int_equal(vm->s.protected_cpu, SCHED_NO_CPU);
        assert_string_equal(dmesg(vm), "");
        assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
        shutdown_vm(vm);
    }
}

static void test_U5_not_without_mismatch(void **state)
{
    (void)state;
    static const struct {
        const char *m32;
        bool param;
    } cases[] = {{"0-3", false}, {"0-7", true}, {"", true}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct vm *vm = boot(8, cases[i].m32, cases[i].param, SCHED_POLICY_UPSTREAM);
        assert_int_equal(vm->s.protected_cpu, SCHED_NO_CPU);
        assert_string_equal(dmesg(vm), "");
        assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
        shutdown_vm(vm);
    }
}

/* ---- U6 (upstream) and O3 (override) ---- */

static void test_U6_offline_moves_to_online_cpu_in_A(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task x, y, z;
    add_task(vm, &x, 100, "4-7", false);
    add_task(vm, &y, 101, "4", false);
    assert_int_equal(setaff(vm, &y, "4,7"), 0);
    add_task(vm, &z, 102, "1-3", true);
    assert_int_equal(x.cpu, 4);
    assert_int_equal(y.cpu, 4);
    assert_int_equal(z.cpu, 1);
    assert_int_equal(sched_cpu_offline(&vm->s, 4), 0);
    assert_int_equal(x.cpu, 5);
    assert_int_equal(y.cpu, 7);
    assert_mask(&x.affinity, "4-7");
    assert_mask(&y.affinity, "4,7");
    assert_int_equal(sched_cpu_offline(&vm->s, 1), 0);
    assert_int_equal(z.cpu, 2);
    assert_mask(&z.affinity, "1-3");
    assert_string_equal(dmesg(vm),
                        "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on "
                        "CPU 4; CPU hot-unplug disabled on CPU 0\n");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_U6_64bit_no_online_cpu_in_A_resets_to_all_and_logs(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task t;
    add_task(vm, &t, 100, "5", false);
    sched_advance(&vm->s, UINT64_C(3500000000));
    assert_int_equal(sched_cpu_offline(&vm->s, 5), 0);
    assert_mask(&t.affinity, "0-7");
    assert_int_equal(t.cpu, 0);
    assert_string_equal(dmesg(vm),
                        "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on "
                        "CPU 4; CPU hot-unplug disabled on CPU 0\n"
                        "[    3.500000] process 100 (prog64) no longer affine to "
                        "cpu5\n");
    assert_int_equal(klog_get(&vm->log, 1)->level, KLOG_WARNING);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_U6_compat_no_online_cpu_in_A_resets_to_M_and_logs(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task t;
    add_task(vm, &t, 100, "3", true);
    assert_int_equal(sched_cpu_offline(&vm->s, 2), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_mask(&t.affinity, "0-3");
    assert_int_equal(t.cpu, 0);
    assert_string_equal(affinity_of(vm, &t), "0-1");
    assert_string_equal(dmesg(vm),
                        "[    0.000000] CPU features: Asymmetric 32-bit EL0 support detected on "
                        "CPU 4; CPU hot-unplug disabled on CPU 0\n"
                        "[    0.000000] process 100 (prog32) no longer affine to "
                        "cpu3\n");
    assert_invariants(vm);
    shutdown_vm(vm);
}

/* H1 migrates in U6 order under every policy: under kill and fixup a compat
 * task whose A = {3,4} loses cpu3 goes to M (A reset to M, logged), not to
 * the 64-bit-only cpu4 where the check would kill it. */
static void check_H1_kill_fixup_offline_keeps_compat_in_m(enum sched_policy_id policy)
{
    struct vm *vm = boot(8, "0-3", true, policy);
    struct sched_task t;
    add_task(vm, &t, 100, "3-4", true);
    assert_int_equal(t.cpu, 3);
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_true(cpumask_test_cpu(t.cpu, &vm->s.aarch32));
    assert_mask(&t.affinity, "0-3");
    assert_non_null(strstr(dmesg(vm), "process 100 (prog32) no longer affine to cpu3\n"));
    assert_false(t.kill_pending);
    struct sched_task *picked;
    unsigned cpu;
    assert_int_equal(sched_pick(&vm->s, &picked, &cpu), SCHED_RUN);
    assert_ptr_equal(picked, &t);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_H1_offline_keeps_compat_in_m_kill(void **state)
{
    (void)state;
    check_H1_kill_fixup_offline_keeps_compat_in_m(SCHED_POLICY_KILL);
}

static void test_H1_offline_keeps_compat_in_m_fixup(void **state)
{
    (void)state;
    check_H1_kill_fixup_offline_keeps_compat_in_m(SCHED_POLICY_FIXUP);
}

static void test_U6_blocked_task_falls_back_when_woken(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task t;
    add_task(vm, &t, 100, "2", true);
    assert_int_equal(sched_task_block(&vm->s, &t), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 2), 0);
    assert_int_equal(klog_next_seq(&vm->log), 1);
    assert_int_equal(sched_task_wake(&vm->s, &t), 0);
    assert_mask(&t.affinity, "0-3");
    assert_int_equal(t.cpu, 0);
    assert_string_equal(klog_get(&vm->log, 1)->text,
                        "process 100 (prog32) no longer affine to cpu2");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_O3_offline_moves_compat_within_A_and_M(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_OVERRIDE);
    struct sched_task t;
    add_task(vm, &t, 100, "1-2", true);
    assert_int_equal(t.cpu, 1);
    assert_int_equal(sched_cpu_offline(&vm->s, 1), 0);
    assert_int_equal(t.cpu, 2);
    assert_mask(&t.affinity, "1-2");
    assert_string_equal(dmesg(vm), "");
    /* Nothing of A online: M & online, never a 64-bit CPU. */
    assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 2), 0);
    assert_mask(&t.affinity, "0-3");
    assert_int_equal(t.cpu, 3);
    assert_string_equal(dmesg(vm), "[    0.000000] process 100 (prog32) no longer affine to "
                                   "cpu2\n");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_O3_last_online_32bit_cpu_ebusy(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_OVERRIDE);
    assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 1), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 2), -EBUSY);
    assert_int_equal(sched_cpu_offline(&vm->s, 7), 0);
    assert_mask(&vm->s.online, "2,4-6");
    assert_int_equal(sched_cpu_online(&vm->s, 3), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 2), 0);
    shutdown_vm(vm);
}

/* ---- H2 (kill, fixup) ---- */

static void test_H2_kill_last_32bit_cpu_offline_kills_when_scheduled(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_KILL);
    struct sched_task t, u, *p;
    unsigned cpu;
    add_task(vm, &t, 100, "0-3", true);
    add_task(vm, &u, 101, "4-7", false);
    for (unsigned c = 3; c > 0; c--)
        assert_int_equal(sched_cpu_offline(&vm->s, c), 0);
    assert_int_equal(t.cpu, 0);
    assert_string_equal(dmesg(vm), "");
    assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
    assert_mask(&t.affinity, "0-7");
    assert_int_equal(t.cpu, 4);
    /* u runs; t is pulled to idle cpu5 and killed there, never run. */
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_ptr_equal(p, &u);
    assert_int_equal(cpu, 4);
    assert_int_equal(t.cpu, 5);
    sched_account(&vm->s, &u, 4, 100);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_ptr_equal(p, &t);
    assert_int_equal(cpu, 5);
    assert_string_equal(dmesg(vm),
                        "[    0.000000] process 100 (prog32) no longer affine to cpu0\n"
                        "[    0.000000] CPU affinity contains CPUs that are not capable of "
                        "running 32-bit tasks\n");
    sched_task_exit(&vm->s, &t);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_RUN);
    assert_ptr_equal(p, &u);
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_H2_fixup_last_32bit_cpu_offline_kills_when_scheduled(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_FIXUP);
    struct sched_task t, *p;
    unsigned cpu;
    add_task(vm, &t, 100, "2-3", true);
    assert_int_equal(sched_cpu_offline(&vm->s, 0), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 1), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 2), 0);
    assert_int_equal(t.cpu, 3);
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_int_equal(t.cpu, 4);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_int_equal(cpu, 4);
    assert_true(t.kill_pending);
    assert_string_equal(dmesg(vm), "[    0.000000] process 100 (prog32) no longer affine to "
                                   "cpu3\n"
                                   "[    0.000000] Failed to fixup affinity of running 32-bit "
                                   "task\n");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_H2_kill_blocked_compat_killed_when_woken(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_KILL);
    struct sched_task t, *p;
    unsigned cpu;
    add_task(vm, &t, 100, "1", true);
    assert_int_equal(sched_task_block(&vm->s, &t), 0);
    for (unsigned c = 0; c < 4; c++)
        assert_int_equal(sched_cpu_offline(&vm->s, c), 0);
    assert_int_equal(klog_next_seq(&vm->log), 0);
    assert_int_equal(sched_task_wake(&vm->s, &t), 0);
    assert_int_equal(t.cpu, 4);
    assert_int_equal(sched_pick(&vm->s, &p, &cpu), SCHED_KILL);
    assert_string_equal(dmesg(vm),
                        "[    0.000000] process 100 (prog32) no longer affine to cpu1\n"
                        "[    0.000000] CPU affinity contains CPUs that are not capable of "
                        "running 32-bit tasks\n");
    shutdown_vm(vm);
}

int main(void)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_H1_offline_migrates_and_removes_cpu),
        cmocka_unit_test(test_H1_online_brings_cpu_back),
        cmocka_unit_test(test_H1_offline_last_cpu_ebusy),
        cmocka_unit_test(test_H1_writing_current_state_changes_nothing),
        cmocka_unit_test(test_H1_bad_cpu_einval),
        cmocka_unit_test(test_H1_offline_own_cpu_during_slice),
        cmocka_unit_test(test_U5_boot_message_and_protected_cpu),
        cmocka_unit_test(test_U5_protected_cpu_eperm),
        cmocka_unit_test(test_U5_only_upstream_protects),
        cmocka_unit_test(test_U5_not_without_mismatch),
        cmocka_unit_test(test_U6_offline_moves_to_online_cpu_in_A),
        cmocka_unit_test(test_U6_64bit_no_online_cpu_in_A_resets_to_all_and_logs),
        cmocka_unit_test(test_U6_compat_no_online_cpu_in_A_resets_to_M_and_logs),
        cmocka_unit_test(test_U6_blocked_task_falls_back_when_woken),
        cmocka_unit_test(test_H1_offline_keeps_compat_in_m_kill),
        cmocka_unit_test(test_H1_offline_keeps_compat_in_m_fixup),
        cmocka_unit_test(test_O3_offline_moves_compat_within_A_and_M),
        cmocka_unit_test(test_O3_last_online_32bit_cpu_ebusy),
        cmocka_unit_test(test_H2_kill_last_32bit_cpu_offline_kills_when_scheduled),
        cmocka_unit_test(test_H2_fixup_last_32bit_cpu_offline_kills_when_scheduled),
        cmocka_unit_test(test_H2_kill_blocked_compat_killed_when_woken),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
