/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpumask.h - fixed-size CPU bitmaps (1,024 CPUs) and the cpulist text format
 * ("0-3,6") shared by the CLI, sysfs and traces. */
#ifndef ASYMU_CPUMASK_H
#define ASYMU_CPUMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NR_CPUS_MAX 1024
#define CPUMASK_WORDS (NR_CPUS_MAX / 64)

struct cpumask {
    uint64_t bits[CPUMASK_WORDS];
};

static inline void cpumask_clear(struct cpumask *m)
{
    for (int i = 0; i < CPUMASK_WORDS; i++)
        m->bits[i] = 0;
}
static inline void cpumask_set_cpu(unsigned cpu, struct cpumask *m)
{
    m->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}
static inline void cpumask_clear_cpu(unsigned cpu, struct cpumask *m)
{
    m->bits[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}
static inline bool cpumask_test_cpu(unsigned cpu, const struct cpumask *m)
{
    return cpu < NR_CPUS_MAX && (m->bits[cpu / 64] >> (cpu % 64)) & 1;
}

/* Sets CPUs 0..n-1 and clears the rest. */
void cpumask_setall(struct cpumask *m, unsigned n);
/* dst = a & b; returns whether dst is non-empty. */
bool cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
/* dst = a & ~b; returns whether dst is non-empty. */
bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
bool cpumask_empty(const struct cpumask *m);
bool cpumask_equal(const struct cpumask *a, const struct cpumask *b);
bool cpumask_subset(const struct cpumask *a, const struct cpumask *b);
bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b);
unsigned cpumask_weight(const struct cpumask *m);
/* The first set CPU at or after `from`, or NR_CPUS_MAX when none. */
unsigned cpumask_next(const struct cpumask *m, unsigned from);
static inline unsigned cpumask_first(const struct cpumask *m) { return cpumask_next(m, 0); }

#define for_each_cpu(cpu, m)                                                                      \
    for ((cpu) = cpumask_first(m); (cpu) < NR_CPUS_MAX; (cpu) = cpumask_next((m), (cpu) + 1))

/* Parses a cpulist ("", "0-3,6", "1,3", "0-7:2" is not accepted) against
 * nr_cpus. Returns 0, or -EINVAL with a one-line reason in why (e.g.
 * "CPU 9 is out of range 0-7", "bad range 3-1", "unexpected 'x'"). An empty
 * string is the empty mask. */
int cpulist_parse(const char *s, unsigned nr_cpus, struct cpumask *out, char *why,
                  size_t whylen);

/* Writes m in cpulist format without a newline ("0-3,6", "" when empty);
 * returns the length it needed, like snprintf. */
size_t cpulist_format(const struct cpumask *m, char *buf, size_t len);

/* Writes the first nr_cpus bits of m as the kernel's %*pb hex mask
 * ("ff", "00000000,0000000f"): 32-bit groups separated by commas. */
size_t cpumask_format_hex(const struct cpumask *m, unsigned nr_cpus, char *buf, size_t len);

#endif
