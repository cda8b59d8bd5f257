/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-cpumask.c - cpumask bit operations, cpulist parse/format and the
 * kernel-style hex mask (base/cpumask.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "cpumask.h"

/* Builds a mask from a cpulist that the test knows is valid. */
static struct cpumask mask_of(const char *list)
{
    struct cpumask m;
    char why[128];
    int err = cpulist_parse(list, NR_CPUS_MAX, &m, why, sizeof(why));
    assert_int_equal(err, 0);
    return m;
}

/* Checks that m holds exactly the CPUs of list, showing both on failure. */
static void assert_mask(const struct cpumask *m, const char *list)
{
    char buf[8192];
    cpulist_format(m, buf, sizeof(buf));
    assert_string_equal(buf, list);
    struct cpumask want = mask_of(list);
    assert_true(cpumask_equal(m, &want));
}

static void test_set_clear_test(void **state)
{
    (void)state;
    static const unsigned cpus[] = {0, 63, 64, 1023};
    struct cpumask m;
    cpumask_clear(&m);
    assert_true(cpumask_empty(&m));
    for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
        cpumask_set_cpu(cpus[i], &m);
        assert_true(cpumask_test_cpu(cpus[i], &m));
        assert_int_equal(cpumask_weight(&m), i + 1);
    }
    assert_false(cpumask_test_cpu(1, &m));
    assert_false(cpumask_test_cpu(62, &m));
    assert_false(cpumask_test_cpu(65, &m));
    assert_false(cpumask_test_cpu(1022, &m));
    assert_false(cpumask_test_cpu(1024, &m));
    assert_int_equal(m.bits[0], UINT64_C(0x8000000000000001));
    assert_int_equal(m.bits[1], UINT64_C(0x1));
    assert_int_equal(m.bits[15], UINT64_C(0x8000000000000000));

    cpumask_clear_cpu(63, &m);
    assert_false(cpumask_test_cpu(63, &m));
    assert_true(cpumask_test_cpu(64, &m));
    cpumask_clear_cpu(1023, &m);
    assert_false(cpumask_test_cpu(1023, &m));
    cpumask_clear_cpu(0, &m);
    cpumask_clear_cpu(64, &m);
    assert_true(cpumask_empty(&m));
    /* Clearing a clear bit changes nothing. */
    cpumask_clear_cpu(5, &m);
    assert_true(cpumask_empty(&m));
}

static void test_setall(void **state)
{
    (void)state;
    struct cpumask m;
    cpumask_setall(&m, 0);
    assert_true(cpumask_empty(&m));
    cpumask_setall(&m, 8);
    assert_int_equal(m.bits[0], UINT64_C(0xff));
    assert_int_equal(cpumask_weight(&m), 8);
    cpumask_setall(&m, 64);
    assert_int_equal(m.bits[0], UINT64_MAX);
    assert_int_equal(m.bits[1], 0);
    cpumask_setall(&m, 65);
    assert_int_equal(m.bits[1], 1);
    assert_int_equal(cpumask_weight(&m), 65);
    cpumask_setall(&m, 1024);
    assert_int_equal(cpumask_weight(&m), 1024);
    assert_true(cpumask_test_cpu(1023, &m));
    /* More than NR_CPUS_MAX is clamped, not an overflow. */
    cpumask_setall(&m, 5000);
    assert_int_equal(cpumask_weight(&m), 1024);
}

static void test_and_or_andnot(void **state)
{
    (void)state;
    struct cpumask a = mask_of("60-70,1000-1023");
    struct cpumask b = mask_of("0-63,1023");
    struct cpumask d;

    assert_true(cpumask_and(&d, &a, &b));
    assert_mask(&d, "60-63,1023");
    assert_int_equal(cpumask_weight(&d), 5);

    cpumask_or(&d, &a, &b);
    assert_mask(&d, "0-70,1000-1023");
    assert_int_equal(cpumask_weight(&d), 95);

    assert_true(cpumask_andnot(&d, &a, &b));
    assert_mask(&d, "64-70,1000-1022");
    assert_int_equal(cpumask_weight(&d), 30);

    /* Disjoint masks: and/andnot report emptiness through their result. */
    struct cpumask lo = mask_of("0-63");
    struct cpumask hi = mask_of("64-127");
    assert_false(cpumask_and(&d, &lo, &hi));
    assert_true(cpumask_empty(&d));
    assert_false(cpumask_intersects(&lo, &hi));
    assert_true(cpumask_intersects(&a, &b));
    assert_false(cpumask_andnot(&d, &lo, &lo));
    assert_true(cpumask_empty(&d));
    assert_true(cpumask_andnot(&d, &lo, &hi));
    assert_true(cpumask_equal(&d, &lo));

    /* dst may alias a source. */
    struct cpumask x = mask_of("0-127");
    assert_true(cpumask_and(&x, &x, &hi));
    assert_true(cpumask_equal(&x, &hi));
}

