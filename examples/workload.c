/* SPDX-License-Identifier: GPL-2.0-or-later */
/* workload.c - the worker of scenario workloads (docs/scenarios.md
 * "Workloads"): a scenario task described by phases instead of a program
 * runs this, for its ISA, as an ordinary guest task. Its arguments are the
 * scenario's description in a compact form (scenario/workload.c writes
 * them; times in ns):
 *
 *   workload NAME INSTANCES LOOPS POLICY NICE PRIO DL_RUNTIME DL_DEADLINE DL_PERIOD PHASE...
 *
 * POLICY is other, batch, idle, fifo, rr or deadline. INSTANCES threads,
 * named NAME-0, NAME-1, ... (for task_pattern), each set to the policy and
 * then running the phases LOOPS times (-1: until killed):
 *
 *   run:N       N iterations of a busy loop (work: slower on a smaller core)
 *   runtime:NS  busy until the thread's CPU time grew by NS
 *   sleep:NS    nanosleep
 *   timer:NS    sleep until the thread's next period of NS (from its start)
 *   lock:M      lock mutex M (shared by the instances), unlock:M
 *   barrier:B   wait until every instance reaches barrier B
 *   yield       sched_yield
 *   mem:N       write one byte per 64 of an N-byte buffer
 *   begin:N ... end   the phases between, N times (an rt-app phase's loop)
 *   fork        the rest of the phases of this pass (to the end of the list or
 *               of the begin it is in) run in a forked child process, which
 *               the thread waits for; the child keeps the thread's name
 *   exec:PATH [arg:A]...  execv(PATH, {PATH, A, ...}): the process becomes
 *               that program (the scenario makes it the last phase)
 *   sched:POLICY:PARAMS:UMIN:UMAX  sched_setattr of the thread: POLICY as
 *               above or keep (SCHED_FLAG_KEEP_POLICY), PARAMS
 *               NICE,PRIO,DL_RUNTIME,DL_DEADLINE,DL_PERIOD or keep
 *               (SCHED_FLAG_KEEP_PARAMS), the uclamps 0 to 1024 or -1 (kept)
 *   cgroup:FILE write "0" to FILE, a group's cgroup.procs: the whole process
 *               moves to that group (the kernel's __cgroup_procs_write())
 *   mark:NAME   write "asymu-workload: phase NAME" to trace_marker (a named
 *               phase's completion, which throughput counts)
 *
 * A timer that finds its next period already begun (rt-app's slack below
 * 0: the run phases before it ended after the period they belong to)
 * writes "asymu-workload: deadline miss" to trace_marker, which
 * deadline_misses counts. The scenario reads both from the machine's event
 * stream (a print event of the thread), not from the worker's own
 * accounting, and the marker file is opened at its first use only, so a
 * workload that never misses nor names a phase runs as it did before.
 *
 * On a failure it prints what failed on stderr and exits 1. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_NAMED 16
#define MAX_THREADS 256
#define MAX_EXEC_ARGS 64

struct attr { /* Linux's struct sched_attr (include/uapi/linux/sched/types.h) */
    uint32_t size, policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
};

static const char *name;
static long loops;
static struct attr attr;
static char **phases;
static int nphases;
static const char *mutex_names[MAX_NAMED], *barrier_names[MAX_NAMED];
static pthread_mutex_t mutexes[MAX_NAMED];
static pthread_barrier_t barriers[MAX_NAMED];
static int nmutexes, nbarriers;

static void die(const char *what, const char *arg)
{
    fprintf(stderr, "workload %s: %s %s: %s\n", name, what, arg, strerror(errno));
    exit(1);
}

struct attr_v1 { /* with the utilization clamps (SCHED_ATTR_SIZE_VER1) */
    struct attr v0;
    uint32_t util_min, util_max;
};

static const char *const policies[] = {"other", "fifo", "rr", "batch", NULL, "idle", "deadline"};

/* The policy number of a name, 7 if none. */
static uint32_t policy_of(const char *s)
{
    uint32_t p = 0;
    while (p < 7 && (!policies[p] || strcmp(policies[p], s) != 0))
        p++;
    return p;
}

