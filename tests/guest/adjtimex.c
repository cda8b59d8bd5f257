/* SPDX-License-Identifier: GPL-2.0-or-later */
/* adjtimex.c - adjtimex, clock_adjtime and settimeofday on the machine's
 * clock (emu/kernel/adjtimex.c), one case per run (argv[1]):
 *   read   a fresh machine's NTP state: TIME_ERROR, STA_UNSYNC, maxerror
 *          and esterror at NTP_PHASE_LIMIT, tick 10000, tolerance; the
 *          time it reports is CLOCK_REALTIME's; clock_adjtime on the other
 *          clocks (EOPNOTSUPP, EINVAL); on arm also the compat calls
 *          (adjtimex and clock_adjtime with struct old_timex32), whose
 *          answers must be the same
 *   user   a non-root caller reads (and asks ADJ_OFFSET_SS_READ) but gets
 *          EPERM for any setting, ADJ_SETOFFSET and settimeofday
 *   set    root sets frequency, maxerror, esterror, status, time
 *          constant, tick and a PLL offset and reads them back; out of
 *          range values are EINVAL; TIME_OK once synchronised; maxerror
 *          grows 500 us a second, and past its limit the clock is
 *          unsynchronised
 *   offset ADJ_SETOFFSET and settimeofday move CLOCK_REALTIME; the
 *          timezone settimeofday sets is what gettimeofday reports
 * Only read and user may run on a host (qemu-user): set and offset would
 * change the host's clock. */
#define _GNU_SOURCE
#include "guest.h"

#include <stdbool.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/wait.h>

#define STA_PLL_ 0x0001
#define STA_UNSYNC_ 0x0040
#define STA_FREQHOLD_ 0x0080
#define STA_NANO_ 0x2000

/* The kernel's struct __kernel_timex: struct timex on aarch64, what
 * clock_adjtime64 takes on arm. */
struct ktimex {
    unsigned int modes;
    int : 32;
    long long offset, freq, maxerror, esterror;
    int status;
    int : 32;
    long long constant, precision, tolerance;
    long long tv_sec, tv_usec;
    long long tick, ppsfreq, jitter;
    int shift;
    int : 32;
    long long stabil, jitcnt, calcnt, errcnt, stbcnt;
    int tai;
    int : 32; int : 32; int : 32; int : 32; int : 32; int : 32;
    int : 32; int : 32; int : 32; int : 32; int : 32;
};

#ifndef __aarch64__
/* struct old_timex32 of the arm compat calls. */
struct timex32 {
    unsigned int modes;
    int offset, freq, maxerror, esterror, status, constant, precision, tolerance;
    int tv_sec, tv_usec;
    int tick, ppsfreq, jitter, shift, stabil, jitcnt, calcnt, errcnt, stbcnt, tai;
    int : 32; int : 32; int : 32; int : 32; int : 32; int : 32;
    int : 32; int : 32; int : 32; int : 32; int : 32;
};
#define SYS_clock_adjtime64_ 405
#endif

static long kadj(clockid_t clk, struct ktimex *tx)
{
#ifdef __aarch64__
    return syscall(SYS_clock_adjtime, clk, tx);
#else
    return syscall(SYS_clock_adjtime64_, clk, tx);
#endif
}

static const char *res(long r)
{
    static char buf[32];
    if (r < 0)
        return err_name(errno);
    snprintf(buf, sizeof buf, "%ld", r);
    return buf;
}

static void show(const char *what, long r, const struct ktimex *t)
{
    printf("%s: %s offset %lld freq %lld maxerror %lld esterror %lld status 0x%x constant %lld "
           "precision %lld tolerance %lld tick %lld tai %d\n",
           what, res(r), t->offset, t->freq, t->maxerror, t->esterror, t->status, t->constant,
           t->precision, t->tolerance, t->tick, t->tai);
}

/* Whether a reported time is CLOCK_REALTIME's (within a second). */
static const char *time_ok(long long sec, long long sub, bool nano)
{
    long long ns = sec * 1000000000LL + sub * (nano ? 1 : 1000);
    long long d = now_ns(CLOCK_REALTIME) - ns;
    return d >= 0 && d < 1000000000LL ? "yes" : "no";
}

static long adj(unsigned modes, struct ktimex *t)
{
    t->modes = modes;
    return kadj(CLOCK_REALTIME, t);
}

