/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kvm.h - /dev/kvm for guest VMMs (docs/kvm.md): the ioctls a minimal
 * arm64 VMM uses, VMs whose memory slots are the VMM's own memory, and
 * vCPUs that are nested Unicorn engines at EL1 with the MMU off, run by
 * KVM_RUN inside the calling task's slices (kvm_run.c). The mismatched
 * 32-bit rules of spec section 5 (V1-V3) are enforced per --policy. */
#ifndef ASYMU_KVM_H
#define ASYMU_KVM_H

#include <stdbool.h>
#include <stdint.h>

#include "uc_fwd.h"

struct file;
struct machine;
struct mm;
struct shmem;
struct task;

/* The arm64 KVM ABI (include/uapi/linux/kvm.h, arch/arm64/include/uapi/asm/kvm.h). */
#define KVM_API_VERSION 12
#define KVM_GET_API_VERSION 0xae00u
#define KVM_CREATE_VM 0xae01u
#define KVM_CHECK_EXTENSION 0xae03u
#define KVM_GET_VCPU_MMAP_SIZE 0xae04u
#define KVM_CREATE_VCPU 0xae41u
#define KVM_SET_USER_MEMORY_REGION 0x4020ae46u
#define KVM_RUN 0xae80u
#define KVM_GET_ONE_REG 0x4010aeabu
#define KVM_SET_ONE_REG 0x4010aeacu
#define KVM_ARM_VCPU_INIT 0x4020aeaeu
#define KVM_ARM_PREFERRED_TARGET 0x8020aeafu
#define KVM_GET_REG_LIST 0xc008aeb0u

#define KVM_CAP_USER_MEMORY 3
#define KVM_CAP_NR_VCPUS 9
#define KVM_CAP_NR_MEMSLOTS 10
#define KVM_CAP_MAX_VCPUS 66
#define KVM_CAP_ONE_REG 70
#define KVM_CAP_ARM_EL1_32BIT 93
#define KVM_CAP_ARM_PSCI_0_2 102
#define KVM_CAP_IMMEDIATE_EXIT 136

#define KVM_EXIT_MMIO 6
#define KVM_EXIT_FAIL_ENTRY 9
#define KVM_EXIT_INTR 10
#define KVM_EXIT_INTERNAL_ERROR 17
#define KVM_EXIT_SYSTEM_EVENT 24
#define KVM_SYSTEM_EVENT_SHUTDOWN 1
#define KVM_SYSTEM_EVENT_RESET 2
#define KVM_INTERNAL_ERROR_EMULATION 1

#define KVM_ARM_TARGET_GENERIC_V8 5
#define KVM_ARM_VCPU_EL1_32BIT 1
#define KVM_ARM_VCPU_PSCI_0_2 2

/* struct kvm_run's fields asymu fills (offsets in the page). */
#define KVM_RUN_IMMEDIATE_EXIT 1
#define KVM_RUN_EXIT_REASON 8
#define KVM_RUN_UNION 32
#define KVM_RUN_PAGE 4096

#define KVM_SLOTS 32 /* KVM_CAP_NR_MEMSLOTS */
#define KVM_VCPUS 8  /* KVM_CAP_MAX_VCPUS */
/* Live vCPUs in the whole machine: each engine costs the host about 10 MB,
 * and a guest must not make it run out of memory (ENOMEM beyond). */
#define KVM_MACHINE_VCPUS 16
#define KVM_IPA_LIMIT (UINT64_C(1) << 40) /* arm64's default 40-bit IPA space */
#define KVM_VMM_VA_LIMIT (UINT64_C(1) << 48) /* the VMM's user address space */

struct kvm_slot {
    bool used;
    uint64_t gpa, size, uaddr; /* guest physical [gpa, gpa+size) is the VMM's [uaddr, ...) */
};

struct kvm_vm {
    int refs; /* its file and its vCPUs */
    struct machine *machine;
    const struct mm *mm; /* the VMM's address space: only compared, never used */
    struct kvm_slot slots[KVM_SLOTS];
    int nr_vcpus;
    uint32_t vcpu_ids; /* bit n: vCPU id n exists (KVM_CREATE_VCPU's EEXIST) */
};

struct kvm_vcpu {
    struct kvm_vm *vm;
    int id;
    uc_engine *uc;       /* the nested engine, AArch64 EL1h with the MMU off */
    uc_context *reset_ctx; /* its state when new: the way back from AArch32 */
    struct shmem *run_shm; /* the kvm_run page the VMM maps */
    uint8_t *run;        /* its host mapping */
    bool initialized;    /* KVM_ARM_VCPU_INIT done and the target not invalidated */
    /* In AArch32 EL0: the VM's code returned there (ERET with SPSR.M[4]),
     * or the VMM set such a PSTATE. The engine keeps no readable trace of
     * the state, so asymu tracks it (kvm_run.c). */
    bool aarch32;
    uint32_t aarch32_pstate;
    /* An MMIO exit the next KVM_RUN completes: the access re-runs against
     * a scratch page holding what the VMM put in kvm_run. */
    bool mmio_pending;
    uint64_t mmio_addr;
    unsigned mmio_len;
    /* Set by the engine's hooks during a run. */
    int exit;             /* KVM_EXIT_* that ended the run, 0: none yet */
    uint64_t exit_value;  /* the MMIO value written, the PSCI event type */
    bool exit_write;
    uint64_t last_block, last_block_size; /* the block running, to spot an ERET */
    struct mm *running_mm; /* the VMM's, while the vCPU runs */
};

#define KVM_INIT_FEATURE_WORDS 7 /* struct kvm_vcpu_init's features[] */

/* KVM_ARM_VCPU_INIT's answer to a target and features: 0, or -EINVAL for
 * another target or the 32-bit EL1 feature (spec V3: asymu's CPUs have
 * AArch64-only EL1, and on a mismatched machine Linux refuses it anyway),
 * -ENOENT for a feature asymu lacks (only PSCI 0.2 exists). */
int kvm_vcpu_init_check(uint32_t target, const uint32_t features[KVM_INIT_FEATURE_WORDS]);

/* Whether a VMM may set PSTATE to ps through KVM_SET_ONE_REG: EL0t, EL1t
 * or EL1h. An AArch32 mode is refused (EINVAL): on a mismatched machine as
 * Linux's set_core_reg does (Yousef RFC patch 1), and on a symmetric one
 * because the nested engine cannot be put into AArch32 from outside
 * (docs/kvm.md). */
bool kvm_pstate_valid(uint64_t ps);

/* Opens /dev/kvm. */
int kvm_open(struct task *t, int flags, struct file **out);

/* Whether a VM may run AArch32 EL0 on this machine: every vCPU is
 * 32-bit capable (a symmetric machine). */
bool kvm_aarch32_el0_ok(const struct machine *m);

/* ---- the nested engine (kvm_run.c) ---- */

int kvm_vcpu_engine_open(struct kvm_vcpu *v);
/* KVM_ARM_VCPU_INIT's reset: x0-x30, sp, pc zero, EL1h with DAIF masked. */
void kvm_vcpu_reset(struct kvm_vcpu *v);
/* The VMM set a 64-bit PSTATE on a vCPU in AArch32: the engine goes back
 * to AArch64, its AArch64 registers kept. */
void kvm_vcpu_leave_aarch32(struct kvm_vcpu *v);
/* The KVM_RUN ioctl. */
int64_t kvm_vcpu_run(struct task *t, struct file *vcpu_file);

#endif
