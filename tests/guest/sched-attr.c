/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-attr.c - sched_setattr/sched_getattr as Linux 5.15 answers them:
 * the size protocol of struct sched_attr, flags, each policy's priorities,
 * SCHED_DEADLINE's parameter checks and admission control (EPERM for a
 * pinned task, EBUSY past 95% of the CPUs), a deadline task's
 * sched_setaffinity (EBUSY) and fork (EAGAIN unless reset-on-fork), and
 * sched_rr_get_interval. Run on 2 vCPUs; prints one line per call. */
#define _GNU_SOURCE
#include "guest.h"
#include "sched-attr.h"

#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define FLAG_RESET_ON_FORK 0x01
#define FLAG_KEEP_POLICY 0x08
#define FLAG_KEEP_PARAMS 0x10
#define FLAG_UTIL_MIN 0x20
#define FLAG_UTIL_MAX 0x40

static const char *res(long r)
{
    return r == 0 ? "0" : r < 0 ? err_name(errno) : "?";
}

static long getattr(int pid, void *a, unsigned size, unsigned flags)
{
    return syscall(SYS_sched_getattr, pid, a, size, flags);
}

static void show(const char *what)
{
    struct attr a;
    memset(&a, 0xaa, sizeof a);
    long r = getattr(0, &a, sizeof a, 0);
    printf("%s: getattr %s size=%u policy=%u flags=%#llx nice=%d prio=%u runtime=%llu "
           "deadline=%llu period=%llu util=%u-%u\n",
           what, res(r), a.size, a.policy, (unsigned long long)a.flags, a.nice, a.priority,
           (unsigned long long)a.runtime, (unsigned long long)a.deadline,
           (unsigned long long)a.period, a.util_min, a.util_max);
}

static long set_dl(uint64_t runtime, uint64_t deadline, uint64_t period, uint64_t flags)
{
    struct attr a = {.size = sizeof a,
                     .policy = SCHED_DEADLINE,
                     .flags = flags,
                     .runtime = runtime,
                     .deadline = deadline,
                     .period = period};
    return setattr(0, &a, 0);
}

static long set_policy(int policy, int prio, int nice, uint64_t flags)
{
    struct attr a = {.size = 48, .policy = policy, .priority = prio, .nice = nice, .flags = flags};
    return setattr(0, &a, 0);
}

static void size_protocol(void)
{
    struct attr a;
    memset(&a, 0xaa, sizeof a);
    long r = getattr(0, &a, 48, 0);
    printf("getattr size 48: %s size=%u util_min=%#x\n", res(r), a.size, a.util_min);
    printf("getattr size 47: %s\n", res(getattr(0, &a, 47, 0)));
    printf("getattr size 4097: %s\n", res(getattr(0, &a, 4097, 0)));
    printf("getattr flags 1: %s\n", res(getattr(0, &a, sizeof a, 1)));
    printf("getattr pid -1: %s\n", res(getattr(-1, &a, sizeof a, 0)));
    printf("getattr NULL: %s\n", res(getattr(0, NULL, sizeof a, 0)));
    printf("getattr bad pointer: %s\n", res(getattr(0, (void *)16, sizeof a, 0)));
    printf("getattr no such pid: %s\n", res(getattr(99999, &a, sizeof a, 0)));

    unsigned char big[64] = {0};
    struct attr *b = (struct attr *)big;
    b->size = 40;
    r = setattr(0, b, 0);
    printf("setattr size 40: %s size now %u\n", res(r), b->size);
    b->size = 64;
    r = setattr(0, b, 0);
    printf("setattr size 64 zero tail: %s\n", res(r));
    big[60] = 1;
    r = setattr(0, b, 0);
    printf("setattr size 64 nonzero tail: %s size now %u\n", res(r), b->size);
    big[60] = 0;
    b->size = 4097;
    r = setattr(0, b, 0);
    printf("setattr size 4097: %s size now %u\n", res(r), b->size);
    b->size = 0;
    printf("setattr size 0 (VER0): %s\n", res(setattr(0, b, 0)));
    b->size = 56;
    printf("setattr flags argument 1: %s\n", res(setattr(0, b, 1)));
    printf("setattr NULL: %s\n", res(setattr(0, NULL, 0)));
    printf("setattr bad pointer: %s\n", res(setattr(0, (void *)16, 0)));
    printf("setattr pid -1: %s\n", res(setattr(-1, b, 0)));
    printf("setattr no such pid: %s\n", res(setattr(99999, b, 0)));
    struct attr c = {.size = 48, .flags = FLAG_UTIL_MAX, .util_max = 512};
    printf("setattr clamp in a VER0 struct: %s\n", res(setattr(0, &c, 0)));
}

