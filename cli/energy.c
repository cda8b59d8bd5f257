/* SPDX-License-Identifier: GPL-2.0-or-later */
/* energy.c - the machine's performance domains for --energy-model: a file
 * (sched/energy_model.c parses it), "none", or by default a --soc preset's
 * cpufreq policies, with the built-in energy model where the preset has
 * OPP tables (docs/socs.md, "Energy model"). */
#include "energy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Illustrative dynamic-power coefficients (uW/MHz/V^2) per core type:
 * the upstream trees of these SoCs give no dynamic-power-coefficient and
 * their voltages come from the EPSS hardware, so these numbers are not a
 * measurement; they order the cores as their size does. */
static const struct {
    const char *type;
    uint32_t coeff;
} power_coeff[] = {
    {"cortex-a510", 100}, {"cortex-a520", 100}, {"cortex-a710", 400}, {"cortex-a715", 400},
    {"cortex-a720", 450}, {"cortex-x3", 900},   {"cortex-x4", 1000},
};

/* Illustrative voltage: 600 mV at a domain's lowest OPP to 1000 mV at its
 * highest, linear in frequency. */
static uint32_t illustrative_mv(const struct soc_domain *d, unsigned i)
{
    uint64_t lo = d->khz[0], hi = d->khz[d->nkhz - 1];
    return 600u + (uint32_t)((d->khz[i] - lo) * 400u / (hi - lo));
}

static uint32_t coeff_of(const char *type)
{
    for (size_t i = 0; i < sizeof power_coeff / sizeof *power_coeff; i++)
        if (strcmp(power_coeff[i].type, type) == 0)
            return power_coeff[i].coeff;
    return 0;
}

/* The preset's policies; with power when every domain has an OPP table
 * (more than its maximum) and a coefficient for its core. */
static int soc_domains(const struct emu_config *cfg, struct sched_em *em, bool power, char *why,
                       size_t whylen)
{
    const struct soc *s = cfg->layout.soc;
    for (unsigned d = 0; d < SOC_MAX_DOMAINS && s->domains[d].cpus; d++) {
        const struct soc_domain *sd = &s->domains[d];
        struct cpumask cpus;
        uint32_t mw[SCHED_EM_MAX_OPPS];
        if (cpulist_parse(sd->cpus, s->nr_cpus, &cpus, why, whylen) < 0 ||
            sd->nkhz > SCHED_EM_MAX_OPPS)
            return -1;
        uint32_t coeff = coeff_of(cpu_types[cfg->layout.type[cpumask_first(&cpus)]].name);
        for (unsigned i = 0; power && i < sd->nkhz; i++)
            mw[i] = sched_em_dt_power(coeff, sd->khz[i], illustrative_mv(sd, i));
        if (sched_em_add_pd(em, &cpus, sd->khz, power ? mw : NULL, sd->nkhz, why, whylen) < 0)
            return -1;
    }
    return 0;
}

static bool soc_has_model(const struct soc *s, const struct cpu_layout *l)
{
    for (unsigned d = 0; d < SOC_MAX_DOMAINS && s->domains[d].cpus; d++) {
        struct cpumask cpus;
        char why[64];
        if (s->domains[d].nkhz < 2 ||
            cpulist_parse(s->domains[d].cpus, s->nr_cpus, &cpus, why, sizeof why) < 0 ||
            !coeff_of(cpu_types[l->type[cpumask_first(&cpus)]].name))
            return false;
    }
    return true;
}

static char *read_text(const char *path, char *why, size_t whylen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap + 1);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            if (cap >= (1u << 20)) {
                snprintf(why, whylen, "%s: larger than 1 MiB", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            char *b = realloc(buf, cap * 2 + 1);
            if (!b)
                free(buf);
            buf = b;
            cap *= 2;
        }
    }
    bool err = ferror(f);
    fclose(f);
    if (!buf || err) {
        snprintf(why, whylen, "cannot read %s: %s", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        snprintf(why, whylen, "%s: not a text file (a NUL byte)", path);
        free(buf);
        return NULL;
    }
    return buf;
}

int energy_model_build(const char *arg, const struct emu_config *cfg, struct sched_em *em,
                       char *why, size_t whylen)
{
    memset(em, 0, sizeof *em);
    const struct soc *s = cfg->layout.custom ? cfg->layout.soc : NULL;
    if (arg && strcmp(arg, "none") == 0) {
        /* No energy model: a preset's policies keep schedutil. */
        return s ? soc_domains(cfg, em, false, why, whylen) : 0;
    }
    if (!arg)
        return s ? soc_domains(cfg, em, soc_has_model(s, &cfg->layout), why, whylen) : 0;
    char *text = read_text(arg, why, whylen);
    if (!text)
        return -1;
    int err = sched_em_parse(text, arg, cfg->cpus, em, why, whylen);
    free(text);
    if (err < 0 || sched_em_check_capacity(em, cfg->capacity, why, whylen) < 0)
        return -1;
    for (unsigned cpu = 0; s && cpu < cfg->cpus; cpu++) {
        uint32_t max = cpu_layout_max_khz(&cfg->layout, cpu);
        for (unsigned d = 0; d < em->nr_pds; d++) {
            const struct sched_em_pd *pd = &em->pd[d];
            if (cpumask_test_cpu(cpu, &pd->cpus) && pd->khz[pd->nr - 1] != max) {
                snprintf(why, whylen,
                         "%s: CPU %u's highest OPP is %u kHz, but its cpufreq policy's "
                         "cpuinfo_max_freq is %u kHz (--soc %s)",
                         arg, cpu, pd->khz[pd->nr - 1], max, s->name);
                return -1;
            }
        }
    }
    return 0;
}
