/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sched-energy.c - the energy model, schedutil and EAS (sched/
 * energy_model.c, schedutil.c, eas.c; docs/scheduler.md rules E1-E9):
 * get_next_freq() and the OPP resolve, em_cpu_energy() for given
 * utilisations, the --energy-model parser's errors, schedutil's rate limit
 * and shared domains, and find_energy_efficient_cpu()'s choice on a 4+3+1
 * machine. Exact values throughout. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched-int.h"

#include "sched-fixture.h"

/* The 4+3+1 machine of tests/e2e/data/em-4-3-1.txt: little 0-3 (capacity
 * 400), middle 4-6 (800), big 7 (1024). */
static const char em431[] = "domain 0-3\n"
                            " 500000   20\n"
                            "1000000   60\n"
                            "1500000  140\n"
                            "2000000  300\n"
                            "domain 4-6\n"
                            " 800000  150\n"
                            "1600000  450\n"
                            "2400000 1100\n"
                            "domain 7   # big\n"
                            "1000000  400\n"
                            "2000000 1200\n"
                            "3000000 3000\n";
static const uint16_t caps431[8] = {400, 400, 400, 400, 800, 800, 800, 1024};

static struct vm *boot_431(struct sched_em *em)
{
    char why[256];
    assert_int_equal(sched_em_parse(em431, "em", 8, em, why, sizeof why), 0);
    struct sched_config cfg = {
        .nr_cpus = 8,
        .aarch32 = mask_of("0-7"),
        .allow_mismatched_32bit_el0 = true,
        .policy = SCHED_POLICY_UPSTREAM,
        .seed = 1,
        .slice_blocks = 100,
        .ns_per_block = 100,
        .capacity = caps431,
        .em = em,
    };
    return boot_cfg(&cfg);
}

static void free_vm(struct vm *vm)
{
    sched_destroy(&vm->s);
    klog_destroy(&vm->log);
    free(vm);
}

/* E2: get_next_freq()'s raw frequency and cpufreq_driver_resolve_freq(). */
static void test_next_freq_and_resolve(void **state)
{
    (void)state;
    /* 1.25 * 2000000 * 512 / 1024 */
    assert_int_equal(sched_map_util_freq(512, 2000000, 1024), 1250000);
    assert_int_equal(sched_map_util_freq(100, 3000000, 1024), 366210);
    assert_int_equal(sched_map_util_freq(0, 3000000, 1024), 0);
    static struct sched_em em;
    char why[128];
    assert_int_equal(sched_em_parse(em431, "em", 8, &em, why, sizeof why), 0);
    const struct sched_em_pd *little = &em.pd[0];
    assert_int_equal(sched_em_resolve_freq(little, 0), 500000);
    assert_int_equal(sched_em_resolve_freq(little, 1000000), 1000000);
    assert_int_equal(sched_em_resolve_freq(little, 1000001), 1500000);
    assert_int_equal(sched_em_resolve_freq(little, 1250000), 1500000);
    assert_int_equal(sched_em_resolve_freq(little, 2500000), 2000000);
}

/* E1, E3: em_create_perf_table()'s cost and em_cpu_energy(). */
static void test_em_cost_and_energy(void **state)
{
    (void)state;
    static struct sched_em em;
    char why[128];
    assert_int_equal(sched_em_parse(em431, "em", 8, &em, why, sizeof why), 0);
    assert_int_equal(em.nr_pds, 3);
    assert_true(em.has_power);
    /* cost = power * fmax / freq */
    assert_int_equal(em.pd[0].cost[0], 80);
    assert_int_equal(em.pd[0].cost[1], 120);
    assert_int_equal(em.pd[0].cost[2], 186);
    assert_int_equal(em.pd[0].cost[3], 300);
    assert_int_equal(em.pd[2].cost[0], 1200);
    /* max_util 100 on capacity 400: 625000 kHz, OPP 1000000 (cost 120);
     * 120 * sum_util 100 / 400. */
    assert_int_equal(sched_em_cpu_energy(&em.pd[0], 100, 100, 400), 30);
    /* max_util 300 on 400 asks 1875000: OPP 2000000, cost 300. */
    assert_int_equal(sched_em_cpu_energy(&em.pd[0], 300, 500, 400), 375);
    /* Beyond the top OPP, the top one. */
    assert_int_equal(sched_em_cpu_energy(&em.pd[0], 400, 400, 400), 300);
    /* The big core: 100 on 1024 asks 366210, OPP 1000000 (cost 1200). */
    assert_int_equal(sched_em_cpu_energy(&em.pd[2], 100, 100, 1024), 117);
    /* _get_power(): 100 uW/MHz/V^2 at 1000 MHz and 800 mV is 64 mW. */
    assert_int_equal(sched_em_dt_power(100, 1000000, 800), 64);
}

