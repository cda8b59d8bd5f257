# SPDX-License-Identifier: GPL-2.0-or-later
# timing.cmake - issue 27 items 1 and 2 (docs/timing.md): virtual time
# follows each vCPU's capacity, and kernel work costs time from a table.
# tests/guest/timing.c prints rounded ratios and "within bounds" verdicts;
# REPEAT runs each twice and wants the same output byte for byte.

# vCPU 0 is a little core (capacity 512), vCPU 1 a big one (1024).
set(TIMING_MACHINE --cpus 2 --aarch32 0-1 --capacity 0=512,1=1024)

# The same busy loop pinned to each: twice as long on the little one, on
# every clock the guest has.
asymu_e2e_guest(NAME issue27-speed-capacity PROGRAM timing GUEST_ARGS speed
                MACHINE ${TIMING_MACHINE} OPTIONS --seed 1 REPEAT ASYMU_ONLY
                EXPECT_STDOUT_TEXT
                "CLOCK_MONOTONIC little/big 2.0, within 2.0 +-10%: yes
CLOCK_THREAD_CPUTIME_ID little/big 2.0, within 2.0 +-10%: yes
getrusage little/big 2.0, within 2.0 +-10%: yes
")
# --insn-rate changes the base rate, not the ratio.
asymu_e2e_guest(NAME issue27-speed-insn-rate PROGRAM timing GUEST_ARGS speed
                MACHINE ${TIMING_MACHINE} OPTIONS --seed 1 --insn-rate 3.25 ASYMU_ONLY
                EXPECT_STDOUT_TEXT
                "CLOCK_MONOTONIC little/big 2.0, within 2.0 +-10%: yes
CLOCK_THREAD_CPUTIME_ID little/big 2.0, within 2.0 +-10%: yes
getrusage little/big 2.0, within 2.0 +-10%: yes
")

# getpid, fork+exit+wait, execve and a page fault on the big vCPU, within
# the bounds docs/timing.md gives for the default table.
set(TIMING_COSTS_OK "getpid within 100..1000 ns: yes
fork+exit+wait within 50000..1000000 ns: yes
execve within 100000..2000000 ns: yes
page fault within 300..3000 ns: yes
")
asymu_e2e_guest(NAME issue27-kernel-costs PROGRAM timing GUEST_ARGS costs
                MACHINE ${TIMING_MACHINE} OPTIONS --seed 1 REPEAT ASYMU_ONLY
                EXPECT_STDOUT_TEXT "${TIMING_COSTS_OK}")

# --costs: a slower syscall shows in getpid (20 times the default, plus the
# loop's few instructions, 2 ns fewer in Thumb; 2 ns fewer than before the
# tick, issue 27 item 3, which stopped counting twice the block a batch ends
# at); the rest keep their defaults.
foreach(pair "aarch64|5039" "armhf|5037")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 isa)
  list(GET parts 1 took)
  asymu_e2e_guest(NAME issue27-costs-file PROGRAM timing GUEST_ARGS costs ISAS ${isa}
                  MACHINE ${TIMING_MACHINE}
                  OPTIONS --seed 1 --costs ${DATA}/costs-slow-syscall.txt ASYMU_ONLY
                  EXPECT_STDOUT_TEXT "getpid within 100..1000 ns: no
  (took ${took} ns)
fork+exit+wait within 50000..1000000 ns: yes
execve within 100000..2000000 ns: yes
page fault within 300..3000 ns: yes
")
endforeach()

# A bad --costs file or --insn-rate stops asymu before the guest runs: exit
# 2, the file and line of the first error.
foreach(c "bad-name|costs-bad-name.txt:2: unknown cost name: forks"
          "bad-value|costs-bad-value.txt:2: expected only a time in ns after execve"
          "twice|costs-twice.txt:2: cost given twice: signal"
          "too-big|costs-too-big.txt:1: a time from 0 to 10000000000 ns for page_fault")
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 message)
  asymu_e2e(NAME cli-costs-${name} ASYMU_ONLY EXPECT_STATUS 2 EXPECT_STDERR_CONTAINS "${message}"
            ARGS run --costs ${DATA}/costs-${name}.txt -- ${GUEST_DIR}/timing-aarch64 exit)
endforeach()
asymu_e2e(NAME cli-costs-missing ASYMU_ONLY EXPECT_STATUS 2
          EXPECT_STDERR_CONTAINS "--costs: /nonexistent/costs.txt: No such file or directory"
          ARGS run --costs /nonexistent/costs.txt -- ${GUEST_DIR}/timing-aarch64 exit)
foreach(rate 0 1.2345 100.001 1. .5 x)
  asymu_e2e(NAME cli-insn-rate-${rate} ASYMU_ONLY EXPECT_STATUS 2
            EXPECT_STDERR_CONTAINS "invalid value '${rate}' for --insn-rate"
            ARGS run --insn-rate ${rate} -- ${GUEST_DIR}/timing-aarch64 exit)
endforeach()
