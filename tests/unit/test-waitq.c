/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-waitq.c - the machine's wait queues (emu/kernel/waitq.c) as the
 * kernel layer uses them: task_block puts a task on the queue of (object,
 * key), waiters_get lists a queue in the order the tasks started waiting
 * (FIFO, the order every wake-up follows), task_wake_all wakes a whole
 * queue, futex_wake wakes the first n of one key, waitq_add_key adds extra
 * queues (poll, futex_waitv) that go when the task wakes, and a timed wait
 * whose ktimer fires leaves its queue without disturbing the others.
 *
 * Blocking and waking go through the scheduler, so the waiters are real
 * threads of pid 1 on a booted machine (kernel-fixture.h), made by
 * do_clone as clone(CLONE_THREAD) makes them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kernel-fixture.h"
#include "ktimer.h"
#include "signals.h"
#include "waitq.h"

#define THREAD_FLAGS 0x00010f00 /* CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD */
#define NTHREADS 6

static struct kfix *k;
static struct task *thr[NTHREADS];
static int objs[3]; /* things to wait on */

static int setup(void **state)
{
    (void)state;
    k = kf_boot(LOADER_ISA_AARCH64);
    for (int i = 0; i < NTHREADS; i++) {
        int64_t tid = do_clone(k->init, THREAD_FLAGS, 0, 0, 0, 0);
        assert_true(tid > 1);
        thr[i] = task_find(&k->m, (int)tid);
        assert_non_null(thr[i]);
        assert_int_equal(thr[i]->state, TASK_RUNNABLE);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kf_shutdown(k);
    return 0;
}

static int64_t stay_blocked(struct task *t)
{
    (void)t;
    return RESUME_BLOCK;
}

static void block_on(struct task *t, const void *obj, uint64_t key, uint64_t deadline)
{
    t->wait_key = key;
    t->wait_args[1] = UINT32_MAX; /* futex_wake's bitset: any */
    task_block(t, stay_blocked, obj, deadline);
    assert_int_equal(t->state, TASK_BLOCKED);
}

/* The queue of (obj, key) must hold exactly these tasks, in this order. */
static void expect_queue(const void *obj, uint64_t key, struct task *const *want, size_t n)
{
    struct waiters w;
    waiters_get(&w, &k->m, obj, key);
    assert_int_equal(w.n, n);
    for (size_t i = 0; i < n; i++)
        assert_ptr_equal(w.task[i], want[i]);
    waiters_put(&w);
    assert_int_equal(w.n, 0);
}

/* Every thread runnable again, on no queue, no timer armed. */
static void settle(void)
{
    for (int i = 0; i < NTHREADS; i++) {
        task_wake(thr[i]);
        assert_int_equal(thr[i]->state, TASK_RUNNABLE);
        assert_null(thr[i]->wait_node.bucket);
        assert_null(thr[i]->extra_waits);
        assert_false(thr[i]->timeout.armed);
        thr[i]->wait_key = 0;
        thr[i]->woken = false;
    }
    assert_null(ktimer_next(&k->m));
}

static void test_fifo_and_wake_all(void **state)
{
    (void)state;
    expect_queue(&objs[0], 0, NULL, 0);
    block_on(thr[3], &objs[0], 0, 0);
    block_on(thr[0], &objs[0], 0, 0);
    block_on(thr[5], &objs[1], 0, 0); /* another queue */
    block_on(thr[1], &objs[0], 0, 0);
    expect_queue(&objs[0], 0, (struct task *[]){thr[3], thr[0], thr[1]}, 3);
    expect_queue(&objs[1], 0, (struct task *[]){thr[5]}, 1);
    task_wake_all(&k->m, &objs[0]);
    for (int i = 0; i < 2; i++)
        assert_int_equal(thr[i]->state, TASK_RUNNABLE);
    assert_int_equal(thr[3]->state, TASK_RUNNABLE);
    assert_int_equal(thr[5]->state, TASK_BLOCKED); /* not its queue */
    expect_queue(&objs[0], 0, NULL, 0);
    expect_queue(&objs[1], 0, (struct task *[]){thr[5]}, 1);
    /* A woken task waits again at the tail. */
    block_on(thr[0], &objs[1], 0, 0);
    block_on(thr[3], &objs[1], 0, 0);
    expect_queue(&objs[1], 0, (struct task *[]){thr[5], thr[0], thr[3]}, 3);
    settle();
}

/* The key splits an object's queues (a futex: the address space and the
 * address); futex_wake wakes the first n waiters of its key only. */
static void test_wake_one_by_key(void **state)
{
    (void)state;
    struct mm *mm = task_mm(k->init);
    uint64_t a = KF_SCRATCH, b = KF_SCRATCH + 4;
    block_on(thr[2], mm, a, 0);
    block_on(thr[4], mm, b, 0);
    block_on(thr[1], mm, a, 0);
    block_on(thr[0], mm, a, 0);
    expect_queue(mm, a, (struct task *[]){thr[2], thr[1], thr[0]}, 3);
    expect_queue(mm, b, (struct task *[]){thr[4]}, 1);
    expect_queue(mm, KF_SCRATCH + 8, NULL, 0);
    assert_int_equal(futex_wake(k->init, a, 1), 1);
    assert_int_equal(thr[2]->state, TASK_RUNNABLE);
    assert_true(thr[2]->woken);
    assert_ptr_equal(thr[2]->woken_obj, mm);
    assert_int_equal(thr[2]->woken_key, a);
    expect_queue(mm, a, (struct task *[]){thr[1], thr[0]}, 2);
    assert_int_equal(futex_wake(k->init, KF_SCRATCH + 8, 5), 0);
    assert_int_equal(futex_wake(k->init, a, 5), 2);
    expect_queue(mm, a, NULL, 0);
    assert_int_equal(thr[4]->state, TASK_BLOCKED);
    /* task_wake_all is key 0's: b's waiter stays. */
    task_wake_all(&k->m, mm);
    assert_int_equal(thr[4]->state, TASK_BLOCKED);
    assert_int_equal(futex_wake(k->init, b, 1), 1);
    assert_int_equal(thr[4]->state, TASK_RUNNABLE);
    settle();
}

/* A timed wait's ktimer fires (as the machine loop fires it): the task
 * wakes and leaves its queue; the waiters before and after it keep their
 * order. Timeouts fire by deadline, equal deadlines in blocking order. */
static void test_timed_out_waiter_leaves(void **state)
{
    (void)state;
    block_on(thr[0], &objs[2], 0, 0);
    block_on(thr[1], &objs[2], 0, 9000);
    block_on(thr[2], &objs[2], 0, 5000);
    block_on(thr[3], &objs[2], 0, 9000);
    expect_queue(&objs[2], 0, (struct task *[]){thr[0], thr[1], thr[2], thr[3]}, 4);
    struct ktimer *t = ktimer_next(&k->m);
    assert_ptr_equal(t, &thr[2]->timeout);
    assert_int_equal(t->when, 5000);
    ktimer_cancel(&k->m, t);
    t->fire(t);
    assert_int_equal(thr[2]->state, TASK_RUNNABLE);
    assert_false(thr[2]->woken); /* a timeout, not a wake-up */
    expect_queue(&objs[2], 0, (struct task *[]){thr[0], thr[1], thr[3]}, 3);
    t = ktimer_next(&k->m);
    assert_ptr_equal(t, &thr[1]->timeout);
    ktimer_cancel(&k->m, t);
    t->fire(t);
    expect_queue(&objs[2], 0, (struct task *[]){thr[0], thr[3]}, 2);
    /* Woken before its deadline, a task's timer goes too. */
    assert_true(thr[3]->timeout.armed);
    task_wake_all(&k->m, &objs[2]);
    assert_false(thr[3]->timeout.armed);
    assert_null(ktimer_next(&k->m));
    expect_queue(&objs[2], 0, NULL, 0);
    settle();
}

/* A task blocked on several queues (poll's descriptors, futex_waitv's
 * futexes): woken from any, it leaves them all. A blocked task waiting
 * twice on one queue is listed twice. */
static void test_extra_waits(void **state)
{
    (void)state;
    block_on(thr[0], &objs[0], 0, 0);
    block_on(thr[1], NULL, 0, 0); /* only on extra queues */
    assert_null(thr[1]->wait_node.bucket);
    assert_int_equal(waitq_add(thr[1], &objs[0]), 0);
    assert_int_equal(waitq_add_key(thr[1], &objs[1], 7), 0);
    assert_int_equal(waitq_add(thr[1], NULL), 0); /* nothing to wait on: ignored */
    assert_int_equal(waitq_add(thr[0], &objs[0]), 0);
    expect_queue(&objs[0], 0, (struct task *[]){thr[0], thr[1], thr[0]}, 3);
    expect_queue(&objs[1], 7, (struct task *[]){thr[1]}, 1);
    expect_queue(&objs[1], 0, NULL, 0);
    task_wake_all(&k->m, &objs[0]);
    assert_int_equal(thr[0]->state, TASK_RUNNABLE);
    assert_int_equal(thr[1]->state, TASK_RUNNABLE);
    assert_null(thr[1]->extra_waits);
    expect_queue(&objs[0], 0, NULL, 0);
    expect_queue(&objs[1], 7, NULL, 0);
    /* waitq_drop_extra alone leaves the task's own queue. */
    block_on(thr[2], &objs[0], 0, 0);
    assert_int_equal(waitq_add(thr[2], &objs[1]), 0);
    waitq_drop_extra(thr[2]);
    expect_queue(&objs[1], 0, NULL, 0);
    expect_queue(&objs[0], 0, (struct task *[]){thr[2]}, 1);
    settle();
}

/* More waiters than waiters_get's inline array (16): the list grows and
 * keeps the order. */
static void test_many_waiters(void **state)
{
    (void)state;
    enum { N = 40 };
    struct task *order[N];
    for (int i = 0; i < N; i++) {
        order[i] = thr[i % NTHREADS];
        if (i < NTHREADS)
            block_on(order[i], &objs[1], 0, 0);
        else
            assert_int_equal(waitq_add(order[i], &objs[1]), 0);
    }
    expect_queue(&objs[1], 0, order, N);
    settle();
    expect_queue(&objs[1], 0, NULL, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_and_wake_all),
        cmocka_unit_test(test_wake_one_by_key),
        cmocka_unit_test(test_timed_out_waiter_leaves),
        cmocka_unit_test(test_extra_waits),
        cmocka_unit_test(test_many_waiters),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
