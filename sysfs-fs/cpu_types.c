/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu_types.c - the Arm core types a machine can be built of (--cpu-model,
 * --soc): MIDR_EL1, whether AArch32 is implemented at EL0, and the
 * capacity-dmips-mhz an upstream device tree gives the core. Data only;
 * docs/socs.md lists the same with the sources.
 *
 * MIDR_EL1: implementer 0x41 (Arm), architecture 0xf, the part numbers of
 * Linux's arch/arm64/include/asm/cputype.h (ARM_CPU_PART_CORTEX_*), and the
 * variant and revision (rNpM) of the TRM revision named, a shipping one.
 * AArch32: each core's Technical Reference Manual, chapter "Introduction",
 * section "Features" (and "Implementation options" for the Cortex-A510).
 * capacity-dmips-mhz: values are relative to the other cores of the same
 * device tree, so a machine mixing cores of different trees through
 * --cpu-model gets capacities only as good as that; --capacity overrides. */
#include "cpu_model.h"

#include <string.h>

#define MIDR(variant, part, revision) (0x410f0000u | (variant) << 20 | (part) << 4 | (revision))

#define SM8550 "arch/arm64/boot/dts/qcom/sm8550.dtsi"
#define SM8650 "arch/arm64/boot/dts/qcom/sm8650.dtsi"
#define GS101 "arch/arm64/boot/dts/exynos/google/gs101.dtsi"

const struct cpu_type cpu_types[] = {
    {"cortex-a55", "Cortex-A55", MIDR(2, 0xd05, 0), true, false, 250,
     "Arm Cortex-A55 Core TRM (100442), r2p0, Introduction, 'Features': AArch32 at all ELs", GS101},
    {"cortex-a78", "Cortex-A78", MIDR(1, 0xd41, 1), true, false, 620,
     "Arm Cortex-A78 Core TRM (101430), r1p1, Introduction, 'Features': AArch32 at EL0 only",
     GS101 " gives 620 to its Cortex-A76 middle cores; no upstream tree has A78 with X1 and A55"},
    {"cortex-x1", "Cortex-X1", MIDR(1, 0xd44, 1), true, false, 1024,
     "Arm Cortex-X1 Core TRM (101433), r1p1, Introduction, 'Features': AArch32 at EL0 only", GS101},
    {"cortex-a510", "Cortex-A510", MIDR(1, 0xd46, 0), false, true, 326,
     "Arm Cortex-A510 Core TRM (101604), r1p0, Introduction, 'Implementation options': AArch32 at EL0 "
     "is a build-time option; the SoCs here build it without (only their Cortex-A710 cores run "
     "32-bit apps: docs/socs.md), --aarch32 may list it for an implementation with",
     SM8550},
    {"cortex-a520", "Cortex-A520", MIDR(0, 0xd80, 1), false, false, 1024,
     "Arm Cortex-A520 Core TRM (102517), r0p1, Introduction, 'Features': AArch64 only", SM8650},
    {"cortex-a710", "Cortex-A710", MIDR(2, 0xd47, 0), true, false, 693,
     "Arm Cortex-A710 Core TRM (101800), r2p0, Introduction, 'Features': AArch32 at EL0 only", SM8550},
    {"cortex-a715", "Cortex-A715", MIDR(1, 0xd4d, 0), false, false, 693,
     "Arm Cortex-A715 Core TRM (101590), r1p0, Introduction, 'Features': AArch64 only", SM8550},
    {"cortex-a720", "Cortex-A720", MIDR(0, 0xd81, 1), false, false, 1792,
     "Arm Cortex-A720 Core TRM (102530), r0p1, Introduction, 'Features': AArch64 only", SM8650},
    {"cortex-x2", "Cortex-X2", MIDR(2, 0xd48, 0), false, false, 1024,
     "Arm Cortex-X2 Core TRM (101803), r2p0, Introduction, 'Features': AArch64 only",
     "none upstream (sm8450.dtsi has no capacity-dmips-mhz): the X3's 1024 of " SM8550},
    {"cortex-x3", "Cortex-X3", MIDR(1, 0xd4e, 0), false, false, 1024,
     "Arm Cortex-X3 Core TRM (101593), r1p0, Introduction, 'Features': AArch64 only", SM8550},
    {"cortex-x4", "Cortex-X4", MIDR(0, 0xd82, 1), false, false, 1894,
     "Arm Cortex-X4 Core TRM (102484), r0p1, Introduction, 'Features': AArch64 only", SM8650},
};

const size_t cpu_types_count = sizeof cpu_types / sizeof *cpu_types;

const struct cpu_type *cpu_type_find(const char *name)
{
    for (size_t i = 0; i < cpu_types_count; i++)
        if (strcmp(cpu_types[i].name, name) == 0)
            return &cpu_types[i];
    return NULL;
}

void cpu_capacity_normalize(unsigned nr_cpus, const uint16_t *dmips, const uint32_t *mhz,
                            uint16_t *capacity)
{
    uint64_t scale = 1;
    for (unsigned cpu = 0; cpu < nr_cpus; cpu++) {
        if (!dmips[cpu]) { /* topology_parse_cpu_capacity(): cap_parsing_failed */
            for (unsigned c = 0; c < nr_cpus; c++)
                capacity[c] = 1024;
            return;
        }
        uint64_t raw = (uint64_t)dmips[cpu] * (mhz[cpu] ? mhz[cpu] : 1);
        scale = raw > scale ? raw : scale;
    }
    for (unsigned cpu = 0; cpu < nr_cpus; cpu++) {
        uint64_t raw = (uint64_t)dmips[cpu] * (mhz[cpu] ? mhz[cpu] : 1);
        uint64_t cap = (raw << 10) / scale;
        capacity[cpu] = (uint16_t)(cap ? cap : 1);
    }
}
