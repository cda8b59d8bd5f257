/* sys_time.c - clocks and randomness, all virtual: time is the machine's
 * virtual clock, randomness comes from the --seed generator. */
#include "kernel.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define NSEC 1000000000ull

/* Writes a timespec/timeval of two fields of `field` bytes each. */
static int put_time_pair(struct task *t, uint64_t addr, uint64_t sec, uint64_t sub,
                         unsigned field)
{
    uint8_t buf[16];
    memcpy(buf, &sec, field);
    memcpy(buf + field, &sub, field);
    return copy_to_guest(task_mm(t), addr, buf, 2 * field);
}

static int get_time_pair(struct task *t, uint64_t addr, int64_t *sec, int64_t *sub,
                         unsigned field)
{
    uint8_t buf[16];
    if (copy_from_guest(task_mm(t), buf, addr, 2 * field) < 0)
        return -EFAULT;
    if (field == 8) {
        memcpy(sec, buf, 8);
        memcpy(sub, buf + 8, 8);
    } else {
        int32_t s, n;
        memcpy(&s, buf, 4);
        memcpy(&n, buf + 4, 4);
        *sec = s, *sub = n;
    }
    return 0;
}

static int clock_now(struct task *t, int clk, uint64_t *ns)
{
    switch (clk) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
        *ns = machine_realtime_ns(t->machine);
        return 0;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID:
        *ns = t->machine->vtime_ns;
        return 0;
    default:
        return -EINVAL;
    }
}

int64_t do_clock_gettime(struct task *t, int clk, uint64_t addr, unsigned field)
{
    uint64_t ns;
    int err = clock_now(t, clk, &ns);
    if (err < 0)
        return err;
    return put_time_pair(t, addr, ns / NSEC, ns % NSEC, field);
}

int64_t do_clock_getres(struct task *t, int clk, uint64_t addr, unsigned field)
{
    uint64_t ns;
    int err = clock_now(t, clk, &ns);
    if (err < 0 || !addr)
        return err;
    return put_time_pair(t, addr, 0, 1, field);
}

int64_t do_nanosleep(struct task *t, uint64_t req, unsigned field)
{
    int64_t sec, nsec;
    if (get_time_pair(t, req, &sec, &nsec, field) < 0)
        return -EFAULT;
    if (sec < 0 || nsec < 0 || nsec >= (int64_t)NSEC)
        return -EINVAL;
    /* Only this task runs: sleeping is the clock jumping forward. */
    t->machine->vtime_ns += (uint64_t)sec * NSEC + (uint64_t)nsec;
    return 0;
}

SYSCALL_DECL(clock_gettime)
{
    return do_clock_gettime(t, (int)a[0], a[1], task_abi(t)->word);
}

SYSCALL_DECL(clock_getres)
{
    return do_clock_getres(t, (int)a[0], a[1], task_abi(t)->word);
}

SYSCALL_DECL(nanosleep)
{
    return do_nanosleep(t, a[0], task_abi(t)->word);
}

#define TIMER_ABSTIME 1

int64_t do_clock_nanosleep(struct task *t, int clk, int flags, uint64_t req, unsigned field)
{
    uint64_t now;
    int err = clock_now(t, clk, &now);
    if (err < 0)
        return err;
    if (!(flags & TIMER_ABSTIME))
        return do_nanosleep(t, req, field);
    int64_t sec, nsec;
    if (get_time_pair(t, req, &sec, &nsec, field) < 0)
        return -EFAULT;
    uint64_t until = (uint64_t)sec * NSEC + (uint64_t)nsec;
    if (until > now)
        t->machine->vtime_ns += until - now;
    return 0;
}

SYSCALL_DECL(clock_nanosleep)
{
    return do_clock_nanosleep(t, (int)a[0], (int)a[1], a[2], task_abi(t)->word);
}

SYSCALL_DECL(gettimeofday)
{
    uint64_t ns = machine_realtime_ns(t->machine);
    if (a[0] && put_time_pair(t, a[0], ns / NSEC, ns % NSEC / 1000, task_abi(t)->word) < 0)
        return -EFAULT;
    if (a[1]) {
        uint32_t tz[2] = {0, 0};
        if (copy_to_guest(task_mm(t), a[1], tz, sizeof tz) < 0)
            return -EFAULT;
    }
    return 0;
}

#define GETRANDOM_MAX 33554431u

SYSCALL_DECL(getrandom)
{
    uint64_t len = a[1] < GETRANDOM_MAX ? a[1] : GETRANDOM_MAX;
    uint8_t chunk[4096];
    for (uint64_t done = 0; done < len;) {
        size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
        machine_random_bytes(t->machine, chunk, n);
        if (copy_to_guest(task_mm(t), a[0] + done, chunk, n) < 0)
            return done ? (int64_t)done : -EFAULT;
        done += n;
    }
    return (int64_t)len;
}
