/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-flock.c - the advisory lock ranges of emu/fs/flock.c through
 * fcntl_lock and sys_flock, as a guest's fcntl(2) and flock(2) reach them:
 * a range unlocked in its middle splits, touching ranges of one owner and
 * type merge, owners conflict (read locks share, write locks do not),
 * F_GETLK answers with the conflicting lock's exact range and owner,
 * length 0 runs to the end of any file, ranges are computed as Linux's
 * flock64_to_posix_lock() computes them (EOVERFLOW past OFFSET_MAX,
 * INT64_MAX; EINVAL before byte 0), the 32-bit F_GETLK answers as
 * fixup_compat_flock() does, POSIX locks go at any close by their
 * process, and flock(2) locks live in a space of their own.
 *
 * The owners: two open file descriptions of one file (OFD locks, each its
 * own owner, F_GETLK's l_pid -1), and pid 1 and its forked child (POSIX
 * locks, owned by the process). The machine is kernel-fixture.h's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <sys/file.h>

#include "flock.h"
#include "kernel-fixture.h"

#define RD 0 /* the guest's F_RDLCK, F_WRLCK, F_UNLCK */
#define WR 1
#define UN 2
#define GETLK 5
#define SETLK 6
#define GETLK64 12
#define SETLK64 13
#define OFD_GETLK 36
#define OFD_SETLK 37
#define END 0 /* l_len 0: to the end of any file */

struct lk {
    int16_t type, whence;
    int64_t start, len;
    int32_t pid;
};

static struct kfix *k;
static int fd_a, fd_b, fd_ro, fd_wo;

static int open_file(struct task *t, int flags)
{
    int64_t fd = KF_CALL(sys_openat, t, (uint64_t)-100 /* AT_FDCWD */,
                         kf_str(k, "/tmp/locked"), (uint64_t)(flags | O_CREAT), 0600);
    assert_true(fd >= 0);
    return (int)fd;
}

static void boot(enum loader_isa isa)
{
    k = kf_boot(isa);
    fd_a = open_file(k->init, O_RDWR);
    fd_b = open_file(k->init, O_RDWR);
    fd_ro = open_file(k->init, O_RDONLY);
    fd_wo = open_file(k->init, O_WRONLY);
}

static int setup(void **state)
{
    (void)state;
    boot(LOADER_ISA_AARCH64);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kf_shutdown(k);
    return 0;
}

/* fcntl(fd, cmd, &l) by t; *l gets what the kernel wrote back. arm64's
 * struct flock (arm's struct flock64): the narrow one is arm's F_*LK. */
static int64_t lock_cmd(struct task *t, int fd, int cmd, struct lk *l)
{
    bool narrow = task_abi(t)->flock32 && cmd <= 7;
    uint8_t raw[32] = {0};
    memcpy(raw, &l->type, 2);
    memcpy(raw + 2, &l->whence, 2);
    if (narrow) {
        int32_t s = (int32_t)l->start, n = (int32_t)l->len;
        memcpy(raw + 4, &s, 4);
        memcpy(raw + 8, &n, 4);
        memcpy(raw + 12, &l->pid, 4);
    } else {
        memcpy(raw + 8, &l->start, 8);
        memcpy(raw + 16, &l->len, 8);
        memcpy(raw + 24, &l->pid, 4);
    }
    uint64_t at = kf_put_for(k, t, raw, sizeof raw);
    int64_t r = fcntl_lock(t, fd, cmd, at);
    kf_get(t, at, raw, sizeof raw);
    memcpy(&l->type, raw, 2);
    memcpy(&l->whence, raw + 2, 2);
    if (narrow) {
        int32_t s, n;
        memcpy(&s, raw + 4, 4);
        memcpy(&n, raw + 8, 4);
        memcpy(&l->pid, raw + 12, 4);
        l->start = s, l->len = n;
    } else {
        memcpy(&l->start, raw + 8, 8);
        memcpy(&l->len, raw + 16, 8);
        memcpy(&l->pid, raw + 24, 4);
    }
    k->next = KF_SCRATCH + 0x1000; /* the path strings stay below */
    return r;
}

