/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_options.c - options_parse on an argv made of the input split at NUL
 * bytes (each piece an argument, the last one ended by the input's end). */
#include "emu.h"
#include "options.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    for (char *p = text; argc < MAX_ARGS && p <= text + size; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;
    struct emu_config cfg;
    memset(&cfg, 0, sizeof cfg);
    int r = options_parse(argc, argv, &cfg);
    if (r != 0 && r != 1 && r != -1)
        abort();
    if (r == 0 && (cfg.cpus < 1 || cfg.cpus > NR_CPUS_MAX))
        abort();
    /* --soc, --cpu-model: every vCPU a known core type, a capacity of 1 to
     * 1024, and 32-bit only where the core can run it (docs/socs.md). */
    for (unsigned cpu = 0; r == 0 && cfg.layout.custom && cpu < cfg.cpus; cpu++) {
        const struct cpu_type *t = &cpu_types[cfg.layout.type[cpu]];
        if (cfg.layout.type[cpu] >= cpu_types_count || cfg.capacity[cpu] < 1 ||
            cfg.capacity[cpu] > 1024 ||
            (cpumask_test_cpu(cpu, &cfg.aarch32) && !t->aarch32_el0 && !t->aarch32_optional))
            abort();
    }
    free(text);
    return 0;
}