static void test_subset_equal(void **state)
{
    (void)state;
    struct cpumask empty = mask_of("");
    struct cpumask a = mask_of("63-64");
    struct cpumask b = mask_of("0-127");
    struct cpumask c = mask_of("63,64");
    assert_true(cpumask_subset(&a, &b));
    assert_false(cpumask_subset(&b, &a));
    assert_true(cpumask_subset(&empty, &a));
    assert_true(cpumask_subset(&a, &a));
    assert_true(cpumask_equal(&a, &c));
    assert_false(cpumask_equal(&a, &b));
    struct cpumask d = mask_of("63-64,1023");
    assert_false(cpumask_subset(&d, &b));
    assert_false(cpumask_equal(&d, &a));
    assert_true(cpumask_empty(&empty));
    assert_int_equal(cpumask_weight(&empty), 0);
}

static void test_next_first(void **state)
{
    (void)state;
    struct cpumask m = mask_of("5,63,64,200,1023");
    assert_int_equal(cpumask_first(&m), 5);
    assert_int_equal(cpumask_next(&m, 0), 5);
    assert_int_equal(cpumask_next(&m, 5), 5);
    assert_int_equal(cpumask_next(&m, 6), 63);
    assert_int_equal(cpumask_next(&m, 64), 64);
    assert_int_equal(cpumask_next(&m, 65), 200);
    assert_int_equal(cpumask_next(&m, 201), 1023);
    assert_int_equal(cpumask_next(&m, 1023), 1023);
    assert_int_equal(cpumask_next(&m, 1024), NR_CPUS_MAX);
    assert_int_equal(cpumask_next(&m, 5000), NR_CPUS_MAX);

    struct cpumask empty = mask_of("");
    assert_int_equal(cpumask_first(&empty), NR_CPUS_MAX);

    unsigned cpu, seen[8], n = 0;
    for_each_cpu(cpu, &m)
    {
        assert_true(n < 8);
        seen[n++] = cpu;
    }
    assert_int_equal(n, 5);
    assert_int_equal(seen[0], 5);
    assert_int_equal(seen[1], 63);
    assert_int_equal(seen[2], 64);
    assert_int_equal(seen[3], 200);
    assert_int_equal(seen[4], 1023);
}

static void test_parse_valid(void **state)
{
    (void)state;
    struct cpumask m;
    char why[128];

    memset(&m, 0xff, sizeof(m));
    assert_int_equal(cpulist_parse("", 8, &m, why, sizeof(why)), 0);
    assert_true(cpumask_empty(&m));

    assert_int_equal(cpulist_parse("0", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0x1));
    assert_int_equal(cpumask_weight(&m), 1);

    assert_int_equal(cpulist_parse("0-3,6", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0x4f));
    assert_int_equal(cpumask_weight(&m), 5);

    assert_int_equal(cpulist_parse("1,3", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0xa));

    assert_int_equal(cpulist_parse("7", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0x80));

    assert_int_equal(cpulist_parse("0-1023", 1024, &m, why, sizeof(why)), 0);
    assert_int_equal(cpumask_weight(&m), 1024);

    /* Trailing newline (a sysfs file read back) and surrounding blanks. */
    assert_int_equal(cpulist_parse("0-3\n", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0xf));
    assert_int_equal(cpulist_parse("  1,3 \t\n", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0xa));
    assert_int_equal(cpulist_parse("\n", 8, &m, why, sizeof(why)), 0);
    assert_true(cpumask_empty(&m));

    /* Duplicates and overlapping ranges are accepted, as by the kernel. */
    assert_int_equal(cpulist_parse("1,1,0-2,2-3", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0xf));
    assert_int_equal(cpulist_parse("3-3", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0x8));

    /* Leading zeros are just a decimal number. */
    assert_int_equal(cpulist_parse("007", 8, &m, why, sizeof(why)), 0);
    assert_int_equal(m.bits[0], UINT64_C(0x80));

    /* A NULL reason buffer is allowed. */
    assert_int_equal(cpulist_parse("0-1", 8, &m, NULL, 0), 0);
    assert_int_equal(m.bits[0], UINT64_C(0x3));
}