static void policies(void)
{
    printf("OTHER nice 5: %s\n", res(set_policy(SCHED_OTHER, 0, 5, 0)));
    show("OTHER nice 5");
    printf("getpriority: %d\n", getpriority(PRIO_PROCESS, 0));
    printf("OTHER nice 40 (clamped): %s\n", res(set_policy(SCHED_OTHER, 0, 40, 0)));
    show("OTHER nice 40");
    printf("OTHER prio 1: %s\n", res(set_policy(SCHED_OTHER, 1, 0, 0)));
    printf("BATCH: %s policy %d\n", res(set_policy(SCHED_BATCH, 0, 0, 0)), sched_getscheduler(0));
    printf("IDLE: %s policy %d\n", res(set_policy(SCHED_IDLE, 0, 0, 0)), sched_getscheduler(0));
    printf("policy 4: %s\n", res(set_policy(4, 0, 0, 0)));
    printf("policy 7: %s\n", res(set_policy(7, 0, 0, 0)));
    printf("flags 0x80: %s\n", res(set_policy(SCHED_OTHER, 0, 0, 0x80)));
    printf("FIFO prio 0: %s\n", res(set_policy(SCHED_FIFO, 0, 0, 0)));
    printf("FIFO prio 100: %s\n", res(set_policy(SCHED_FIFO, 100, 0, 0)));
    printf("FIFO prio 10: %s\n", res(set_policy(SCHED_FIFO, 10, 0, 0)));
    show("FIFO 10");
    printf("RR prio 20 reset-on-fork: %s policy %#x\n",
           res(set_policy(SCHED_RR, 20, 0, FLAG_RESET_ON_FORK)), sched_getscheduler(0));
    show("RR 20");
    struct timespec ts;
    sched_rr_get_interval(0, &ts);
    printf("RR interval: %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
    pid_t pid = fork();
    if (pid == 0) {
        show("RR child");
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    struct attr keep = {.size = 56,
                        .policy = 7,
                        .flags =
                            FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS | FLAG_UTIL_MIN | FLAG_UTIL_MAX,
                        .util_min = 100,
                        .util_max = 600};
    printf("keep policy and params, clamp 100-600: %s\n", res(setattr(0, &keep, 0)));
    show("clamped");
    keep.util_min = 700;
    keep.flags = FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS | FLAG_UTIL_MIN;
    printf("clamp min 700 above max 600: %s\n", res(setattr(0, &keep, 0)));
    keep.util_max = 1025;
    keep.flags = FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS | FLAG_UTIL_MAX;
    printf("clamp max 1025: %s\n", res(setattr(0, &keep, 0)));
    keep.util_min = keep.util_max = (uint32_t)-1;
    keep.flags = FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS | FLAG_UTIL_MIN | FLAG_UTIL_MAX;
    printf("clamps back to default: %s\n", res(setattr(0, &keep, 0)));
    printf("OTHER: %s\n", res(set_policy(SCHED_OTHER, 0, 0, 0)));
    show("OTHER");
    for (int p = 0; p <= 7; p++)
        printf("priority range %d: %d %d\n", p, sched_get_priority_min(p),
               sched_get_priority_max(p));
}

static void deadline_params(void)
{
    printf("DL runtime 1023: %s\n", res(set_dl(1023, 1000000, 1000000, 0)));
    printf("DL deadline 0: %s\n", res(set_dl(1024, 0, 1000000, 0)));
    printf("DL runtime > deadline: %s\n", res(set_dl(2000000, 1000000, 1000000, 0)));
    printf("DL deadline > period: %s\n", res(set_dl(1000000, 3000000, 2000000, 0)));
    printf("DL period 99us: %s\n", res(set_dl(10000, 50000, 99000, 0)));
    printf("DL period 2^22us+1: %s\n", res(set_dl(1000000, 1000000, (4194304ULL * 1000) + 1, 0)));
    printf("DL sign bit: %s\n", res(set_dl(1024, 1ULL << 63, 0, 0)));
    printf("DL prio 1: %s\n", ({
               struct attr a = {.size = 48,
                                .policy = SCHED_DEADLINE,
                                .priority = 1,
                                .runtime = 1024,
                                .deadline = 1000000};
               res(setattr(0, &a, 0));
           }));
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one);
    printf("DL while pinned to cpu0: %s\n", res(set_dl(1000000, 10000000, 10000000, 0)));
    cpu_set_t all;
    CPU_ZERO(&all);
    CPU_SET(0, &all);
    CPU_SET(1, &all);
    sched_setaffinity(0, sizeof all, &all);
    printf("DL 1024ns, deadline 100us, period 0: %s\n", res(set_dl(1024, 100000, 0, 0)));
    show("DL");
    printf("sched_getscheduler: %d\n", sched_getscheduler(0));
    struct timespec ts = {1, 1};
    sched_rr_get_interval(0, &ts);
    printf("DL interval: %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
    printf("setaffinity cpu0: %s\n", res(sched_setaffinity(0, sizeof one, &one)));
    printf("setaffinity cpu0-1: %s\n", res(sched_setaffinity(0, sizeof all, &all)));
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    printf("fork: %s\n", pid < 0 ? err_name(errno) : "forked");
}

/* Admission: 2 vCPUs hold 2 x 95%. A child takes 95% of one; then this
 * task may have up to 95% but not 96%. */
static void admission(void)
{
    int go[2], done[2];
    if (pipe(go) || pipe(done))
        return;
    pid_t pid = fork();
    if (pid == 0) {
        char c = set_dl(95000000, 100000000, 100000000, 0) == 0 ? 'y' : 'n';
        write(done[1], &c, 1);
        read(go[0], &c, 1);
        _exit(0);
    }
    char c;
    read(done[0], &c, 1);
    printf("child DL 95%%: %c\n", c);
    printf("DL 96%%: %s\n", res(set_dl(96000000, 100000000, 100000000, 0)));
    printf("DL 95%%: %s\n", res(set_dl(95000000, 100000000, 100000000, FLAG_RESET_ON_FORK)));
    show("DL 95%");
    pid_t kid = fork();
    if (kid == 0) {
        show("reset-on-fork child");
        _exit(0);
    }
    waitpid(kid, NULL, 0);
    printf("fork with reset-on-fork: %s\n", kid > 0 ? "forked" : err_name(errno));
    write(go[1], "x", 1);
    waitpid(pid, NULL, 0);
    printf("DL 96%% after the child exited: %s\n", res(set_dl(96000000, 100000000, 100000000, 0)));
    printf("back to OTHER: %s policy %d\n", res(set_policy(SCHED_OTHER, 0, 0, 0)),
           sched_getscheduler(0));
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    show("start");
    size_protocol();
    policies();
    deadline_params();
    printf("OTHER again: %s\n", res(set_policy(SCHED_OTHER, 0, 0, 0)));
    /* The 1 us every 100 us task overran its budget, and what it left
     * stays admitted until its 0-lag time (task_non_contending()), which
     * that overrun moved up to a few hundred ms ahead. */
    struct timespec lag = {1, 0};
    nanosleep(&lag, NULL);
    admission();
    return 0;
}
