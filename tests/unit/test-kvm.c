/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-kvm.c - the mismatched 32-bit rules of /dev/kvm (emu/drivers/kvm.h,
 * docs/kvm.md) that need no running VM: spec V3 (KVM_ARM_VCPU_INIT with
 * the 32-bit EL1 feature), the 32-bit PSTATE refusal of KVM_SET_ONE_REG
 * (Yousef RFC patch 1), and V2 (the ID_AA64PFR0_EL1 a VM reads). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>

#include "kvm.h"
#include "machine.h"
#include "sysreg.h"

static void test_v3_el1_32bit_is_einval(void **state)
{
    (void)state;
    uint32_t features[KVM_INIT_FEATURE_WORDS] = {1u << KVM_ARM_VCPU_EL1_32BIT};
    assert_int_equal(kvm_vcpu_init_check(KVM_ARM_TARGET_GENERIC_V8, features), -EINVAL);
    features[0] |= 1u << KVM_ARM_VCPU_PSCI_0_2;
    assert_int_equal(kvm_vcpu_init_check(KVM_ARM_TARGET_GENERIC_V8, features), -EINVAL);
}

static void test_vcpu_init_targets_and_features(void **state)
{
    (void)state;
    uint32_t features[KVM_INIT_FEATURE_WORDS] = {0};
    assert_int_equal(kvm_vcpu_init_check(KVM_ARM_TARGET_GENERIC_V8, features), 0);
    assert_int_equal(kvm_vcpu_init_check(0 /* KVM_ARM_TARGET_AEM_V8 */, features), -EINVAL);
    features[0] = 1u << KVM_ARM_VCPU_PSCI_0_2;
    assert_int_equal(kvm_vcpu_init_check(KVM_ARM_TARGET_GENERIC_V8, features), 0);
    features[0] = 1u << 3; /* KVM_ARM_VCPU_PMU_V3: not in asymu */
    assert_int_equal(kvm_vcpu_init_check(KVM_ARM_TARGET_GENERIC_V8, features), -ENOENT);
    features[0] = 0;
    features[6] = 1;
    assert_int_equal(kvm_vcpu_init_check(KVM_ARM_TARGET_GENERIC_V8, features), -ENOENT);
}

static void test_pstate_32bit_refused(void **state)
{
    (void)state;
    assert_false(kvm_pstate_valid(0x10)); /* usr32 */
    assert_false(kvm_pstate_valid(0x13)); /* svc32 */
    assert_false(kvm_pstate_valid(0x1f)); /* sys32 */
    assert_false(kvm_pstate_valid(0x3d0)); /* usr32, DAIF masked */
    assert_true(kvm_pstate_valid(0x0));   /* EL0t */
    assert_true(kvm_pstate_valid(0x4));   /* EL1t */
    assert_true(kvm_pstate_valid(0x3c5)); /* EL1h, DAIF masked */
    assert_false(kvm_pstate_valid(0x9));  /* EL2h: no EL2 for a VM */
    assert_false(kvm_pstate_valid(UINT64_C(1) << 32));
}

/* V2: EL0 AArch64-only unless every CPU runs AArch32 EL0. */
static void test_v2_id_aa64pfr0(void **state)
{
    (void)state;
    struct machine *m = calloc(1, sizeof *m);
    assert_non_null(m);
    m->sched.nr_cpus = 8;
    for (unsigned cpu = 0; cpu < 4; cpu++)
        cpumask_set_cpu(cpu, &m->sched.aarch32);
    assert_false(kvm_aarch32_el0_ok(m));
    assert_int_equal(sysreg_id_aa64pfr0(kvm_aarch32_el0_ok(m)) & 0xf, 1);
    for (unsigned cpu = 4; cpu < 8; cpu++)
        cpumask_set_cpu(cpu, &m->sched.aarch32);
    assert_true(kvm_aarch32_el0_ok(m));
    assert_int_equal(sysreg_id_aa64pfr0(kvm_aarch32_el0_ok(m)) & 0xf, 2);
    cpumask_clear(&m->sched.aarch32);
    assert_false(kvm_aarch32_el0_ok(m));
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v3_el1_32bit_is_einval),
        cmocka_unit_test(test_vcpu_init_targets_and_features),
        cmocka_unit_test(test_pstate_32bit_refused),
        cmocka_unit_test(test_v2_id_aa64pfr0),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