/* The --energy-model format's errors, with the file and line. */
static void test_em_parse_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"domain 0-3\n500000 20\n400000 30\n",
         "em:3: frequency 400000 kHz is not above the previous OPP's"},
        {"domain 0-7\n500000 0\n", "em:2: power 0 mW is not from 1 to 65535"},
        {"domain 0-7\n500000 65536\n", "em:2: power 65536 mW is not from 1 to 65535"},
        {"# x\n500000 20\n", "em:2: an OPP before any 'domain CPULIST' line"},
        {"domain 0-9\n1 1\n", "em:1: bad cpulist '0-9': CPU 9 is out of range 0-7"},
        {"domain 0-3\ndomain 4-7\n1 1\n", "em:1: the perf domain has no OPP (lines of 'kHz mW')"},
        {"domain 0-3\n1 1\ndomain 3-7\n1 1\n", "em:3: CPU 3 is in two perf domains"},
        {"domain 0-6\n1 1\n", "em: CPU 7 is in no perf domain (every CPU needs one)"},
        {"frobnicate\n", "em:1: expected 'domain CPULIST' or an OPP 'kHz mW'"},
        {"domain 0-7\n100 20 30\n", "em:2: expected 'domain CPULIST' or an OPP 'kHz mW'"},
        {"domain 0-7\n99999999999 1\n", "em:2: expected 'domain CPULIST' or an OPP 'kHz mW'"},
        {"domain 0-7\n-5 1\n", "em:2: expected 'domain CPULIST' or an OPP 'kHz mW'"},
        {"domain 0-7 x\n", "em:1: expected 'domain CPULIST'"},
        {"domain\n", "em:1: expected 'domain CPULIST' or an OPP 'kHz mW'"},
        {"", "em: no perf domain ('domain CPULIST' then 'kHz mW' lines)"},
        {"# only a comment\n\n", "em: no perf domain ('domain CPULIST' then 'kHz mW' lines)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        static struct sched_em em;
        char why[256] = "";
        assert_int_equal(sched_em_parse(cases[i].text, "em", 8, &em, why, sizeof why), -1);
        assert_string_equal(why, cases[i].why);
    }
    /* Comments, blanks, CRLF and a last line without a newline are fine. */
    static struct sched_em em;
    char why[256];
    assert_int_equal(
        sched_em_parse("# m\r\n\tdomain 0-7 # all\r\n 1000 5\r\n2000 9", "em", 8, &em, why, sizeof why),
        0);
    assert_int_equal(em.nr_pds, 1);
    assert_int_equal(em.pd[0].nr, 2);
    assert_int_equal(em.pd[0].cost[0], 10);
    /* em_dev_register_perf_domain(): one capacity per domain. */
    uint16_t caps[8] = {400, 400, 400, 400, 800, 800, 1024, 1024};
    assert_int_equal(sched_em_check_capacity(&em, caps, why, sizeof why), -1);
    assert_string_equal(why, "the CPUs of a perf domain must have the same capacity (CPU 0: 400, "
                             "CPU 4: 800)");
    /* sched_init refuses a model that leaves a vCPU out. */
    struct sched_em part = {0};
    struct cpumask m = mask_of("0-3");
    uint32_t khz[1] = {1000};
    assert_int_equal(sched_em_add_pd(&part, &m, khz, NULL, 1, why, sizeof why), 0);
    assert_false(part.has_power);
    struct klog log;
    assert_int_equal(klog_init(&log, 16), 0);
    struct sched s;
    struct sched_config cfg = {.nr_cpus = 8, .log = &log, .em = &part};
    assert_int_equal(sched_init(&s, &cfg), -EINVAL);
    klog_destroy(&log);
}

