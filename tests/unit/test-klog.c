/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-klog.c - the kernel log ring (base/klog.h): printk timestamps,
 * overwrite of the oldest message, syslog(2) and /dev/kmsg formats. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "klog.h"

static const char *line_of(const struct klog *log, uint64_t seq)
{
    static char buf[KLOG_TEXT_MAX + 64];
    const struct klog_entry *e = klog_get(log, seq);
    assert_non_null(e);
    klog_format(e, buf, sizeof(buf));
    return buf;
}

static void test_6_timestamp_format(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 8), 0);
    klog_printf(&log, 0, KLOG_INFO, "boot");
    klog_printf(&log, 999, KLOG_INFO, "sub-microsecond");
    klog_printf(&log, UINT64_C(1234567891), KLOG_INFO, "one %s", "point");
    klog_printf(&log, UINT64_C(99999999999000), KLOG_INFO, "late");
    klog_printf(&log, UINT64_C(123456000000000), KLOG_INFO, "later");
    assert_string_equal(line_of(&log, 0), "[    0.000000] boot");
    assert_string_equal(line_of(&log, 1), "[    0.000000] sub-microsecond");
    assert_string_equal(line_of(&log, 2), "[    1.234567] one point");
    assert_string_equal(line_of(&log, 3), "[99999.999999] late");
    assert_string_equal(line_of(&log, 4), "[123456.000000] later");
    klog_destroy(&log);
}

/* 6: a message stamped earlier than the one before it (a vCPU whose clock
 * is behind) gets the previous timestamp: the log never goes backwards. */
static void test_6_timestamps_never_go_backwards(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 8), 0);
    klog_printf(&log, UINT64_C(2000000000), KLOG_INFO, "cpu3");
    klog_printf(&log, UINT64_C(1500000000), KLOG_INFO, "cpu5 behind");
    klog_printf(&log, UINT64_C(2500000000), KLOG_INFO, "cpu5 later");
    assert_string_equal(line_of(&log, 0), "[    2.000000] cpu3");
    assert_string_equal(line_of(&log, 1), "[    2.000000] cpu5 behind");
    assert_string_equal(line_of(&log, 2), "[    2.500000] cpu5 later");
    klog_destroy(&log);
}

static void test_trailing_newline_dropped(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 4), 0);
    klog_printf(&log, 5000, KLOG_WARNING, "with newline\n");
    const struct klog_entry *e = klog_get(&log, 0);
    assert_non_null(e);
    assert_string_equal(e->text, "with newline");
    assert_int_equal(e->level, KLOG_WARNING);
    assert_int_equal(e->ts_ns, 5000);
    assert_int_equal(e->seq, 0);
    klog_destroy(&log);
}

static void test_ring_overwrites_oldest(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 3), 0);
    assert_int_equal(klog_first_seq(&log), 0);
    assert_int_equal(klog_next_seq(&log), 0);
    assert_null(klog_get(&log, 0));
    for (int i = 0; i < 5; i++)
        klog_printf(&log, (uint64_t)i * 1000, KLOG_INFO, "m%d", i);
    assert_int_equal(klog_first_seq(&log), 2);
    assert_int_equal(klog_next_seq(&log), 5);
    assert_null(klog_get(&log, 0));
    assert_null(klog_get(&log, 1));
    assert_string_equal(klog_get(&log, 2)->text, "m2");
    assert_string_equal(klog_get(&log, 4)->text, "m4");
    assert_int_equal(klog_get(&log, 4)->seq, 4);
    assert_null(klog_get(&log, 5));

    char buf[256];
    size_t n = klog_read(&log, 0, 0, buf, sizeof(buf));
    assert_string_equal(buf, "[    0.000002] m2\n[    0.000003] m3\n[    0.000004] m4\n");
    assert_int_equal(n, strlen(buf));
    klog_destroy(&log);
}

static void test_read_from_seq_and_level_prefix(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 0), 0);
    assert_int_equal(log.capacity, KLOG_DEFAULT_CAPACITY);
    klog_printf(&log, 1000000, KLOG_INFO, "a");
    klog_printf(&log, 2000000, KLOG_WARNING, "b");
    char buf[256];
    klog_read(&log, 1, KLOG_LEVEL_PREFIX, buf, sizeof(buf));
    assert_string_equal(buf, "<4>[    0.002000] b\n");
    klog_read(&log, 0, KLOG_LEVEL_PREFIX, buf, sizeof(buf));
    assert_string_equal(buf, "<6>[    0.001000] a\n<4>[    0.002000] b\n");
    klog_read(&log, 2, 0, buf, sizeof(buf));
    assert_string_equal(buf, "");
    klog_destroy(&log);
}

static void test_read_small_buffer_reports_needed(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 4), 0);
    klog_printf(&log, 0, KLOG_INFO, "hello");
    klog_printf(&log, 0, KLOG_INFO, "world");
    char buf[10];
    memset(buf, 'z', sizeof(buf));
    assert_int_equal(klog_read(&log, 0, 0, buf, sizeof(buf)), 2 * 21);
    assert_string_equal(buf, "[    0.00");
    assert_int_equal(klog_read(&log, 0, 0, NULL, 0), 42);
    klog_destroy(&log);
}

static void test_kmsg_format(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 4), 0);
    klog_printf(&log, UINT64_C(1234567891), KLOG_INFO, "x");
    klog_printf(&log, UINT64_C(2000000000), KLOG_WARNING, "y");
    char buf[64];
    assert_int_equal(klog_format_kmsg(klog_get(&log, 0), buf, sizeof(buf)), 16);
    assert_string_equal(buf, "6,0,1234567,-;x\n");
    klog_format_kmsg(klog_get(&log, 1), buf, sizeof(buf));
    assert_string_equal(buf, "4,1,2000000,-;y\n");
    klog_destroy(&log);
}

static void test_long_text_truncated(void **state)
{
    (void)state;
    struct klog log;
    assert_int_equal(klog_init(&log, 2), 0);
    char big[3000];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    klog_printf(&log, 0, KLOG_INFO, "%s", big);
    assert_int_equal(strlen(klog_get(&log, 0)->text), KLOG_TEXT_MAX - 1);
    klog_destroy(&log);
}

int main(void)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_6_timestamp_format),
        cmocka_unit_test(test_6_timestamps_never_go_backwards),
        cmocka_unit_test(test_trailing_newline_dropped),
        cmocka_unit_test(test_ring_overwrites_oldest),
        cmocka_unit_test(test_read_from_seq_and_level_prefix),
        cmocka_unit_test(test_read_small_buffer_reports_needed),
        cmocka_unit_test(test_kmsg_format),
        cmocka_unit_test(test_long_text_truncated),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
