/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-tick.c - timers, the tick and the fair class's time sharing (issue
 * 27 items 3 and 4, docs/scheduler.md, docs/timing.md). Every mode prints
 * only times and shares the guest sees, so runs with different --slice
 * values must print the same:
 *   sleep N   - a CPU hog pinned to cpu 1, and on cpu 0 N relative 1 ms
 *               clock_nanosleep()s: prints each sleep's overshoot (ns) and
 *               their total;
 *   timers N  - on cpu 0, with the hog on cpu 1: a timerfd, a POSIX timer,
 *               an itimer, a futex, poll, epoll and select timeout, each of
 *               1 ms N times: prints each one's total overshoot;
 *   fifo N    - a CFS hog and a SCHED_FIFO task on cpu 0: the FIFO task
 *               sleeps 1 ms (absolute) N times and prints how late each
 *               wake-up ran, then their total;
 *   share MS NICE POLICY - two hogs on cpu 0 for MS ms: the second one at
 *               NICE with POLICY (other, batch, idle); prints its work per
 *               1024 of the first one's;
 *   turns MS  - two nice-0 hogs on cpu 0 for MS ms of virtual time: prints
 *               the longest stretch (ms) either ran without the other;
 *   cross N   - tasks on two vCPUs that talk while both run: a parent on
 *               cpu 0 and a child on cpu 1 pass a token N times through
 *               shared memory (both spin), through a futex and through
 *               pipes; prints, per way, the total of the round trips (ns)
 *               and of when the child saw each token (after it was sent). */
#define _GNU_SOURCE
#include "guest.h"

#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0)
        perror("sched_setaffinity"), exit(1);
}

/* A child that spins on cpu for ever (killed by the parent). */
static pid_t hog(int cpu)
{
    pid_t pid = fork();
    if (pid < 0)
        perror("fork"), exit(1);
    if (pid == 0) {
        pin(cpu);
        volatile unsigned long n = 0;
        for (;;)
            n++;
    }
    return pid;
}

static void reap(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static int sleep_loop(int n)
{
    pin(0);
    pid_t h = hog(1);
    long long total = 0;
    for (int i = 0; i < n; i++) {
        long long start = now_ns(CLOCK_MONOTONIC);
        struct timespec ts = ts_of(MS);
        clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
        long long over = now_ns(CLOCK_MONOTONIC) - start - MS;
        printf("sleep %d: overshoot %lld ns\n", i, over);
        total += over;
    }
    printf("total overshoot %lld ns\n", total);
    reap(h);
    return 0;
}

static long long late(long long start)
{
    return now_ns(CLOCK_MONOTONIC) - start - MS;
}

static void on_signal(int sig)
{
    (void)sig;
}

static int timers(int n)
{
    pin(0);
    pid_t h = hog(1);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGALRM, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    long long tfd = 0, posix = 0, itimer = 0, futex = 0, pl = 0, ep = 0, sel = 0;
    int fd = timerfd_create(CLOCK_MONOTONIC, 0);
    int efd = epoll_create1(0);
    int pipefd[2];
    if (fd < 0 || efd < 0 || pipe(pipefd) < 0)
        return perror("setup"), 1;
    struct epoll_event ev = {.events = EPOLLIN};
    epoll_ctl(efd, EPOLL_CTL_ADD, pipefd[0], &ev);
    struct sigevent sev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1};
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &sev, &timer) < 0)
        return perror("timer_create"), 1;
    sigset_t set, old;
    sigemptyset(&set);
    for (int i = 0; i < n; i++) {
        long long start = now_ns(CLOCK_MONOTONIC);
        struct itimerspec its = {.it_value = ts_of(MS)};
        uint64_t v;
        timerfd_settime(fd, 0, &its, NULL);
        if (read(fd, &v, sizeof v) != sizeof v)
            return perror("read timerfd"), 1;
        tfd += late(start);

        start = now_ns(CLOCK_MONOTONIC);
        timer_settime(timer, 0, &its, NULL);
        sigsuspend(&set);
        posix += late(start);

        start = now_ns(CLOCK_MONOTONIC);
        struct itimerval itv = {.it_value = {0, 1000}};
        setitimer(ITIMER_REAL, &itv, NULL);
        sigsuspend(&set);
        itimer += late(start);

        start = now_ns(CLOCK_MONOTONIC);
        int word = 0;
        struct timespec ts = ts_of(MS);
        syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
        futex += late(start);

        start = now_ns(CLOCK_MONOTONIC);
        struct pollfd p = {.fd = pipefd[0], .events = POLLIN};
        poll(&p, 1, 1);
        pl += late(start);

        start = now_ns(CLOCK_MONOTONIC);
        epoll_wait(efd, &ev, 1, 1);
        ep += late(start);

        start = now_ns(CLOCK_MONOTONIC);
        struct timeval tv = {0, 1000};
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(pipefd[0], &rd);
        select(pipefd[0] + 1, &rd, NULL, NULL, &tv);
        sel += late(start);
    }
    (void)old;
    printf("timerfd %lld\nposix timer %lld\nitimer %lld\nfutex %lld\npoll %lld\nepoll %lld\n"
           "select %lld\n",
           tfd, posix, itimer, futex, pl, ep, sel);
    reap(h);
    return 0;
}

