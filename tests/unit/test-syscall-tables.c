/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-syscall-tables.c - the AArch64 and AArch32 syscall tables and the
 * rows they share (emu/arch/syscall_common.h, issue 25 item 1): every
 * shared row stands in both tables as written (no table row overrides it:
 * -Woverride-init only warns), no row outside the list is the same in
 * both tables (it belongs in the list), and every row sits at the number
 * its name has in that ABI's uapi header. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "socket.h"
#include "ptrace.h"
#include "syscalls.h"
#include "file_access.h"
#include "fs_calls.h"
#include "flock.h"
#include "event.h"
#include "aio.h"
#include "fsnotify.h"
#include "io_uring.h"
#include "restart.h"
#include "sysv_ipc.h"
#include "mqueue.h"
#include "keys.h"
#include "rlimit.h"
#include "timers.h"
#include "uts.h"
#include "sched_attr.h"

#include "aarch64/syscall_table.h"
#include "arm/syscall_table.h"
#include "syscall_nr_aarch64.h"
#include "syscall_nr_arm.h"

/* The shared list read once more, each row with both of its numbers. */
struct shared_row {
    const char *name;
    uint64_t nr_aarch64, nr_arm;
    syscall_fn fn;
    const char *fmt;
    bool ret_hex;
};

#define SYSCALL(nr, fn, fmt) {#nr, AARCH64_NR_##nr, ARM_NR_##nr, sys_##fn, fmt, false},
#define SYSCALL_ADDR(nr, fn, fmt) {#nr, AARCH64_NR_##nr, ARM_NR_##nr, sys_##fn, fmt, true},
static const struct shared_row shared[] = {
#include "syscall_common.h"
};
#define NSHARED (sizeof shared / sizeof shared[0])

static bool is_shared(const char *name)
{
    for (size_t i = 0; i < NSHARED; i++)
        if (strcmp(shared[i].name, name) == 0)
            return true;
    return false;
}

static void expect_row(const struct syscall_entry *e, const struct shared_row *r, const char *abi)
{
    if (!e->name || strcmp(e->name, r->name) != 0 || e->fn != r->fn || !e->args ||
        strcmp(e->args, r->fmt) != 0 || e->ret_hex != r->ret_hex) {
        print_error("%s: the row of %s is not the shared one (name %s, format %s)\n", abi, r->name,
                    e->name ? e->name : "(none)", e->args ? e->args : "(none)");
        fail();
    }
}

static void test_shared_rows_stand_in_both_tables(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSHARED; i++) {
        const struct shared_row *r = &shared[i];
        assert_true(r->nr_aarch64 < SYSCALL_TABLE_AARCH64_LEN);
        assert_true(r->nr_arm < SYSCALL_TABLE_ARM_LEN);
        expect_row(&syscall_table_aarch64[r->nr_aarch64], r, "aarch64");
        expect_row(&syscall_table_arm[r->nr_arm], r, "arm");
    }
}

static bool same_row(const struct syscall_entry *a, const struct syscall_entry *b)
{
    return a->fn == b->fn && a->ret_hex == b->ret_hex && strcmp(a->args, b->args) == 0;
}

/* A call both tables list alike outside syscall_common.h is a parallel row
 * again: the test names it. */
static void test_no_parallel_rows_outside_the_list(void **state)
{
    (void)state;
    int parallel = 0;
    for (size_t i = 0; i < SYSCALL_TABLE_AARCH64_LEN; i++) {
        const struct syscall_entry *a = &syscall_table_aarch64[i];
        if (!a->name || is_shared(a->name))
            continue;
        for (size_t j = 0; j < SYSCALL_TABLE_ARM_LEN; j++) {
            const struct syscall_entry *b = &syscall_table_arm[j];
            if (b->name && strcmp(a->name, b->name) == 0 && same_row(a, b)) {
                print_error("%s is the same in both tables: its row belongs in syscall_common.h\n",
                            a->name);
                parallel++;
            }
        }
    }
    assert_int_equal(parallel, 0);
}

static void expect_named_rows(const struct syscall_entry *table, size_t len,
                              const char *(*name_of)(uint64_t), const char *abi)
{
    size_t rows = 0;
    for (size_t nr = 0; nr < len; nr++) {
        if (!table[nr].name) {
            assert_null(table[nr].fn);
            continue;
        }
        rows++;
        assert_non_null(table[nr].fn);
        assert_non_null(table[nr].args);
        const char *uapi = name_of(nr);
        if (!uapi || strcmp(uapi, table[nr].name) != 0) {
            print_error("%s: row %zu is named %s, the uapi header says %s\n", abi, nr,
                        table[nr].name, uapi ? uapi : "(no call)");
            fail();
        }
    }
    assert_true(rows >= NSHARED);
}

static void test_rows_sit_at_their_numbers(void **state)
{
    (void)state;
    expect_named_rows(syscall_table_aarch64, SYSCALL_TABLE_AARCH64_LEN, syscall_name_aarch64,
                      "aarch64");
    expect_named_rows(syscall_table_arm, SYSCALL_TABLE_ARM_LEN, syscall_name_arm, "arm");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_rows_stand_in_both_tables),
        cmocka_unit_test(test_no_parallel_rows_outside_the_list),
        cmocka_unit_test(test_rows_sit_at_their_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
