/* ktimer.c - callbacks at virtual times: a list of armed timers kept in
 * order, the earliest fired by the machine loop (run.c) when virtual time
 * reaches it. */
#include "kernel.h"

void ktimer_cancel(struct machine *m, struct ktimer *k)
{
    if (!k->armed)
        return;
    for (struct ktimer **pp = &m->ktimers; *pp; pp = &(*pp)->next)
        if (*pp == k) {
            *pp = k->next;
            break;
        }
    k->armed = false;
    k->next = NULL;
}

void ktimer_arm(struct machine *m, struct ktimer *k, uint64_t when)
{
    ktimer_cancel(m, k);
    k->when = when;
    k->armed = true;
    /* After the timers due at the same time: they fire in arming order. */
    struct ktimer **pp = &m->ktimers;
    while (*pp && (*pp)->when <= when)
        pp = &(*pp)->next;
    k->next = *pp;
    *pp = k;
}

struct ktimer *ktimer_next(const struct machine *m)
{
    return m->ktimers;
}
