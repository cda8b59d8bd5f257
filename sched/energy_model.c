/* SPDX-License-Identifier: GPL-2.0-or-later */
/* energy_model.c - performance domains and their energy model, as Linux
 * 5.15's kernel/power/energy_model.c builds them (em_create_perf_table())
 * and include/linux/energy_model.h uses them (em_cpu_energy()), and the
 * text format of --energy-model (docs/socs.md, "Energy model"). */
#include "sched_energy.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sched_em_add_pd(struct sched_em *em, const struct cpumask *cpus, const uint32_t *khz,
                    const uint32_t *mw, unsigned n, char *why, size_t whylen)
{
    if (em->nr_pds >= SCHED_EM_MAX_PDS) {
        snprintf(why, whylen, "more than %u perf domains", SCHED_EM_MAX_PDS);
        return -1;
    }
    if (cpumask_empty(cpus)) {
        snprintf(why, whylen, "a perf domain without CPUs");
        return -1;
    }
    if (n == 0 || n > SCHED_EM_MAX_OPPS) {
        snprintf(why, whylen, "a perf domain has %u OPPs (1 to %u)", n, SCHED_EM_MAX_OPPS);
        return -1;
    }
    for (unsigned d = 0; d < em->nr_pds; d++) {
        struct cpumask both;
        cpumask_and(&both, &em->pd[d].cpus, cpus);
        if (!cpumask_empty(&both)) {
            snprintf(why, whylen, "CPU %u is in two perf domains", cpumask_first(&both));
            return -1;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        /* em_create_perf_table(): "non-increasing freq", "invalid power". */
        if (khz[i] == 0 || (i && khz[i] <= khz[i - 1])) {
            snprintf(why, whylen, "frequency %u kHz is not above the previous OPP's", khz[i]);
            return -1;
        }
        if (mw && (mw[i] == 0 || mw[i] > SCHED_EM_MAX_POWER)) {
            snprintf(why, whylen, "power %u mW is not from 1 to %u", mw[i], SCHED_EM_MAX_POWER);
            return -1;
        }
    }
    struct sched_em_pd *pd = &em->pd[em->nr_pds++];
    memset(pd, 0, sizeof *pd);
    pd->cpus = *cpus;
    pd->nr = n;
    uint64_t fmax = khz[n - 1];
    for (unsigned i = 0; i < n; i++) {
        pd->khz[i] = khz[i];
        pd->mw[i] = mw ? mw[i] : 0;
        /* em_create_perf_table(): cost = fmax * power / freq. */
        pd->cost[i] = fmax * pd->mw[i] / khz[i];
    }
    if (em->nr_pds == 1)
        em->has_power = mw != NULL;
    else
        em->has_power = em->has_power && mw != NULL;
    return 0;
}

uint32_t sched_em_dt_power(uint32_t coeff, uint32_t khz, uint32_t mv)
{
    /* _get_power(): cap * mV * mV * MHz / 1000000000 */
    return (uint32_t)((uint64_t)coeff * mv * mv * (khz / 1000) / 1000000000u);
}

uint32_t sched_em_resolve_freq(const struct sched_em_pd *pd, uint64_t khz)
{
    for (unsigned i = 0; i < pd->nr; i++)
        if (pd->khz[i] >= khz)
            return pd->khz[i];
    return pd->khz[pd->nr - 1];
}

uint64_t sched_em_cpu_energy(const struct sched_em_pd *pd, uint64_t max_util, uint64_t sum_util,
                             uint64_t scale_cpu)
{
    /* The OPP schedutil would pick for the busiest CPU (the lowest at or
     * above map_util_freq() of it), then cost * sum_util / scale_cpu: each
     * CPU's busy share of that OPP's power, over a scheduling period. */
    uint64_t freq = sched_map_util_freq(max_util, pd->khz[pd->nr - 1], scale_cpu);
    unsigned i = 0;
    while (i < pd->nr - 1 && pd->khz[i] < freq)
        i++;
    return pd->cost[i] * sum_util / scale_cpu;
}

int sched_em_check_capacity(const struct sched_em *em, const uint16_t *capacity, char *why,
                            size_t whylen)
{
    for (unsigned d = 0; d < em->nr_pds; d++) {
        unsigned cpu, first = cpumask_first(&em->pd[d].cpus);
        unsigned cap0 = capacity[first] ? capacity[first] : 1024;
        for_each_cpu(cpu, &em->pd[d].cpus) {
            unsigned cap = capacity[cpu] ? capacity[cpu] : 1024;
            if (cap != cap0) {
                /* em_dev_register_perf_domain(): "CPUs of %*pbl must have
                 * the same capacity". */
                snprintf(why, whylen,
                         "the CPUs of a perf domain must have the same capacity (CPU %u: %u, "
                         "CPU %u: %u)",
                         first, cap0, cpu, cap);
                return -1;
            }
        }
    }
    return 0;
}

/* The parser: one word at a time from a line. */
static const char *skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static int parse_u32(const char **pp, uint32_t *out)
{
    const char *p = *pp;
    if (!isdigit((unsigned char)*p))
        return -1;
    uint64_t v = 0;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (uint64_t)(*p++ - '0');
        if (v > UINT32_MAX)
            return -1;
    }
    if (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
        return -1;
    *out = (uint32_t)v;
    *pp = p;
    return 0;
}

struct em_parse {
    struct sched_em *em;
    const char *name;
    unsigned nr_cpus;
    bool open;          /* a domain line was read, its OPPs follow */
    unsigned dom_line;  /* where it was */
    struct cpumask cpus;
    uint32_t khz[SCHED_EM_MAX_OPPS], mw[SCHED_EM_MAX_OPPS];
    unsigned n;
};

/* Ends the open domain (at the next domain line or the end of the text). */
static int close_domain(struct em_parse *ep, char *why, size_t whylen)
{
    if (!ep->open)
        return 0;
    ep->open = false;
    char r[160];
    if (ep->n == 0) {
        snprintf(why, whylen, "%s:%u: the perf domain has no OPP (lines of 'kHz mW')", ep->name,
                 ep->dom_line);
        return -1;
    }
    if (sched_em_add_pd(ep->em, &ep->cpus, ep->khz, ep->mw, ep->n, r, sizeof r) < 0) {
        snprintf(why, whylen, "%s:%u: %s", ep->name, ep->dom_line, r);
        return -1;
    }
    return 0;
}

static int parse_line(struct em_parse *ep, const char *p, unsigned line, char *why, size_t whylen)
{
    p = skip_blank(p);
    if (!*p || *p == '#')
        return 0;
    char r[160];
    if (strncmp(p, "domain", 6) == 0 && (p[6] == ' ' || p[6] == '\t')) {
        if (close_domain(ep, why, whylen) < 0)
            return -1;
        p = skip_blank(p + 6);
        size_t len = strcspn(p, " \t\r#");
        char list[256];
        char after = *skip_blank(p + len);
        if (len == 0 || len >= sizeof list || (after && after != '#')) {
            snprintf(why, whylen, "%s:%u: expected 'domain CPULIST'", ep->name, line);
            return -1;
        }
        memcpy(list, p, len);
        list[len] = '\0';
        int bad = cpulist_parse(list, ep->nr_cpus, &ep->cpus, r, sizeof r);
        if (bad < 0 || cpumask_empty(&ep->cpus)) {
            snprintf(why, whylen, "%s:%u: bad cpulist '%s': %s", ep->name, line, list,
                     bad < 0 ? r : "no CPU");
            return -1;
        }
        ep->open = true;
        ep->dom_line = line;
        ep->n = 0;
        return 0;
    }
    uint32_t khz, mw;
    if (parse_u32(&p, &khz) < 0 || parse_u32((p = skip_blank(p), &p), &mw) < 0 ||
        (*(p = skip_blank(p)) && *p != '#')) {
        snprintf(why, whylen, "%s:%u: expected 'domain CPULIST' or an OPP 'kHz mW'", ep->name,
                 line);
        return -1;
    }
    if (!ep->open) {
        snprintf(why, whylen, "%s:%u: an OPP before any 'domain CPULIST' line", ep->name, line);
        return -1;
    }
    if (ep->n == SCHED_EM_MAX_OPPS) {
        snprintf(why, whylen, "%s:%u: more than %u OPPs in a perf domain", ep->name, line,
                 SCHED_EM_MAX_OPPS);
        return -1;
    }
    /* Checked here too, so the error names the OPP's line. */
    if (khz == 0 || (ep->n && khz <= ep->khz[ep->n - 1])) {
        snprintf(why, whylen, "%s:%u: frequency %u kHz is not above the previous OPP's", ep->name,
                 line, khz);
        return -1;
    }
    if (mw == 0 || mw > SCHED_EM_MAX_POWER) {
        snprintf(why, whylen, "%s:%u: power %u mW is not from 1 to %u", ep->name, line, mw,
                 SCHED_EM_MAX_POWER);
        return -1;
    }
    ep->khz[ep->n] = khz;
    ep->mw[ep->n++] = mw;
    return 0;
}

int sched_em_parse(const char *text, const char *name, unsigned nr_cpus, struct sched_em *em,
                   char *why, size_t whylen)
{
    struct em_parse ep;
    memset(&ep, 0, sizeof ep);
    memset(em, 0, sizeof *em);
    ep.em = em;
    ep.name = name;
    ep.nr_cpus = nr_cpus;
    unsigned line = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[1024];
        line++;
        if (len >= sizeof buf) {
            snprintf(why, whylen, "%s:%u: line too long", name, line);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (parse_line(&ep, buf, line, why, whylen) < 0)
            return -1;
        p = nl ? nl + 1 : p + len;
    }
    if (close_domain(&ep, why, whylen) < 0)
        return -1;
    if (em->nr_pds == 0) {
        snprintf(why, whylen, "%s: no perf domain ('domain CPULIST' then 'kHz mW' lines)", name);
        return -1;
    }
    for (unsigned cpu = 0; cpu < nr_cpus; cpu++) {
        bool found = false;
        for (unsigned d = 0; d < em->nr_pds && !found; d++)
            found = cpumask_test_cpu(cpu, &em->pd[d].cpus);
        if (!found) {
            /* build_perf_domains(): one CPU without a model turns EAS off;
             * asymu refuses the file instead of ignoring it. */
            snprintf(why, whylen, "%s: CPU %u is in no perf domain (every CPU needs one)", name,
                     cpu);
            return -1;
        }
    }
    return 0;
}
