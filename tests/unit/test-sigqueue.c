/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sigqueue.c - the pending-signal queues of emu/kernel/signal.c
 * (struct sigpending, task.h) through signal_queue_task,
 * signal_queue_process, signal_dequeue and rt_sigqueueinfo: a standard
 * signal pending once keeps its first siginfo (legacy_queue()), real-time
 * instances queue in order with theirs, dequeue_signal()'s order (the
 * thread's queue before its process's, a synchronous fault first, then the
 * lowest signal), blocked masks (pending but not deliverable; SIGKILL
 * never blocked), signals discarded at send, and the RLIMIT_SIGPENDING
 * bound on sigqueue (EAGAIN) that kill's signals ignore (__send_signal()).
 * The machine is kernel-fixture.h's; the second thread is do_clone's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>

#include "kernel-fixture.h"
#include "signals.h"

#define RTMIN 32 /* the kernel's SIGRTMIN (glibc keeps 32 and 33 for itself) */
#define THREAD_FLAGS 0x00010f00 /* CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD */
#define ALL UINT64_MAX

static struct kfix *k;
static struct task *t, *thread2;

static int setup(void **state)
{
    (void)state;
    k = kf_boot(LOADER_ISA_AARCH64);
    t = k->init;
    int64_t tid = do_clone(t, THREAD_FLAGS, 0, 0, 0, 0);
    assert_true(tid > 1);
    thread2 = task_find(&k->m, (int)tid);
    assert_non_null(thread2);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kf_shutdown(k);
    return 0;
}

static struct siginfo_lite from(int pid, uint64_t value)
{
    return (struct siginfo_lite){.code = SI_QUEUE, .pid = pid, .value = value};
}

/* The next signal t takes from set must be sig with this sender and value. */
static void expect_next(struct task *who, uint64_t set, int sig, int pid, uint64_t value)
{
    struct siginfo_lite info = {0};
    assert_int_equal(signal_dequeue(who, set, &info), sig);
    if (sig) {
        assert_int_equal(info.pid, pid);
        assert_int_equal(info.value, value);
    }
}

static void expect_empty(void)
{
    expect_next(t, ALL, 0, 0, 0);
    expect_next(thread2, ALL, 0, 0, 0);
    assert_int_equal(t->pending.set | t->proc->pending.set | thread2->pending.set, 0);
    assert_int_equal(t->pending.nrt + t->proc->pending.nrt + thread2->pending.nrt, 0);
}

static void test_standard_coalesce(void **state)
{
    (void)state;
    struct siginfo_lite a = from(10, 1), b = from(20, 2);
    signal_queue_task(t, SIGUSR1, &a);
    signal_queue_task(t, SIGUSR1, &b);
    assert_int_equal(t->pending.set, SIGBIT(SIGUSR1));
    expect_next(t, ALL, SIGUSR1, 10, 1); /* the first one's siginfo */
    expect_next(t, ALL, 0, 0, 0);
    /* Once taken, the next one queues again. */
    signal_queue_process(t->proc, SIGUSR1, &b);
    signal_queue_process(t->proc, SIGUSR1, &a);
    expect_next(t, ALL, SIGUSR1, 20, 2);
    expect_empty();
}

static void test_rt_queue_in_order(void **state)
{
    (void)state;
    for (uint64_t v = 1; v <= 3; v++) {
        struct siginfo_lite i = from(100 + (int)v, v);
        signal_queue_task(t, RTMIN + 1, &i);
        if (v == 1) {
            struct siginfo_lite j = from(7, 99);
            signal_queue_task(t, RTMIN + 2, &j);
            signal_queue_task(t, RTMIN, &j);
        }
    }
    assert_int_equal(t->pending.nrt, 5);
    expect_next(t, ALL, RTMIN, 7, 99);
    expect_next(t, ALL, RTMIN + 1, 101, 1);
    /* Taking only RTMIN+2 leaves RTMIN+1's instances in their order. */
    expect_next(t, SIGBIT(RTMIN + 2), RTMIN + 2, 7, 99);
    assert_int_equal(t->pending.set, SIGBIT(RTMIN + 1));
    expect_next(t, ALL, RTMIN + 1, 102, 2);
    expect_next(t, ALL, RTMIN + 1, 103, 3);
    expect_empty();
}

/* dequeue_signal(): the thread's queue first, whatever the process's
 * holds; in a queue, synchronous faults first (next_signal()), then the
 * lowest signal, standard before real-time. */
