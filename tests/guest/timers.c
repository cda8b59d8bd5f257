/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timers.c - POSIX timers, itimers and CPU clocks. The first argument names
 * the case; times are printed to the hundredth of a second, which virtual
 * time and real Linux agree on, and counts where the timing makes them
 * exact.
 *
 *   posix     ids from 0 and never reused, a one-shot SIGEV_SIGNAL timer's
 *             siginfo, timer_gettime, the errors of timer_create/settime
 *   overrun   a 10 ms periodic timer whose signal waits 105 ms: si_overrun
 *             and timer_getoverrun 9
 *   none      SIGEV_NONE: nothing is sent, timer_gettime counts down
 *   abstime   CLOCK_REALTIME with TIMER_ABSTIME, and an interval timer
 *             disarmed with a zero value (the old value comes back)
 *   thread    SIGEV_THREAD (glibc's helper thread) and SIGEV_THREAD_ID
 *   itimer    ITIMER_REAL one-shot and periodic, getitimer, the errors
 *   cpu       ITIMER_VIRTUAL, ITIMER_PROF and a CLOCK_PROCESS_CPUTIME_ID
 *             timer fire on CPU time, which sleeping does not advance;
 *             times and getrusage
 *   timeout   coreutils timeout: a timer kills a child waiting in
 *             sigsuspend, whose parent waits in sigsuspend (SA_RESTART)
 *   exec      execve drops POSIX timers and keeps itimers; fork keeps none */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static double hundredths(long long ns)
{
    return (double)((ns + 5 * MS) / (10 * MS)) / 100;
}

static double ts_sec(struct timespec ts)
{
    return hundredths(ts.tv_sec * 1000000000LL + ts.tv_nsec);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * MS};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void block(int sig)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    sigprocmask(SIG_BLOCK, &s, NULL);
}

static int wait_for(int sig, siginfo_t *info)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    return sigwaitinfo(&s, info);
}

static timer_t make_timer(clockid_t clk, int notify, int sig, int value)
{
    struct sigevent ev = {.sigev_notify = notify, .sigev_signo = sig};
    ev.sigev_value.sival_int = value;
    timer_t id = 0;
    if (timer_create(clk, &ev, &id) != 0)
        printf("timer_create: %s\n", err_name(errno));
    return id;
}

static void arm(timer_t id, int flags, long long value, long long interval)
{
    struct itimerspec its = {{interval / 1000000000LL, interval % 1000000000LL},
                             {value / 1000000000LL, value % 1000000000LL}};
    if (timer_settime(id, flags, &its, NULL) != 0)
        printf("timer_settime: %s\n", err_name(errno));
}

static void show_errno(const char *what, int r)
{
    printf("%s: %d %s\n", what, r, r < 0 ? err_name(errno) : "ok");
}

