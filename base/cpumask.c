/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpumask.c - word-at-a-time CPU bitmap operations and the cpulist / hex mask
 * text formats used by the CLI, sysfs, procfs and traces. */
#include "cpumask.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void cpumask_setall(struct cpumask *m, unsigned n)
{
    if (n > NR_CPUS_MAX)
        n = NR_CPUS_MAX;
    for (unsigned i = 0; i < CPUMASK_WORDS; i++) {
        unsigned lo = i * 64;
        if (n >= lo + 64)
            m->bits[i] = UINT64_MAX;
        else if (n > lo)
            m->bits[i] = (UINT64_C(1) << (n - lo)) - 1;
        else
            m->bits[i] = 0;
    }
}

bool cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
    uint64_t any = 0;
    for (int i = 0; i < CPUMASK_WORDS; i++) {
        dst->bits[i] = a->bits[i] & b->bits[i];
        any |= dst->bits[i];
    }
    return any != 0;
}

void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
    for (int i = 0; i < CPUMASK_WORDS; i++)
        dst->bits[i] = a->bits[i] | b->bits[i];
}

bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
    uint64_t any = 0;
    for (int i = 0; i < CPUMASK_WORDS; i++) {
        dst->bits[i] = a->bits[i] & ~b->bits[i];
        any |= dst->bits[i];
    }
    return any != 0;
}

bool cpumask_empty(const struct cpumask *m)
{
    for (int i = 0; i < CPUMASK_WORDS; i++)
        if (m->bits[i])
            return false;
    return true;
}

bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
    for (int i = 0; i < CPUMASK_WORDS; i++)
        if (a->bits[i] != b->bits[i])
            return false;
    return true;
}

bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
    for (int i = 0; i < CPUMASK_WORDS; i++)
        if (a->bits[i] & ~b->bits[i])
            return false;
    return true;
}

bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
    for (int i = 0; i < CPUMASK_WORDS; i++)
        if (a->bits[i] & b->bits[i])
            return true;
    return false;
}

unsigned cpumask_weight(const struct cpumask *m)
{
    unsigned n = 0;
    for (int i = 0; i < CPUMASK_WORDS; i++)
        n += (unsigned)__builtin_popcountll(m->bits[i]);
    return n;
}

unsigned cpumask_next(const struct cpumask *m, unsigned from)
{
    if (from >= NR_CPUS_MAX)
        return NR_CPUS_MAX;
    unsigned i = from / 64;
    uint64_t w = m->bits[i] & (UINT64_MAX << (from % 64));
    for (;;) {
        if (w)
            return i * 64 + (unsigned)__builtin_ctzll(w);
        if (++i == CPUMASK_WORDS)
            return NR_CPUS_MAX;
        w = m->bits[i];
    }
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Describes the character at p for an error message: "end of list" or 'c'. */
static void describe_char(const char *p, const char *end, char *buf, size_t len)
{
    unsigned char c = (unsigned char)*p;
    if (p == end)
        snprintf(buf, len, "end of list");
    else if (c >= 0x20 && c < 0x7f)
        snprintf(buf, len, "'%c'", c);
    else
        snprintf(buf, len, "byte 0x%02x", c);
}

/* Reads a decimal CPU number in [0, nr_cpus) at *pp, advancing *pp. */
static int parse_cpu(const char **pp, const char *end, unsigned nr_cpus, unsigned *cpu, char *why,
                     size_t whylen)
{
    const char *p = *pp;
    if (p == end || !is_digit(*p)) {
        char what[32];
        describe_char(p, end, what, sizeof(what));
        snprintf(why, whylen, "expected a CPU number, found %s", what);
        return -EINVAL;
    }
    const char *start = p;
    uint64_t v = 0;
    bool big = false;
    while (p < end && is_digit(*p)) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v >= NR_CPUS_MAX)
            big = true;
        if (big)
            v = NR_CPUS_MAX;
        p++;
    }
    if (big || v >= nr_cpus) {
        int digits = (int)(p - start);
        if (nr_cpus == 0)
            snprintf(why, whylen, "CPU %.*s is out of range (no CPUs)", digits, start);
        else
            snprintf(why, whylen, "CPU %.*s is out of range 0-%u", digits, start, nr_cpus - 1);
        return -EINVAL;
    }
    *cpu = (unsigned)v;
    *pp = p;
    return 0;
}

