/* SPDX-License-Identifier: GPL-2.0-or-later */
/* adjtimex.c - adjtimex, clock_adjtime and settimeofday on the machine's
 * clock, as Linux 5.15's kernel/time/ntp.c (__do_adjtimex) and
 * kernel/time/timekeeping.c (do_adjtimex, timekeeping_validate_timex)
 * answer them. The NTP state is machine-wide (machine->ntp) and starts as
 * ntp_clear() leaves it: not synchronised (STA_UNSYNC, so TIME_ERROR),
 * maxerror and esterror at NTP_PHASE_LIMIT, tick 10000 us (USER_HZ 100).
 * What is set is stored and read back; ADJ_SETOFFSET moves CLOCK_REALTIME
 * as clock_settime does (sys_time.c). The offsets are used up second by
 * second as second_overflow() uses them, but the clock's rate does not
 * follow them, nor freq or tick, and no leap second is inserted: the
 * machine's time stays virtual (docs/timing.md, "adjtimex"). */
#include "abi_user.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define NSEC 1000000000ll
#define USEC 1000000ll
#define USER_HZ 100
#define NTP_HZ 250 /* NTP_INTERVAL_FREQ: CONFIG_HZ of arm64's defconfig */
#define NTP_SCALE_SHIFT 32
#define SHIFT_PLL 2
#define SHIFT_FLL 2
#define MINSEC 256
#define MAXSEC 2048
#define MAXTC 10
#define MAXPHASE 500000000ll
#define MAXFREQ 500000ll
#define MAXFREQ_SCALED (MAXFREQ << NTP_SCALE_SHIFT)
#define NTP_PHASE_LIMIT ((MAXPHASE / 1000) << 5)
#define PPM_SCALE (1000ll << (NTP_SCALE_SHIFT - 16))
#define PPM_SCALE_INV_SHIFT 19
#define PPM_SCALE_INV ((1ll << (PPM_SCALE_INV_SHIFT + NTP_SCALE_SHIFT)) / PPM_SCALE + 1)
#define MAX_TAI_OFFSET 100000

#define ADJ_OFFSET 0x0001
#define ADJ_FREQUENCY 0x0002
#define ADJ_MAXERROR 0x0004
#define ADJ_ESTERROR 0x0008
#define ADJ_STATUS 0x0010
#define ADJ_TIMECONST 0x0020
#define ADJ_TAI 0x0080
#define ADJ_SETOFFSET 0x0100
#define ADJ_MICRO 0x1000
#define ADJ_NANO 0x2000
#define ADJ_TICK 0x4000
#define ADJ_ADJTIME 0x8000
#define ADJ_OFFSET_SINGLESHOT_BIT 0x0001 /* the kernel's; glibc's ADJ_OFFSET_SINGLESHOT is 0x8001 */
#define ADJ_OFFSET_READONLY 0x2000

#define STA_PLL 0x0001
#define STA_PPSFREQ 0x0002
#define STA_PPSTIME 0x0004
#define STA_FLL 0x0008
#define STA_UNSYNC 0x0040
#define STA_FREQHOLD 0x0080
#define STA_PPSSIGNAL 0x0100
#define STA_PPSJITTER 0x0200
#define STA_PPSWANDER 0x0400
#define STA_PPSERROR 0x0800
#define STA_CLOCKERR 0x1000
#define STA_NANO 0x2000
#define STA_MODE 0x4000
#define STA_CLK 0x8000
#define STA_RONLY (STA_PPSSIGNAL | STA_PPSJITTER | STA_PPSWANDER | STA_PPSERROR | STA_CLOCKERR | \
                   STA_NANO | STA_MODE | STA_CLK)

#define TIME_OK 0
#define TIME_ERROR 5

/* struct __kernel_timex's fields that the kernel reads or writes (the
 * 64-bit layout of arm64 and of clock_adjtime64, or old_timex32's). */
struct ktimex {
    uint32_t modes;
    int64_t offset, freq, maxerror, esterror;
    int32_t status;
    int64_t constant, precision, tolerance, sec, usec, tick;
    int32_t tai;
};

/* Offsets in struct __kernel_timex (208 bytes) and old_timex32 (128). */
enum { TX64_SIZE = 208, TX32_SIZE = 128 };

static int64_t ld64(const uint8_t *b, unsigned off)
{
    int64_t v;
    memcpy(&v, b + off, 8);
    return v;
}

static int64_t ld32(const uint8_t *b, unsigned off)
{
    int32_t v;
    memcpy(&v, b + off, 4);
    return v;
}