/* A phase's sched_setattr ("sched:POLICY:PARAMS:UMIN:UMAX"). */
static void set_sched(const char *p)
{
    char pol[16] = "", params[128] = "";
    long umin = -1, umax = -1;
    struct attr_v1 a = {.v0.size = sizeof a};
    if (sscanf(p, "sched:%15[^:]:%127[^:]:%ld:%ld", pol, params, &umin, &umax) != 4) {
        errno = EINVAL;
        die("phase", p);
    }
    if (strcmp(pol, "keep") == 0)
        a.v0.flags |= 0x08; /* SCHED_FLAG_KEEP_POLICY */
    else
        a.v0.policy = policy_of(pol);
    if (strcmp(params, "keep") == 0)
        a.v0.flags |= 0x10; /* SCHED_FLAG_KEEP_PARAMS */
    else
        sscanf(params, "%d,%u,%llu,%llu,%llu", &a.v0.nice, &a.v0.priority,
               (unsigned long long *)&a.v0.runtime, (unsigned long long *)&a.v0.deadline,
               (unsigned long long *)&a.v0.period);
    if (umin >= 0) {
        a.v0.flags |= 0x20; /* SCHED_FLAG_UTIL_CLAMP_MIN */
        a.util_min = (uint32_t)umin;
    }
    if (umax >= 0) {
        a.v0.flags |= 0x40; /* SCHED_FLAG_UTIL_CLAMP_MAX */
        a.util_max = (uint32_t)umax;
    }
    if (syscall(SYS_sched_setattr, 0, &a, 0) != 0)
        die("sched_setattr", p);
}

static int named(const char **names, int *n, const char *s)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    if (*n == MAX_NAMED) {
        errno = ENOSPC;
        die("too many names at", s);
    }
    names[*n] = s;
    return (*n)++;
}

static int marker_fd = -1;
static pthread_once_t marker_once = PTHREAD_ONCE_INIT;

static void marker_open(void)
{
    marker_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
}

/* A print event in the machine's event stream. A failure (no tracefs,
 * tracing_on 0: EBADF) is not the workload's: the mark is lost, and the
 * expectation that counts it says what it measured. */
static void mark(const char *what, const char *arg)
{
    char buf[128];
    pthread_once(&marker_once, marker_open);
    int n = snprintf(buf, sizeof buf, "asymu-workload: %s%s", what, arg);
    if (marker_fd >= 0 && write(marker_fd, buf, (size_t)n) < 0)
        errno = 0;
}

