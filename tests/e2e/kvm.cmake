# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/kvm.cmake: /dev/kvm inside the emulated machine (docs/kvm.md),
# driven by the example VMM examples/kvm/vmm.c (aarch64 only: KVM is for
# 64-bit VMMs). The default machine is mismatched (vCPUs 0-3 of 8 run
# AArch32 EL0); --aarch32 0-7 makes it symmetric. The AArch32 payload shows
# spec V1 under each policy family: Deacon's (upstream, override, kill)
# invalidates the vCPU's target, Yousef's (fixup) refuses to enter it.

set(KVM_VMM ${CMAKE_BINARY_DIR}/examples/kvm-vmm-aarch64)
set(KVM_HELLO "hello from the VM
ID_AA64PFR0_EL1.EL0 = 1
the VM wrote back 43
system event: shutdown
")

# The payload prints over MMIO, reads the VMM's answer (42) and writes it
# back plus one, sees EL0 AArch64-only (V2) and stops with PSCI SYSTEM_OFF.
# Run twice: the same bytes, strace and kernel log included.
asymu_e2e(NAME kvm-hello ASYMU_ONLY REPEAT
  ARGS run --seed 1 --strace --dmesg -- ${KVM_VMM} hello
  EXPECT_STDOUT_TEXT "${KVM_HELLO}")
# V2 on a symmetric machine: EL0 runs AArch32 on every CPU, the VM sees it.
asymu_e2e(NAME kvm-hello-symmetric ASYMU_ONLY
  ARGS run --seed 1 --aarch32 0-7 -- ${KVM_VMM} hello
  EXPECT_STDOUT_TEXT "hello from the VM
ID_AA64PFR0_EL1.EL0 = 2
the VM wrote back 43
system event: shutdown
")

# The ioctls' answers; V3 (KVM_ARM_VCPU_INIT with EL1_32BIT) and a 32-bit
# PSTATE through KVM_SET_ONE_REG are EINVAL.
asymu_e2e(NAME kvm-checks ASYMU_ONLY
  ARGS run --seed 1 -- ${KVM_VMM} checks
  EXPECT_STDOUT_TEXT "KVM_GET_API_VERSION: 12
KVM_CAP_USER_MEMORY: 1
KVM_CAP_ONE_REG: 1
KVM_CAP_ARM_PSCI_0_2: 1
KVM_CAP_IMMEDIATE_EXIT: 1
KVM_CAP_NR_MEMSLOTS: 32
KVM_CAP_ARM_EL1_32BIT: 0
KVM_CAP_ARM_PMU_V3: 0
KVM_GET_VCPU_MMAP_SIZE: 4096
KVM_ARM_PREFERRED_TARGET: 0, target 5
KVM_RUN before KVM_ARM_VCPU_INIT: ENOEXEC
KVM_ARM_VCPU_INIT with EL1_32BIT: EINVAL
KVM_ARM_VCPU_INIT: 0
KVM_SET_ONE_REG pstate usr32: EINVAL
KVM_SET_ONE_REG pstate EL1h: 0
KVM_GET_ONE_REG x5: 0, 0x1234
KVM_GET_ONE_REG fpsr: ENOENT
KVM_GET_REG_LIST n=0: E2BIG, n 37
KVM_GET_REG_LIST: 0, first 0x6030000000100000, pc 0x6030000000100040
KVM_RUN with immediate_exit: EINTR
")

# V1 under Deacon's patches (5.15's vcpu_mode_is_bad_32bit): the run that
# caught the vCPU in AArch32 EL0 fails with EINVAL and KVM_EXIT_FAIL_ENTRY
# (9), the target is invalidated: every vCPU ioctl but KVM_ARM_VCPU_INIT
# is ENOEXEC until the VMM initialises it again.
foreach(policy upstream override kill)
  asymu_e2e(NAME kvm-aarch32-${policy} ASYMU_ONLY
    ARGS run --seed 1 --policy ${policy} -- ${KVM_VMM} aarch32
    EXPECT_STDOUT_TEXT "KVM_RUN: EINVAL, exit_reason 9
KVM_GET_ONE_REG pstate: ENOEXEC
KVM_RUN again: ENOEXEC
KVM_SET_ONE_REG pstate EL1h: ENOEXEC
KVM_SET_ONE_REG pc: ENOEXEC
KVM_RUN after the registers: ENOEXEC, exit_reason 9
KVM_ARM_VCPU_INIT: 0
${KVM_HELLO}")
endforeach()
# V1 under Yousef's series (seed 009): the target stays; the vCPU still in
# AArch32 is not entered (ENOEXEC, logged) until the VMM sets a 64-bit
# PSTATE, and then it runs.
asymu_e2e(NAME kvm-aarch32-fixup ASYMU_ONLY
  ARGS run --seed 1 --policy fixup --dmesg -- ${KVM_VMM} aarch32
  EXPECT_STDOUT_TEXT "KVM_RUN: EINVAL, exit_reason 9
KVM_GET_ONE_REG pstate: 0, pstate 0x10
KVM_RUN again: ENOEXEC
KVM_SET_ONE_REG pstate EL1h: 0
KVM_SET_ONE_REG pc: 0
${KVM_HELLO}KVM_ARM_VCPU_INIT: 0
${KVM_HELLO}"
  EXPECT_STDERR_CONTAINS "kvm [1]: Detected illegal AArch32 mode at EL0, exiting."
                         "kvm [1]: Illegal AArch32 mode at EL0, can't run.")
# A symmetric machine lets the VM run AArch32 EL0.
asymu_e2e(NAME kvm-aarch32-symmetric ASYMU_ONLY
  ARGS run --seed 1 --aarch32 0-7 -- ${KVM_VMM} aarch32
  EXPECT_STDOUT_TEXT "A32
payload done in AArch32 EL0
")

# A VM that never stops: the VMM's task is preempted like any other (its
# child runs on the only CPU meanwhile) and SIGALRM ends KVM_RUN with
# EINTR and KVM_EXIT_INTR (10). Run twice: the same bytes.
asymu_e2e(NAME kvm-spin ASYMU_ONLY REPEAT
  ARGS run --seed 1 --cpus 1 --aarch32 0 -- ${KVM_VMM} spin
  EXPECT_STDOUT_TEXT "KVM_RUN: EINTR, exit_reason 10, SIGALRM handled 1 time(s)
the child wrote while the VM ran: yes
")

# A hostile VMM gets errnos, never a host crash.
asymu_e2e(NAME kvm-hostile ASYMU_ONLY
  ARGS run --seed 1 -- ${KVM_VMM} hostile
  EXPECT_STDOUT_TEXT "KVM_SET_USER_MEMORY_REGION unaligned gpa: EINVAL
KVM_SET_USER_MEMORY_REGION unaligned size: EINVAL
KVM_SET_USER_MEMORY_REGION unaligned uaddr: EINVAL
KVM_SET_USER_MEMORY_REGION slot 40000: EINVAL
KVM_SET_USER_MEMORY_REGION kernel uaddr: EINVAL
KVM_SET_USER_MEMORY_REGION wrapping gpa: EINVAL
KVM_SET_USER_MEMORY_REGION gpa past the IPA space: EFAULT
KVM_SET_USER_MEMORY_REGION overlapping slot 0: EEXIST
KVM_SET_USER_MEMORY_REGION deleting an empty slot: EINVAL
KVM_SET_USER_MEMORY_REGION bad pointer: EFAULT
KVM_CREATE_VCPU id 0 again: EEXIST
KVM_CREATE_VCPU id 1000: EINVAL
unknown /dev/kvm request: EINVAL
unknown VM request: EINVAL
unknown vCPU request: EINVAL
TCGETS on the vCPU: EINVAL
KVM_ARM_VCPU_INIT bad pointer: EFAULT
KVM_GET_ONE_REG bad address: EFAULT
KVM_SET_ONE_REG bad address: EFAULT
KVM_GET_ONE_REG id 0: EINVAL
KVM_GET_REG_LIST bad pointer: EFAULT
KVM_SET_USER_MEMORY_REGION slot 1: 0
KVM_RUN with slot 1 unmapped: EFAULT
KVM_SET_USER_MEMORY_REGION deleting slot 1: 0
KVM_RUN in a child: EIO
KVM_CREATE_VCPU in a child: EIO
more vCPUs: 15, then ENOMEM
KVM_CREATE_VCPU after closing one: made
after closing the VM fd:
${KVM_HELLO}")

# --no-kvm: the machine has no /dev/kvm.
asymu_e2e(NAME kvm-none ASYMU_ONLY
  ARGS run --seed 1 --no-kvm -- ${KVM_VMM} hello
  EXPECT_STATUS 1
  EXPECT_STDOUT_TEXT "open /dev/kvm: ENOENT
")

# The device node, and what each ISA's process gets from it: arm64 Linux
# has no compat KVM, so a 32-bit process cannot open it (ENODEV).
asymu_e2e_guest(NAME kvm-open PROGRAM kvm-open ISAS aarch64 ASYMU_ONLY
  EXPECT_STDOUT_TEXT "character device yes 10,232 mode 0660
KVM_GET_API_VERSION: 12
")
asymu_e2e_guest(NAME kvm-open PROGRAM kvm-open ISAS armhf ASYMU_ONLY
  EXPECT_STDOUT_TEXT "character device yes 10,232 mode 0660
open: ENODEV
")
asymu_e2e_guest(NAME kvm-open-none PROGRAM kvm-open ISAS aarch64 ASYMU_ONLY OPTIONS --no-kvm
  EXPECT_STDOUT_TEXT "stat: ENOENT
")