static void case_read(void)
{
    struct ktimex t = {0};
    long r = adj(0, &t);
    show("read", r, &t);
    printf("time is CLOCK_REALTIME: %s\n", time_ok(t.tv_sec, t.tv_usec, t.status & STA_NANO_));
    struct timex gt = {0};
    r = adjtimex(&gt);
    printf("glibc adjtimex: %s status 0x%x tick %ld\n", res(r), gt.status, (long)gt.tick);
    static const struct {
        clockid_t clk;
        const char *name;
    } clocks[] = {{CLOCK_MONOTONIC, "MONOTONIC"}, {CLOCK_PROCESS_CPUTIME_ID, "PROCESS_CPUTIME"},
                  {CLOCK_BOOTTIME, "BOOTTIME"}, {CLOCK_TAI, "TAI"}, {10, "10"}, {12, "12"},
                  {16, "16"}, {-1, "-1 (cpu clock)"}, {-5, "-5 (fd 0)"}};
    for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++) {
        struct ktimex x = {0};
        printf("clock_adjtime %s: %s\n", clocks[i].name, res(kadj(clocks[i].clk, &x)));
    }
    errno = 0;
    printf("adjtimex bad pointer: %s\n", res(syscall(SYS_adjtimex, (void *)8)));
#ifdef __aarch64__
    /* the same lines as arm's compat calls */
    struct ktimex c = {0};
    r = syscall(SYS_adjtimex, &c);
    show("compat adjtimex", r, &c);
    struct ktimex d = {0};
    r = syscall(SYS_clock_adjtime, CLOCK_REALTIME, &d);
    show("compat clock_adjtime", r, &d);
    printf("compat time is CLOCK_REALTIME: %s\n", time_ok(d.tv_sec, d.tv_usec, d.status & STA_NANO_));
#else
    struct timex32 c = {0};
    r = syscall(SYS_adjtimex, &c);
    struct ktimex w = {.offset = c.offset, .freq = c.freq, .maxerror = c.maxerror,
                       .esterror = c.esterror, .status = c.status, .constant = c.constant,
                       .precision = c.precision, .tolerance = c.tolerance, .tick = c.tick,
                       .tai = c.tai};
    show("compat adjtimex", r, &w);
    struct timex32 d = {0};
    r = syscall(SYS_clock_adjtime, CLOCK_REALTIME, &d);
    struct ktimex v = {.offset = d.offset, .freq = d.freq, .maxerror = d.maxerror,
                       .esterror = d.esterror, .status = d.status, .constant = d.constant,
                       .precision = d.precision, .tolerance = d.tolerance, .tick = d.tick,
                       .tai = d.tai};
    show("compat clock_adjtime", r, &v);
    printf("compat time is CLOCK_REALTIME: %s\n", time_ok(d.tv_sec, d.tv_usec, d.status & STA_NANO_));
#endif
}

static void case_user(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (setuid(1000) != 0) {
            printf("setuid: %s\n", err_name(errno));
            _exit(1);
        }
        struct ktimex t = {0};
        long r = adj(0, &t);
        printf("user read: %s\n", r >= 0 ? "ok" : err_name(errno));
        t = (struct ktimex){0};
        r = adj(ADJ_OFFSET_SS_READ, &t);
        printf("user ADJ_OFFSET_SS_READ: %s offset %lld\n", r >= 0 ? "ok" : err_name(errno), t.offset);
        static const unsigned modes[] = {ADJ_FREQUENCY, ADJ_MAXERROR, ADJ_STATUS, ADJ_TICK,
                                         ADJ_OFFSET_SINGLESHOT, ADJ_SETOFFSET, ADJ_NANO};
        for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
            t = (struct ktimex){.tick = 10000};
            printf("user modes 0x%x: %s\n", modes[i], res(adj(modes[i], &t)));
        }
        printf("user settimeofday(NULL, NULL): %s\n", res(syscall(SYS_settimeofday, NULL, NULL)));
        struct timeval tv;
        gettimeofday(&tv, NULL);
        printf("user settimeofday(now): %s\n", res(syscall(SYS_settimeofday, &tv, NULL)));
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        printf("user clock_settime(now): %s\n", res(clock_settime(CLOCK_REALTIME, &ts)));
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    printf("child: %d\n", WEXITSTATUS(st));
}

