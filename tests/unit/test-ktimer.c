/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-ktimer.c - the machine's timer heap (emu/kernel/ktimer.c): timers
 * come out by virtual time, timers due at the same time in the order they
 * were armed (so two runs fire them alike), cancelling the head, a middle
 * or the last one keeps the rest in order, re-arming moves a timer (and
 * puts it behind the timers already armed for its new time), and thousands
 * of timers keep the order. The heap needs only its fields of a machine:
 * a zeroed struct machine is a machine with no timer armed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "ktimer.h"
#include "machine.h"

static struct machine *new_machine(void)
{
    struct machine *m = calloc(1, sizeof *m);
    assert_non_null(m);
    return m;
}

static void free_machine(struct machine *m)
{
    ktimer_heap_free(m);
    assert_null(m->ktimer_heap);
    assert_int_equal(m->ktimers, 0);
    free(m);
}

/* Takes the timers out as the machine loop fires them: the earliest,
 * cancelled (disarmed) before its callback would run. Returns how many. */
static size_t drain(struct machine *m, struct ktimer **order, size_t max)
{
    size_t n = 0;
    struct ktimer *k;
    while ((k = ktimer_next(m))) {
        assert_true(k->armed);
        assert_true(n < max);
        order[n++] = k;
        ktimer_cancel(m, k);
        assert_false(k->armed);
    }
    return n;
}

static void test_empty_and_one(void **state)
{
    (void)state;
    struct machine *m = new_machine();
    assert_null(ktimer_next(m));
    struct ktimer k = {0};
    ktimer_cancel(m, &k); /* never armed: nothing happens */
    assert_false(k.armed);
    assert_int_equal(m->ktimers, 0);
    ktimer_arm(m, &k, 500);
    assert_true(k.armed);
    assert_int_equal(k.when, 500);
    assert_ptr_equal(ktimer_next(m), &k);
    assert_int_equal(m->ktimers, 1);
    ktimer_cancel(m, &k);
    ktimer_cancel(m, &k); /* twice: the second does nothing */
    assert_null(ktimer_next(m));
    assert_int_equal(m->ktimers, 0);
    free_machine(m);
}

/* Armed out of order, they come out by time; the time 0 and UINT64_MAX
 * (a deadline that saturated) are ordinary times. */
static void test_order_by_time(void **state)
{
    (void)state;
    struct machine *m = new_machine();
    static const uint64_t when[] = {300, 100, UINT64_MAX, 0, 200, 250, 150};
    static const int expect[] = {3, 1, 6, 4, 5, 0, 2};
    struct ktimer k[7] = {0};
    for (int i = 0; i < 7; i++)
        ktimer_arm(m, &k[i], when[i]);
    struct ktimer *order[7];
    assert_int_equal(drain(m, order, 7), 7);
    for (int i = 0; i < 7; i++)
        assert_ptr_equal(order[i], &k[expect[i]]);
    free_machine(m);
}

/* Determinism: timers due at the same time fire in arming order, however
 * the heap happened to place them. */
static void test_ties_in_arming_order(void **state)
{
    (void)state;
    struct machine *m = new_machine();
    struct ktimer k[40] = {0};
    /* Interleave two due times; each group's arming order must survive. */
    for (int i = 0; i < 40; i++)
        ktimer_arm(m, &k[i], i % 2 ? 1000 : 2000);
    struct ktimer *order[40];
    assert_int_equal(drain(m, order, 40), 40);
    for (int i = 0; i < 20; i++) {
        assert_ptr_equal(order[i], &k[2 * i + 1]);
        assert_ptr_equal(order[20 + i], &k[2 * i]);
    }
    free_machine(m);
}

static void arm_five(struct machine *m, struct ktimer k[5])
{
    for (int i = 0; i < 5; i++) {
        k[i] = (struct ktimer){0};
        ktimer_arm(m, &k[i], 10 * (uint64_t)(i + 1)); /* 10, 20, 30, 40, 50 */
    }
}

static void expect_order(struct machine *m, struct ktimer *k, const int *idx, size_t n)
{
    struct ktimer *order[8];
    assert_int_equal(drain(m, order, 8), n);
    for (size_t i = 0; i < n; i++)
        assert_ptr_equal(order[i], &k[idx[i]]);
}