static int64_t ofd_set(int fd, int type, int64_t start, int64_t len)
{
    struct lk l = {.type = (int16_t)type, .whence = SEEK_SET, .start = start, .len = len};
    return lock_cmd(k->init, fd, OFD_SETLK, &l);
}

/* What an F_OFD_GETLK of fd for a write lock on [start, len) answers. */
static struct lk ofd_get(int fd, int64_t start, int64_t len)
{
    struct lk l = {.type = WR, .whence = SEEK_SET, .start = start, .len = len};
    assert_int_equal(lock_cmd(k->init, fd, OFD_GETLK, &l), 0);
    return l;
}

#define expect_lock(l, t, s, n, p)                                                                 \
    do {                                                                                           \
        struct lk got_ = (l);                                                                      \
        assert_int_equal(got_.type, (t));                                                          \
        assert_int_equal(got_.whence, SEEK_SET);                                                   \
        assert_int_equal(got_.start, (s));                                                         \
        assert_int_equal(got_.len, (n));                                                           \
        assert_int_equal(got_.pid, (p));                                                           \
    } while (0)

/* No conflict: only l_type changes (to F_UNLCK), as fcntl_getlk() does. */
#define expect_free(l, s, n)                                                                       \
    do {                                                                                           \
        struct lk got_ = (l);                                                                      \
        assert_int_equal(got_.type, UN);                                                           \
        assert_int_equal(got_.start, (s));                                                         \
        assert_int_equal(got_.len, (n));                                                           \
    } while (0)

static void unlock_all(void)
{
    assert_int_equal(ofd_set(fd_a, UN, 0, END), 0);
    assert_int_equal(ofd_set(fd_b, UN, 0, END), 0);
    expect_free(ofd_get(fd_a, 0, END), 0, END);
    expect_free(ofd_get(fd_b, 0, END), 0, END);
}

static void test_unlock_middle_splits(void **state)
{
    (void)state;
    assert_int_equal(ofd_set(fd_a, WR, 0, 100), 0);
    expect_lock(ofd_get(fd_b, 0, END), WR, 0, 100, -1);
    expect_free(ofd_get(fd_a, 0, END), 0, END); /* its own lock never conflicts */
    assert_int_equal(ofd_set(fd_a, UN, 40, 20), 0);
    expect_free(ofd_get(fd_b, 40, 20), 40, 20);
    expect_lock(ofd_get(fd_b, 39, 2), WR, 0, 40, -1);
    expect_lock(ofd_get(fd_b, 59, 2), WR, 60, 40, -1);
    expect_free(ofd_get(fd_b, 100, END), 100, END);
    /* Unlocking the head and the tail trims. */
    assert_int_equal(ofd_set(fd_a, UN, 0, 10), 0);
    assert_int_equal(ofd_set(fd_a, UN, 90, END), 0);
    expect_lock(ofd_get(fd_b, 0, 41), WR, 10, 30, -1);
    expect_lock(ofd_get(fd_b, 50, END), WR, 60, 30, -1);
    unlock_all();
}

/* Touching or overlapping ranges of one owner and type become one lock;
 * another type in the middle splits the old one around it. */
static void test_merge_and_retype(void **state)
{
    (void)state;
    assert_int_equal(ofd_set(fd_a, RD, 0, 10), 0);
    assert_int_equal(ofd_set(fd_a, RD, 10, 10), 0);
    assert_int_equal(ofd_set(fd_a, RD, 30, 10), 0);
    expect_lock(ofd_get(fd_b, 5, 1), RD, 0, 20, -1);
    assert_int_equal(ofd_set(fd_a, RD, 15, 20), 0); /* bridges the gap */
    expect_lock(ofd_get(fd_b, 5, 1), RD, 0, 40, -1);
    assert_int_equal(ofd_set(fd_a, WR, 10, 5), 0);
    expect_lock(ofd_get(fd_b, 0, 1), RD, 0, 10, -1);
    expect_lock(ofd_get(fd_b, 12, 1), WR, 10, 5, -1);
    expect_lock(ofd_get(fd_b, 39, 1), RD, 15, 25, -1);
    /* Back to a read lock: one range again. */
    assert_int_equal(ofd_set(fd_a, RD, 10, 5), 0);
    expect_lock(ofd_get(fd_b, 39, 1), RD, 0, 40, -1);
    unlock_all();
}