static void test_dequeue_order(void **state)
{
    (void)state;
    struct siginfo_lite i = from(1, 0);
    signal_queue_process(t->proc, SIGINT, &i);
    signal_queue_process(t->proc, RTMIN, &i);
    signal_queue_task(t, SIGUSR2, &i);
    signal_queue_task(t, RTMIN + 5, &i);
    signal_queue_task(thread2, SIGHUP, &i);
    expect_next(t, ALL, SIGUSR2, 1, 0);
    expect_next(t, ALL, RTMIN + 5, 1, 0);
    expect_next(t, ALL, SIGINT, 1, 0);
    expect_next(t, ALL, RTMIN, 1, 0);
    expect_next(t, ALL, 0, 0, 0); /* thread2's SIGHUP is its own */
    expect_next(thread2, ALL, SIGHUP, 1, 0);
    /* Synchronous faults before lower signals. */
    signal_queue_process(t->proc, SIGHUP, &i);
    signal_queue_process(t->proc, SIGSEGV, &i);
    signal_queue_process(t->proc, SIGBUS, &i);
    signal_queue_process(t->proc, SIGTERM, &i);
    expect_next(t, ALL, SIGBUS, 1, 0);
    expect_next(t, ALL, SIGSEGV, 1, 0);
    expect_next(t, ALL, SIGHUP, 1, 0);
    expect_next(t, ALL, SIGTERM, 1, 0);
    /* A set without them: the others only. */
    signal_queue_task(t, SIGTRAP, &i);
    signal_queue_task(t, SIGALRM, &i);
    expect_next(t, SIGBIT(SIGALRM), SIGALRM, 1, 0);
    expect_next(t, ALL, SIGTRAP, 1, 0);
    expect_empty();
}

/* A blocked signal stays pending and interrupts nothing until unblocked;
 * SIGKILL and SIGSTOP are never blocked. An ignored signal is discarded
 * at send, unless blocked (its handler may change first). */
static void test_blocked_masks(void **state)
{
    (void)state;
    struct siginfo_lite i = from(1, 0);
    t->sigmask = SIGBIT(SIGUSR1) | SIGBIT(RTMIN);
    thread2->sigmask = 0;
    signal_queue_task(t, SIGUSR1, &i);
    signal_queue_task(t, RTMIN, &i);
    assert_int_equal(t->pending.set, SIGBIT(SIGUSR1) | SIGBIT(RTMIN));
    assert_false(signal_pending(t));
    t->sigmask = SIGBIT(SIGUSR1);
    assert_true(signal_pending(t));
    expect_next(t, ~t->sigmask, RTMIN, 1, 0);
    assert_false(signal_pending(t));
    t->sigmask = ALL;
    signal_queue_task(t, SIGKILL, &i);
    assert_true(signal_pending(t));
    t->pending.set &= ~SIGBIT(SIGKILL); /* taken, as the exit would */
    /* Process-directed: pending for every thread that does not block it. */
    signal_queue_process(t->proc, SIGUSR2, &i);
    assert_false(signal_pending(t));
    assert_true(signal_pending(thread2));
    expect_next(thread2, ALL, SIGUSR2, 1, 0);
    t->sigmask = 0;
    expect_next(t, ALL, SIGUSR1, 1, 0);
    /* Discarded: ignored and not blocked (SIGCHLD by default, or SIG_IGN). */
    signal_queue_task(t, SIGCHLD, &i);
    t->proc->sighand->action[SIGUSR2].handler = 1; /* SIG_IGN */
    signal_queue_process(t->proc, SIGUSR2, &i);
    expect_empty();
    t->sigmask = SIGBIT(SIGUSR2);
    signal_queue_process(t->proc, SIGUSR2, &i);
    assert_int_equal(t->proc->pending.set, SIGBIT(SIGUSR2));
    expect_next(t, ALL, SIGUSR2, 1, 0);
    t->proc->sighand->action[SIGUSR2].handler = 0;
    t->sigmask = 0;
    expect_empty();
}

/* sigqueue(3): rt_sigqueueinfo(pid, sig, info) from pid 1 to itself, 0 or
 * the errno. */
static int64_t queue_rt(int sig, uint64_t value)
{
    uint8_t raw[128] = {0};
    int32_t signo = sig, code = SI_QUEUE, pid = 1;
    memcpy(raw, &signo, 4);
    memcpy(raw + 8, &code, 4);
    memcpy(raw + 16, &pid, 4);
    memcpy(raw + 24, &value, 8);
    uint64_t at = kf_put(k, raw, sizeof raw);
    k->next = KF_SCRATCH;
    return KF_CALL(sys_rt_sigqueueinfo, t, 1, (uint64_t)sig, at);
}