/* E4-E6: schedutil per domain, the rate limit, the busiest CPU of a
 * shared domain, the speed that follows. */
static void test_schedutil_updates(void **state)
{
    (void)state;
    static struct sched_em em;
    struct vm *vm = boot_431(&em);
    struct sched *s = &vm->s;
    assert_true(s->eas);
    /* At boot every domain runs at its top OPP. */
    assert_int_equal(s->cpus[7].max_freq_khz, 3000000);
    assert_int_equal(s->cpus[7].cur_freq_khz, 3000000);
    assert_int_equal(s->cpus[0].max_freq_khz, 2000000);
    /* Util 512 of 1024: 1.25 * 3000000 / 2 = 1875000, resolved to 2000000;
     * the first decision is never rate limited (need_freq_update). */
    s->cpus[7].pelt.util_avg = 512;
    s->cpus[7].nr_running = 1; /* counts as busy: no blocked decay */
    sched__cpufreq_update(s, 7, 0);
    assert_int_equal(s->cpus[7].cur_freq_khz, 2000000);
    /* The speed follows: 1024 * 3000000 / (1024 * 2000000) in 16.16. */
    assert_int_equal(s->cpus[7].time_scale, 98304);
    /* Frequency invariance: a unit of running counts 1024 * 2/3. */
    assert_int_equal(sched_cpu_pelt_scale(&s->cpus[7]), 682);
    /* Within rate_limit_us (1 ms) of the change nothing moves. */
    s->cpus[7].pelt.util_avg = 1000;
    sched__cpufreq_update(s, 7, 999999);
    assert_int_equal(s->cpus[7].cur_freq_khz, 2000000);
    sched__cpufreq_update(s, 7, 1000000);
    assert_int_equal(s->cpus[7].cur_freq_khz, 3000000);
    /* An unchanged frequency does not restart the rate limit. */
    sched__cpufreq_update(s, 7, 1500000);
    s->cpus[7].pelt.util_avg = 0;
    sched__cpufreq_update(s, 7, 1999999);
    assert_int_equal(s->cpus[7].cur_freq_khz, 3000000);
    sched__cpufreq_update(s, 7, 2000000);
    assert_int_equal(s->cpus[7].cur_freq_khz, 1000000);
    /* The middle domain: its busiest CPU (400 of 800) decides for all
     * three: 1.25 * 2400000 / 2 = 1500000, resolved to 1600000. */
    for (unsigned cpu = 4; cpu <= 6; cpu++) {
        s->cpus[cpu].nr_running = 1;
        s->cpus[cpu].pelt.util_avg = cpu == 5 ? 400 : 100;
    }
    sched__cpufreq_update(s, 4, 0);
    for (unsigned cpu = 4; cpu <= 6; cpu++)
        assert_int_equal(s->cpus[cpu].cur_freq_khz, 1600000);
    /* The little domain was never updated: still at its top. */
    assert_int_equal(s->cpus[0].cur_freq_khz, 2000000);
    free_vm(vm);
}