static void st64(uint8_t *b, unsigned off, int64_t v) { memcpy(b + off, &v, 8); }
static void st32(uint8_t *b, unsigned off, int64_t v)
{
    int32_t w = (int32_t)v;
    memcpy(b + off, &w, 4);
}

/* get_old_timex32 or the copy of a __kernel_timex: the raw bytes stay in
 * buf so that what the kernel does not write goes back unchanged. */
static void timex_decode(const uint8_t *b, bool wide, struct ktimex *x)
{
    x->modes = (uint32_t)ld32(b, 0);
    if (wide) {
        x->offset = ld64(b, 8), x->freq = ld64(b, 16), x->maxerror = ld64(b, 24);
        x->esterror = ld64(b, 32), x->status = (int32_t)ld32(b, 40), x->constant = ld64(b, 48);
        x->sec = ld64(b, 72), x->usec = ld64(b, 80), x->tick = ld64(b, 88);
        x->tai = (int32_t)ld32(b, 160);
    } else {
        x->offset = ld32(b, 4), x->freq = ld32(b, 8), x->maxerror = ld32(b, 12);
        x->esterror = ld32(b, 16), x->status = (int32_t)ld32(b, 20), x->constant = ld32(b, 24);
        x->sec = ld32(b, 36), x->usec = ld32(b, 40), x->tick = ld32(b, 44);
        x->tai = (int32_t)ld32(b, 80);
    }
}

/* The fields __do_adjtimex writes; the PPS ones are 0 (no CONFIG_NTP_PPS).
 * put_old_timex32 writes the whole 32-bit struct from zero. */
static void timex_encode(uint8_t *b, bool wide, const struct ktimex *x)
{
    if (wide) {
        st64(b, 8, x->offset), st64(b, 16, x->freq), st64(b, 24, x->maxerror);
        st64(b, 32, x->esterror), st32(b, 40, x->status), st64(b, 48, x->constant);
        st64(b, 56, x->precision), st64(b, 64, x->tolerance), st64(b, 72, x->sec);
        st64(b, 80, x->usec), st64(b, 88, x->tick);
        for (unsigned off = 96; off <= 152; off += 8)
            off == 112 ? st32(b, off, 0) : st64(b, off, 0); /* ppsfreq..stbcnt, shift */
        st32(b, 160, x->tai);
    } else {
        memset(b, 0, TX32_SIZE);
        st32(b, 0, x->modes), st32(b, 4, x->offset), st32(b, 8, x->freq);
        st32(b, 12, x->maxerror), st32(b, 16, x->esterror), st32(b, 20, x->status);
        st32(b, 24, x->constant), st32(b, 28, x->precision), st32(b, 32, x->tolerance);
        st32(b, 36, x->sec), st32(b, 40, x->usec), st32(b, 44, x->tick), st32(b, 80, x->tai);
    }
}

static int64_t shift_right(int64_t v, unsigned s)
{
    return v < 0 ? -((-v) >> s) : v >> s;
}

/* ntp_clear() and the boot values of ntp.c's variables. */
static struct ntp_state *ntp_of(struct machine *m)
{
    struct ntp_state *n = &m->ntp;
    if (!n->ready) {
        n->ready = true;
        n->state = TIME_OK;
        n->status = STA_UNSYNC;
        n->maxerror = n->esterror = NTP_PHASE_LIMIT;
        n->constant = 2;
        n->tick = USEC / USER_HZ;
        n->maxerror_sec = (int64_t)(machine_realtime_ns(m) / NSEC);
    }
    return n;
}

#define MAX_TICKADJ 500 /* us of adjtime(3)'s offset applied a second */

/* second_overflow(), once per second of the wall clock, applied when
 * asked: maxerror grows 500 us a second (past NTP_PHASE_LIMIT the clock is
 * unsynchronised), the PLL offset is applied in chunks of
 * offset >> (SHIFT_PLL + constant) (ntp_offset_chunk()), adjtime's offset
 * 500 us a second. The clock's rate itself does not change. */