static int run_posix(void)
{
    block(SIGUSR1);
    timer_t a = make_timer(CLOCK_MONOTONIC, SIGEV_SIGNAL, SIGUSR1, 42);
    timer_t b = make_timer(CLOCK_MONOTONIC, SIGEV_SIGNAL, SIGUSR1, 43);
    timer_delete(a);
    timer_t c = make_timer(CLOCK_BOOTTIME, SIGEV_SIGNAL, SIGUSR1, 44);
    printf("ids %ld %ld %ld\n", (long)(intptr_t)a, (long)(intptr_t)b, (long)(intptr_t)c);
    long long start = now_ns(CLOCK_MONOTONIC);
    arm(c, 0, 100 * MS, 0);
    struct itimerspec cur;
    timer_gettime(c, &cur);
    printf("armed: value %.2f interval %.2f\n", ts_sec(cur.it_value), ts_sec(cur.it_interval));
    siginfo_t si;
    int sig = wait_for(SIGUSR1, &si);
    printf("signal %d after %.2f s: si_code %s si_timerid %d si_overrun %d si_value %d\n", sig,
           hundredths(now_ns(CLOCK_MONOTONIC) - start), si.si_code == SI_TIMER ? "SI_TIMER" : "?",
           si.si_timerid, si.si_overrun, si.si_value.sival_int);
    timer_gettime(c, &cur);
    printf("fired: value %.2f\n", ts_sec(cur.it_value));

    show_errno("timer_gettime deleted", timer_gettime(a, &cur));
    show_errno("timer_delete deleted", timer_delete(a));
    show_errno("timer_getoverrun deleted", timer_getoverrun(a));
    timer_t d;
    show_errno("timer_create clock 99", timer_create(99, NULL, &d));
    show_errno("timer_create MONOTONIC_RAW", timer_create(CLOCK_MONOTONIC_RAW, NULL, &d));
    struct sigevent bad = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = 65};
    show_errno("timer_create signal 65", timer_create(CLOCK_MONOTONIC, &bad, &d));
    bad = (struct sigevent){.sigev_notify = 99, .sigev_signo = SIGUSR1};
    show_errno("timer_create notify 99", timer_create(CLOCK_MONOTONIC, &bad, &d));
    struct itimerspec invalid = {{0, 0}, {0, 1000000000}};
    show_errno("timer_settime nsec 1e9", timer_settime(c, 0, &invalid, NULL));
    /* The failed creations used ids up: the next one is 5. */
    timer_t e = make_timer(CLOCK_MONOTONIC, SIGEV_SIGNAL, SIGUSR1, 0);
    printf("next id %ld\n", (long)(intptr_t)e);
    return 0;
}

static int run_overrun(void)
{
    block(SIGUSR1);
    timer_t id = make_timer(CLOCK_MONOTONIC, SIGEV_SIGNAL, SIGUSR1, 7);
    arm(id, 0, 10 * MS, 10 * MS);
    sleep_ms(105);
    siginfo_t si;
    wait_for(SIGUSR1, &si);
    printf("si_overrun %d timer_getoverrun %d\n", si.si_overrun, timer_getoverrun(id));
    struct itimerspec cur;
    timer_gettime(id, &cur);
    long long next = cur.it_value.tv_sec * 1000000000LL + cur.it_value.tv_nsec;
    printf("interval %.2f, next expiry within it: %s\n", ts_sec(cur.it_interval),
           next > 0 && next <= 10 * MS ? "yes" : "NO");
    /* Taken at once this time: no overrun. */
    wait_for(SIGUSR1, &si);
    printf("si_overrun %d timer_getoverrun %d\n", si.si_overrun, timer_getoverrun(id));
    timer_delete(id);
    return 0;
}

static int run_none(void)
{
    timer_t id = make_timer(CLOCK_MONOTONIC, SIGEV_NONE, 0, 0);
    arm(id, 0, 50 * MS, 0);
    sleep_ms(20);
    struct itimerspec cur;
    timer_gettime(id, &cur);
    printf("after 0.02 s: value %.2f\n", ts_sec(cur.it_value));
    sleep_ms(40);
    timer_gettime(id, &cur);
    printf("after 0.06 s: value %.2f\n", ts_sec(cur.it_value));
    arm(id, 0, 30 * MS, 20 * MS);
    sleep_ms(75);
    timer_gettime(id, &cur);
    printf("periodic after 0.075 s: value %.2f interval %.2f\n", ts_sec(cur.it_value),
           ts_sec(cur.it_interval));
    return 0;
}

static int run_abstime(void)
{
    block(SIGUSR1);
    timer_t id = make_timer(CLOCK_REALTIME, SIGEV_SIGNAL, SIGUSR1, 0);
    long long start = now_ns(CLOCK_MONOTONIC);
    arm(id, TIMER_ABSTIME, now_ns(CLOCK_REALTIME) + 50 * MS, 0);
    siginfo_t si;
    wait_for(SIGUSR1, &si);
    printf("absolute timer fired after %.2f s\n", hundredths(now_ns(CLOCK_MONOTONIC) - start));
    arm(id, 0, 200 * MS, 100 * MS);
    sleep_ms(50);
    struct itimerspec zero = {{0, 0}, {0, 0}}, old;
    timer_settime(id, 0, &zero, &old);
    printf("disarmed: old value %.2f interval %.2f\n", ts_sec(old.it_value),
           ts_sec(old.it_interval));
    struct itimerspec cur;
    timer_gettime(id, &cur);
    printf("now value %.2f interval %.2f\n", ts_sec(cur.it_value), ts_sec(cur.it_interval));
    return 0;
}