static void test_cancel_head_middle_last(void **state)
{
    (void)state;
    struct machine *m = new_machine();
    struct ktimer k[5];

    arm_five(m, k);
    ktimer_cancel(m, &k[0]); /* the head */
    assert_ptr_equal(ktimer_next(m), &k[1]);
    expect_order(m, k, (const int[]){1, 2, 3, 4}, 4);

    arm_five(m, k);
    ktimer_cancel(m, &k[2]); /* a middle one */
    assert_false(k[2].armed);
    expect_order(m, k, (const int[]){0, 1, 3, 4}, 4);

    arm_five(m, k);
    ktimer_cancel(m, &k[4]); /* the last armed (the heap's last slot) */
    expect_order(m, k, (const int[]){0, 1, 2, 3}, 4);

    /* The heap's last timer takes a cancelled one's place: 40 lands under
     * 10 (and stays), then 30 lands under 40 and must move up past it. */
    struct ktimer h[7] = {0};
    static const uint64_t when[] = {10, 100, 20, 110, 120, 30, 40};
    for (int i = 0; i < 7; i++)
        ktimer_arm(m, &h[i], when[i]);
    ktimer_cancel(m, &h[1]);
    ktimer_cancel(m, &h[3]);
    expect_order(m, h, (const int[]){0, 2, 5, 6, 4}, 5);
    free_machine(m);
}

/* Re-arming moves the timer; at an already-used time it queues behind the
 * timers armed there before it. */
static void test_rearm(void **state)
{
    (void)state;
    struct machine *m = new_machine();
    struct ktimer k[5];
    arm_five(m, k);
    ktimer_arm(m, &k[0], 45); /* from the head to between 40 and 50 */
    assert_ptr_equal(ktimer_next(m), &k[1]);
    assert_int_equal(m->ktimers, 5);
    ktimer_arm(m, &k[4], 5); /* from the end to the head */
    assert_ptr_equal(ktimer_next(m), &k[4]);
    ktimer_arm(m, &k[1], 30); /* the same time as k[2]: after it now */
    expect_order(m, k, (const int[]){4, 2, 1, 3, 0}, 5);

    arm_five(m, k);
    ktimer_arm(m, &k[2], 30); /* re-armed at its own time: behind 30's newcomers */
    struct ktimer late = {0};
    ktimer_arm(m, &late, 30);
    ktimer_arm(m, &k[2], 30);
    struct ktimer *order[8];
    assert_int_equal(drain(m, order, 8), 6);
    assert_ptr_equal(order[2], &late);
    assert_ptr_equal(order[3], &k[2]);
    free_machine(m);
}

/* Thousands of timers in a pseudo-random (fixed) order, a third cancelled
 * and a third re-armed on the way: the heap grows past its first 64 slots
 * and still gives them back sorted by (time, arming order). */
static void test_many(void **state)
{
    (void)state;
    enum { N = 3000 };
    struct machine *m = new_machine();
    struct ktimer *k = calloc(N, sizeof *k);
    struct ktimer **order = calloc(N, sizeof *order);
    assert_non_null(k);
    assert_non_null(order);
    uint64_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        ktimer_arm(m, &k[i], (x >> 33) % 500); /* many ties */
    }
    assert_true(m->ktimer_cap >= N);
    size_t live = N;
    for (int i = 0; i < N; i += 3) {
        ktimer_cancel(m, &k[i]);
        live--;
    }
    for (int i = 1; i < N; i += 3) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        ktimer_arm(m, &k[i], (x >> 33) % 500);
    }
    assert_int_equal(m->ktimers, live);
    for (size_t i = 0; i < m->ktimers; i++)
        assert_int_equal(m->ktimer_heap[i]->heap_at, i);
    assert_int_equal(drain(m, order, N), live);
    for (size_t i = 1; i < live; i++) {
        bool sorted = order[i - 1]->when < order[i]->when ||
                      (order[i - 1]->when == order[i]->when && order[i - 1]->seq < order[i]->seq);
        assert_true(sorted);
    }
    for (int i = 0; i < N; i++)
        assert_false(k[i].armed);
    free(order);
    free(k);
    free_machine(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_and_one),
        cmocka_unit_test(test_order_by_time),
        cmocka_unit_test(test_ties_in_arming_order),
        cmocka_unit_test(test_cancel_head_middle_last),
        cmocka_unit_test(test_rearm),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
