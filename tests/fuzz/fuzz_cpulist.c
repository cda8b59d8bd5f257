/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_cpulist.c - cpulist_parse on arbitrary text and CPU counts: a mask
 * it accepts stays within nr_cpus and formats back to a list that parses to
 * the same mask. */
#include "cpumask.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    /* Two bytes pick nr_cpus (0 included: every CPU is out of range). */
    unsigned nr_cpus = (data[0] | (unsigned)data[1] << 8) % (NR_CPUS_MAX + 1);
    char *text = malloc(size - 1);
    if (!text)
        return 0;
    memcpy(text, data + 2, size - 2);
    text[size - 2] = '\0';
    struct cpumask mask;
    char why[128];
    if (cpulist_parse(text, nr_cpus, &mask, why, sizeof why) == 0) {
        unsigned cpu;
        for_each_cpu(cpu, &mask)
            if (cpu >= nr_cpus)
                abort();
        char list[8 * NR_CPUS_MAX];
        if (cpulist_format(&mask, list, sizeof list) >= sizeof list)
            abort();
        struct cpumask again;
        if (cpulist_parse(list, nr_cpus, &again, why, sizeof why) != 0 ||
            !cpumask_equal(&mask, &again))
            abort();
        char hex[4 * NR_CPUS_MAX];
        cpumask_format_hex(&mask, nr_cpus, hex, sizeof hex);
    } else if (memchr(why, '\0', sizeof why) == NULL) {
        abort();
    }
    free(text);
    return 0;
}