static void test_conflicts_between_owners(void **state)
{
    (void)state;
    assert_int_equal(ofd_set(fd_a, RD, 0, 10), 0);
    assert_int_equal(ofd_set(fd_b, RD, 5, 10), 0); /* read locks share */
    assert_int_equal(ofd_set(fd_b, WR, 9, 1), -EAGAIN);
    assert_int_equal(ofd_set(fd_b, WR, 10, 5), 0); /* its own range only */
    assert_int_equal(ofd_set(fd_a, WR, 0, 10), -EAGAIN);
    assert_int_equal(ofd_set(fd_a, WR, 0, 5), 0); /* a's alone */
    expect_lock(ofd_get(fd_a, 5, 5), RD, 5, 5, -1);
    expect_lock(ofd_get(fd_a, 10, END), WR, 10, 5, -1);
    /* A failed request changes nothing. */
    expect_lock(ofd_get(fd_b, 0, 5), WR, 0, 5, -1);
    expect_lock(ofd_get(fd_b, 5, 5), RD, 5, 5, -1);
    /* A read request conflicts only with write locks. */
    struct lk l = {.type = RD, .whence = SEEK_SET, .start = 5, .len = 5};
    assert_int_equal(lock_cmd(k->init, fd_b, OFD_GETLK, &l), 0);
    assert_int_equal(l.type, UN);
    l = (struct lk){.type = RD, .whence = SEEK_SET, .start = 0, .len = 0};
    assert_int_equal(lock_cmd(k->init, fd_b, OFD_GETLK, &l), 0);
    expect_lock(l, WR, 0, 5, -1);
    unlock_all();
}

/* Length 0 runs to the end of any file (OFFSET_MAX): F_GETLK reports it
 * with length 0; the ranges' arithmetic stops at INT64_MAX. */
static void test_to_end_and_overflow(void **state)
{
    (void)state;
    assert_int_equal(ofd_set(fd_a, WR, 100, END), 0);
    expect_lock(ofd_get(fd_b, INT64_MAX - 1, 1), WR, 100, END, -1);
    expect_lock(ofd_get(fd_b, INT64_MAX, END), WR, 100, END, -1);
    expect_free(ofd_get(fd_b, 0, 100), 0, 100);
    unlock_all();
    /* [1, INT64_MAX] is the largest range: it ends where "to the end"
     * does, and F_GETLK says so with length 0. One byte more overflows. */
    assert_int_equal(ofd_set(fd_a, WR, 1, INT64_MAX), 0);
    expect_lock(ofd_get(fd_b, 0, END), WR, 1, END, -1);
    assert_int_equal(ofd_set(fd_a, WR, 2, INT64_MAX), -EOVERFLOW);
    assert_int_equal(ofd_set(fd_a, WR, INT64_MAX, 2), -EOVERFLOW);
    assert_int_equal(ofd_set(fd_a, UN, INT64_MAX, 1), 0); /* the last byte */
    expect_lock(ofd_get(fd_b, 0, END), WR, 1, INT64_MAX - 1, -1);
    unlock_all();
    /* Before byte 0: EINVAL, negative starts and lengths included. */
    assert_int_equal(ofd_set(fd_a, WR, -1, 1), -EINVAL);
    assert_int_equal(ofd_set(fd_a, WR, 3, -5), -EINVAL);
    assert_int_equal(ofd_set(fd_a, WR, 0, INT64_MIN), -EINVAL);
    assert_int_equal(ofd_set(fd_a, WR, INT64_MIN, INT64_MIN), -EINVAL);
    assert_int_equal(ofd_set(fd_a, WR, -1, INT64_MAX), -EINVAL);
    /* A negative length ends just before l_start: [5, 9]. */
    assert_int_equal(ofd_set(fd_a, WR, 10, -5), 0);
    expect_lock(ofd_get(fd_b, 0, END), WR, 5, 5, -1);
    unlock_all();
    /* SEEK_END and SEEK_CUR add the file's size or offset first. */
    assert_int_equal(KF_CALL(sys_ftruncate, k->init, (uint64_t)fd_a, 1000), 0);
    struct lk l = {.type = WR, .whence = SEEK_END, .start = -10, .len = 5};
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), 0);
    expect_lock(ofd_get(fd_b, 0, END), WR, 990, 5, -1);
    l = (struct lk){.type = WR, .whence = SEEK_END, .start = INT64_MAX, .len = 1};
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), -EOVERFLOW);
    l = (struct lk){.type = WR, .whence = SEEK_END, .start = INT64_MAX - 1000, .len = 1};
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), 0);
    expect_lock(ofd_get(fd_b, 1000, END), WR, INT64_MAX, END, -1);
    l = (struct lk){.type = WR, .whence = SEEK_END, .start = -1001, .len = 1};
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), -EINVAL);
    assert_int_equal(KF_CALL(sys_lseek, k->init, (uint64_t)fd_a, 50, SEEK_SET), 50);
    l = (struct lk){.type = WR, .whence = SEEK_CUR, .start = 0, .len = -50};
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), 0);
    expect_lock(ofd_get(fd_b, 0, 1), WR, 0, 50, -1);
    unlock_all();
    assert_int_equal(KF_CALL(sys_ftruncate, k->init, (uint64_t)fd_a, 0), 0);
}

