# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sched-fair.cmake: the fair class on asymmetric capacities (issue
# 27 item 4; docs/scheduler.md maps each rule to these tests). The guest is
# tests/guest/sched-fair.c. ASYMU_ONLY: --capacity and the emulated
# machine's vCPUs have no host equivalent.

# Little vCPUs 0-3 (capacity 512, the 32-bit ones), big 4-7 (1024, 64-bit
# only). A 64-bit CPU hog started on cpu 0 becomes misfit (update_misfit_
# status()) and is pulled by big cpu 4; with every capacity 1024 (the
# DIFFERENT_OPTIONS run) nothing moves it, as before.
set(FAIR_LITTLE_BIG --cpus 8 --aarch32 0-3 --capacity 0-3=512,4-7=1024)
asymu_e2e_guest(NAME sched-27-4-misfit PROGRAM sched-fair ISAS aarch64 GUEST_ARGS misfit 150
                MACHINE --cpus 8 --aarch32 0-3
                OPTIONS --capacity 0-3=512,4-7=1024 --check-invariants
                DIFFERENT_OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "aarch64: started on cpu 0\naarch64: ran on cpus 0 4\naarch64: finished on cpu 4\n")
# The same hog as a 32-bit task: misfit too, but task_cpu_possible_mask()
# holds only the little 32-bit vCPUs, so it never leaves them.
asymu_e2e_guest(NAME sched-27-4-misfit32-stays PROGRAM sched-fair ISAS armhf GUEST_ARGS misfit 150
                MACHINE ${FAIR_LITTLE_BIG} OPTIONS --check-invariants ASYMU_ONLY REPEAT
                EXPECT_STDOUT_TEXT "arm: started on cpu 0\narm: ran on cpus 0\narm: finished on cpu 0\n")
# With big vCPUs among the 32-bit ones (2-3), the 32-bit hog moves to the
# first of them, still never to 4-7.
asymu_e2e_guest(NAME sched-27-4-misfit32-big-in-m PROGRAM sched-fair ISAS armhf
                GUEST_ARGS misfit 150 MACHINE --cpus 8 --aarch32 0-3
                OPTIONS --capacity 0-1=512,2-7=1024 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "arm: started on cpu 0\narm: ran on cpus 0 2\narm: finished on cpu 2\n")

# SCHED_IDLE (WEIGHT_IDLEPRIO 3) against a nice-0 hog (1024) on one vCPU.
# Updated for the tick-based sharing of cfs.c (it was 3:1024 when slices
# were scaled by weight): the SCHED_IDLE task runs one tick (4 ms) and then
# waits while the nice-0 one runs 4 ms * 1024 / 3 = 1365 ms, so in the
# first 100 ms it has 43:1024; over many such cycles it is 3:1024 (unit
# test_sched_idle_weight_3, 20 s).
asymu_e2e_guest(NAME sched-27-4-idle-share PROGRAM sched-fair GUEST_ARGS idle 100
                MACHINE --cpus 1 OPTIONS --check-invariants ASYMU_ONLY REPEAT
                EXPECT_STDOUT_TEXT "child policy: SCHED_IDLE\nSCHED_IDLE:nice-0 CPU time = 43:1024\n")
