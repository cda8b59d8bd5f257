# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/soc.cmake: the SoC presets and core types (issue 29, item 1;
# docs/socs.md). For every preset, /sys/devices/system/cpu whole (per-CPU
# cpu_capacity, midr_el1, topology, the cpufreq policies and their OPP
# tables, aarch32_el0) and /proc/cpuinfo's CPU part lines, compared with
# expected/soc-<preset>.out, which docs/socs.md derives value by value from
# the cited device trees; read by a 64-bit and, where the SoC runs 32-bit
# code, a 32-bit reader. asymu's machine model alone: ASYMU_ONLY.

set(soc_presets sm8450 mt6983 sm8550 gs201 sm8650)
set(soc_sm8450_isas aarch64 armhf)
set(soc_mt6983_isas aarch64 armhf)
set(soc_sm8550_isas aarch64 armhf)
set(soc_gs201_isas aarch64 armhf)
set(soc_sm8650_isas aarch64)
set(CPU_SYS /sys/devices/system/cpu)

foreach(soc IN LISTS soc_presets)
  asymu_e2e_guest(NAME soc-${soc} PROGRAM sysfs-read ISAS ${soc_${soc}_isas} ASYMU_ONLY
                  MACHINE --soc ${soc} OPTIONS --check-invariants
                  EXPECT_STDOUT soc-${soc}.out
                  GUEST_ARGS walk:${CPU_SYS} "line:/proc/cpuinfo:CPU part")
endforeach()

# MIDR_EL1 by MRS on each vCPU next to sysfs, and ID_AA64PFR0_EL1's EL0
# field (2: AArch32 too, 1: AArch64 only) per core type.
asymu_e2e_guest(NAME soc-sm8550-midr PROGRAM sysreg GUEST_ARGS midr ISAS aarch64 ASYMU_ONLY
                MACHINE --soc sm8550 EXPECT_STDOUT soc-sm8550-midr.out)