static int fifo(int n)
{
    pin(0);
    pid_t h = hog(0);
    struct sched_param p = {.sched_priority = 10};
    if (sched_setscheduler(0, SCHED_FIFO, &p) < 0)
        return perror("sched_setscheduler"), 1;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        long long when = now_ns(CLOCK_MONOTONIC) + MS;
        struct timespec ts = ts_of(when);
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        long long lat = now_ns(CLOCK_MONOTONIC) - when;
        printf("wake-up %d: latency %lld ns\n", i, lat);
        total += lat;
    }
    printf("total latency %lld ns\n", total);
    reap(h);
    return 0;
}

/* Shared between the parent and its hogs: each hog's work count, and for
 * `turns` who ran last, since when and the longest stretch. */
struct shared {
    volatile unsigned long count[2];
    volatile int last;
    volatile long long since, longest, longest_end;
};

static void work(volatile unsigned long *count)
{
    for (int i = 0; i < 64; i++)
        (*count)++;
}

static void turns_step(struct shared *sh, int me)
{
    long long now = now_ns(CLOCK_MONOTONIC);
    if (sh->last != me) {
        /* Its turn began: the clock is read again, as `now` may be from
         * before the other one ran. */
        sh->last = me;
        sh->since = now_ns(CLOCK_MONOTONIC);
    } else if (now - sh->since > sh->longest) {
        sh->longest = now - sh->since;
        sh->longest_end = now;
    }
}

static pid_t worker(struct shared *sh, int me, int nice_value, int policy, int turns, int ready)
{
    pid_t pid = fork();
    if (pid < 0)
        perror("fork"), exit(1);
    if (pid == 0) {
        /* The parent is SCHED_FIFO: each hog takes its own fair policy. */
        struct sched_param p = {0};
        if (sched_setscheduler(0, policy, &p) < 0)
            perror("sched_setscheduler"), exit(1);
        if (nice_value && setpriority(PRIO_PROCESS, 0, nice_value) < 0)
            perror("setpriority"), exit(1);
        char c = 'r';
        if (write(ready, &c, 1) != 1)
            exit(1);
        for (;;) {
            work(&sh->count[me]);
            if (turns)
                turns_step(sh, me);
        }
    }
    return pid;
}

static int two_hogs(long long ms, int nice_value, int policy, int turns)
{
    pin(0);
    struct shared *sh =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int ready[2];
    if (sh == MAP_FAILED || pipe(ready) < 0)
        return perror("setup"), 1;
    sh->last = -1;
    /* The parent, SCHED_FIFO, only starts the hogs and waits: it takes no
     * share of cpu 0 while they run. */
    struct sched_param p = {.sched_priority = 1};
    if (sched_setscheduler(0, SCHED_FIFO, &p) < 0)
        return perror("sched_setscheduler"), 1;
    pid_t a = worker(sh, 0, 0, SCHED_OTHER, turns, ready[1]);
    pid_t b = worker(sh, 1, nice_value, policy, turns, ready[1]);
    char c;
    if (read(ready[0], &c, 1) != 1 || read(ready[0], &c, 1) != 1)
        return perror("read"), 1;
    unsigned long start0 = sh->count[0], start1 = sh->count[1];
    struct timespec ts = ts_of(ms * MS);
    clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
    unsigned long c0 = sh->count[0] - start0, c1 = sh->count[1] - start1;
    long long longest = sh->longest;
    reap(a);
    reap(b);
    if (turns) {
        printf("longest run without the other: %lld.%03lld ms\n", longest / MS, longest % MS / 1000);
        if (getenv("TURNS_DEBUG"))
            fprintf(stderr, "ended at %lld ns\n", sh->longest_end);
        return 0;
    }
    printf("share = %llu:1024\n", c0 ? (c1 * 1024ULL + c0 / 2) / c0 : 0);
    return 0;
}