/* RLIMIT_SIGPENDING bounds what sigqueue may queue (every signal pending
 * counts, standard ones too); kill's real-time signals may exceed it. */
static void test_sigpending_limit(void **state)
{
    (void)state;
    t->sigmask = ALL; /* nothing is delivered meanwhile */
    struct rlimit_pair saved = t->proc->rlim[RLIMIT_SIGPENDING];
    t->proc->rlim[RLIMIT_SIGPENDING].cur = 4;
    struct siginfo_lite user = {.code = SI_USER, .pid = 1};
    signal_queue_task(thread2, SIGUSR1, &user); /* counts: same user */
    for (uint64_t v = 1; v <= 3; v++)
        assert_int_equal(queue_rt(RTMIN + 1, v), 0);
    assert_int_equal(queue_rt(RTMIN + 1, 4), -EAGAIN);
    assert_int_equal(queue_rt(RTMIN + 2, 4), -EAGAIN);
    signal_queue_process(t->proc, RTMIN + 1, &user); /* kill(): no bound */
    assert_int_equal(t->proc->pending.nrt, 4);
    /* A standard signal already pending is no new entry. */
    assert_int_equal(queue_rt(SIGUSR2, 9), 0);
    assert_int_equal(queue_rt(SIGUSR2, 10), 0);
    expect_next(thread2, SIGBIT(SIGUSR1), SIGUSR1, 1, 0);
    expect_next(t, ALL, SIGUSR2, 1, 9);
    expect_next(t, ALL, RTMIN + 1, 1, 1);
    /* Room again. */
    assert_int_equal(queue_rt(RTMIN + 2, 5), 0);
    expect_next(t, ALL, RTMIN + 1, 1, 2);
    expect_next(t, ALL, RTMIN + 1, 1, 3);
    expect_next(t, ALL, RTMIN + 1, 1, 0); /* kill's, SI_USER */
    expect_next(t, ALL, RTMIN + 2, 1, 5);
    expect_empty();
    /* Past the limit, a signal that would be discarded is no error. */
    t->sigmask = 0;
    t->proc->rlim[RLIMIT_SIGPENDING].cur = 0;
    t->proc->sighand->action[RTMIN + 3].handler = 1; /* SIG_IGN */
    assert_int_equal(queue_rt(RTMIN + 3, 1), 0);
    t->proc->sighand->action[RTMIN + 3].handler = 0;
    assert_int_equal(queue_rt(RTMIN + 3, 1), -EAGAIN);
    expect_empty();
    /* One queue holds RTQUEUE_MAX real-time instances, whatever the limit. */
    t->sigmask = ALL;
    t->proc->rlim[RLIMIT_SIGPENDING].cur = 100000;
    for (uint64_t v = 0; v < RTQUEUE_MAX; v++)
        assert_int_equal(queue_rt(RTMIN + (int)(v % 3), v), 0);
    assert_int_equal(queue_rt(RTMIN, RTQUEUE_MAX), -EAGAIN);
    for (uint64_t v = 0; v < RTQUEUE_MAX; v += 3)
        expect_next(t, SIGBIT(RTMIN), RTMIN, 1, v);
    t->proc->pending = (struct sigpending){0};
    t->proc->rlim[RLIMIT_SIGPENDING] = saved;
    t->sigmask = 0;
    expect_empty();
}

/* A thread that exited has no queue left to count (flush_sigqueue()). */
static void test_dead_thread_not_counted(void **state)
{
    (void)state;
    t->sigmask = ALL;
    struct rlimit_pair saved = t->proc->rlim[RLIMIT_SIGPENDING];
    t->proc->rlim[RLIMIT_SIGPENDING].cur = 1;
    struct siginfo_lite user = {.code = SI_USER, .pid = 1};
    thread2->sigmask = ALL;
    signal_queue_task(thread2, SIGUSR1, &user);
    assert_int_equal(queue_rt(RTMIN, 1), -EAGAIN);
    task_exit(thread2, 0);
    assert_int_equal(thread2->state, TASK_DEAD);
    assert_int_equal(queue_rt(RTMIN, 1), 0);
    expect_next(t, ALL, RTMIN, 1, 1);
    t->proc->rlim[RLIMIT_SIGPENDING] = saved;
    t->sigmask = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_standard_coalesce),
        cmocka_unit_test(test_rt_queue_in_order),
        cmocka_unit_test(test_dequeue_order),
        cmocka_unit_test(test_blocked_masks),
        cmocka_unit_test(test_sigpending_limit),
        cmocka_unit_test(test_dead_thread_not_counted), /* the last: thread2 ends */
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