static volatile int thread_calls;
static volatile int thread_value;

static void on_thread_timer(union sigval v)
{
    thread_value = v.sival_int;
    __atomic_add_fetch(&thread_calls, 1, __ATOMIC_SEQ_CST);
}

static pid_t waiter_tid;
static volatile int waiter_sig, waiter_timerid;

static void *waiter(void *arg)
{
    (void)arg;
    waiter_tid = (pid_t)syscall(SYS_gettid);
    siginfo_t si;
    waiter_sig = wait_for(SIGUSR2, &si);
    waiter_timerid = si.si_timerid;
    return NULL;
}

static int run_thread(void)
{
    struct sigevent ev = {.sigev_notify = SIGEV_THREAD, .sigev_notify_function = on_thread_timer};
    ev.sigev_value.sival_int = 77;
    timer_t id;
    if (timer_create(CLOCK_MONOTONIC, &ev, &id) != 0)
        printf("timer_create SIGEV_THREAD: %s\n", err_name(errno));
    arm(id, 0, 10 * MS, 10 * MS);
    sleep_ms(55);
    timer_delete(id);
    sleep_ms(20);
    printf("SIGEV_THREAD: %d calls with value %d\n", thread_calls, thread_value);

    block(SIGUSR2); /* inherited by the thread, which waits for it */
    pthread_t th;
    pthread_create(&th, NULL, waiter, NULL);
    while (!__atomic_load_n(&waiter_tid, __ATOMIC_SEQ_CST))
        sleep_ms(1);
    struct sigevent tev = {.sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGUSR2};
    tev._sigev_un._tid = waiter_tid;
    timer_t tid_timer;
    timer_create(CLOCK_MONOTONIC, &tev, &tid_timer);
    arm(tid_timer, 0, 10 * MS, 0);
    pthread_join(th, NULL);
    printf("SIGEV_THREAD_ID: the thread took signal %d of timer %s\n", waiter_sig,
           waiter_timerid == (int)(intptr_t)tid_timer ? "ok" : "other");
    tev._sigev_un._tid = 999999;
    show_errno("SIGEV_THREAD_ID to another tid", timer_create(CLOCK_MONOTONIC, &tev, &tid_timer));
    return 0;
}

static volatile int alarms;
static volatile int alarm_code;

static void on_alarm(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)ctx;
    alarm_code = si->si_code;
    alarms++;
}

