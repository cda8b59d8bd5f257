/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktimer.c - callbacks at virtual times: the armed timers in a binary
 * min-heap ordered by (when, arming order), the earliest fired by the
 * machine loop (run.c) when virtual time reaches it. Arming and cancelling
 * cost O(log n) in the number of armed timers. */
#include "ktimer.h"
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>

static bool before(const struct ktimer *a, const struct ktimer *b)
{
    return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

static void place(struct machine *m, struct ktimer *k, size_t at)
{
    m->ktimer_heap[at] = k;
    k->heap_at = at;
}

static void sift_up(struct machine *m, size_t at)
{
    struct ktimer *k = m->ktimer_heap[at];
    while (at > 0 && before(k, m->ktimer_heap[(at - 1) / 2])) {
        place(m, m->ktimer_heap[(at - 1) / 2], at);
        at = (at - 1) / 2;
    }
    place(m, k, at);
}

static void sift_down(struct machine *m, size_t at)
{
    struct ktimer *k = m->ktimer_heap[at];
    for (;;) {
        size_t child = 2 * at + 1;
        if (child >= m->ktimers)
            break;
        if (child + 1 < m->ktimers && before(m->ktimer_heap[child + 1], m->ktimer_heap[child]))
            child++;
        if (!before(m->ktimer_heap[child], k))
            break;
        place(m, m->ktimer_heap[child], at);
        at = child;
    }
    place(m, k, at);
}

void ktimer_cancel(struct machine *m, struct ktimer *k)
{
    if (!k->armed)
        return;
    size_t at = k->heap_at;
    struct ktimer *last = m->ktimer_heap[--m->ktimers];
    k->armed = false;
    if (last == k)
        return;
    place(m, last, at);
    sift_down(m, at);
    sift_up(m, last->heap_at);
}

void ktimer_arm(struct machine *m, struct ktimer *k, uint64_t when)
{
    ktimer_cancel(m, k);
    if (m->ktimers == m->ktimer_cap) {
        size_t cap = m->ktimer_cap ? 2 * m->ktimer_cap : 64;
        struct ktimer **heap = realloc(m->ktimer_heap, cap * sizeof *heap);
        if (!heap) {
            /* The host is out of memory: the timer cannot be kept. */
            fprintf(stderr, "asymu: out of memory arming a timer; it will not fire\n");
            return;
        }
        m->ktimer_heap = heap;
        m->ktimer_cap = cap;
    }
    k->when = when;
    k->seq = m->ktimer_seq++;
    k->armed = true;
    place(m, k, m->ktimers++);
    sift_up(m, k->heap_at);
}

struct ktimer *ktimer_next(const struct machine *m)
{
    return m->ktimers ? m->ktimer_heap[0] : NULL;
}

void ktimer_heap_free(struct machine *m)
{
    free(m->ktimer_heap);
    m->ktimer_heap = NULL;
    m->ktimers = m->ktimer_cap = 0;
}
