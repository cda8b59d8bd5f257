/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socs.c - the SoC presets of --soc: which core each CPU is, its cluster
 * (the device tree's cpu-map), its capacity-dmips-mhz, its cpufreq policy
 * with the OPP table, and the CPUs that run 32-bit code. Data only, each
 * preset with its sources; docs/socs.md explains every choice. */
#include "cpu_model.h"

#include <stdio.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof *(a))
#define TABLE(a) a, COUNT(a)

#define QCOM "arch/arm64/boot/dts/qcom/"

/* sm8450.dtsi has no OPP table for the CPUs (the EPSS hardware's LUT gives
 * them to qcom-cpufreq-hw): only the maximum of each domain is known here. */
static const uint32_t sm8450_silver[] = {1785600};
static const uint32_t sm8450_gold[] = {2496000};
static const uint32_t sm8450_prime[] = {2995200};

/* MediaTek's published maxima (no upstream tree). */
static const uint32_t mt6983_little[] = {1800000};
static const uint32_t mt6983_big[] = {2850000};
static const uint32_t mt6983_ultra[] = {3050000};

/* sm8550.dtsi cpu0_opp_table, cpu3_opp_table, cpu7_opp_table. */
static const uint32_t sm8550_cpu0[] = {
    307200,  441600,  556800,  672000,  787200,  902400,  1017600, 1113600,
    1228800, 1344000, 1459200, 1555200, 1670400, 1785600, 1900800, 2016000,
};
static const uint32_t sm8550_cpu3[] = {
    499200,  614400,  729600,  844800,  940800,  1056000, 1171200, 1286400, 1401600, 1536000,
    1651200, 1785600, 1920000, 2054400, 2188800, 2323200, 2457600, 2592000, 2707200, 2803200,
};
static const uint32_t sm8550_cpu7[] = {
    595200,  729600,  864000,  998400,  1132800, 1248000, 1363200, 1478400, 1593600, 1708800, 1843200,
    1977600, 2092800, 2227200, 2342400, 2476800, 2592000, 2726400, 2841600, 2956800, 3187200,
};

/* sm8650.dtsi cpu0_opp_table, cpu2_opp_table (= cpu5_opp_table), cpu7_opp_table. */
static const uint32_t sm8650_cpu0[] = {
    307200,  364800,  460800,  556800,  672000,  787200,  902400,  1017600, 1132800,
    1248000, 1344000, 1440000, 1459200, 1536000, 1574400, 1651200, 1689600, 1747200,
    1804800, 1843200, 1920000, 1939200, 2035200, 2150400, 2265600,
};
static const uint32_t sm8650_cpu2[] = {
    460800,  499200,  576000,  614400,  691200,  729600,  806400,  844800,  902400,  960000,
    1036800, 1075200, 1152000, 1190400, 1267200, 1286400, 1382400, 1401600, 1497600, 1612800,
    1708800, 1728000, 1824000, 1843200, 1920000, 1958400, 2035200, 2073600, 2131200, 2188800,
    2246400, 2304000, 2323200, 2380800, 2400000, 2438400, 2515200, 2572800, 2630400, 2707200,
    2764800, 2841600, 2899200, 2956800, 3014400, 3072000, 3148800,
};
static const uint32_t sm8650_cpu7[] = {
    480000,  499200,  576000,  614400,  672000,  729600,  787200,  844800,  902400,  940800,
    1017600, 1075200, 1132800, 1190400, 1248000, 1305600, 1363200, 1420800, 1478400, 1555200,
    1593600, 1670400, 1708800, 1804800, 1824000, 1939200, 2035200, 2073600, 2112000, 2169600,
    2208000, 2246400, 2304000, 2342400, 2380800, 2438400, 2457600, 2496000, 2553600, 2630400,
    2688000, 2745600, 2803200, 2880000, 2937600, 2995200, 3052800, 3187200,
};

/* Google's published maxima of Tensor G2 (its tree is not upstream). */
static const uint32_t gs201_cl0[] = {1803000};
static const uint32_t gs201_cl1[] = {2348000};
static const uint32_t gs201_cl2[] = {2850000};

const struct soc socs[] = {
    {"sm8450", "Qualcomm Snapdragon 8 Gen 1", 8,
     {{"0-3", "cortex-a510", 0, 0}, {"4-6", "cortex-a710", 0, 0}, {"7", "cortex-x2", 0, 0}},
     {{"0-3", TABLE(sm8450_silver)}, {"4-6", TABLE(sm8450_gold)}, {"7", TABLE(sm8450_prime)}},
     "4-6", "qcom-cpufreq-hw",
     QCOM "sm8450.dtsi: cpu@0..700 (qcom,kryo780), one cluster in cpu-map, qcom,freq-domain "
          "0 (cpu0-3), 1 (cpu4-6), 2 (cpu7), no capacity-dmips-mhz (every cpu_capacity 1024) "
          "and no CPU OPP table (maxima from the EPSS LUT as Qualcomm publishes them); core "
          "types from Qualcomm's product brief; aarch32_el0 4-6: only the three Cortex-A710 "
          "cores run 32-bit apps (Esper, \"The long road to 64-bit only Android\", Dec. "
          "2021), the Cortex-A510s are built without AArch32 and the X2 has none "
          "(docs/socs.md)"},
    {"mt6983", "MediaTek Dimensity 9000", 8,
     {{"0-3", "cortex-a510", 326, 0}, {"4-6", "cortex-a710", 693, 0}, {"7", "cortex-x2", 1024, 0}},
     {{"0-3", TABLE(mt6983_little)}, {"4-6", TABLE(mt6983_big)}, {"7", TABLE(mt6983_ultra)}},
     "4-6", "mtk-cpufreq-hw",
     "no upstream device tree: core types and maxima from MediaTek's product page, one "
     "DynamIQ cluster, capacity-dmips-mhz from the core-type table (sm8550.dtsi's values); "
     "aarch32_el0 4-6, the Cortex-A710s, as on sm8450 (the same Esper article: \"a "
     "similar core configuration\") (docs/socs.md)"},
    {"sm8550", "Qualcomm Snapdragon 8 Gen 2", 8,
     {{"0-2", "cortex-a510", 326, 0},
      {"3-4", "cortex-a715", 693, 0},
      {"5-6", "cortex-a710", 693, 0},
      {"7", "cortex-x3", 1024, 0}},
     {{"0-2", TABLE(sm8550_cpu0)}, {"3-6", TABLE(sm8550_cpu3)}, {"7", TABLE(sm8550_cpu7)}},
     "5-6", "qcom-cpufreq-hw",
     QCOM "sm8550.dtsi: compatible arm,cortex-a510 (cpu0-2), -a715 (cpu3-4), -a710 "
          "(cpu5-6), -x3 (cpu7), capacity-dmips-mhz 326/693/693/1024, one cluster in cpu-map, "
          "qcom,freq-domain 0/1/1/2, cpu0/cpu3/cpu7_opp_table (\"arm64: dts: qcom: sm8550: add "
          "cpu OPP table with DDR, LLCC & L3 bandwidths\"); aarch32_el0 5-6: the two "
          "Cortex-A710s kept for 32-bit apps, the A510s built without AArch32 as on sm8450, "
          "the A715 and X3 AArch64-only (docs/socs.md)"},
    {"gs201", "Google Tensor G2", 8,
     {{"0-3", "cortex-a55", 250, 0}, {"4-5", "cortex-a78", 620, 1}, {"6-7", "cortex-x1", 1024, 2}},
     {{"0-3", TABLE(gs201_cl0)}, {"4-5", TABLE(gs201_cl1)}, {"6-7", TABLE(gs201_cl2)}},
     "0-7", "exynos-acme",
     "no upstream device tree: core types and maxima from Google's Tensor G2 specifications; "
     "numbering, three clusters in cpu-map and capacity-dmips-mhz 250/620/1024 as "
     "arch/arm64/boot/dts/exynos/google/gs101.dtsi (Tensor G1) has them; every core "
     "implements AArch32 at EL0, so 32-bit code runs everywhere (docs/socs.md)"},
    {"sm8650", "Qualcomm Snapdragon 8 Gen 3", 8,
     {{"0-1", "cortex-a520", 1024, 0}, {"2-6", "cortex-a720", 1792, 0}, {"7", "cortex-x4", 1894, 0}},
     {{"0-1", TABLE(sm8650_cpu0)},
      {"2-4", TABLE(sm8650_cpu2)},
      {"5-6", TABLE(sm8650_cpu2)},
      {"7", TABLE(sm8650_cpu7)}},
     "", "qcom-cpufreq-hw",
     QCOM "sm8650.dtsi: compatible arm,cortex-a520 (cpu0-1), -a720 (cpu2-6), -x4 (cpu7), "
          "capacity-dmips-mhz 1024/1792/1894, one cluster in cpu-map, qcom,freq-domain 0 "
          "(cpu0-1), 3 (cpu2-4), 1 (cpu5-6), 2 (cpu7), cpu0/cpu2/cpu5/cpu7_opp_table (\"arm64: "
          "dts: qcom: sm8650: add cpu OPP table with DDR, LLCC & L3 bandwidths\"); no core "
          "implements AArch32, so no 32-bit program runs (docs/socs.md)"},
};

const size_t socs_count = COUNT(socs);

const struct soc *soc_find(const char *name)
{
    for (size_t i = 0; i < socs_count; i++)
        if (strcmp(socs[i].name, name) == 0)
            return &socs[i];
    return NULL;
}

uint32_t cpu_layout_max_khz(const struct cpu_layout *l, unsigned cpu)
{
    if (!l || !l->custom || !l->soc || l->domain[cpu] < 0)
        return 0;
    const struct soc_domain *d = &l->soc->domains[l->domain[cpu]];
    return d->khz[d->nkhz - 1];
}

int cpu_layout_from_soc(struct cpu_layout *l, const struct soc *s, uint16_t *dmips,
                        uint32_t *mhz, struct cpumask *aarch32, char *why, size_t whylen)
{
    struct cpumask m, seen;
    unsigned cpu;
    memset(l, 0, sizeof *l);
    cpumask_clear(&seen);
    l->custom = true;
    l->soc = s;
    for (unsigned c = 0; c < s->nr_cpus; c++)
        l->domain[c] = -1;
    unsigned in_cluster[SOC_MAX_GROUPS] = {0};
    for (unsigned g = 0; g < SOC_MAX_GROUPS && s->groups[g].cpus; g++) {
        const struct soc_cpus *grp = &s->groups[g];
        const struct cpu_type *t = cpu_type_find(grp->type);
        if (!t || grp->cluster >= SOC_MAX_GROUPS ||
            cpulist_parse(grp->cpus, s->nr_cpus, &m, why, whylen) < 0) {
            snprintf(why, whylen, "preset %s: bad group %u", s->name, g);
            return -1;
        }
        for_each_cpu(cpu, &m) {
            l->type[cpu] = (uint8_t)(t - cpu_types);
            l->cluster[cpu] = (uint16_t)grp->cluster;
            /* parse_cluster(): core_id counts the cores of each cluster. */
            l->core[cpu] = (uint16_t)in_cluster[grp->cluster]++;
            dmips[cpu] = grp->dmips_mhz;
        }
        cpumask_or(&seen, &seen, &m);
    }
    for (unsigned d = 0; d < SOC_MAX_DOMAINS && s->domains[d].cpus; d++) {
        if (cpulist_parse(s->domains[d].cpus, s->nr_cpus, &m, why, whylen) < 0) {
            snprintf(why, whylen, "preset %s: bad domain %u", s->name, d);
            return -1;
        }
        for_each_cpu(cpu, &m) {
            l->domain[cpu] = (int8_t)d;
            /* init_cpu_capacity_callback(): cpuinfo.max_freq / 1000 */
            mhz[cpu] = s->domains[d].khz[s->domains[d].nkhz - 1] / 1000;
        }
    }
    if (cpumask_weight(&seen) != s->nr_cpus ||
        cpulist_parse(s->aarch32, s->nr_cpus, aarch32, why, whylen) < 0) {
        snprintf(why, whylen, "preset %s: CPUs or aarch32 list inconsistent", s->name);
        return -1;
    }
    return 0;
}

static void print_list(FILE *out, const struct soc *s)
{
    for (unsigned g = 0; g < SOC_MAX_GROUPS && s->groups[g].cpus; g++)
        fprintf(out, "%s%s %s", g ? ", " : "", s->groups[g].cpus,
                cpu_type_find(s->groups[g].type)->title);
}

void soc_list(void *file)
{
    FILE *out = file;
    for (size_t i = 0; i < socs_count; i++) {
        const struct soc *s = &socs[i];
        fprintf(out, "%s: %s, %u CPUs: ", s->name, s->title, s->nr_cpus);
        print_list(out, s);
        fprintf(out, "; aarch32_el0: %s\n  sources: %s\n", *s->aarch32 ? s->aarch32 : "none",
                s->sources);
    }
}
