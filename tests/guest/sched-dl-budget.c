/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-dl-budget.c - where a deadline task's runtime ends: a SCHED_DEADLINE
 * task (runtime 1 ms, deadline = period = 10 ms) spins reading
 * CLOCK_MONOTONIC. A jump of more than 100 us between two reads is a
 * throttle: the task spent its budget and waited for its next period. It
 * prints, for the periods after the first (whose budget the program's own
 * start spent part of), how long it ran (from the first read of the period
 * to the last before the jump) and when the next period began. (docs/scheduler.md: the budget ends the slice at the
 * virtual time it is spent, whatever --slice is; the replenishment comes
 * at the period's start.) */
#define _GNU_SOURCE
#include "guest.h"
#include "sched-attr.h"

#include <stdlib.h>

#define PERIODS 3

/* ns to us, rounded to the nearest 10 us: the reads of the clock around
 * the budget's end and the period's start take a few hundred ns, and how
 * many fit depends on where the program's start left the clock. */
static long long to_10us(int64_t ns)
{
    return (ns + 5000) / 10000 * 10;
}

int main(void)
{
    struct attr a = {.size = sizeof a, .policy = SCHED_DEADLINE,
                     .runtime = 1 * MS, .deadline = 10 * MS, .period = 10 * MS};
    if (setattr(0, &a, 0) != 0) {
        printf("sched_setattr: %s\n", err_name(errno));
        return 1;
    }
    int64_t start = now_ns(CLOCK_MONOTONIC), last = start;
    for (int period = 0; period <= PERIODS;) {
        int64_t t = now_ns(CLOCK_MONOTONIC);
        if (t - last > 100000) {
            if (period > 0)
                printf("period %d: ran %lld us, the next began %lld us after it\n", period,
                       to_10us(last - start), to_10us(t - start));
            start = t;
            period++;
        }
        last = t;
    }
    return 0;
}
