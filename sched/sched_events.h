/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_events.h - what the scheduler reports on the machine's event stream
 * (mevent.h). Each emission point is one call to an inline function here:
 * the test of mevent_wanted, then an out-of-line builder (sched_events.c). */
#ifndef ASYMU_SCHED_EVENTS_H
#define ASYMU_SCHED_EVENTS_H

#include "sched-int.h"

/* The time of an event that happens now (inside the running slice). */
uint64_t sched__event_time(const struct sched *s);

void sched__emit_run(struct sched *s, const struct sched_task *t, unsigned cpu, uint64_t ns);
void sched__emit_slice_start(struct sched *s, const struct sched_task *t, unsigned cpu);
void sched__emit_wakeup(struct sched *s, const struct sched_task *t, unsigned cpu, bool new_task);
void sched__emit_migrate(struct sched *s, const struct sched_task *t, unsigned from, unsigned to,
                         enum mevent_migrate_reason reason);
void sched__emit_fork(struct sched *s, const struct sched_task *parent,
                      const struct sched_task *child);
void sched__emit_affinity(struct sched *s, const struct sched_task *t, const struct cpumask *old,
                          const struct cpumask *new_mask, enum mevent_cause cause);
void sched__emit_kill(struct sched *s, const struct sched_task *t, unsigned cpu);
void sched__emit_hotplug(struct sched *s, unsigned cpu, bool online);
void sched__emit_frequency(struct sched *s, unsigned cpu, uint32_t khz);
void sched__emit_stat_runtime(struct sched *s, const struct sched_task *t, unsigned cpu,
                              uint64_t now, uint64_t delta);
void sched__emit_runqueue(struct sched *s, unsigned cpu);
/* The policy's return-to-user check, reporting the affinity change (K2f)
 * or kill (K2, K2f, H2) it decides. */
enum sched_decision sched__return_to_user_traced(struct sched *s, struct sched_task *t,
                                                 unsigned cpu);

/* Whether the return-to-user check must report what it decides. */
static inline bool sched_ev_check_wanted(const struct sched *s)
{
    return mevent_wanted(&s->events, MEVENT_AFFINITY) || mevent_wanted(&s->events, MEVENT_KILL);
}

/* t ran ns on cpu, whose clock has just advanced by it. */
static inline void sched_ev_run(struct sched *s, const struct sched_task *t, unsigned cpu,
                                uint64_t ns)
{
    if (mevent_wanted(&s->events, MEVENT_RUN))
        sched__emit_run(s, t, cpu, ns);
}

/* A slice of t starts on cpu (its MEVENT_RUN will show t as it is now). */
static inline void sched_ev_slice_start(struct sched *s, const struct sched_task *t, unsigned cpu)
{
    if (mevent_wanted(&s->events, MEVENT_RUN))
        sched__emit_slice_start(s, t, cpu);
}

/* t becomes runnable on cpu (a migration first if it last ran elsewhere). */
static inline void sched_ev_wakeup(struct sched *s, const struct sched_task *t, unsigned cpu,
                                   bool new_task)
{
    if (mevent_wanted(&s->events, MEVENT_WAKEUP) || mevent_wanted(&s->events, MEVENT_MIGRATE))
        sched__emit_wakeup(s, t, cpu, new_task);
}

static inline void sched_ev_migrate(struct sched *s, const struct sched_task *t, unsigned from,
                                    unsigned to, enum mevent_migrate_reason reason)
{
    if (mevent_wanted(&s->events, MEVENT_MIGRATE) && from != to)
        sched__emit_migrate(s, t, from, to, reason);
}

static inline void sched_ev_fork(struct sched *s, const struct sched_task *parent,
                                 const struct sched_task *child)
{
    if (mevent_wanted(&s->events, MEVENT_FORK) || mevent_wanted(&s->events, MEVENT_AFFINITY))
        sched__emit_fork(s, parent, child);
}

/* t's affinity went from old to new_mask (nothing if they are equal). */
static inline void sched_ev_affinity(struct sched *s, const struct sched_task *t,
                                     const struct cpumask *old, const struct cpumask *new_mask,
                                     enum mevent_cause cause)
{
    if (mevent_wanted(&s->events, MEVENT_AFFINITY) && !cpumask_equal(old, new_mask))
        sched__emit_affinity(s, t, old, new_mask, cause);
}

static inline void sched_ev_hotplug(struct sched *s, unsigned cpu, bool online)
{
    if (mevent_wanted(&s->events, MEVENT_HOTPLUG))
        sched__emit_hotplug(s, cpu, online);
}

/* cpu's frequency changed (cpufreq's fast switch under schedutil:
 * cpufreq_driver_fast_switch() traces cpu_frequency for each CPU of the
 * policy, where the governor runs). */
static inline void sched_ev_frequency(struct sched *s, unsigned cpu, uint32_t khz)
{
    if (mevent_wanted(&s->events, MEVENT_FREQUENCY))
        sched__emit_frequency(s, cpu, khz);
}

/* update_curr() charged the running fair task t delta ns on cpu at now
 * (trace_sched_stat_runtime()). */
static inline void sched_ev_stat_runtime(struct sched *s, const struct sched_task *t, unsigned cpu,
                                         uint64_t now, uint64_t delta)
{
    if (mevent_wanted(&s->events, MEVENT_STAT_RUNTIME))
        sched__emit_stat_runtime(s, t, cpu, now, delta);
}

static inline void sched_ev_runqueue(struct sched *s, unsigned cpu)
{
    if (mevent_wanted(&s->events, MEVENT_RUNQUEUE))
        sched__emit_runqueue(s, cpu);
}

#endif
