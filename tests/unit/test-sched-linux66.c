/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sched-linux66.c - the linux-6.6 policy (docs/policies.md, G1-G6):
 * the user's requested mask kept by sched_setaffinity, narrowed by a 32-bit
 * exec, applied again by a 64-bit exec and dropped by the fallback. The
 * machine is 8 vCPUs with M = 0-3 and the parameter. */
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

/* A 64-bit task that asked for aff, on a fresh linux-6.6 machine. */
static struct vm *with_task(struct sched_task *t, const char *aff)
{
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_LINUX66);
    sched_task_init(&vm->s, t, 100, 100, "prog");
    assert_int_equal(setaff(vm, t, aff), 0);
    return vm;
}

/* The kernel log after U5's boot line. */
static const char *log_after_boot(struct vm *vm)
{
    static char buf[8192];
    klog_read(&vm->log, 1, 0, buf, sizeof(buf));
    return buf;
}

static void test_G1_compat_request_restored_by_64bit_exec(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(&t, "0-7");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(setaff(vm, &t, "2,5"), 0);
    assert_mask(&t.affinity, "2");
    assert_mask(&t.saved_mask, "2,5");
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "2,5");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_G1_equal_mask_still_records_request(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(&t, "2,5");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_mask(&t.affinity, "2");
    assert_int_equal(setaff(vm, &t, "2"), 0);
    assert_mask(&t.saved_mask, "2");
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "2");
    shutdown_vm(vm);
}

static void test_G2_compat_einval_changes_nothing(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(&t, "1-2,5");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(setaff(vm, &t, "4-7"), -EINVAL);
    assert_mask(&t.affinity, "1-2");
    assert_mask(&t.saved_mask, "1-2,5");
    /* Only offline 32-bit CPUs left: EINVAL too. */
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_int_equal(setaff(vm, &t, "3-7"), -EINVAL);
    assert_mask(&t.saved_mask, "1-2,5");
    shutdown_vm(vm);
}

static void test_G3_exec32_narrows_user_mask_and_overrides_with_all_of_M(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(&t, "4-5");
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    sched_task_set_comm(&t, "prog32");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_mask(&t.affinity, "0-3");
    assert_string_equal(affinity_of(vm, &t), "0-2");
    assert_mask(&t.saved_mask, "4-5");
    /* The second 32-bit exec narrows {4,5} again: a second override. */
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_string_equal(
        log_after_boot(vm),
        "[    0.000000] Overriding affinity for process 100 (prog32) to CPUs 0-3\n"
        "[    0.000000] Overriding affinity for process 100 (prog32) to CPUs 0-3\n");
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "4-5");
    assert_invariants(vm);
    shutdown_vm(vm);
}

static void test_G4_setaffinity_keeps_offline_cpus(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(&t, "0-7");
    assert_int_equal(sched_cpu_offline(&vm->s, 5), 0);
    assert_int_equal(setaff(vm, &t, "4-5"), 0);
    assert_mask(&t.affinity, "4-5");
    assert_string_equal(affinity_of(vm, &t), "4");
    shutdown_vm(vm);
}

static void test_G5_64bit_exec_without_user_mask_applies_every_cpu(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_LINUX66);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 100, 100, "prog");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_mask(&t.affinity, "0-3");
    assert_false(t.has_saved_mask);
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "0-7");
    shutdown_vm(vm);
}

static void test_G5_failed_restore_keeps_A_and_user_mask(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(&t, "4-5");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 4), 0);
    assert_int_equal(sched_cpu_offline(&vm->s, 5), 0);
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "0-3");
    assert_mask(&t.saved_mask, "4-5");
    shutdown_vm(vm);
}

static void test_G6_fallback_drops_user_mask(void **state)
{
    (void)state;
    struct sched_task t;
    struct vm *vm = with_task(&t, "0-7");
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(setaff(vm, &t, "3"), 0);
    assert_int_equal(t.cpu, 3);
    assert_int_equal(sched_cpu_offline(&vm->s, 3), 0);
    assert_mask(&t.affinity, "0-3");
    assert_false(t.has_saved_mask);
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_mask(&t.affinity, "0-7");
    assert_invariants(vm);
    shutdown_vm(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_G1_compat_request_restored_by_64bit_exec),
        cmocka_unit_test(test_G1_equal_mask_still_records_request),
        cmocka_unit_test(test_G2_compat_einval_changes_nothing),
        cmocka_unit_test(test_G3_exec32_narrows_user_mask_and_overrides_with_all_of_M),
        cmocka_unit_test(test_G4_setaffinity_keeps_offline_cpus),
        cmocka_unit_test(test_G5_64bit_exec_without_user_mask_applies_every_cpu),
        cmocka_unit_test(test_G5_failed_restore_keeps_A_and_user_mask),
        cmocka_unit_test(test_G6_fallback_drops_user_mask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
