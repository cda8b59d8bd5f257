/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-epoll.c - an epoll's interest list and ready list (emu/fs/epoll.c)
 * through its syscall handlers: epoll_ctl's errors (EEXIST, ENOENT, EBADF,
 * EPERM, EINVAL, ELOOP), the ready list's order (the order the items
 * became ready, level-triggered items going back to its tail once
 * reported, as ep_send_events() puts them), EPOLLONESHOT (reported once,
 * until EPOLL_CTL_MOD re-arms it) and EPOLLET (reported once per new
 * event). The watched objects are eventfds (readable while their count is
 * not 0); the machine is kernel-fixture.h's, the timeouts all 0. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <sys/epoll.h>

#include "event.h"
#include "kernel-fixture.h"

static struct kfix *k;
static uint64_t events_at; /* the guest's struct epoll_event array */

static int setup(void **state)
{
    (void)state;
    k = kf_boot(LOADER_ISA_AARCH64);
    static const uint8_t zero[16 * 8];
    events_at = kf_put(k, zero, sizeof zero);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kf_shutdown(k);
    return 0;
}

static int new_epoll(void)
{
    int64_t fd = KF_CALL(sys_epoll_create1, k->init, 0);
    assert_true(fd >= 0);
    return (int)fd;
}

static int new_eventfd(void)
{
    int64_t fd = KF_CALL(sys_eventfd2, k->init, 0, 0);
    assert_true(fd >= 0);
    return (int)fd;
}

static void close_fd(int fd)
{
    assert_int_equal(KF_CALL(sys_close, k->init, (uint64_t)fd), 0);
}

/* An eventfd's count goes up by one (readable) or back to 0 (not). */
static void poke(int efd)
{
    uint64_t one = 1;
    uint64_t at = kf_put(k, &one, 8);
    assert_int_equal(KF_CALL(sys_write, k->init, (uint64_t)efd, at, 8), 8);
}

static void drain(int efd)
{
    uint64_t at = kf_put(k, &(uint64_t){0}, 8);
    assert_int_equal(KF_CALL(sys_read, k->init, (uint64_t)efd, at, 8), 8);
}

static int64_t ctl(int epfd, int op, int fd, uint32_t events, uint64_t data)
{
    uint8_t ev[16] = {0};
    memcpy(ev, &events, 4);
    memcpy(ev + 8, &data, 8);
    uint64_t at = kf_put(k, ev, sizeof ev);
    k->next = events_at + 16 * 8; /* what the tests put is short-lived */
    return KF_CALL(sys_epoll_ctl, k->init, (uint64_t)epfd, (uint64_t)op, (uint64_t)fd, at);
}

/* epoll_pwait(epfd, events, max, 0): the reported (data, events) pairs. */
static int wait_now(int epfd, int max, uint64_t *data, uint32_t *events)
{
    int64_t n = KF_CALL(sys_epoll_pwait, k->init, (uint64_t)epfd, events_at, (uint64_t)max, 0, 0, 8);
    assert_true(n >= 0 && n <= max);
    for (int i = 0; i < n; i++) {
        uint8_t ev[16];
        kf_get(k->init, events_at + 16 * (uint64_t)i, ev, sizeof ev);
        memcpy(&events[i], ev, 4);
        memcpy(&data[i], ev + 8, 8);
    }
    return (int)n;
}

/* The next wait must report exactly these data words, in this order. */
static void expect_ready(int epfd, int max, const uint64_t *want, int n)
{
    uint64_t data[8];
    uint32_t events[8];
    assert_int_equal(wait_now(epfd, max, data, events), n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(data[i], want[i]);
        assert_int_equal(events[i], EPOLLIN);
    }
}