static void ntp_catch_up(struct machine *m, struct ntp_state *n)
{
    int64_t now = (int64_t)(machine_realtime_ns(m) / NSEC);
    int64_t secs = now - n->maxerror_sec;
    n->maxerror_sec = now;
    if (secs <= 0)
        return;
    if (n->maxerror < NTP_PHASE_LIMIT) {
        int64_t grown = secs > NTP_PHASE_LIMIT ? NTP_PHASE_LIMIT + 1
                                                : n->maxerror + secs * (MAXFREQ / 1000);
        n->maxerror = grown;
        if (grown > NTP_PHASE_LIMIT) {
            n->maxerror = NTP_PHASE_LIMIT;
            n->status |= STA_UNSYNC;
        }
    }
    /* the chunks shrink with the offset: at most some 140000 of them
     * before one is 0 */
    for (int64_t i = 0; i < secs && n->offset; i++) {
        int64_t chunk = shift_right(n->offset, (unsigned)(SHIFT_PLL + n->constant));
        if (!chunk)
            break;
        n->offset -= chunk;
    }
    uint64_t left = n->adjust < 0 ? -(uint64_t)n->adjust : (uint64_t)n->adjust;
    uint64_t steps = left > MAX_TICKADJ ? (left - 1) / MAX_TICKADJ : 0; /* while > 500 */
    if ((uint64_t)secs > steps)
        n->adjust = 0;
    else
        n->adjust += n->adjust < 0 ? secs * MAX_TICKADJ : -secs * MAX_TICKADJ;
}

/* is_error_status() */
static bool error_status(int s)
{
    return (s & (STA_UNSYNC | STA_CLOCKERR)) ||
           ((s & (STA_PPSFREQ | STA_PPSTIME)) && !(s & STA_PPSSIGNAL)) ||
           ((s & (STA_PPSTIME | STA_PPSJITTER)) == (STA_PPSTIME | STA_PPSJITTER)) ||
           ((s & STA_PPSFREQ) && (s & (STA_PPSWANDER | STA_CLOCKERR)));
}

/* timekeeping_validate_timex(). wide: a 64-bit freq may overflow. */
static int validate(struct task *t, const struct ktimex *x, bool wide)
{
    bool root = capable(t, CAP_SYS_TIME);
    if (x->modes & ADJ_ADJTIME) {
        if (!(x->modes & ADJ_OFFSET_SINGLESHOT_BIT))
            return -EINVAL;
        if (!(x->modes & ADJ_OFFSET_READONLY) && !root)
            return -EPERM;
    } else {
        if (x->modes && !root)
            return -EPERM;
        if ((x->modes & ADJ_TICK) &&
            (x->tick < 900000 / USER_HZ || x->tick > 1100000 / USER_HZ))
            return -EINVAL;
    }
    if (x->modes & ADJ_SETOFFSET) {
        if (!root)
            return -EPERM;
        if (x->usec < 0 || x->usec >= ((x->modes & ADJ_NANO) ? NSEC : USEC))
            return -EINVAL;
    }
    if ((x->modes & ADJ_FREQUENCY) && wide &&
        (INT64_MIN / PPM_SCALE > x->freq || INT64_MAX / PPM_SCALE < x->freq))
        return -EINVAL;
    return 0;
}

/* TIME_SETTOD_SEC_MAX: KTIME_SEC_MAX less 30 years. */
#define SETTOD_SEC_MAX (INT64_MAX / NSEC - 30ll * 365 * 86400)

/* timekeeping_inject_offset(): the wall clock may not go below the
 * monotonic clock (wall_to_monotonic) nor past SETTOD_SEC_MAX. */
static int inject_offset(struct machine *m, int64_t sec, int64_t nsec)
{
    int64_t now = (int64_t)machine_realtime_ns(m), mono = (int64_t)machine_now(m);
    int64_t now_sec = now / NSEC, now_nsec = now % NSEC;
    if (sec < -SETTOD_SEC_MAX || sec > SETTOD_SEC_MAX)
        return -EINVAL;
    int64_t new_sec = now_sec + sec, new_nsec = now_nsec + nsec;
    if (new_nsec >= NSEC)
        new_sec++, new_nsec -= NSEC;
    if (new_sec < 0 || new_sec > SETTOD_SEC_MAX)
        return -EINVAL;
    if (new_sec < mono / NSEC || (new_sec == mono / NSEC && new_nsec < mono % NSEC))
        return -EINVAL;
    m->realtime_offset_ns += sec * NSEC + nsec;
    return 0;
}

