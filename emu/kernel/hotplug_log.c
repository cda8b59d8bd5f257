/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hotplug_log.c - what arm64 Linux logs at the default level when a CPU
 * goes down or up, on a GICv3 machine laid out as QEMU's "virt" board
 * (redistributors from 0x080a0000, 128 KiB each) without an ITS. The
 * scheduler's own lines (U6) come before these. */
#include "hotplug_log.h"

#include "cpu_model.h"

#define GICR_BASE 0x080a0000u
#define GICR_STRIDE 0x20000u /* RD_base and SGI_base frames */

/* The MPIDR of cpu: Aff0 = cpu, as "Booted secondary processor" shows it. */
static unsigned mpidr_of(unsigned cpu)
{
    return cpu;
}

void hotplug_log_offline(struct klog *log, uint64_t now, unsigned cpu)
{
    /* arch_cpuhp_cleanup_dead_cpu() (6.6) / __cpu_die() (5.15) say
     * "CPU%u: shutdown" only at debug level; cpu_psci_cpu_kill()
     * (arch/arm64/kernel/psci.c) reports the PSCI AFFINITY_INFO poll. */
    klog_printf(log, now, KLOG_INFO, "psci: CPU%u killed (polled 0 ms)", cpu);
}

void hotplug_log_online(struct klog *log, uint64_t now, unsigned cpu, uint32_t midr)
{
    /* cpuinfo_detect_icache_policy() (CTR_EL0 says PIPT), then the GICv3
     * driver's gic_populate_rdist() as the CPU starts, then
     * secondary_start_kernel() with the MPIDR and MIDR. */
    klog_printf(log, now, KLOG_INFO, "Detected PIPT I-cache on CPU%u", cpu);
    klog_printf(log, now, KLOG_INFO, "GICv3: CPU%u: found redistributor %x region 0:0x%016llx", cpu,
                mpidr_of(cpu),
                (unsigned long long)GICR_BASE + (unsigned long long)cpu * GICR_STRIDE);
    klog_printf(log, now, KLOG_INFO, "CPU%u: Booted secondary processor 0x%010x [0x%08x]", cpu,
                mpidr_of(cpu), midr);
}