static void test_ctl_errors(void **state)
{
    (void)state;
    int ep = new_epoll(), ep2 = new_epoll(), e = new_eventfd();
    int64_t file = KF_CALL(sys_openat, k->init, (uint64_t)-100, kf_str(k, "/tmp/plain"),
                           O_RDWR | O_CREAT, 0600);
    assert_true(file >= 0);
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, e, EPOLLIN, 1), -ENOENT);
    assert_int_equal(ctl(ep, EPOLL_CTL_DEL, e, 0, 0), -ENOENT);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e, EPOLLIN, 1), 0);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e, EPOLLOUT, 2), -EEXIST);
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, e, EPOLLIN, 3), 0);
    assert_int_equal(ctl(ep, 99, e, EPOLLIN, 3), -EINVAL);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, ep, EPOLLIN, 0), -EINVAL); /* itself */
    assert_int_equal(ctl(e, EPOLL_CTL_ADD, ep2, EPOLLIN, 0), -EINVAL); /* not an epoll */
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, 77, EPOLLIN, 0), -EBADF);
    assert_int_equal(ctl(77, EPOLL_CTL_ADD, e, EPOLLIN, 0), -EBADF);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, (int)file, EPOLLIN, 0), -EPERM); /* a regular file */
    /* EPOLLEXCLUSIVE: ADD only, and not with EPOLLONESHOT. */
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, e, EPOLLIN | EPOLLEXCLUSIVE, 0), -EINVAL);
    int e2 = new_eventfd();
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e2, EPOLLIN | EPOLLEXCLUSIVE | EPOLLONESHOT, 0),
                     -EINVAL);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e2, EPOLLIN | EPOLLEXCLUSIVE, 0), 0);
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, e2, EPOLLIN, 0), -EINVAL); /* an exclusive item */
    /* Nesting: ep2 in ep, then ep in ep2 would close a loop. */
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, ep2, EPOLLIN, 0), 0);
    assert_int_equal(ctl(ep2, EPOLL_CTL_ADD, ep, EPOLLIN, 0), -ELOOP);
    assert_int_equal(ctl(ep, EPOLL_CTL_DEL, e, 0, 0), 0);
    assert_int_equal(ctl(ep, EPOLL_CTL_DEL, e, 0, 0), -ENOENT);
    /* The same file under another descriptor is another item. */
    int64_t dup = KF_CALL(sys_dup, k->init, (uint64_t)e);
    assert_true(dup >= 0);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e, EPOLLIN, 1), 0);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, (int)dup, EPOLLIN, 2), 0);
    /* One event, both items: the newest first, as Linux's add_wait_queue
     * puts each item's wake-up callback at the head of the file's queue. */
    poke(e);
    expect_ready(ep, 8, (const uint64_t[]){2, 1}, 2);
    /* epoll_wait's own errors. */
    assert_int_equal(KF_CALL(sys_epoll_pwait, k->init, (uint64_t)ep, events_at, 0, 0, 0, 8),
                     -EINVAL);
    assert_int_equal(KF_CALL(sys_epoll_pwait, k->init, (uint64_t)e, events_at, 1, 0, 0, 8),
                     -EINVAL);
    assert_int_equal(KF_CALL(sys_epoll_pwait, k->init, 77, events_at, 1, 0, 0, 8), -EBADF);
    int fds[] = {ep, ep2, e, e2, (int)file, (int)dup};
    for (unsigned i = 0; i < sizeof fds / sizeof *fds; i++)
        close_fd(fds[i]);
}

/* Items are reported in the order they became ready, not the order they
 * were added; a level-triggered item reported goes to the tail, so a
 * small maxevents takes turns among the ready items. */
static void test_ready_order(void **state)
{
    (void)state;
    int ep = new_epoll(), e[4];
    for (int i = 0; i < 4; i++) {
        e[i] = new_eventfd();
        assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e[i], EPOLLIN, 10 + (uint64_t)i), 0);
    }
    expect_ready(ep, 8, NULL, 0);
    poke(e[2]);
    poke(e[0]);
    poke(e[3]);
    expect_ready(ep, 8, (const uint64_t[]){12, 10, 13}, 3);
    expect_ready(ep, 1, (const uint64_t[]){12}, 1);
    expect_ready(ep, 1, (const uint64_t[]){10}, 1);
    poke(e[1]);
    expect_ready(ep, 2, (const uint64_t[]){13, 12}, 2);
    expect_ready(ep, 8, (const uint64_t[]){10, 11, 13, 12}, 4);
    /* No longer ready: dropped from the list; ready again: at its tail. */
    drain(e[0]);
    expect_ready(ep, 8, (const uint64_t[]){11, 13, 12}, 3);
    poke(e[0]);
    expect_ready(ep, 8, (const uint64_t[]){11, 13, 12, 10}, 4);
    /* Deleted: gone from the ready list too; re-added: ready at once, last. */
    assert_int_equal(ctl(ep, EPOLL_CTL_DEL, e[3], 0, 0), 0);
    expect_ready(ep, 8, (const uint64_t[]){11, 12, 10}, 3);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e[3], EPOLLIN, 23), 0);
    expect_ready(ep, 8, (const uint64_t[]){11, 12, 10, 23}, 4);
    /* MOD of an item already on the ready list leaves it in its place
     * (ep_modify() queues only an unlinked item). */
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, e[1], EPOLLIN, 21), 0);
    expect_ready(ep, 8, (const uint64_t[]){21, 12, 10, 23}, 4);
    /* Interest in EPOLLOUT only: an eventfd is writable, reported as such. */
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, e[2], EPOLLOUT, 32), 0);
    uint64_t data[8];
    uint32_t events[8];
    assert_int_equal(wait_now(ep, 8, data, events), 4);
    static const uint64_t order[] = {21, 32, 10, 23};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(data[i], order[i]);
        assert_int_equal(events[i], i == 1 ? EPOLLOUT : EPOLLIN);
    }
    close_fd(ep);
    for (int i = 0; i < 4; i++)
        close_fd(e[i]);
}