/* cross N: the token's round trips and arrival times, per way. */
struct cross {
    volatile int token, answer;
    volatile long long sent_ns, seen_ns;
};

static void futex_call(volatile int *word, int op, int val)
{
    syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static void cross_child(struct cross *c, int way, int n, int to_parent, int from_parent)
{
    pin(1);
    for (int i = 1; i <= n; i++) {
        if (way == 0) {
            while (c->token != i)
                ;
        } else if (way == 1) {
            while (c->token != i)
                futex_call(&c->token, FUTEX_WAIT, i - 1);
        } else {
            char b;
            if (read(from_parent, &b, 1) != 1)
                _exit(1);
        }
        c->seen_ns += now_ns(CLOCK_MONOTONIC) - c->sent_ns;
        c->answer = i;
        if (way == 1)
            futex_call(&c->answer, FUTEX_WAKE, 1);
        if (way == 2 && write(to_parent, "a", 1) != 1)
            _exit(1);
    }
    _exit(0);
}

static int cross(int n)
{
    static const char *const ways[] = {"shared memory", "futex", "pipe"};
    struct cross *c = mmap(NULL, sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (c == MAP_FAILED)
        return perror("mmap"), 1;
    pin(0);
    for (int way = 0; way < 3; way++) {
        /* Each way starts at the next 20 ms of the clock (a multiple of
         * every tick period but HZ 300's): what came before (the program's
         * start, whose length depends on its path and arguments) does not
         * move where its quanta and ticks fall. */
        long long next = (now_ns(CLOCK_MONOTONIC) / (20 * MS) + 1) * (20 * MS);
        struct timespec at = {next / 1000000000, next % 1000000000};
        if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) != 0)
            return perror("clock_nanosleep"), 1;
        int up[2], down[2];
        if (pipe(up) < 0 || pipe(down) < 0)
            return perror("pipe"), 1;
        *c = (struct cross){0};
        pid_t pid = fork();
        if (pid < 0)
            return perror("fork"), 1;
        if (pid == 0)
            cross_child(c, way, n, up[1], down[0]);
        long long round_trips = 0;
        for (int i = 1; i <= n; i++) {
            long long start = now_ns(CLOCK_MONOTONIC);
            c->sent_ns = start;
            c->token = i;
            if (way == 1)
                futex_call(&c->token, FUTEX_WAKE, 1);
            if (way == 2 && write(down[1], "t", 1) != 1)
                return perror("write"), 1;
            if (way == 0) {
                while (c->answer != i)
                    ;
            } else if (way == 1) {
                while (c->answer != i)
                    futex_call(&c->answer, FUTEX_WAIT, i - 1);
            } else {
                char b;
                if (read(up[0], &b, 1) != 1)
                    return perror("read"), 1;
            }
            round_trips += now_ns(CLOCK_MONOTONIC) - start;
        }
        int status;
        if (waitpid(pid, &status, 0) != pid || status != 0)
            return fprintf(stderr, "child: status %d\n", status), 1;
        printf("%s: round trips %lld ns, seen after %lld ns\n", ways[way], round_trips, c->seen_ns);
        close(up[0]), close(up[1]), close(down[0]), close(down[1]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc >= 3 && strcmp(argv[1], "sleep") == 0)
        return sleep_loop(atoi(argv[2]));
    if (argc >= 3 && strcmp(argv[1], "timers") == 0)
        return timers(atoi(argv[2]));
    if (argc >= 3 && strcmp(argv[1], "fifo") == 0)
        return fifo(atoi(argv[2]));
    if (argc >= 5 && strcmp(argv[1], "share") == 0) {
        int policy = strcmp(argv[4], "idle") == 0    ? SCHED_IDLE
                     : strcmp(argv[4], "batch") == 0 ? SCHED_BATCH
                                                     : SCHED_OTHER;
        return two_hogs(atoll(argv[2]), atoi(argv[3]), policy, 0);
    }
    if (argc >= 3 && strcmp(argv[1], "turns") == 0)
        return two_hogs(atoll(argv[2]), 0, SCHED_OTHER, 1);
    if (argc >= 3 && strcmp(argv[1], "cross") == 0)
        return cross(atoi(argv[2]));
    fprintf(stderr, "usage: sched-tick sleep N | timers N | fifo N | share MS NICE POLICY | turns MS | cross N\n");
    return 2;
}