/* E7-E9: find_energy_efficient_cpu() on the 4+3+1 machine. */
static void test_feec_choices(void **state)
{
    (void)state;
    static struct sched_em em;
    struct vm *vm = boot_431(&em);
    struct sched *s = &vm->s;
    struct sched_task t;
    memset(&t, 0, sizeof t);
    t.cls = SCHED_CLASS_FAIR;
    t.state = SCHED_TASK_BLOCKED;
    struct cpumask all = mask_of("0-7");

    /* A task of util 100 that slept on big cpu 7 (its util still in cpu
     * 7's). Little: cpu 0 (the first of most spare capacity), delta 30;
     * middle: cpu 4, 56; big: prev, 117. 117 - 30 > (117 + 0) >> 4: cpu 0. */
    t.cpu = 7;
    t.pelt.util_avg = 100;
    s->cpus[7].pelt.util_avg = 100;
    assert_int_equal(sched_eas_compute_energy(s, 0, &t, 100, 0, 0), 30);
    assert_int_equal(sched_eas_compute_energy(s, 1, &t, 100, 4, 0), 56);
    assert_int_equal(sched_eas_compute_energy(s, 2, &t, 100, 7, 0), 117);
    assert_int_equal(sched_eas_compute_energy(s, 2, &t, 100, SCHED_NO_CPU, 0), 0);
    assert_int_equal(sched__feec(s, &t, &all, 7), 0);
    /* Only CPUs of the allowed mask (a 32-bit task's M, its affinity). */
    struct cpumask big_half = mask_of("4-7");
    assert_int_equal(sched__feec(s, &t, &big_half, 7), 4);
    struct cpumask only7 = mask_of("7");
    assert_int_equal(sched__feec(s, &t, &only7, 7), 7);

    /* From little cpu 1 the other little CPUs cost the same: prev stays
     * (no saving beats the 1/16 margin). */
    s->cpus[7].pelt.util_avg = 0;
    s->cpus[1].pelt.util_avg = 100;
    t.cpu = 1;
    assert_int_equal(sched__feec(s, &t, &all, 1), 1);

    /* Little CPUs busy with 250 each: the task (350 > 80% of 400) fits none
     * of them; the middle cpu 4 (delta 56) against prev 7 (117). */
    for (unsigned cpu = 0; cpu < 4; cpu++)
        s->cpus[cpu].pelt.util_avg = 250;
    s->cpus[7].pelt.util_avg = 100;
    t.cpu = 7;
    assert_int_equal(sched__feec(s, &t, &all, 7), 4);

    /* A task without utilisation goes back to prev. */
    t.pelt.util_avg = 0;
    assert_int_equal(sched__feec(s, &t, &all, 7), 7);
    t.pelt.util_avg = 100;

    /* Overutilized (cpu 6 at 700 of 800: 700 * 1280 >= 800 * 1024): EAS
     * declines and the usual wake-up path decides. */
    s->cpus[6].pelt.util_avg = 700;
    assert_true(sched_eas_overutilized(s, 0));
    assert_int_equal(sched__feec(s, &t, &all, 7), SCHED_NO_CPU);
    free_vm(vm);
}

/* No model, or a symmetric machine: EAS off (sched_energy_enabled()). */
static void test_eas_off(void **state)
{
    (void)state;
    static struct sched_em em;
    char why[128];
    assert_int_equal(sched_em_parse(em431, "em", 8, &em, why, sizeof why), 0);
    struct vm *vm = boot(8, "0-7", true, SCHED_POLICY_UPSTREAM);
    assert_false(vm->s.eas);
    assert_int_equal(vm->s.cpus[0].cur_freq_khz, SCHED_DEFAULT_MAX_FREQ_KHZ);
    free_vm(vm);
    struct sched_config cfg = {
        .nr_cpus = 8,
        .aarch32 = mask_of("0-7"),
        .policy = SCHED_POLICY_UPSTREAM,
        .slice_blocks = 100,
        .ns_per_block = 10,
        .em = &em,
    };
    vm = boot_cfg(&cfg); /* every capacity 1024: schedutil only */
    assert_false(vm->s.eas);
    assert_int_equal(vm->s.cpus[7].max_freq_khz, 3000000);
    struct sched_task t = {.cls = SCHED_CLASS_FAIR, .cpu = 7};
    t.pelt.util_avg = 100;
    struct cpumask all = mask_of("0-7");
    assert_int_equal(sched__feec(&vm->s, &t, &all, 7), SCHED_NO_CPU);
    free_vm(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_freq_and_resolve), cmocka_unit_test(test_em_cost_and_energy),
        cmocka_unit_test(test_em_parse_errors),       cmocka_unit_test(test_schedutil_updates),
        cmocka_unit_test(test_feec_choices),          cmocka_unit_test(test_eas_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
