# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sysreg.cmake: the system registers EL0 reads and the cache
# maintenance it does (tests/guest/sysreg.c; docs/processes.md, "EL0 system
# registers and cache maintenance"). The values are asymu's machine model
# (Cortex-A710/X2 vCPUs, a 25 MHz counter) as Linux 5.15 shows it to EL0:
# qemu-user models another CPU and does not emulate Linux's MRS traps.

asymu_e2e_guest(NAME sysreg-regs PROGRAM sysreg GUEST_ARGS regs ISAS aarch64
  EXPECT_STDOUT_TEXT "CTR_EL0 0x8444c004
DCZID_EL0 0x4
CNTFRQ_EL0 25000000
MPIDR_EL1 0x80000000
REVIDR_EL1 0x0
ID_AA64PFR1_EL1 0x0
ID_AA64ZFR0_EL1 0x0
ID_AA64DFR0_EL1 0x6
ID_AA64DFR1_EL1 0x0
ID_AA64ISAR0_EL1 0x11120
ID_AA64ISAR1_EL1 0x0
ID_AA64MMFR0_EL1 0x111ff000000
ID_AA64MMFR1_EL1 0x0
ID_AA64MMFR2_EL1 0x0
unallocated S3_0_C0_C7_7 0x0
TPIDR_EL0 after writing it 0x1234567890abcdef
TPIDRRO_EL0 0x0
")
asymu_e2e_guest(NAME sysreg-regs PROGRAM sysreg GUEST_ARGS regs ISAS armhf
  EXPECT_STDOUT_TEXT "CTR 0x8444c004
CNTFRQ 25000000
TPIDRURO is the thread pointer: yes
")

# MIDR_EL1 is the vCPU's, as sysfs says: A710 on the 32-bit vCPUs, X2 on
# the others; ID_AA64PFR0_EL1.EL0 follows them (spec 1.1).
asymu_e2e_guest(NAME sysreg-midr PROGRAM sysreg GUEST_ARGS midr ISAS aarch64
  MACHINE --cpus 4 --aarch32 0-1
  EXPECT_STDOUT_TEXT "cpu0: mrs 0x00000000412fd470 sysfs 0x00000000412fd470
cpu0: ID_AA64PFR0_EL1 0x12
cpu1: mrs 0x00000000412fd470 sysfs 0x00000000412fd470
cpu1: ID_AA64PFR0_EL1 0x12
cpu2: mrs 0x00000000412fd480 sysfs 0x00000000412fd480
cpu2: ID_AA64PFR0_EL1 0x11
cpu3: mrs 0x00000000412fd480 sysfs 0x00000000412fd480
cpu3: ID_AA64PFR0_EL1 0x11
")

asymu_e2e_guest(NAME sysreg-counter PROGRAM sysreg GUEST_ARGS counter
  EXPECT_STDOUT_TEXT "counter between two CLOCK_MONOTONIC reads: yes
ticks across a 10 ms sleep: at least 250000: yes, whole ms: 10
")

asymu_e2e_guest(NAME sysreg-sigill PROGRAM sysreg GUEST_ARGS sigill ISAS aarch64
  EXPECT_STDOUT_TEXT "mrs sctlr_el1: SIGILL ILL_ILLOPC
mrs currentel: SIGILL ILL_ILLOPC
mrs cntpct_el0: SIGILL ILL_ILLOPC
mrs ccsidr_el1: SIGILL ILL_ILLOPC
mrs id_pfr0_el1: SIGILL ILL_ILLOPC
mrs daif: SIGILL ILL_ILLOPC
msr sctlr_el1: SIGILL ILL_ILLOPC
msr cntv_ctl_el0: SIGILL ILL_ILLOPC
dc ivac: SIGILL ILL_ILLOPC
")
asymu_e2e_guest(NAME sysreg-sigill PROGRAM sysreg GUEST_ARGS sigill ISAS armhf
  EXPECT_STDOUT_TEXT "mrc midr: SIGILL ILL_ILLOPC
mrc sctlr: SIGILL ILL_ILLOPC
mrrc cntpct: SIGILL ILL_ILLOPC
")

asymu_e2e_guest(NAME sysreg-zva PROGRAM sysreg GUEST_ARGS zva ISAS aarch64
  EXPECT_STDOUT_TEXT "dc zva zeroed 64 bytes from offset 64
dc cvau: ok
dc cvac: ok
dc civac: ok
ic ivau: ok
dc zva on a read-only page: SIGSEGV
")

# Write code, flush (arm64: DC CVAU + IC IVAU; arm: cacheflush), run,
# rewrite, flush, run: the new code runs, also on a page written before it
# was made executable (bench/README.md, "A patched Unicorn 2.1.1"). Output checked under qemu-user,
# but for the last line: qemu-user runs the stale code through the second
# mapping of the memfd (1 then 1), which a physically indexed I-cache
# flushed by the writable alias does not; asymu without its alias flush
# (emu/arch/sysreg.c) printed the same 1 then 1.
asymu_e2e_guest(NAME sysreg-jit PROGRAM sysreg GUEST_ARGS jit
  EXPECT_STDOUT_TEXT "rwx: 1 then 2
w^x: 1 then 2
rw then rwx: 1 then 2
alias: 1 then 2
")

# arm's cacheflush: Linux's compat checks (arch/arm64/kernel/sys_compat.c).
asymu_e2e_guest(NAME sysreg-cacheflush PROGRAM sysreg GUEST_ARGS cacheflush ISAS armhf
  EXPECT_STDOUT_TEXT "cacheflush a mapped page: 0 ok
cacheflush an empty range: 0 ok
cacheflush flags 1: -1 EINVAL
cacheflush end before start: -1 EINVAL
cacheflush into an unmapped page: -1 EFAULT
")