/* EPOLLONESHOT: one report, then nothing until EPOLL_CTL_MOD re-arms it
 * (ready then: reported again at once). */
static void test_oneshot_rearm(void **state)
{
    (void)state;
    int ep = new_epoll(), e = new_eventfd(), other = new_eventfd();
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e, EPOLLIN | EPOLLONESHOT, 5), 0);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, other, EPOLLIN, 6), 0);
    expect_ready(ep, 8, NULL, 0);
    poke(e);
    expect_ready(ep, 8, (const uint64_t[]){5}, 1);
    expect_ready(ep, 8, NULL, 0); /* still readable, but disarmed */
    poke(e);
    poke(other);
    expect_ready(ep, 8, (const uint64_t[]){6}, 1);
    /* Disarmed, it is still on the interest list. */
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e, EPOLLIN, 0), -EEXIST);
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, e, EPOLLIN | EPOLLONESHOT, 7), 0);
    expect_ready(ep, 8, (const uint64_t[]){6, 7}, 2);
    expect_ready(ep, 8, (const uint64_t[]){6}, 1);
    /* Re-armed while not ready: reported at its next event. */
    drain(e);
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, e, EPOLLIN | EPOLLONESHOT, 8), 0);
    expect_ready(ep, 8, (const uint64_t[]){6}, 1);
    poke(e);
    expect_ready(ep, 8, (const uint64_t[]){6, 8}, 2);
    expect_ready(ep, 8, (const uint64_t[]){6}, 1);
    close_fd(ep);
    close_fd(e);
    close_fd(other);
}

/* EPOLLET: reported once per event that reaches it, however long the
 * object stays ready. */
static void test_edge_triggered(void **state)
{
    (void)state;
    int ep = new_epoll(), e = new_eventfd(), ready = new_eventfd();
    poke(ready);
    /* Ready when added: one report. */
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, ready, EPOLLIN | EPOLLET, 1), 0);
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e, EPOLLIN | EPOLLET, 2), 0);
    expect_ready(ep, 8, (const uint64_t[]){1}, 1);
    expect_ready(ep, 8, NULL, 0);
    poke(e);
    expect_ready(ep, 8, (const uint64_t[]){2}, 1);
    expect_ready(ep, 8, NULL, 0);
    poke(e); /* a new event while still readable */
    poke(ready);
    expect_ready(ep, 1, (const uint64_t[]){2}, 1);
    expect_ready(ep, 1, (const uint64_t[]){1}, 1); /* not reported yet: still queued */
    expect_ready(ep, 8, NULL, 0);
    /* An event that came and went before the wait: nothing to report. */
    poke(e);
    drain(e);
    expect_ready(ep, 8, NULL, 0);
    close_fd(ep);
    close_fd(e);
    close_fd(ready);
}

/* A closed descriptor's last reference takes its items with it. */
static void test_close_removes(void **state)
{
    (void)state;
    int ep = new_epoll(), e = new_eventfd();
    assert_int_equal(ctl(ep, EPOLL_CTL_ADD, e, EPOLLIN, 9), 0);
    poke(e);
    close_fd(e);
    expect_ready(ep, 8, NULL, 0);
    int again = new_eventfd(); /* likely the same number */
    assert_int_equal(ctl(ep, EPOLL_CTL_MOD, again, EPOLLIN, 9), -ENOENT);
    close_fd(again);
    close_fd(ep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctl_errors),
        cmocka_unit_test(test_ready_order),
        cmocka_unit_test(test_oneshot_rearm),
        cmocka_unit_test(test_edge_triggered),
        cmocka_unit_test(test_close_removes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