/* Parses s with nr_cpus, expecting -EINVAL with a reason containing want,
 * and the output mask untouched. */
static void expect_parse_error(const char *s, unsigned nr_cpus, const char *want)
{
    struct cpumask m;
    char why[128] = "";
    cpumask_clear(&m);
    cpumask_set_cpu(42, &m);
    int err = cpulist_parse(s, nr_cpus, &m, why, sizeof(why));
    assert_int_equal(err, -EINVAL);
    if (!strstr(why, want))
        fail_msg("cpulist_parse(\"%s\", %u): reason \"%s\" lacks \"%s\"", s, nr_cpus, why, want);
    assert_int_equal(cpumask_weight(&m), 1);
    assert_true(cpumask_test_cpu(42, &m));
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_parse_error("9", 8, "CPU 9 is out of range 0-7");
    expect_parse_error("8", 8, "CPU 8 is out of range 0-7");
    expect_parse_error("0-8", 8, "CPU 8 is out of range 0-7");
    expect_parse_error("1024", 1024, "CPU 1024 is out of range 0-1023");
    expect_parse_error("3-1", 8, "bad range 3-1");
    expect_parse_error("a", 8, "expected a CPU number, found 'a'");
    expect_parse_error("1,,2", 8, "expected a CPU number, found ','");
    expect_parse_error("-1", 8, "expected a CPU number, found '-'");
    expect_parse_error("1-", 8, "expected a CPU number, found end of list");
    expect_parse_error("1,", 8, "expected a CPU number, found end of list");
    expect_parse_error("1x", 8, "unexpected 'x' after CPU 1");
    expect_parse_error("0-3:2", 8, "unexpected ':' after CPU 3");
    expect_parse_error("1 2", 8, "unexpected ' ' after CPU 1");
    expect_parse_error("1\x01", 8, "unexpected byte 0x01 after CPU 1");
    expect_parse_error("99999999999999999999", 8, "CPU 99999999999999999999 is out of range 0-7");
    expect_parse_error("0-99999999999999999999", 1024,
                       "CPU 99999999999999999999 is out of range 0-1023");
    expect_parse_error("0", 0, "CPU 0 is out of range (no CPUs)");
}

static void test_parse_short_reason_buffer(void **state)
{
    (void)state;
    struct cpumask m;
    char why[8];
    memset(why, 'z', sizeof(why));
    assert_int_equal(cpulist_parse("9", 8, &m, why, sizeof(why)), -EINVAL);
    assert_string_equal(why, "CPU 9 i");
}

/* Formats list's mask and checks the text and snprintf-style length. */
static void expect_format(const char *list, const char *want)
{
    struct cpumask m = mask_of(list);
    char buf[8192];
    size_t n = cpulist_format(&m, buf, sizeof(buf));
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
    /* And it parses back to the same mask. */
    struct cpumask back;
    assert_int_equal(cpulist_parse(buf, NR_CPUS_MAX, &back, NULL, 0), 0);
    assert_true(cpumask_equal(&back, &m));
}

static void test_format(void **state)
{
    (void)state;
    expect_format("0-3,6", "0-3,6");
    expect_format("", "");
    expect_format("0,2,4", "0,2,4");
    expect_format("1023", "1023");
    expect_format("0-1023", "0-1023");
    expect_format("3,2,1,0,6", "0-3,6");
    expect_format("0-1", "0-1");
    expect_format("62-65", "62-65");
    expect_format("63,64", "63-64");
    expect_format("0,1022-1023", "0,1022-1023");
    expect_format("5,63,64,200,1023", "5,63-64,200,1023");
}

