/* cpu_model.h - what the machine's vCPUs are, shared by /proc/cpuinfo and
 * sysfs (sysfs-fs/tree.c) and by the registers EL0 reads (emu/arch/sysreg.c), so
 * that all three tell the same story. */
#ifndef ASYMU_CPU_MODEL_H
#define ASYMU_CPU_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* MIDR_EL1 of the two kinds of vCPU: a Cortex-A710 r2p0 runs AArch32 EL0, a
 * Cortex-X2 r2p0 does not. */
#define MIDR_AARCH32 0x412fd470u
#define MIDR_AARCH64_ONLY 0x412fd480u

static inline uint32_t cpu_model_midr(bool runs_aarch32)
{
    return runs_aarch32 ? MIDR_AARCH32 : MIDR_AARCH64_ONLY;
}

#endif