static void catch(int sig, void (*fn)(int, siginfo_t *, void *))
{
    struct sigaction sa = {.sa_sigaction = fn, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static int run_itimer(void)
{
    catch(SIGALRM, on_alarm);
    struct itimerval it = {{0, 0}, {0, 50000}}, cur;
    long long start = now_ns(CLOCK_MONOTONIC);
    setitimer(ITIMER_REAL, &it, NULL);
    getitimer(ITIMER_REAL, &cur);
    printf("armed: %ld.%02ld s\n", (long)cur.it_value.tv_sec, (long)(cur.it_value.tv_usec + 5000) / 10000);
    pause();
    printf("SIGALRM after %.2f s, si_code %s\n", hundredths(now_ns(CLOCK_MONOTONIC) - start),
           alarm_code == SI_KERNEL ? "SI_KERNEL" : "?");
    getitimer(ITIMER_REAL, &cur);
    printf("fired: %ld.%06ld\n", (long)cur.it_value.tv_sec, (long)cur.it_value.tv_usec);

    alarms = 0;
    it = (struct itimerval){{0, 20000}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    sleep_ms(105);
    struct itimerval old;
    it = (struct itimerval){{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &it, &old);
    printf("periodic: %d SIGALRMs in 0.105 s, interval was %ld us\n", alarms,
           (long)old.it_interval.tv_usec);

    /* glibc's alarm is setitimer: the seconds left, rounded. */
    alarm(10);
    sleep_ms(400);
    printf("alarm(0) after 0.4 s of 10: %u\n", alarm(0));

    show_errno("setitimer 3", setitimer(3, &it, NULL));
    it = (struct itimerval){{0, 0}, {0, 1000000}};
    show_errno("setitimer usec 1000000", setitimer(ITIMER_REAL, &it, NULL));
    show_errno("getitimer -1", getitimer(-1, &cur));
    return 0;
}

static volatile int cpu_signals[65];

static void on_cpu(int sig, siginfo_t *si, void *ctx)
{
    (void)si, (void)ctx;
    cpu_signals[sig]++;
}

/* Spins until sig has come n times (or a long while has passed). */
static void spin_until(int sig, int n)
{
    for (long i = 0; cpu_signals[sig] < n && i < 200000000L; i++)
        __asm__ volatile("" ::: "memory");
}

static int run_cpu(void)
{
    catch(SIGVTALRM, on_cpu);
    catch(SIGPROF, on_cpu);
    catch(SIGUSR1, on_cpu);
    long long cpu0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    sleep_ms(200);
    long long slept = now_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    printf("200 ms asleep cost less than 10 ms of CPU: %s\n", slept < 10 * MS ? "yes" : "NO");

    struct itimerval it = {{0, 10000}, {0, 10000}};
    setitimer(ITIMER_VIRTUAL, &it, NULL);
    cpu0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    spin_until(SIGVTALRM, 3);
    long long used = now_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    it = (struct itimerval){{0, 0}, {0, 0}};
    setitimer(ITIMER_VIRTUAL, &it, NULL);
    printf("ITIMER_VIRTUAL: %d signals, after 30-40 ms of CPU: %s\n", cpu_signals[SIGVTALRM],
           used >= 30 * MS && used < 40 * MS ? "yes" : "NO");

    it = (struct itimerval){{0, 0}, {0, 20000}};
    setitimer(ITIMER_PROF, &it, NULL);
    spin_until(SIGPROF, 1);
    struct itimerval cur;
    getitimer(ITIMER_PROF, &cur);
    printf("ITIMER_PROF: %d signal, then value %ld.%06ld\n", cpu_signals[SIGPROF],
           (long)cur.it_value.tv_sec, (long)cur.it_value.tv_usec);

    timer_t id = make_timer(CLOCK_PROCESS_CPUTIME_ID, SIGEV_SIGNAL, SIGUSR1, 0);
    cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    arm(id, 0, 20 * MS, 0);
    spin_until(SIGUSR1, 1);
    used = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    printf("CLOCK_PROCESS_CPUTIME_ID timer: %d signal, after 20-30 ms of thread CPU: %s\n",
           cpu_signals[SIGUSR1], used >= 20 * MS && used < 30 * MS ? "yes" : "NO");

    struct tms tms;
    times(&tms);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long long ru_ns = ru.ru_utime.tv_sec * 1000000000LL + ru.ru_utime.tv_usec * 1000LL +
                      ru.ru_stime.tv_sec * 1000000000LL + ru.ru_stime.tv_usec * 1000LL;
    long long cpu = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    printf("times: at least 5 ticks of user time: %s\n", tms.tms_utime >= 5 ? "yes" : "NO");
    printf("getrusage within 1 ms of CLOCK_PROCESS_CPUTIME_ID: %s\n",
           ru_ns <= cpu && cpu - ru_ns < MS ? "yes" : "NO");
    show_errno("getrusage 5", getrusage(5, &ru));

    pid_t child = fork();
    if (child == 0) {
        for (volatile long i = 0; i < 1000000; i++) /* a while of CPU */
            ;
        _exit(0);
    }
    waitpid(child, NULL, 0);
    getrusage(RUSAGE_CHILDREN, &ru);
    printf("the reaped child's CPU time counts: %s\n",
           ru.ru_utime.tv_sec > 0 || ru.ru_utime.tv_usec > 0 ? "yes" : "NO");
    return 0;
}

static volatile sig_atomic_t timed_out, child_done;

static void on_timeout(int sig)
{
    (void)sig;
    timed_out = 1;
}

static void on_child(int sig)
{
    (void)sig;
    child_done = 1;
}

static void install(int sig, void (*fn)(int))
{
    struct sigaction sa = {.sa_handler = fn, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static int run_timeout(void)
{
    long long start = now_ns(CLOCK_MONOTONIC);
    install(SIGALRM, on_timeout);
    install(SIGCHLD, on_child);
    sigset_t set, orig;
    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, &orig);
    pid_t child = fork();
    if (child == 0) {
        sigprocmask(SIG_SETMASK, &orig, NULL);
        signal(SIGALRM, SIG_DFL);
        signal(SIGCHLD, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigsuspend(&none); /* until a signal kills it */
        _exit(3);
    }
    timer_t id = make_timer(CLOCK_REALTIME, SIGEV_SIGNAL, SIGALRM, 0);
    arm(id, 0, 100 * MS, 0);
    while (!child_done) {
        sigsuspend(&orig);
        if (timed_out) {
            kill(child, SIGTERM);
            timed_out = 0;
        }
    }
    int status;
    waitpid(child, &status, 0);
    printf("child killed by signal %d after %.1f s\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0,
           hundredths(now_ns(CLOCK_MONOTONIC) - start));
    return 0;
}

static int run_exec(const char *self)
{
    timer_t id = make_timer(CLOCK_MONOTONIC, SIGEV_SIGNAL, SIGUSR1, 0);
    arm(id, 0, 10000 * MS, 0);
    signal(SIGALRM, SIG_IGN);
    struct itimerval it = {{0, 0}, {5, 0}}, cur;
    setitimer(ITIMER_REAL, &it, NULL);
    pid_t child = fork();
    if (child == 0) {
        getitimer(ITIMER_REAL, &cur);
        struct itimerspec ts;
        printf("fork child: ITIMER_REAL value %ld s, timer_gettime %s\n",
               (long)cur.it_value.tv_sec, timer_gettime(id, &ts) == 0 ? "ok" : err_name(errno));
        _exit(0);
    }
    waitpid(child, NULL, 0);
    fflush(stdout);
    execl(self, self, "exec-child", (char *)NULL);
    printf("execl: %s\n", err_name(errno));
    return 1;
}

static int run_exec_child(void)
{
    struct itimerval cur;
    getitimer(ITIMER_REAL, &cur);
    struct itimerspec ts;
    printf("after execve: ITIMER_REAL value %ld s, timer_gettime %s\n",
           (long)cur.it_value.tv_sec + (cur.it_value.tv_usec > 500000),
           timer_gettime((timer_t)0, &ts) == 0 ? "ok" : err_name(errno));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argv[1];
    if (strcmp(mode, "posix") == 0)
        return run_posix();
    if (strcmp(mode, "overrun") == 0)
        return run_overrun();
    if (strcmp(mode, "none") == 0)
        return run_none();
    if (strcmp(mode, "abstime") == 0)
        return run_abstime();
    if (strcmp(mode, "thread") == 0)
        return run_thread();
    if (strcmp(mode, "itimer") == 0)
        return run_itimer();
    if (strcmp(mode, "cpu") == 0)
        return run_cpu();
    if (strcmp(mode, "timeout") == 0)
        return run_timeout();
    if (strcmp(mode, "exec") == 0)
        return run_exec(argv[0]);
    if (strcmp(mode, "exec-child") == 0)
        return run_exec_child();
    printf("unknown case %s\n", mode);
    return 2;
}
