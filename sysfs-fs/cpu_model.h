/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu_model.h - what the machine's vCPUs are, shared by /proc/cpuinfo and
 * sysfs (sysfs-fs/tree.c), by the registers EL0 reads (emu/arch/sysreg.c)
 * and by the option parser (cli/options.c), so that all tell the same
 * story. The core types are cpu_types.c, the SoC presets socs.c; both are
 * data with their sources, listed in docs/socs.md. */
#ifndef ASYMU_CPU_MODEL_H
#define ASYMU_CPU_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpumask.h"

/* MIDR_EL1 of the two kinds of vCPU of a generic machine (no --soc, no
 * --cpu-model): a Cortex-A710 r2p0 runs AArch32 EL0, a Cortex-X2 r2p0 does
 * not. */
#define MIDR_AARCH32 0x412fd470u
#define MIDR_AARCH64_ONLY 0x412fd480u

static inline uint32_t cpu_model_midr(bool runs_aarch32)
{
    return runs_aarch32 ? MIDR_AARCH32 : MIDR_AARCH64_ONLY;
}

/* One Arm core type (cpu_types.c). */
struct cpu_type {
    const char *name;     /* "cortex-a510", as --cpu-model takes it */
    const char *title;    /* "Cortex-A510" */
    uint32_t midr;        /* implementer 0x41, variant, architecture 0xf, part, revision */
    bool aarch32_el0;     /* implements AArch32 at EL0 (as the cited SoCs build it) */
    bool aarch32_optional; /* a build-time option: --aarch32 may list it */
    uint16_t dmips_mhz;   /* capacity-dmips-mhz of the device tree named in dmips_source */
    const char *aarch32_source; /* the TRM section that says so */
    const char *dmips_source;
};

extern const struct cpu_type cpu_types[];
extern const size_t cpu_types_count;

/* The type called name, or NULL. */
const struct cpu_type *cpu_type_find(const char *name);

/* One group of CPUs of a SoC preset: the same core type, cluster and
 * capacity-dmips-mhz. */
struct soc_cpus {
    const char *cpus;       /* cpulist, "0-3" */
    const char *type;       /* a cpu_types name */
    uint16_t dmips_mhz;     /* the DT's capacity-dmips-mhz, 0: the DT has none */
    unsigned cluster;       /* cluster_id from the DT's cpu-map */
};

/* One cpufreq policy (a frequency domain): its CPUs and the DT's OPP
 * table, ascending, in kHz. */
struct soc_domain {
    const char *cpus;
    const uint32_t *khz;
    unsigned nkhz;
};

#define SOC_MAX_GROUPS 4
#define SOC_MAX_DOMAINS 4

struct soc {
    const char *name;       /* "sm8450" */
    const char *title;      /* "Qualcomm Snapdragon 8 Gen 1" */
    unsigned nr_cpus;
    struct soc_cpus groups[SOC_MAX_GROUPS];
    struct soc_domain domains[SOC_MAX_DOMAINS];
    const char *aarch32;    /* the CPUs its kernel lists in aarch32_el0 */
    const char *driver;     /* scaling_driver */
    const char *sources;    /* where every fact comes from (--soc list) */
};

extern const struct soc socs[];
extern const size_t socs_count;

const struct soc *soc_find(const char *name);

/* What the vCPUs are, per CPU: filled by the option parser from --soc or
 * --cpu-model (custom), else the generic machine. */
struct cpu_layout {
    bool custom;                      /* false: the generic A710/X2 machine */
    const struct soc *soc;            /* the preset, or NULL */
    uint8_t type[NR_CPUS_MAX];        /* index in cpu_types */
    uint16_t cluster[NR_CPUS_MAX];    /* cluster_id */
    uint16_t core[NR_CPUS_MAX];       /* core_id: its index in the cluster */
    int8_t domain[NR_CPUS_MAX];       /* index in soc->domains, -1: no cpufreq */
};

/* MIDR_EL1 of cpu: its core type's, or the generic machine's. */
static inline uint32_t cpu_layout_midr(const struct cpu_layout *l, unsigned cpu,
                                       bool runs_aarch32)
{
    return l && l->custom ? cpu_types[l->type[cpu]].midr : cpu_model_midr(runs_aarch32);
}

/* The maximum frequency of cpu's policy in kHz, 0 without cpufreq. */
uint32_t cpu_layout_max_khz(const struct cpu_layout *l, unsigned cpu);

/* topology_normalize_cpu_scale() (drivers/base/arch_topology.c): each
 * CPU's capacity-dmips-mhz times its policy's cpuinfo.max_freq in MHz
 * (init_cpu_capacity_callback(); 1 without cpufreq), scaled so that the
 * biggest is 1024. dmips[cpu] 0 for any CPU is a DT without the property:
 * parsing failed and every CPU keeps 1024 (topology_parse_cpu_capacity()). */
void cpu_capacity_normalize(unsigned nr_cpus, const uint16_t *dmips, const uint32_t *mhz,
                            uint16_t *capacity);

/* Fills l, dmips and mhz for preset s (nr_cpus = s->nr_cpus); 0, or -1
 * with why when the table is inconsistent (a bug). */
int cpu_layout_from_soc(struct cpu_layout *l, const struct soc *s, uint16_t *dmips,
                        uint32_t *mhz, struct cpumask *aarch32, char *why, size_t whylen);

/* Writes --soc list: each preset with its CPUs and sources. */
void soc_list(void *file);

#endif