static void test_argument_errors(void **state)
{
    (void)state;
    struct lk l = {.type = WR, .whence = SEEK_SET, .start = 0, .len = 1};
    assert_int_equal(lock_cmd(k->init, fd_ro, OFD_SETLK, &l), -EBADF); /* not open for writing */
    l.type = RD;
    assert_int_equal(lock_cmd(k->init, fd_wo, OFD_SETLK, &l), -EBADF);
    assert_int_equal(lock_cmd(k->init, fd_ro, OFD_SETLK, &l), 0);
    l.type = UN;
    assert_int_equal(lock_cmd(k->init, fd_ro, OFD_SETLK, &l), 0);
    assert_int_equal(lock_cmd(k->init, fd_ro, OFD_GETLK, &l), -EINVAL); /* F_GETLK of F_UNLCK */
    l = (struct lk){.type = 3, .whence = SEEK_SET};
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), -EINVAL);
    l = (struct lk){.type = WR, .whence = 3};
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), -EINVAL);
    l = (struct lk){.type = WR, .whence = SEEK_SET, .pid = 1}; /* OFD: l_pid must be 0 */
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), -EINVAL);
    assert_int_equal(lock_cmd(k->init, 99, SETLK, &l), -EBADF);
    assert_int_equal(fcntl_lock(k->init, fd_a, SETLK, 0x1000 /* unmapped */), -EFAULT);
    unlock_all();
}

/* POSIX locks belong to the process: its child conflicts with it and sees
 * its pid; any close of the file by the owner drops them all. */
static void test_posix_owner_process(void **state)
{
    (void)state;
    int64_t child_pid = do_clone(k->init, 17 /* SIGCHLD: fork */, 0, 0, 0, 0);
    assert_true(child_pid > 1);
    struct task *child = task_find(&k->m, (int)child_pid);
    assert_non_null(child);
    struct lk l = {.type = WR, .whence = SEEK_SET, .start = 0, .len = 10};
    assert_int_equal(lock_cmd(k->init, fd_a, SETLK, &l), 0);
    /* The same process through another descriptor: no conflict. */
    l = (struct lk){.type = WR, .whence = SEEK_SET, .start = 5, .len = 10};
    assert_int_equal(lock_cmd(k->init, fd_b, SETLK, &l), 0);
    l = (struct lk){.type = RD, .whence = SEEK_SET, .start = 0, .len = 0};
    assert_int_equal(lock_cmd(child, fd_a, GETLK, &l), 0);
    expect_lock(l, WR, 0, 15, 1);
    l = (struct lk){.type = RD, .whence = SEEK_SET, .start = 14, .len = 1};
    assert_int_equal(lock_cmd(child, fd_b, SETLK, &l), -EAGAIN);
    l.start = 15;
    assert_int_equal(lock_cmd(child, fd_b, SETLK, &l), 0);
    /* OFD locks and POSIX locks of one file conflict with each other. */
    expect_lock(ofd_get(fd_a, 0, 15), WR, 0, 15, 1);
    /* pid 1 closes an unrelated descriptor of the same file. */
    assert_int_equal(KF_CALL(sys_close, k->init, (uint64_t)fd_wo), 0);
    l = (struct lk){.type = WR, .whence = SEEK_SET, .start = 0, .len = 15};
    assert_int_equal(lock_cmd(child, fd_a, GETLK, &l), 0);
    assert_int_equal(l.type, UN);
    expect_lock(ofd_get(fd_a, 0, END), RD, 15, 1, (int32_t)child_pid);
    fd_wo = open_file(k->init, O_WRONLY);
    l = (struct lk){.type = UN, .whence = SEEK_SET};
    assert_int_equal(lock_cmd(child, fd_a, SETLK, &l), 0);
    unlock_all();
}