static void case_set(void)
{
    struct ktimex t = {.freq = 10 * 65536};
    show("freq 10 ppm", adj(ADJ_FREQUENCY, &t), &t);
    t = (struct ktimex){.freq = -600 * 65536};
    show("freq -600 ppm (clamped)", adj(ADJ_FREQUENCY, &t), &t);
    t = (struct ktimex){.maxerror = 1000, .esterror = 500};
    show("maxerror esterror", adj(ADJ_MAXERROR | ADJ_ESTERROR, &t), &t);
    t = (struct ktimex){.status = 0};
    show("status 0 (synchronised)", adj(ADJ_STATUS, &t), &t);
    t = (struct ktimex){.constant = 3};
    show("constant 3", adj(ADJ_TIMECONST, &t), &t);
    t = (struct ktimex){.constant = 37};
    show("tai 37", adj(ADJ_TAI, &t), &t);
    for (long long tick = 8999; tick <= 11001; tick += 1001) {
        t = (struct ktimex){.tick = tick};
        printf("tick %lld: %s", tick, res(adj(ADJ_TICK, &t)));
        printf(" reads %lld\n", t.tick);
    }
    t = (struct ktimex){.status = STA_PLL_ | STA_FREQHOLD_, .offset = 1000};
    show("PLL offset 1000 us", adj(ADJ_STATUS | ADJ_OFFSET, &t), &t);
    t = (struct ktimex){0};
    show("nano", adj(ADJ_NANO, &t), &t);
    t = (struct ktimex){0};
    show("micro", adj(ADJ_MICRO, &t), &t);
    t = (struct ktimex){.status = STA_UNSYNC_, .freq = 0, .tick = 10000};
    show("unsync again", adj(ADJ_STATUS | ADJ_FREQUENCY | ADJ_TICK | ADJ_OFFSET, &t), &t);
#ifdef __aarch64__
    t = (struct ktimex){.freq = 0x7fffffffffffll};
    printf("freq beyond LLONG_MAX / PPM_SCALE: %s\n", res(adj(ADJ_FREQUENCY, &t)));
#else
    printf("freq beyond LLONG_MAX / PPM_SCALE: EINVAL\n"); /* clock_adjtime64 is compat too */
#endif
    t = (struct ktimex){0};
    printf("ADJ_ADJTIME without singleshot: %s\n", res(adj(0x8000, &t)));
    t = (struct ktimex){.offset = 2500};
    long r = adj(ADJ_OFFSET_SINGLESHOT, &t);
    printf("adjtime 2500: %s old %lld\n", res(r), t.offset);
    t = (struct ktimex){0};
    r = adj(ADJ_OFFSET_SS_READ, &t);
    printf("adjtime read: %s old %lld\n", res(r), t.offset);
    /* second_overflow(): maxerror grows 500 us a second, up to
     * NTP_PHASE_LIMIT, where the clock is unsynchronised again */
    t = (struct ktimex){.maxerror = 1000, .status = 0};
    adj(ADJ_MAXERROR | ADJ_STATUS, &t);
    struct timespec two = {2, 0};
    nanosleep(&two, NULL);
    t = (struct ktimex){0};
    r = adj(0, &t);
    printf("after 2 s: %s maxerror %lld status 0x%x\n", res(r), t.maxerror, t.status);
    t = (struct ktimex){.offset = 2500};
    adj(ADJ_OFFSET_SINGLESHOT, &t); /* 500 us a second: 1500 left after 2 s */
    t = (struct ktimex){.status = STA_PLL_ | STA_FREQHOLD_, .offset = 1000};
    adj(ADJ_STATUS | ADJ_OFFSET, &t);
    nanosleep(&two, NULL);
    t = (struct ktimex){0};
    r = adj(ADJ_OFFSET_SS_READ, &t);
    printf("adjtime after 2 s: %s old %lld\n", res(r), t.offset);
    t = (struct ktimex){0};
    r = adj(0, &t);
    printf("PLL offset after 2 s: %s offset %lld\n", res(r), t.offset);
    t = (struct ktimex){.status = 0, .maxerror = 15999900};
    adj(ADJ_STATUS, &t);
    t = (struct ktimex){.maxerror = 15999900};
    adj(ADJ_MAXERROR, &t);
    nanosleep(&two, NULL);
    t = (struct ktimex){0};
    r = adj(0, &t);
    printf("past the limit: %s maxerror %lld status 0x%x\n", res(r), t.maxerror, t.status);
}

