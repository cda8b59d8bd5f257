/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futex-pi.c - priority-inheritance futexes (emu/kernel/futex_pi.c,
 * futex_robust.c), one case per run (argv[1]):
 *   errors   the raw calls' errnos and futex words: TRYLOCK_PI, LOCK_PI,
 *            LOCK_PI2, UNLOCK_PI (EDEADLK, EPERM, ESRCH, EINVAL, ENOSYS,
 *            EAGAIN, ETIMEDOUT on both clocks), FUTEX_OWNER_DIED taken
 *            over, the requeue calls' EINVAL and EAGAIN
 *   mutex    glibc's PTHREAD_PRIO_INHERIT mutexes: lock, trylock EBUSY,
 *            timedlock ETIMEDOUT, error-checking EDEADLK and EPERM
 *   boost    priority inversion on one CPU: a SCHED_FIFO 10 owner runs
 *            at its SCHED_FIFO 30 waiter's priority (/proc stat's
 *            priority field) while sched_getscheduler/getparam say its
 *            own, so a SCHED_FIFO 20 spinner runs after the handover
 *   chain    the boost passes down a chain of owners (B holds m1, A holds
 *            m2 and waits for m1, C waits for m2), stays above a
 *            sched_setscheduler below it, EDEADLK for a lock that closes
 *            the cycle; a fair owner takes a nice -5 waiter's p->prio
 *   requeue  FUTEX_WAIT_REQUEUE_PI / FUTEX_CMP_REQUEUE_PI by hand: onto
 *            a held lock (both wait, handed over in order), onto a free
 *            one (the top waiter takes it, the other waits)
 *   robust   robust PI mutexes whose owner dies: a later lock and a
 *            blocked waiter get EOWNERDEAD, a process-shared one too
 *            from a child process
 * Every thread is pinned to CPU 0, so the order of events is the same on
 * any machine. */
#define _GNU_SOURCE
#include "guest.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