/* ntp_update_offset() with ntp_update_offset_fll(). */
static void update_offset(struct machine *m, struct ntp_state *n, int64_t offset)
{
    if (!(n->status & STA_PLL))
        return;
    if (!(n->status & STA_NANO)) {
        offset = offset < -USEC ? -USEC : offset > USEC ? USEC : offset;
        offset *= 1000;
    }
    offset = offset < -MAXPHASE ? -MAXPHASE : offset > MAXPHASE ? MAXPHASE : offset;
    int64_t now = (int64_t)(machine_realtime_ns(m) / NSEC);
    int64_t secs = now - n->reftime;
    if (n->status & STA_FREQHOLD)
        secs = 0;
    n->reftime = now;
    int64_t freq_adj = 0;
    n->status &= ~STA_MODE;
    if (secs >= MINSEC && ((n->status & STA_FLL) || secs > MAXSEC)) {
        n->status |= STA_MODE;
        freq_adj = (offset * (1ll << (NTP_SCALE_SHIFT - SHIFT_FLL))) / secs;
    }
    int64_t cap = 1ll << (SHIFT_PLL + 1 + n->constant);
    if (secs > cap)
        secs = cap;
    /* in unsigned arithmetic: a wall clock set back makes secs negative
     * and the product wraps, as the kernel's does */
    freq_adj += (int64_t)(((uint64_t)offset * (uint64_t)secs)
                          << (NTP_SCALE_SHIFT - 2 * (SHIFT_PLL + 2 + n->constant)));
    freq_adj += n->freq;
    freq_adj = freq_adj > MAXFREQ_SCALED ? MAXFREQ_SCALED : freq_adj;
    n->freq = freq_adj < -MAXFREQ_SCALED ? -MAXFREQ_SCALED : freq_adj;
    n->offset = (offset * (1ll << NTP_SCALE_SHIFT)) / NTP_HZ;
}

/* process_adjtimex_modes() with process_adj_status(). */
static void apply_modes(struct machine *m, struct ntp_state *n, const struct ktimex *x)
{
    if (x->modes & ADJ_STATUS) {
        if ((n->status & STA_PLL) && !(x->status & STA_PLL)) {
            n->state = TIME_OK;
            n->status = STA_UNSYNC;
        }
        if (!(n->status & STA_PLL) && (x->status & STA_PLL))
            n->reftime = (int64_t)(machine_realtime_ns(m) / NSEC);
        n->status &= STA_RONLY;
        n->status |= x->status & ~STA_RONLY;
    }
    if (x->modes & ADJ_NANO)
        n->status |= STA_NANO;
    if (x->modes & ADJ_MICRO)
        n->status &= ~STA_NANO;
    if (x->modes & ADJ_FREQUENCY) {
        int64_t f = x->freq * PPM_SCALE;
        n->freq = f > MAXFREQ_SCALED ? MAXFREQ_SCALED : f < -MAXFREQ_SCALED ? -MAXFREQ_SCALED : f;
    }
    if (x->modes & ADJ_MAXERROR)
        n->maxerror = x->maxerror;
    if (x->modes & ADJ_ESTERROR)
        n->esterror = x->esterror;
    if (x->modes & ADJ_TIMECONST) {
        int64_t c = (int64_t)((uint64_t)x->constant + ((n->status & STA_NANO) ? 0 : 4));
        n->constant = c > MAXTC ? MAXTC : c < 0 ? 0 : c;
    }
    if ((x->modes & ADJ_TAI) && x->constant >= 0 && x->constant <= MAX_TAI_OFFSET)
        n->tai = (int)x->constant;
    if (x->modes & ADJ_OFFSET)
        update_offset(m, n, x->offset);
    if (x->modes & ADJ_TICK)
        n->tick = x->tick;
}

/* do_adjtimex(): validation, the injected offset, then __do_adjtimex. */
static int64_t adjtimex_core(struct task *t, struct ktimex *x, bool wide)
{
    struct machine *m = t->machine;
    int err = validate(t, x, wide);
    if (err)
        return err;
    if (x->modes & ADJ_SETOFFSET) {
        int64_t nsec = (x->modes & ADJ_NANO) ? x->usec : x->usec * 1000;
        if ((err = inject_offset(m, x->sec, nsec)))
            return err;
    }
    struct ntp_state *n = ntp_of(m);
    ntp_catch_up(m, n);
    if (x->modes & ADJ_ADJTIME) {
        int64_t saved = n->adjust;
        if (!(x->modes & ADJ_OFFSET_READONLY))
            n->adjust = x->offset;
        x->offset = saved;
    } else {
        if (x->modes) {
            apply_modes(m, n, x);
            if (x->modes & ADJ_MAXERROR)
                n->maxerror_sec = (int64_t)(machine_realtime_ns(m) / NSEC);
        }
        x->offset = shift_right(n->offset * NTP_HZ, NTP_SCALE_SHIFT);
        if (!(n->status & STA_NANO))
            x->offset = (int64_t)((uint32_t)x->offset / 1000u);
    }
    int64_t result = error_status(n->status) ? TIME_ERROR : n->state;
    x->freq = shift_right((n->freq >> PPM_SCALE_INV_SHIFT) * PPM_SCALE_INV, NTP_SCALE_SHIFT);
    x->maxerror = n->maxerror;
    x->esterror = n->esterror;
    x->status = n->status;
    x->constant = n->constant;
    x->precision = 1;
    x->tolerance = MAXFREQ_SCALED / PPM_SCALE;
    x->tick = n->tick;
    x->tai = n->tai;
    uint64_t now = machine_realtime_ns(m);
    x->sec = (int64_t)(now / NSEC);
    x->usec = (int64_t)(now % NSEC);
    if (!(n->status & STA_NANO))
        x->usec /= 1000;
    return result;
}