# 32-bit programs. sm8450: only the CPUs its aarch32_el0 lists (4-6, the
# Cortex-A710s), never the Cortex-X2 or the A510s: asking for all CPUs gives
# 4-6 (task_cpu_possible_mask()), asking for the X2 alone is EINVAL, and 8
# 32-bit tasks running beside 8 64-bit ones finish with the invariants (no
# 32-bit task outside 4-6) checked after every switch.
asymu_e2e_guest(NAME soc-sm8450-aarch32-affinity PROGRAM pol-show ISAS armhf ASYMU_ONLY
                MACHINE --soc sm8450 OPTIONS --check-invariants GUEST_ARGS set:0-7 set:7
                EXPECT_STDOUT_TEXT "arm 1: sched_setaffinity 0-7: 0
arm 1: affinity 4-6 (sched_getaffinity returned 32)
arm 1: sched_setaffinity 7: EINVAL
arm 1: affinity 4-6 (sched_getaffinity returned 32)
")
asymu_e2e(NAME soc-sm8450-aarch32-many ASYMU_ONLY
          ARGS run --soc sm8450 --check-invariants -- ${GUEST_DIR}/pol-many-aarch64 16
               ${GUEST_DIR}/pol-show-armhf - 20000
          EXPECT_STDOUT_TEXT "16 children
64-bit: 8 exited 0, 0 killed by SIGKILL, 0 other
32-bit: 8 exited 0, 0 killed by SIGKILL, 0 other
")
# The 64-bit view of the same SoC: the X2 (CPU 7) and the A510s report
# AArch64-only EL0, the A710s AArch32 too.
asymu_e2e_guest(NAME soc-sm8450-pfr0 PROGRAM pol-show ISAS aarch64 ASYMU_ONLY
                MACHINE --soc sm8450 GUEST_ARGS pfr0:7 pfr0:0 pfr0:4
                EXPECT_STDOUT_TEXT "aarch64 1: cpu7 ID_AA64PFR0_EL1.EL0 0x1
aarch64 1: cpu0 ID_AA64PFR0_EL1.EL0 0x1
aarch64 1: cpu4 ID_AA64PFR0_EL1.EL0 0x2
")
# gs201: every core runs 32-bit code, the X1 pair included.
asymu_e2e_guest(NAME soc-gs201-aarch32 PROGRAM pol-show ISAS armhf ASYMU_ONLY
                MACHINE --soc gs201 OPTIONS --check-invariants GUEST_ARGS set:6-7 yield:20
                EXPECT_STDOUT_TEXT "arm 1: sched_setaffinity 6-7: 0
arm 1: affinity 6-7 (sched_getaffinity returned 32)
arm 1: ran on 6 (20 yields)
")
# sm8650: no CPU implements AArch32, so its kernel refuses a 32-bit ELF as
# one without compat support does: execve fails with ENOEXEC
# (search_binary_handler() finds no handler), and asymu refuses it as the
# first program (status 126).
asymu_e2e(NAME soc-sm8650-aarch32-execve ASYMU_ONLY
          ARGS run --soc sm8650 --check-invariants -- ${GUEST_DIR}/pol-launch-aarch64 - fork
               ${GUEST_DIR}/pol-show-armhf aff
          EXPECT_STDOUT_TEXT "launch: execve @GUEST_DIR@/pol-show-armhf: ENOEXEC
launch: child exited 1
")
asymu_e2e(NAME soc-sm8650-aarch32-run ASYMU_ONLY EXPECT_STATUS 126
          ARGS run --soc sm8650 -- ${GUEST_DIR}/pol-show-armhf aff
          EXPECT_STDERR_CONTAINS "32-bit (AArch32) image, but this machine runs 64-bit user space only")

# --cpu-model: a machine of one's own from the core-type table. Capacities
# are capacity-dmips-mhz normalised (no cpufreq: the kernel's freq_factor 1),
# every CPU one cluster, no cpufreq directory; the 32-bit CPUs are those
# whose core implements AArch32 at EL0, and --aarch32 may narrow them.
asymu_e2e_guest(NAME soc-cpu-model PROGRAM sysfs-read ISAS aarch64 armhf ASYMU_ONLY
                MACHINE --cpu-model 0-3=cortex-a55,4-5=cortex-a78,6-7=cortex-x1
                OPTIONS --check-invariants EXPECT_STDOUT soc-cpu-model.out
                GUEST_ARGS ls:${CPU_SYS} cat:${CPU_SYS}/aarch32_el0
                           cat:${CPU_SYS}/cpu0/cpu_capacity cat:${CPU_SYS}/cpu4/cpu_capacity
                           cat:${CPU_SYS}/cpu7/cpu_capacity
                           cat:${CPU_SYS}/cpu5/regs/identification/midr_el1
                           cat:${CPU_SYS}/cpu7/topology/cluster_cpus_list
                           "line:/proc/cpuinfo:CPU part")
asymu_e2e_guest(NAME soc-cpu-model-narrow PROGRAM sysfs-read ISAS aarch64 ASYMU_ONLY
                MACHINE --cpu-model 0-1=cortex-a510,2=cortex-x2 --aarch32 0
                OPTIONS --capacity 2=1000
                GUEST_ARGS cat:${CPU_SYS}/aarch32_el0 cat:${CPU_SYS}/cpu0/cpu_capacity
                           cat:${CPU_SYS}/cpu2/cpu_capacity cat:${CPU_SYS}/possible
                EXPECT_STDOUT_TEXT "0\n326\n1000\n0-2\n")
# --soc with --aarch32: an implementation whose Cortex-A510s have AArch32 (a
# build-time option) may list them.
asymu_e2e_guest(NAME soc-aarch32-a510 PROGRAM sysfs-read ISAS aarch64 ASYMU_ONLY
                MACHINE --soc sm8450 --aarch32 0-6
                GUEST_ARGS cat:${CPU_SYS}/aarch32_el0 EXPECT_STDOUT_TEXT "0-6\n")
# --soc with --capacity: the preset's capacities, the named ones replaced.
asymu_e2e_guest(NAME soc-capacity-override PROGRAM sysfs-read ISAS aarch64 ASYMU_ONLY
                MACHINE --soc sm8450 OPTIONS --capacity 0-3=300 --cpus 8
                GUEST_ARGS cat:${CPU_SYS}/cpu0/cpu_capacity cat:${CPU_SYS}/cpu7/cpu_capacity
                EXPECT_STDOUT_TEXT "300\n1024\n")

# --soc list, and the combinations that make no sense.
asymu_e2e(NAME soc-list ASYMU_ONLY ARGS run --soc list EXPECT_STDOUT soc-list.out)
function(soc_cli_error name message)
  asymu_e2e(NAME soc-error-${name} ASYMU_ONLY EXPECT_STATUS 2 ARGS run ${ARGN} -- /bin/true
            EXPECT_STDERR_CONTAINS "${message}")
endfunction()
soc_cli_error(cpus "invalid value '4' for --cpus: --soc sm8450 has 8 CPUs (leave --cpus out)"
              --soc sm8450 --cpus 4)
soc_cli_error(unknown "invalid value 'sm9999' for --soc: not a known SoC; one of sm8450, mt6983, sm8550, gs201, sm8650 (asymu run --soc list)"
              --soc sm9999)
soc_cli_error(aarch32 "invalid value '0-7' for --aarch32: CPU 7 is a Cortex-X2, which does not implement AArch32 at EL0 (this machine's 32-bit CPUs: 4-6)"
              --soc sm8450 --aarch32 0-7)
soc_cli_error(aarch32-none "invalid value '3' for --aarch32: CPU 3 is a Cortex-A720, which does not implement AArch32 at EL0 (this machine's 32-bit CPUs: none)"
              --soc sm8650 --aarch32 3)
soc_cli_error(both "invalid value '0=cortex-x1' for --cpu-model: cannot be combined with --soc, which sets every CPU's core type"
              --soc sm8450 --cpu-model 0=cortex-x1)
soc_cli_error(model-name "invalid value '0-1=cortex-a55,2=cortex-x9' for --cpu-model: 'cortex-x9' is not a core type; one of cortex-a55, cortex-a78, cortex-x1, cortex-a510, cortex-a520, cortex-a710, cortex-a715, cortex-a720, cortex-x2, cortex-x3, cortex-x4 (LIST=NAME,...)"
              --cpu-model 0-1=cortex-a55,2=cortex-x9)
soc_cli_error(model-gap "invalid value '0-1=cortex-a55,3=cortex-x1' for --cpu-model: CPU 2 has no core type (name every CPU from 0 to 3) (LIST=NAME,...)"
              --cpu-model 0-1=cortex-a55,3=cortex-x1)
soc_cli_error(model-twice "invalid value '0-1=cortex-a55,1=cortex-x1' for --cpu-model: CPU 1 is given two core types (LIST=NAME,...)"
              --cpu-model 0-1=cortex-a55,1=cortex-x1)
soc_cli_error(model-cpus "invalid value '0-3=cortex-a55' for --cpu-model: CPU 3 is out of range 0-1 (LIST=NAME,...)"
              --cpus 2 --cpu-model 0-3=cortex-a55)

# Hotplug on a preset: an offline CPU leaves its policy's affected_cpus
# (cpufreq_offline()) but stays in related_cpus and keeps its cpufreq link;
# it leaves its cluster's cluster_cpus; back online, it returns.
asymu_e2e_guest(NAME soc-sm8550-hotplug PROGRAM sysfs-read ISAS aarch64 ASYMU_ONLY
                MACHINE --soc sm8550 OPTIONS --check-invariants
                GUEST_ARGS write:${CPU_SYS}/cpu4/online:0 cat:${CPU_SYS}/cpufreq/policy3/affected_cpus
                           cat:${CPU_SYS}/cpufreq/policy3/related_cpus readlink:${CPU_SYS}/cpu4/cpufreq
                           cat:${CPU_SYS}/cpu3/topology/cluster_cpus_list
                           write:${CPU_SYS}/cpu4/online:1 cat:${CPU_SYS}/cpufreq/policy3/affected_cpus
                EXPECT_STDOUT_TEXT "write ${CPU_SYS}/cpu4/online: 1
3 5 6 \n3 4 5 6 \nreadlink ${CPU_SYS}/cpu4/cpufreq: ../cpufreq/policy3
0-3,5-7
write ${CPU_SYS}/cpu4/online: 1
3 4 5 6 \n")

# lscpu's view (Debian 12's util-linux, in the conformance roots built by the
# conformance-roots fixture, docs/conformance.md; named conformance-* so
# that ctest -R soc does not pull the roots' build in): per CPU the core index
# lscpu derives for each core type, and each policy's maximum and minimum
# from cpufreq; and the model names from the MIDR part numbers (lscpu 2.38
# knows no Cortex-X2 and prints "-").
foreach(isa arm64 armhf)
  set(_root ${CMAKE_BINARY_DIR}/conformance/root-${isa})
  add_test(NAME conformance-lscpu-sm8550-${isa}
           COMMAND sh -c "\"$0\" run --soc sm8550 --sysroot \"$1\" -- \"$1/usr/bin/lscpu\" -e=CPU,CORE,SOCKET,ONLINE,MAXMHZ,MINMHZ | diff -u \"$2\" -"
                   $<TARGET_FILE:asymu> ${_root} ${CMAKE_CURRENT_SOURCE_DIR}/expected/soc-lscpu-sm8550.out)
  set_tests_properties(conformance-lscpu-sm8550-${isa} PROPERTIES LABELS conformance TIMEOUT 300
                       FIXTURES_REQUIRED conformance-roots)
endforeach()
add_test(NAME conformance-lscpu-sm8450-models
         COMMAND sh -c "\"$0\" run --soc sm8450 --sysroot \"$1\" -- \"$1/usr/bin/lscpu\" | grep -E '^(Model name|Stepping|CPU max MHz|CPU op-mode)'"
                 $<TARGET_FILE:asymu> ${CMAKE_BINARY_DIR}/conformance/root-arm64)
set_tests_properties(conformance-lscpu-sm8450-models PROPERTIES LABELS conformance TIMEOUT 300
                     FIXTURES_REQUIRED conformance-roots
                     PASS_REGULAR_EXPRESSION "^CPU op-mode\\(s\\): +32-bit, 64-bit\nModel name: +Cortex-A510\nStepping: +r1p0\nCPU max MHz: +1785.6000\nModel name: +Cortex-A710\nStepping: +r2p0\nCPU max MHz: +2496.0000\nModel name: +-\nCPU max MHz: +2995.2000\n$")

# Time follows a core type's capacity: a Cortex-A510 (326 dmips/MHz, AArch32
# turned on) beside a Cortex-A710 (693) gets capacity 481 against 1024, so
# the same busy loop takes 2.1 times as long on it (tests/guest/timing.c,
# docs/timing.md), on both ISAs.
asymu_e2e_guest(NAME soc-cpu-model-speed PROGRAM timing GUEST_ARGS speed ASYMU_ONLY REPEAT
                MACHINE --cpu-model 0=cortex-a510,1=cortex-a710 --aarch32 0-1 OPTIONS --seed 1
                EXPECT_STDOUT_TEXT "CLOCK_MONOTONIC little/big 2.1, within 2.0 +-10%: yes
CLOCK_THREAD_CPUTIME_ID little/big 2.1, within 2.0 +-10%: yes
getrusage little/big 2.1, within 2.0 +-10%: yes
")