static long futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts,
                  uint32_t *uaddr2, uint32_t val3)
{
    return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

static long futex2(uint32_t *uaddr, int op, uint32_t val, unsigned long val2, uint32_t *uaddr2,
                   uint32_t val3)
{
    return syscall(SYS_futex, uaddr, op, val, val2, uaddr2, val3);
}

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static pid_t gettid_(void) { return (pid_t)syscall(SYS_gettid); }

/* The word as owner bits: "tid" when it names who, else the number. */
static void word(const char *what, uint32_t w, pid_t who)
{
    printf("%s: %s%s%s\n", what, (w & FUTEX_TID_MASK) == (uint32_t)who ? "tid" :
                                 (w & FUTEX_TID_MASK) ? "other" : "0",
           w & FUTEX_WAITERS ? "|WAITERS" : "", w & FUTEX_OWNER_DIED ? "|OWNER_DIED" : "");
}

static void pin(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    sched_setaffinity(0, sizeof set, &set);
}

static void fifo(int prio)
{
    struct sched_param sp = {.sched_priority = prio};
    if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
        printf("sched_setscheduler %d: %s\n", prio, err_name(errno));
}

static pthread_t start(void *(*fn)(void *), void *arg)
{
    pthread_t th;
    pthread_create(&th, NULL, fn, arg);
    return th;
}

static void sleep_ms(long ms)
{
    struct timespec ts = ts_of(ms * MS);
    nanosleep(&ts, NULL);
}

/* ---- errors ---- */

static uint32_t held;
static volatile int holder_tid, release;

static void *holder(void *arg)
{
    (void)arg;
    holder_tid = gettid_();
    futex(&held, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    while (!release)
        sleep_ms(5);
    futex(&held, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    return NULL;
}

static uint32_t dying;

/* Takes the word and exits with it, after the main thread waits for it. */
static void *exit_holding(void *arg)
{
    (void)arg;
    futex(&dying, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    __atomic_store_n(&holder_tid, gettid_(), __ATOMIC_SEQ_CST);
    sleep_ms(30);
    return NULL;
}

static uint32_t cond, lock2;

static void *requeue_waiter(void *arg)
{
    long r = futex(&cond, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, NULL, &lock2, 0);
    *(long *)arg = r < 0 ? -errno : r;
    return NULL;
}

static volatile int alarms;

static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

static void case_errors(void)
{
    pid_t me = gettid_();
    uint32_t f = 0;
    show("trylock free", futex(&f, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0));
    word("word", f, me);
    show("lock own", futex(&f, FUTEX_LOCK_PI, 0, NULL, NULL, 0));
    show("trylock own", futex(&f, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0));
    show("unlock", futex(&f, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0));
    word("word", f, me);
    show("unlock unowned", futex(&f, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0));
    f = 0x3ffffff0;
    show("unlock other's", futex(&f, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0));
    show("lock dead owner", futex(&f, FUTEX_LOCK_PI, 0, NULL, NULL, 0));
    word("word", f, me);
    show("trylock dead owner", futex(&f, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0));
    f = FUTEX_OWNER_DIED;
    show("lock owner died", futex(&f, FUTEX_LOCK_PI, 0, NULL, NULL, 0));
    word("word", f, me);
    show("unlock", futex(&f, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0));
    word("word", f, me);
    char buf[8] __attribute__((aligned(4))) = {0};
    show("lock unaligned", futex((uint32_t *)(buf + 1), FUTEX_LOCK_PI, 0, NULL, NULL, 0));
    f = 0;
    show("lock_pi realtime flag",
         futex(&f, FUTEX_LOCK_PI | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0));
    struct timespec bad = {0, 1000000000};
    show("lock bad timeout", futex(&f, FUTEX_LOCK_PI, 0, &bad, NULL, 0));

    pthread_t th = start(holder, NULL);
    while (!held)
        sleep_ms(5);
    show("trylock held", futex(&held, FUTEX_TRYLOCK_PI_PRIVATE, 0, NULL, NULL, 0));
    word("word", held, holder_tid);
    struct timespec rt = ts_of(now_ns(CLOCK_REALTIME) + 50 * MS);
    show("lock_pi timeout", futex(&held, FUTEX_LOCK_PI_PRIVATE, 0, &rt, NULL, 0));
    struct timespec mono = ts_of(now_ns(CLOCK_MONOTONIC) + 50 * MS);
    show("lock_pi2 monotonic timeout", futex(&held, FUTEX_LOCK_PI2 | FUTEX_PRIVATE_FLAG, 0, &mono,
                                             NULL, 0));
    rt = ts_of(now_ns(CLOCK_REALTIME) + 50 * MS);
    show("lock_pi2 realtime timeout",
         futex(&held, FUTEX_LOCK_PI2 | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME, 0, &rt, NULL, 0));
    struct timespec past = ts_of(now_ns(CLOCK_MONOTONIC) - 50 * MS);
    show("lock_pi2 past", futex(&held, FUTEX_LOCK_PI2 | FUTEX_PRIVATE_FLAG, 0, &past, NULL, 0));
    word("word", held, holder_tid);
    show("unlock not owner", futex(&held, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0));
    /* A handler (no SA_RESTART) interrupts the wait: the call runs again
     * to its absolute timeout, never EINTR (ERESTARTNOINTR). */
    struct sigaction sa = {.sa_handler = on_alarm};
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {.it_value = {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    rt = ts_of(now_ns(CLOCK_REALTIME) + 60 * MS);
    show("lock_pi across a handler", futex(&held, FUTEX_LOCK_PI_PRIVATE, 0, &rt, NULL, 0));
    printf("handler ran %d\n", alarms);
    release = 1;
    show("lock_pi waits", futex(&held, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0));
    word("word", held, me);
    pthread_join(th, NULL);
    show("unlock", futex(&held, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0));
    word("word", held, me);

    /* An owner that exits holding a PI word (no robust list): its waiter
     * gets it (exit_pi_state_list()), the word its tid with WAITERS and
     * OWNER_DIED (__fixup_pi_state_owner(): the pi_state had no owner). */
    holder_tid = 0;
    th = start(exit_holding, NULL);
    while (!__atomic_load_n(&holder_tid, __ATOMIC_SEQ_CST))
        sleep_ms(1);
    show("lock_pi, owner exits", futex(&dying, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0));
    word("word", dying, me);
    pthread_join(th, NULL);
    show("unlock", futex(&dying, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0));

    /* The requeue rules. */
    show("wait_requeue same", futex(&cond, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, NULL, &cond, 0));
    show("wait_requeue value", futex(&cond, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 1, NULL, &lock2, 0));
    mono = ts_of(now_ns(CLOCK_MONOTONIC) + 50 * MS);
    show("wait_requeue timeout", futex(&cond, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, &mono, &lock2, 0));
    setitimer(ITIMER_REAL, &it, NULL);
    mono = ts_of(now_ns(CLOCK_MONOTONIC) + 60 * MS);
    show("wait_requeue across a handler",
         futex(&cond, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, &mono, &lock2, 0));
    printf("handler ran %d\n", alarms);
    show("cmp_requeue nr_wake 2", futex2(&cond, FUTEX_CMP_REQUEUE_PI_PRIVATE, 2, 1, &lock2, 0));
    show("cmp_requeue same", futex2(&cond, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, 1, &cond, 0));
    show("cmp_requeue value", futex2(&cond, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, 1, &lock2, 1));
    show("cmp_requeue nobody", futex2(&cond, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, 1, &lock2, 0));
    long res = 1;
    th = start(requeue_waiter, &res);
    sleep_ms(20);
    show("wake on requeue waiter", futex(&cond, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
    show("cmp_requeue plain to other", futex2(&cond, FUTEX_CMP_REQUEUE_PRIVATE, 0, 1, &f, 0));
    uint32_t other = 0;
    show("cmp_requeue_pi other target", futex2(&cond, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, 1, &other, 0));
    show("cmp_requeue_pi", futex2(&cond, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, 1, &lock2, 0));
    pthread_join(th, NULL);
    printf("waiter: %s\n", res < 0 ? err_name((int)-res) : "0");
    word("lock2", lock2, 0);
}

/* ---- mutex ---- */

static pthread_mutex_t pm;

static void *try_other(void *arg)
{
    (void)arg;
    int r = pthread_mutex_trylock(&pm);
    printf("other trylock: %s\n", r ? err_name(r) : "0");
    struct timespec ts = ts_of(now_ns(CLOCK_REALTIME) + 30 * MS);
    r = pthread_mutex_timedlock(&pm, &ts);
    printf("other timedlock: %s\n", r ? err_name(r) : "0");
    r = pthread_mutex_unlock(&pm);
    printf("other unlock: %s\n", r ? err_name(r) : "0");
    return NULL;
}

static void case_mutex(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    int r = pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
    printf("setprotocol: %s\n", r ? err_name(r) : "0");
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&pm, &a);
    int proto = -1;
    pthread_mutexattr_getprotocol(&a, &proto);
    printf("protocol inherit: %s\n", proto == PTHREAD_PRIO_INHERIT ? "yes" : "no");
    r = pthread_mutex_lock(&pm);
    printf("lock: %s\n", r ? err_name(r) : "0");
    r = pthread_mutex_lock(&pm);
    printf("lock again: %s\n", r ? err_name(r) : "0");
    pthread_t th = start(try_other, NULL);
    pthread_join(th, NULL);
    r = pthread_mutex_unlock(&pm);
    printf("unlock: %s\n", r ? err_name(r) : "0");
    r = pthread_mutex_trylock(&pm);
    printf("trylock: %s\n", r ? err_name(r) : "0");
    r = pthread_mutex_unlock(&pm);
    printf("unlock: %s\n", r ? err_name(r) : "0");
    r = pthread_mutex_destroy(&pm);
    printf("destroy: %s\n", r ? err_name(r) : "0");
}

/* ---- boost ---- */

static pthread_mutex_t bm;
static char events[512];
static volatile int low_tid, low_locked, low_after;
static sem_t go;
static pthread_mutex_t logm = PTHREAD_MUTEX_INITIALIZER;

static void event(const char *e)
{
    pthread_mutex_lock(&logm);
    strcat(events, e);
    strcat(events, "\n");
    pthread_mutex_unlock(&logm);
}

/* The priority field (the 18th) of /proc/self/task/TID/stat. */
static int stat_prio(int tid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 999;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    int field = 2, prio = 999;
    for (char *tok = strtok(p + 1, " "); tok; tok = strtok(NULL, " "))
        if (++field == 18) {
            prio = atoi(tok);
            break;
        }
    return prio;
}

static void *low(void *arg)
{
    (void)arg;
    pin();
    fifo(10);
    low_tid = gettid_();
    pthread_mutex_lock(&bm);
    low_locked = 1;
    sem_wait(&go);
    /* Runs before medium only while boosted above it. */
    event("low unlocks");
    pthread_mutex_unlock(&bm);
    low_after = stat_prio(gettid_());
    event("low done");
    return NULL;
}

static void *high(void *arg)
{
    (void)arg;
    pin();
    fifo(30);
    pthread_mutex_lock(&bm);
    event("high has the lock");
    pthread_mutex_unlock(&bm);
    return NULL;
}

static void *medium(void *arg)
{
    (void)arg;
    pin();
    fifo(20);
    event("medium runs");
    return NULL;
}

static void case_boost(void)
{
    pin();
    fifo(50);
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
    pthread_mutex_init(&bm, &a);
    sem_init(&go, 0, 0);
    pthread_t l = start(low, NULL);
    while (!low_locked)
        sleep_ms(1);
    printf("low priority field: %d\n", stat_prio(low_tid));
    pthread_t h = start(high, NULL);
    sleep_ms(10); /* high blocks on the lock */
    printf("low priority field, high waiting: %d\n", stat_prio(low_tid));
    struct sched_param sp;
    sched_getparam(low_tid, &sp);
    printf("low sched_getscheduler %d sched_getparam %d\n", sched_getscheduler(low_tid),
           sp.sched_priority);
    /* Main (50) runs on until it joins: then low (boosted to 30) and
     * medium (20) are both runnable on CPU 0. */
    pthread_t m = start(medium, NULL);
    sem_post(&go);
    pthread_join(h, NULL);
    pthread_join(m, NULL);
    pthread_join(l, NULL);
    printf("%s", events);
    printf("low priority field after its unlock: %d\n", low_after);
}

/* ---- chain ---- */

static uint32_t m1, m2, m3;
static volatile int b_tid, a_tid, f_tid, stage;
static sem_t b_go, f_go;

static void *chain_b(void *arg)
{
    (void)arg;
    pin();
    fifo(5);
    b_tid = gettid_();
    futex(&m1, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    stage = 1;
    sem_wait(&b_go);
    long r = futex(&m2, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    event(r < 0 && errno == EDEADLK ? "B: lock m2 (A's, A waits for B's m1): EDEADLK" : "B: lock m2 ?");
    event("B unlocks m1");
    futex(&m1, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    low_after = stat_prio(gettid_());
    event("B done");
    return NULL;
}

static void *chain_a(void *arg)
{
    (void)arg;
    pin();
    fifo(10);
    a_tid = gettid_();
    futex(&m2, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    stage = 2;
    futex(&m1, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    event("A has m1, unlocks m2");
    futex(&m2, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    futex(&m1, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    event("A done");
    return NULL;
}

static void *chain_c(void *arg)
{
    (void)arg;
    pin();
    fifo(30);
    futex(&m2, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    event("C has m2");
    futex(&m2, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    return NULL;
}

static void *fair_owner(void *arg)
{
    (void)arg;
    pin();
    f_tid = gettid_();
    futex(&m3, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    stage = 3;
    sem_wait(&f_go);
    futex(&m3, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    return NULL;
}

static void *fair_waiter(void *arg)
{
    (void)arg;
    pin();
    setpriority(PRIO_PROCESS, 0, -5);
    futex(&m3, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    futex(&m3, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    return NULL;
}

static void case_chain(void)
{
    pin();
    fifo(50);
    sem_init(&b_go, 0, 0);
    sem_init(&f_go, 0, 0);
    pthread_t b = start(chain_b, NULL);
    while (stage < 1)
        sleep_ms(1);
    pthread_t a = start(chain_a, NULL);
    while (stage < 2)
        sleep_ms(1);
    sleep_ms(10); /* A waits for m1 */
    printf("B (FIFO 5) with A (FIFO 10) waiting: %d\n", stat_prio(b_tid));
    pthread_t c = start(chain_c, NULL);
    sleep_ms(10); /* C waits for m2 */
    printf("C (FIFO 30) waiting for A's m2: A %d, B %d\n", stat_prio(a_tid), stat_prio(b_tid));
    struct sched_param sp = {.sched_priority = 40};
    sched_setscheduler(b_tid, SCHED_FIFO, &sp);
    sched_getparam(b_tid, &sp);
    printf("B set to FIFO 40: B %d, sched_getparam %d\n", stat_prio(b_tid), sp.sched_priority);
    sp.sched_priority = 5;
    sched_setscheduler(b_tid, SCHED_FIFO, &sp);
    sched_getparam(b_tid, &sp);
    printf("B back to FIFO 5: B %d, sched_getparam %d\n", stat_prio(b_tid), sp.sched_priority);
    sem_post(&b_go);
    pthread_join(c, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%s", events);
    printf("B after its unlock: %d\n", low_after);

    /* Fair tasks: a nice -5 waiter lends its p->prio (115), not a class. */
    struct sched_param zero = {0};
    sched_setscheduler(0, SCHED_OTHER, &zero);
    pthread_t f = start(fair_owner, NULL);
    while (stage < 3)
        sleep_ms(1);
    pthread_t w = start(fair_waiter, NULL);
    sleep_ms(20);
    printf("fair owner with a nice -5 waiter: %d, policy %d\n", stat_prio(f_tid),
           sched_getscheduler(f_tid));
    sem_post(&f_go);
    pthread_join(w, NULL);
    pthread_join(f, NULL);
}

/* ---- requeue ---- */

static uint32_t rcond, rlock;
static volatile int rq_ready;

static void *rq_waiter(void *arg)
{
    const char *name = arg;
    pin();
    __atomic_add_fetch(&rq_ready, 1, __ATOMIC_SEQ_CST);
    long r = futex(&rcond, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, NULL, &rlock, 0);
    char line[128];
    snprintf(line, sizeof line, "%s: %s, lock word %s%s", name, r < 0 ? err_name(errno) : "0",
             (rlock & FUTEX_TID_MASK) == (uint32_t)gettid_() ? "mine" : "not mine",
             rlock & FUTEX_WAITERS ? "|WAITERS" : "");
    event(line);
    if (r == 0)
        futex(&rlock, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
    return NULL;
}

static void requeue_round(int held_by_main)
{
    pthread_t a, b;
    rq_ready = 0;
    rcond = 0;
    events[0] = 0;
    a = start(rq_waiter, "first");
    while (rq_ready < 1)
        sleep_ms(1);
    sleep_ms(10);
    b = start(rq_waiter, "second");
    while (rq_ready < 2)
        sleep_ms(1);
    sleep_ms(10);
    if (held_by_main)
        show("main trylock", futex(&rlock, FUTEX_TRYLOCK_PI_PRIVATE, 0, NULL, NULL, 0));
    rcond = 1;
    show("cmp_requeue_pi", futex2(&rcond, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, INT_MAX, &rlock, 1));
    word("lock word", rlock, gettid_());
    if (held_by_main)
        show("main unlock", futex(&rlock, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0));
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%s", events);
    word("lock word at end", rlock, gettid_());
}

static void case_requeue(void)
{
    pin();
    fifo(50); /* the waiters run only when main waits */
    printf("-- onto a held lock\n");
    requeue_round(1);
    printf("-- onto a free lock\n");
    requeue_round(0);
}

/* ---- robust ---- */

static pthread_mutex_t rm;

static void *die_holding(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&rm);
    return NULL; /* exits with the lock */
}

static volatile int w_started;

static void *die_later(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&rm);
    while (!w_started)
        sleep_ms(1);
    sleep_ms(20);
    return NULL;
}

static void *lock_waiter(void *arg)
{
    (void)arg;
    w_started = 1;
    int r = pthread_mutex_lock(&rm);
    printf("blocked waiter: %s\n", r ? err_name(r) : "0");
    if (r == EOWNERDEAD)
        pthread_mutex_consistent(&rm);
    pthread_mutex_unlock(&rm);
    return NULL;
}

static void init_robust(pthread_mutex_t *m, int pshared)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
    pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    if (pshared)
        pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutex_init(m, &a);
}

static void case_robust(void)
{
    pin();
    init_robust(&rm, 0);
    pthread_t th = start(die_holding, NULL);
    pthread_join(th, NULL);
    int r = pthread_mutex_lock(&rm);
    printf("lock after owner exit: %s\n", r ? err_name(r) : "0");
    r = pthread_mutex_consistent(&rm);
    printf("consistent: %s\n", r ? err_name(r) : "0");
    r = pthread_mutex_unlock(&rm);
    printf("unlock: %s\n", r ? err_name(r) : "0");
    r = pthread_mutex_lock(&rm);
    printf("lock again: %s\n", r ? err_name(r) : "0");
    pthread_mutex_unlock(&rm);

    th = start(die_later, NULL);
    sleep_ms(5);
    pthread_t w = start(lock_waiter, NULL);
    pthread_join(th, NULL);
    pthread_join(w, NULL);

    pthread_mutex_t *sm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    init_robust(sm, 1);
    fflush(stdout);
    pid_t child = fork();
    if (!child) {
        pthread_mutex_lock(sm);
        _exit(0);
    }
    int st;
    waitpid(child, &st, 0);
    r = pthread_mutex_lock(sm);
    printf("shared lock after child exit: %s\n", r ? err_name(r) : "0");
    pthread_mutex_consistent(sm);
    pthread_mutex_unlock(sm);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "errors"))
        case_errors();
    else if (!strcmp(c, "mutex"))
        case_mutex();
    else if (!strcmp(c, "boost"))
        case_boost();
    else if (!strcmp(c, "chain"))
        case_chain();
    else if (!strcmp(c, "requeue"))
        case_requeue();
    else if (!strcmp(c, "robust"))
        case_robust();
    else {
        fprintf(stderr, "usage: futex-pi errors|mutex|boost|chain|requeue|robust\n");
        return 2;
    }
    return 0;
}