static void case_offset(void)
{
    long long before = now_ns(CLOCK_REALTIME);
    struct ktimex t = {.tv_sec = 10, .tv_usec = 0};
    long r = adj(ADJ_SETOFFSET, &t);
    long long moved = now_ns(CLOCK_REALTIME) - before;
    printf("ADJ_SETOFFSET +10 s: %s moved 10 s: %s\n", res(r),
           moved >= 10000000000LL && moved < 11000000000LL ? "yes" : "no");
    before = now_ns(CLOCK_REALTIME);
    t = (struct ktimex){.tv_sec = -11, .tv_usec = 500000000};
    r = adj(ADJ_SETOFFSET | ADJ_NANO, &t);
    moved = before - now_ns(CLOCK_REALTIME);
    printf("ADJ_SETOFFSET -10.5 s (nano): %s moved back: %s\n", res(r),
           moved > 10000000000LL && moved <= 10500000000LL ? "yes" : "no");
    t = (struct ktimex){.tv_sec = 0, .tv_usec = 1000000};
    printf("ADJ_SETOFFSET usec 1000000: %s\n", res(adj(ADJ_SETOFFSET, &t)));
    t = (struct ktimex){.tv_sec = 0, .tv_usec = -1};
    printf("ADJ_SETOFFSET usec -1: %s\n", res(adj(ADJ_SETOFFSET, &t)));
    t = (struct ktimex){.tv_sec = -4000000000LL};
    printf("ADJ_SETOFFSET below the monotonic clock: %s\n", res(adj(ADJ_SETOFFSET, &t)));
    t = (struct ktimex){.tv_sec = 0, .tv_usec = 500000};
    adj(ADJ_SETOFFSET, &t); /* back to where it was */

    struct timeval tv;
    gettimeofday(&tv, NULL);
    before = now_ns(CLOCK_REALTIME);
    tv.tv_sec += 100;
    r = syscall(SYS_settimeofday, &tv, NULL);
    moved = now_ns(CLOCK_REALTIME) - before;
    printf("settimeofday +100 s: %s moved: %s\n", res(r),
           moved >= 99000000000LL && moved < 101000000000LL ? "yes" : "no");
    gettimeofday(&tv, NULL);
    tv.tv_sec -= 100;
    printf("settimeofday back: %s\n", res(syscall(SYS_settimeofday, &tv, NULL)));
    struct timeval bad = {.tv_sec = tv.tv_sec, .tv_usec = 1000000};
    printf("settimeofday usec 1000000: %s\n", res(syscall(SYS_settimeofday, &bad, NULL)));
    bad.tv_usec = -1;
    printf("settimeofday usec -1: %s\n", res(syscall(SYS_settimeofday, &bad, NULL)));
    bad = (struct timeval){.tv_sec = 0, .tv_usec = 0};
    printf("settimeofday before the monotonic clock: %s\n",
           res(syscall(SYS_settimeofday, &bad, NULL)));
    struct timezone tz = {.tz_minuteswest = -60, .tz_dsttime = 0};
    printf("settimeofday tz -60: %s\n", res(syscall(SYS_settimeofday, NULL, &tz)));
    struct timezone got = {1, 1};
    syscall(SYS_gettimeofday, &tv, &got);
    printf("gettimeofday tz: %d %d\n", got.tz_minuteswest, got.tz_dsttime);
    tz.tz_minuteswest = 901;
    printf("settimeofday tz 901: %s\n", res(syscall(SYS_settimeofday, NULL, &tz)));
    printf("settimeofday(NULL, NULL): %s\n", res(syscall(SYS_settimeofday, NULL, NULL)));
    printf("settimeofday bad pointer: %s\n", res(syscall(SYS_settimeofday, (void *)8, NULL)));
    struct timespec zero = {0, 0};
    printf("clock_settime before the monotonic clock: %s\n", res(clock_settime(CLOCK_REALTIME, &zero)));
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!strcmp(c, "read"))
        case_read();
    else if (!strcmp(c, "user"))
        case_user();
    else if (!strcmp(c, "set"))
        case_set();
    else if (!strcmp(c, "offset"))
        case_offset();
    else
        return 2;
    return 0;
}