int cpulist_parse(const char *s, unsigned nr_cpus, struct cpumask *out, char *why, size_t whylen)
{
    struct cpumask m;
    char dummy[1];
    if (!why || whylen == 0) {
        why = dummy;
        whylen = sizeof(dummy);
    }
    why[0] = '\0';
    if (nr_cpus > NR_CPUS_MAX)
        nr_cpus = NR_CPUS_MAX;
    cpumask_clear(&m);

    /* Leading and trailing whitespace is ignored, so "0-3\n" from a sysfs
     * file or a shell reads like "0-3", as in the kernel. */
    const char *p = s;
    const char *end = s + strlen(s);
    while (p < end && is_space(*p))
        p++;
    while (end > p && is_space(end[-1]))
        end--;

    while (p < end) {
        unsigned lo, hi;
        int err = parse_cpu(&p, end, nr_cpus, &lo, why, whylen);
        if (err)
            return err;
        hi = lo;
        if (p < end && *p == '-') {
            p++;
            err = parse_cpu(&p, end, nr_cpus, &hi, why, whylen);
            if (err)
                return err;
            if (hi < lo) {
                snprintf(why, whylen, "bad range %u-%u (start after end)", lo, hi);
                return -EINVAL;
            }
        }
        for (unsigned cpu = lo; cpu <= hi; cpu++)
            cpumask_set_cpu(cpu, &m);
        if (p == end)
            break;
        if (*p != ',') {
            char what[32];
            describe_char(p, end, what, sizeof(what));
            snprintf(why, whylen, "unexpected %s after CPU %u", what, hi);
            return -EINVAL;
        }
        p++;
        if (p == end) {
            snprintf(why, whylen, "expected a CPU number, found end of list");
            return -EINVAL;
        }
    }
    *out = m;
    return 0;
}

/* Appends text to buf (capacity len) at offset *used, always counting the
 * full length so the caller can report what it needed. */
static void append(char *buf, size_t len, size_t *used, const char *text)
{
    size_t n = strlen(text);
    if (*used < len) {
        size_t room = len - *used - 1;
        size_t k = n < room ? n : room;
        memcpy(buf + *used, text, k);
        buf[*used + k] = '\0';
    }
    *used += n;
}

size_t cpulist_format(const struct cpumask *m, char *buf, size_t len)
{
    size_t used = 0;
    if (len > 0)
        buf[0] = '\0';
    unsigned cpu = cpumask_first(m);
    while (cpu < NR_CPUS_MAX) {
        unsigned last = cpu;
        while (last + 1 < NR_CPUS_MAX && cpumask_test_cpu(last + 1, m))
            last++;
        char item[32];
        if (last == cpu)
            snprintf(item, sizeof(item), "%s%u", used ? "," : "", cpu);
        else
            snprintf(item, sizeof(item), "%s%u-%u", used ? "," : "", cpu, last);
        append(buf, len, &used, item);
        if (last + 1 >= NR_CPUS_MAX)
            break;
        cpu = cpumask_next(m, last + 1);
    }
    return used;
}

size_t cpumask_format_hex(const struct cpumask *m, unsigned nr_cpus, char *buf, size_t len)
{
    size_t used = 0;
    if (len > 0)
        buf[0] = '\0';
    if (nr_cpus > NR_CPUS_MAX)
        nr_cpus = NR_CPUS_MAX;
    /* Like the kernel's bitmap_string(): 32-bit chunks, most significant
     * first; the top chunk is only as wide as the bits it holds. */
    unsigned chunk = nr_cpus % 32 ? nr_cpus % 32 : 32;
    for (int lo = (int)((nr_cpus + 31) / 32 * 32) - 32; lo >= 0; lo -= 32) {
        uint32_t val = (uint32_t)(m->bits[lo / 64] >> (lo % 64));
        if (chunk < 32)
            val &= (UINT32_C(1) << chunk) - 1;
        char item[16];
        snprintf(item, sizeof(item), "%s%0*x", used ? "," : "", (int)((chunk + 3) / 4), val);
        append(buf, len, &used, item);
        chunk = 32;
    }
    return used;
}
