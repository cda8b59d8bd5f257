# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sched-energy.cmake: energy-aware placement and schedutil (issue
# 27 item 5; docs/scheduler.md maps rules E1-E9 to these tests). The guest
# is tests/guest/sched-fair.c. ASYMU_ONLY: the emulated machine's perf
# domains and frequencies have no host equivalent.

# A small periodic task (0.2 ms of work every 4 ms) started on the biggest
# vCPU. sm8550's built-in energy model turns EAS on: find_energy_efficient_
# cpu() moves it to a little Cortex-A510 at its first wake-up (cpu 0: the
# little CPUs have the same spare capacity, the task's utilisation left
# cpu 0 with it, and the first of equals is taken). Before slices ended at
# the fixed sync quantum (issue 27 item 3), its first wake-ups found it
# without utilisation (it stayed on cpu 7), and later cpu 0 still held some:
# cpu 1 was taken. With
# --energy-model none there is no EAS: the wake-up keeps it on cpu 7, idle
# and big enough (select_idle_sibling()).
asymu_e2e_guest(NAME sched-27-5-eas-little PROGRAM sched-fair ISAS aarch64 GUEST_ARGS eas 7 10
                MACHINE --soc sm8550 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "aarch64: started on cpu 7\naarch64: woke on cpus 0\n")
asymu_e2e_guest(NAME sched-27-5-eas-none-stays PROGRAM sched-fair ISAS aarch64
                GUEST_ARGS eas 7 10 MACHINE --soc sm8550
                OPTIONS --energy-model none --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "aarch64: started on cpu 7\naarch64: woke on cpus 7\n")
# The same on a generic 4+3+1 machine with a model from a file, as a 32-bit
# task on a machine whose vCPUs all run 32-bit code, and as a 64-bit one.
set(EM_431 --cpus 8 --aarch32 0-7 --capacity 0-3=400,4-6=800,7=1024)
foreach(isa aarch64 armhf)
  set(p ${isa})
  if(isa STREQUAL armhf)
    set(p arm)
  endif()
  asymu_e2e_guest(NAME sched-27-5-eas-file PROGRAM sched-fair ISAS ${isa} GUEST_ARGS eas 7 10
                  MACHINE ${EM_431} OPTIONS --energy-model ${DATA}/em-4-3-1.txt --check-invariants
                  ASYMU_ONLY EXPECT_STDOUT_TEXT "${p}: started on cpu 7\n${p}: woke on cpus 0\n")
  asymu_e2e_guest(NAME sched-27-5-eas-file-none PROGRAM sched-fair ISAS ${isa}
                  GUEST_ARGS eas 7 10 MACHINE ${EM_431} OPTIONS --check-invariants
                  ASYMU_ONLY EXPECT_STDOUT_TEXT "${p}: started on cpu 7\n${p}: woke on cpus 7\n")
endforeach()
# A 32-bit task on sm8550 runs only on the Cortex-A710s 5-6 (M): EAS never
# takes it to a little CPU, which has no AArch32.
asymu_e2e_guest(NAME sched-27-5-eas-m-only PROGRAM sched-fair ISAS armhf GUEST_ARGS eas 5 10
                MACHINE --soc sm8550 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "arm: started on cpu 5\narm: woke on cpus 5\n")

# schedutil: after 100 ms asleep the domain is at its lowest OPP; a CPU hog
# raises it step by step (frequency-invariant PELT: at each OPP the util
# must pass 80% of that OPP's capacity) to the maximum, read from
# scaling_cur_freq. sm8550's X3 (policy7) and, for a 32-bit hog, the
# Cortex-A710 domain (policy3, cpus 3-6).
asymu_e2e_guest(NAME sched-27-5-schedutil-hog PROGRAM sched-fair ISAS aarch64
                GUEST_ARGS freq 7 400 MACHINE --soc sm8550 ASYMU_ONLY
                EXPECT_STDOUT_TEXT "aarch64: cpu 7 after sleeping: 595200 kHz
aarch64: cpu 7 after a 400 ms hog: 3187200 kHz
")
asymu_e2e_guest(NAME sched-27-5-schedutil-hog32 PROGRAM sched-fair ISAS armhf
                GUEST_ARGS freq 5 400 MACHINE --soc sm8550 ASYMU_ONLY
                EXPECT_STDOUT_TEXT "arm: cpu 5 after sleeping: 499200 kHz
arm: cpu 5 after a 400 ms hog: 2803200 kHz
")

# A bad --energy-model stops asymu before the guest runs: exit 2, the file
# and line of the first error.
foreach(c "order|em-bad-order.txt:3: frequency 400000 kHz is not above the previous OPP's"
          "missing|/nonexistent/em.txt: No such file or directory")
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 message)
  if(name STREQUAL missing)
    set(file /nonexistent/em.txt)
  else()
    set(file ${DATA}/em-bad-${name}.txt)
  endif()
  asymu_e2e(NAME sched-27-5-em-error-${name} ASYMU_ONLY EXPECT_STATUS 2
            EXPECT_STDERR_CONTAINS "${message}"
            ARGS run ${EM_431} --energy-model ${file} -- ${GUEST_DIR}/sched-fair-aarch64 eas 7 1)
endforeach()
# The CPUs of a domain have one capacity (em_dev_register_perf_domain()).
asymu_e2e(NAME sched-27-5-em-error-capacity ASYMU_ONLY EXPECT_STATUS 2
          EXPECT_STDERR_CONTAINS "the CPUs of a perf domain must have the same capacity (CPU 4: 800, CPU 6: 1024)"
          ARGS run --cpus 8 --capacity 0-3=400,4-5=800 --energy-model ${DATA}/em-4-3-1.txt
               -- ${GUEST_DIR}/sched-fair-aarch64 eas 7 1)
# With --soc, a domain's highest OPP is its policy's cpuinfo_max_freq.
asymu_e2e(NAME sched-27-5-em-error-soc-max ASYMU_ONLY EXPECT_STATUS 2
          EXPECT_STDERR_CONTAINS "CPU 0's highest OPP is 2000000 kHz, but its cpufreq policy's cpuinfo_max_freq is 2016000 kHz (--soc sm8550)"
          ARGS run --soc sm8550 --capacity 0-3=400,4-6=800,7=1024 --energy-model ${DATA}/em-4-3-1.txt
               -- ${GUEST_DIR}/sched-fair-aarch64 eas 7 1)