static void test_format_small_buffer(void **state)
{
    (void)state;
    struct cpumask m = mask_of("0-3,6,100-200");
    char buf[16];

    /* Needed length is reported whatever the buffer size. */
    assert_int_equal(cpulist_format(&m, NULL, 0), strlen("0-3,6,100-200"));

    memset(buf, 'z', sizeof(buf));
    assert_int_equal(cpulist_format(&m, buf, 1), 13);
    assert_string_equal(buf, "");

    memset(buf, 'z', sizeof(buf));
    assert_int_equal(cpulist_format(&m, buf, 5), 13);
    assert_string_equal(buf, "0-3,");
    assert_int_equal(buf[5], 'z');

    memset(buf, 'z', sizeof(buf));
    assert_int_equal(cpulist_format(&m, buf, 13), 13);
    assert_string_equal(buf, "0-3,6,100-20");

    memset(buf, 'z', sizeof(buf));
    assert_int_equal(cpulist_format(&m, buf, 14), 13);
    assert_string_equal(buf, "0-3,6,100-200");

    struct cpumask empty = mask_of("");
    memset(buf, 'z', sizeof(buf));
    assert_int_equal(cpulist_format(&empty, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "");
}

/* Formats list's mask over nr_cpus bits as a hex mask. */
static void expect_hex(const char *list, unsigned nr_cpus, const char *want)
{
    struct cpumask m = mask_of(list);
    char buf[512];
    size_t n = cpumask_format_hex(&m, nr_cpus, buf, sizeof(buf));
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void test_format_hex(void **state)
{
    (void)state;
    expect_hex("0-3", 8, "0f");
    expect_hex("0-3", 4, "f");
    expect_hex("0-7", 8, "ff");
    expect_hex("0", 64, "00000000,00000001");
    expect_hex("0-3", 64, "00000000,0000000f");
    expect_hex("", 8, "00");
    expect_hex("0", 1, "1");
    expect_hex("0-31", 32, "ffffffff");
    expect_hex("32", 33, "1,00000000");
    expect_hex("0-35", 36, "f,ffffffff");
    expect_hex("63,64", 96, "00000001,80000000,00000000");
    /* Bits at or above nr_cpus are not printed. */
    expect_hex("0-9", 8, "ff");
    expect_hex("0-1023", 4, "f");
    expect_hex("", 0, "");

    /* 1,024 CPUs: 32 groups of 8 digits, most significant first. */
    char want[32 * 9];
    char *p = want;
    for (int g = 31; g >= 0; g--) {
        const char *grp = "00000000";
        if (g == 31)
            grp = "80000000";
        else if (g == 2)
            grp = "00000001";
        else if (g == 0)
            grp = "00000011";
        memcpy(p, grp, 8);
        p += 8;
        *p++ = g ? ',' : '\0';
    }
    expect_hex("0,4,64,1023", 1024, want);
    struct cpumask all = mask_of("0-1023");
    char buf[512];
    assert_int_equal(cpumask_format_hex(&all, 1024, buf, sizeof(buf)), 32 * 9 - 1);
    assert_int_equal(strspn(buf, "f,"), 32 * 9 - 1);
}

static void test_format_hex_small_buffer(void **state)
{
    (void)state;
    struct cpumask m = mask_of("0");
    char buf[8];
    memset(buf, 'z', sizeof(buf));
    assert_int_equal(cpumask_format_hex(&m, 64, buf, sizeof(buf)), 17);
    assert_string_equal(buf, "0000000");
    assert_int_equal(cpumask_format_hex(&m, 64, NULL, 0), 17);
}

int main(void)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_clear_test),
        cmocka_unit_test(test_setall),
        cmocka_unit_test(test_and_or_andnot),
        cmocka_unit_test(test_subset_equal),
        cmocka_unit_test(test_next_first),
        cmocka_unit_test(test_parse_valid),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_short_reason_buffer),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_format_small_buffer),
        cmocka_unit_test(test_format_hex),
        cmocka_unit_test(test_format_hex_small_buffer),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