/* A cgroup phase: "0" (the writer) into the group's cgroup.procs. */
static void join_cgroup(const char *procs)
{
    int fd = open(procs, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "0", 1) != 1)
        die("cgroup", procs);
    close(fd);
}

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct timespec ts_of(uint64_t ns)
{
    return (struct timespec){(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
}

struct state {
    uint64_t start, *next; /* the thread's start; each timer's next tick */
    char *mem;
    size_t mem_len;
};

/* The index after the phases of the level i is in (after its "end"). */
static int level_end(int i)
{
    for (int depth = 0; i < nphases; i++) {
        if (strncmp(phases[i], "begin:", 6) == 0)
            depth++;
        else if (strcmp(phases[i], "end") == 0 && depth-- == 0)
            return i + 1;
    }
    return i;
}

/* Runs the phases from i to the end or to the "end" that closes the
 * enclosing begin; returns the index after it. */
static int run_phases(struct state *st, int i)
{
    for (; i < nphases; i++) {
        char *p = phases[i], *v = strchr(p, ':');
        unsigned long long n = v ? strtoull(v + 1, NULL, 10) : 0;
        if (strcmp(p, "end") == 0)
            return i + 1;
        if (strcmp(p, "fork") == 0) {
            pid_t pid = fork();
            if (pid < 0)
                die("fork", p);
            if (pid == 0) {
                run_phases(st, i + 1);
                _exit(0);
            }
            int status;
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                errno = ECHILD;
                die("forked child", p);
            }
            return level_end(i + 1);
        }
        if (strncmp(p, "begin:", 6) == 0) {
            int after = i + 1;
            for (unsigned long long k = 0; k < n; k++)
                after = run_phases(st, i + 1);
            i = after - 1;
        } else if (strncmp(p, "run:", 4) == 0) {
            for (volatile unsigned long long k = 0; k < n; k++)
                ;
        } else if (strncmp(p, "runtime:", 8) == 0) {
            uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + n;
            while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
                for (volatile int k = 0; k < 100; k++)
                    ;
        } else if (strncmp(p, "sleep:", 6) == 0) {
            struct timespec ts = ts_of(n);
            while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
                ;
        } else if (strncmp(p, "timer:", 6) == 0) {
            st->next[i] = (st->next[i] ? st->next[i] : st->start) + n;
            if (now_ns(CLOCK_MONOTONIC) > st->next[i])
                mark("deadline miss", "");
            struct timespec ts = ts_of(st->next[i]);
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
                ;
        } else if (strncmp(p, "lock:", 5) == 0) {
            pthread_mutex_lock(&mutexes[named(mutex_names, &nmutexes, v + 1)]);
        } else if (strncmp(p, "unlock:", 7) == 0) {
            pthread_mutex_unlock(&mutexes[named(mutex_names, &nmutexes, v + 1)]);
        } else if (strncmp(p, "barrier:", 8) == 0) {
            pthread_barrier_wait(&barriers[named(barrier_names, &nbarriers, v + 1)]);
        } else if (strncmp(p, "exec:", 5) == 0) {
            char *args[MAX_EXEC_ARGS + 2] = {v + 1};
            int n_args = 1;
            while (i + 1 < nphases && strncmp(phases[i + 1], "arg:", 4) == 0 &&
                   n_args <= MAX_EXEC_ARGS)
                args[n_args++] = phases[++i] + 4;
            fflush(NULL);
            execv(v + 1, args);
            die("execv", v + 1);
        } else if (strncmp(p, "sched:", 6) == 0) {
            set_sched(p);
        } else if (strncmp(p, "mark:", 5) == 0) {
            mark("phase ", v + 1);
        } else if (strcmp(p, "yield") == 0) {
            sched_yield();
        } else if (strncmp(p, "mem:", 4) == 0) {
            if (n > st->mem_len && !(st->mem = realloc(st->mem, st->mem_len = n)))
                die("mem", p);
            for (size_t k = 0; k < n; k += 64)
                st->mem[k] = (char)k;
        } else if (strncmp(p, "cgroup:", 7) == 0) {
            join_cgroup(v + 1);
        }
    }
    return i;
}

static void *instance(void *arg)
{
    char comm[16];
    snprintf(comm, sizeof comm, "%s-%ld", name, (long)(intptr_t)arg);
    pthread_setname_np(pthread_self(), comm);
    if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0)
        die("sched_setattr", comm);
    struct state st = {.start = now_ns(CLOCK_MONOTONIC),
                       .next = calloc((size_t)nphases, sizeof *st.next)};
    for (long l = 0; loops < 0 || l < loops; l++)
        run_phases(&st, 0);
    free(st.mem);
    free(st.next);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 10) {
        fprintf(stderr, "usage: workload NAME INSTANCES LOOPS POLICY NICE PRIO DL_RUNTIME "
                        "DL_DEADLINE DL_PERIOD PHASE...\n");
        return 2;
    }
    name = argv[1];
    int n = atoi(argv[2]);
    loops = atol(argv[3]);
    attr.size = sizeof attr;
    attr.policy = policy_of(argv[4]);
    attr.nice = atoi(argv[5]);
    attr.priority = (uint32_t)atoi(argv[6]);
    attr.runtime = strtoull(argv[7], NULL, 10);
    attr.deadline = strtoull(argv[8], NULL, 10);
    attr.period = strtoull(argv[9], NULL, 10);
    phases = argv + 10;
    nphases = argc - 10;
    if (n < 1 || n > MAX_THREADS || attr.policy == 7) {
        errno = EINVAL;
        die("instances or policy", argv[2]);
    }
    /* Names first, so every instance finds the same mutex or barrier (the
     * mutexes, zero, are PTHREAD_MUTEX_INITIALIZER). */
    for (int i = 0; i < nphases; i++) {
        const char *v = strchr(phases[i], ':');
        if (strncmp(phases[i], "lock:", 5) == 0 || strncmp(phases[i], "unlock:", 7) == 0) {
            named(mutex_names, &nmutexes, v + 1);
        } else if (strncmp(phases[i], "barrier:", 8) == 0) {
            int before = nbarriers, b = named(barrier_names, &nbarriers, v + 1);
            if (b == before)
                pthread_barrier_init(&barriers[b], NULL, (unsigned)n);
        }
    }
    pthread_t threads[MAX_THREADS];
    for (int i = 0; i < n; i++)
        if ((errno = pthread_create(&threads[i], NULL, instance, (void *)(intptr_t)i)))
            die("pthread_create", argv[2]);
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    return 0;
}
