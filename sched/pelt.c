/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pelt.c - per-entity load tracking, the utilisation half of Linux 5.15's
 * kernel/sched/pelt.c: a geometric series with a 32 ms half-life, updated
 * in 1024 ns units and 1024-unit periods, made capacity-invariant by
 * scaling the running time by the CPU's capacity. */
#include "sched_fair.h"

/* y^n * 2^32 for n = 0..31 (y^32 = 0.5): runnable_avg_yN_inv's values,
 * computed as floor(2^32 * 0.5^(n/32)) (n = 0 saturates to 2^32 - 1). */
static const uint32_t decay_inv[SCHED_PELT_HALFLIFE] = {
    0xffffffff, 4202935003, 4112874773, 4024744347, 3938502375, 3854108391, 3771522796, 3690706839,
    3611622602, 3534232977, 3458501653, 3384393094, 3311872529, 3240905930, 3171459999, 3103502151,
    3037000499, 2971923841, 2908241642, 2845924020, 2784941737, 2725266179, 2666869344, 2609723833,
    2553802833, 2499080104, 2445529971, 2393127307, 2341847523, 2291666560, 2242560871, 2194507416,
};

uint64_t sched_pelt_decay(uint64_t val, uint64_t periods)
{
    /* After 63 half-lives every 64-bit value is 0. */
    if (periods > (uint64_t)SCHED_PELT_HALFLIFE * 63)
        return 0;
    if (periods >= SCHED_PELT_HALFLIFE) {
        val >>= periods / SCHED_PELT_HALFLIFE;
        periods %= SCHED_PELT_HALFLIFE;
    }
    return (uint64_t)(((unsigned __int128)val * decay_inv[periods]) >> 32);
}

/* __accumulate_pelt_segments(): what the time since the last update adds,
 * in units: the rest of the old period (d1) decayed by the periods since,
 * the full periods in between (the series' sum), and the new period's
 * start (d3). */
static uint64_t accumulate_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
    uint64_t c1 = sched_pelt_decay(d1, periods);
    uint64_t c2 = SCHED_LOAD_AVG_MAX - sched_pelt_decay(SCHED_LOAD_AVG_MAX, periods) - 1024;
    return c1 + c2 + d3;
}

void sched_pelt_update(struct sched_pelt *a, uint64_t now_ns, bool running, unsigned capacity)
{
    if (now_ns <= a->last_ns)
        return;
    uint64_t delta = (now_ns - a->last_ns) >> 10;
    if (!delta)
        return;
    a->last_ns += delta << 10;
    uint64_t contrib = delta;
    delta += a->period_contrib;
    uint64_t periods = delta / 1024;
    if (periods) {
        a->util_sum = sched_pelt_decay(a->util_sum, periods);
        delta %= 1024;
        if (running)
            contrib = accumulate_segments(periods, 1024 - a->period_contrib, (uint32_t)delta);
    }
    a->period_contrib = (uint32_t)delta;
    /* Capacity invariance: a unit run on a capacity-512 CPU counts half
     * (5.15 scales the PELT clock instead, with the same fixed points). */
    if (running)
        a->util_sum += contrib * capacity;
    if (periods) {
        /* get_pelt_divider(): the series' maximum at this point of the period. */
        uint64_t divider = SCHED_LOAD_AVG_MAX - 1024 + a->period_contrib;
        a->util_avg = (uint32_t)(a->util_sum / divider);
    }
}