/* flock(2) locks never meet POSIX or OFD ones; each open file description
 * is an owner. */
static void test_flock_space(void **state)
{
    (void)state;
    assert_int_equal(ofd_set(fd_a, WR, 0, END), 0);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_b, LOCK_EX | LOCK_NB), 0);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_a, LOCK_SH | LOCK_NB),
                     -EWOULDBLOCK);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_b, LOCK_SH | LOCK_NB), 0);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_a, LOCK_SH | LOCK_NB), 0);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_a, LOCK_EX | LOCK_NB),
                     -EWOULDBLOCK);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_a, 0), -EINVAL);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_b, LOCK_UN), 0);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_a, LOCK_EX | LOCK_NB), 0);
    assert_int_equal(KF_CALL(sys_flock, k->init, (uint64_t)fd_a, LOCK_UN), 0);
    expect_lock(ofd_get(fd_b, 0, END), WR, 0, END, -1);
    unlock_all();
}

/* arm's 32-bit F_GETLK: a start past 2^31-1 is EOVERFLOW, a longer
 * length is cut to 2^31-1 (fixup_compat_flock()); F_GETLK64 has room. */
static void test_compat_getlk(void **state)
{
    (void)state;
    kf_shutdown(k);
    boot(LOADER_ISA_ARM);
    struct lk l = {.type = WR, .whence = SEEK_SET, .start = 16, .len = INT64_C(1) << 32};
    assert_int_equal(lock_cmd(k->init, fd_a, OFD_SETLK, &l), 0);
    l = (struct lk){.type = WR, .whence = SEEK_SET, .start = 0, .len = 100};
    assert_int_equal(lock_cmd(k->init, fd_b, GETLK, &l), 0);
    expect_lock(l, WR, 16, INT32_MAX, -1);
    l = (struct lk){.type = WR, .whence = SEEK_SET, .start = 0, .len = 100};
    assert_int_equal(lock_cmd(k->init, fd_b, GETLK64, &l), 0);
    expect_lock(l, WR, 16, INT64_C(1) << 32, -1);
    assert_int_equal(ofd_set(fd_a, UN, 0, END), 0);
    assert_int_equal(ofd_set(fd_a, WR, INT64_C(1) << 31, END), 0);
    l = (struct lk){.type = WR, .whence = SEEK_SET, .start = 0, .len = 0};
    assert_int_equal(lock_cmd(k->init, fd_b, GETLK, &l), -EOVERFLOW);
    l = (struct lk){.type = WR, .whence = SEEK_SET, .start = 0, .len = 0};
    assert_int_equal(lock_cmd(k->init, fd_b, GETLK64, &l), 0);
    expect_lock(l, WR, INT64_C(1) << 31, END, -1);
    /* A 32-bit request is sign-extended: -1 is before byte 0. */
    l = (struct lk){.type = WR, .whence = SEEK_SET, .start = -1, .len = 1};
    assert_int_equal(lock_cmd(k->init, fd_b, SETLK, &l), -EINVAL);
    unlock_all();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unlock_middle_splits),
        cmocka_unit_test(test_merge_and_retype),
        cmocka_unit_test(test_conflicts_between_owners),
        cmocka_unit_test(test_to_end_and_overflow),
        cmocka_unit_test(test_argument_errors),
        cmocka_unit_test(test_posix_owner_process),
        cmocka_unit_test(test_flock_space),
        cmocka_unit_test(test_compat_getlk),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