/* The syscall's copy in and out: adjtimex writes the struct back even on
 * an error (sys_adjtimex), clock_adjtime only on success. */
static int64_t adjtimex_user(struct task *t, uint64_t addr, bool wide, bool back_on_error)
{
    uint8_t buf[TX64_SIZE];
    unsigned size = wide ? TX64_SIZE : TX32_SIZE;
    struct ktimex x;
    if (copy_from_guest(task_mm(t), buf, addr, size) < 0)
        return -EFAULT;
    timex_decode(buf, wide, &x);
    int64_t r = adjtimex_core(t, &x, wide);
    if (r < 0) {
        if (!back_on_error)
            return r;
        timex_decode(buf, wide, &x); /* unchanged */
        return copy_to_guest(task_mm(t), addr, buf, size) < 0 ? -EFAULT : r;
    }
    timex_encode(buf, wide, &x);
    return copy_to_guest(task_mm(t), addr, buf, size) < 0 ? -EFAULT : r;
}

#define CLOCKFD 3
#define CLOCKFD_MASK 7

/* do_clock_adjtime(): clockid_to_kclock() names no clock (EINVAL), or one
 * without clock_adj (EOPNOTSUPP): only CLOCK_REALTIME has it in 5.15. A
 * dynamic (fd) clock would be a PTP device, which the machine lacks. */
static int64_t clock_adjtime_user(struct task *t, int clk, uint64_t addr, bool wide)
{
    if (clk < 0)
        return (clk & CLOCKFD_MASK) == CLOCKFD ? -EINVAL : -EOPNOTSUPP;
    if (clk >= 16 || clk == 10 || clk >= 12)
        return -EINVAL;
    if (clk != CLOCK_REALTIME)
        return -EOPNOTSUPP;
    return adjtimex_user(t, addr, wide, false);
}

int64_t do_adjtimex(struct task *t, uint64_t addr, bool time32)
{
    return adjtimex_user(t, addr, !time32, true);
}

int64_t do_clock_adjtime(struct task *t, int clk, uint64_t addr, bool time32)
{
    return clock_adjtime_user(t, clk, addr, !time32);
}

/* sys_adjtimex and sys_clock_adjtime: arm64's, and arm's clock_adjtime64
 * (arm's adjtimex and clock_adjtime are the *_time32 calls of its table). */
SYSCALL_DECL(adjtimex)
{
    return do_adjtimex(t, a[0], false);
}

SYSCALL_DECL(clock_adjtime)
{
    return do_clock_adjtime(t, (int)a[0], a[1], false);
}

/* settimeofday (kernel/time/time.c): the usec check before the nsec
 * one (1000000 us passes the first), the CAP_SYS_TIME check of
 * security_settime64 even for two NULLs, tz within +-15 hours. */
SYSCALL_DECL(settimeofday)
{
    struct machine *m = t->machine;
    int64_t sec = 0, usec = 0;
    int32_t tz[2];
    if (a[0]) {
        int64_t tv[2]; /* struct timeval: two longs of the ABI */
        if (get_user_longs(t, a[0], tv, 2) < 0)
            return -EFAULT;
        sec = tv[0];
        usec = tv[1];
        if (usec > USEC || usec < 0)
            return -EINVAL;
    }
    if (a[1] && copy_from_guest(task_mm(t), tz, a[1], sizeof tz) < 0)
        return -EFAULT;
    if (a[0] && (sec < 0 || usec * 1000 >= NSEC || sec > SETTOD_SEC_MAX))
        return -EINVAL;
    if (!capable(t, CAP_SYS_TIME))
        return -EPERM;
    if (a[1]) {
        if (tz[0] > 15 * 60 || tz[0] < -15 * 60)
            return -EINVAL;
        m->ntp.tz_minuteswest = tz[0];
        m->ntp.tz_dsttime = tz[1];
    }
    if (a[0]) {
        /* do_settimeofday64: not below the monotonic clock (wall_to_monotonic) */
        int64_t want = sec * NSEC + usec * 1000;
        if (want < (int64_t)machine_now(m))
            return -EINVAL;
        m->realtime_offset_ns += want - (int64_t)machine_realtime_ns(m);
    }
    return 0;
}
