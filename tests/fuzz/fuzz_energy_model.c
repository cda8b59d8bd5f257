/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_energy_model.c - the --energy-model parser (sched/energy_model.c)
 * on arbitrary text and CPU counts: it accepts or gives a one-line reason,
 * and a model it accepts puts every CPU below nr_cpus in exactly one domain
 * of 1 to SCHED_EM_MAX_OPPS strictly increasing OPPs with power in range. */
#include "sched_energy.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    /* One byte picks nr_cpus, 1..64. */
    unsigned nr_cpus = data[0] % 64 + 1;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    static struct sched_em em;
    char why[256];
    if (sched_em_parse(text, "f", nr_cpus, &em, why, sizeof why) == 0) {
        struct cpumask seen;
        cpumask_clear(&seen);
        for (unsigned d = 0; d < em.nr_pds; d++) {
            const struct sched_em_pd *pd = &em.pd[d];
            struct cpumask both;
            cpumask_and(&both, &seen, &pd->cpus);
            if (!cpumask_empty(&both) || pd->nr < 1 || pd->nr > SCHED_EM_MAX_OPPS)
                abort();
            cpumask_or(&seen, &seen, &pd->cpus);
            for (unsigned i = 0; i < pd->nr; i++)
                if ((i && pd->khz[i] <= pd->khz[i - 1]) || !pd->mw[i] ||
                    pd->mw[i] > SCHED_EM_MAX_POWER)
                    abort();
            /* The energy of any utilisation is computable. */
            sched_em_cpu_energy(pd, 1024, 8 * 1024, 1);
            sched_em_resolve_freq(pd, UINT64_MAX);
        }
        if (cpumask_weight(&seen) != nr_cpus || cpumask_first(&seen) != 0)
            abort();
    } else if (memchr(why, '\0', sizeof why) == NULL) {
        abort();
    }
    free(text);
    return 0;
}
