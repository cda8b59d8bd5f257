# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sched-balance.cmake: load balancing and wake-up placement of
# the fair class (issue 27 item 4, docs/scheduler.md rules B1-B11). The
# guest is tests/guest/sched-balance.c. ASYMU_ONLY: the emulated machine's
# vCPUs have no host equivalent.

# 8 hogs released from vCPU 0 onto every vCPU: the idle vCPUs pull one each
# at once (B7).
asymu_e2e_guest(NAME sched-27-4-balance-spread PROGRAM sched-balance GUEST_ARGS crowd 8 8 100
                MACHINE --cpus 8 --aarch32 0-7 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "after 100 ms: cpu0=1 cpu1=1 cpu2=1 cpu3=1 cpu4=1 cpu5=1 cpu6=1 cpu7=1\nhogs ran on cpus 0 1 2 3 4 5 6 7\n")
# 3 hogs on vCPU 0 and 1 on vCPU 1 of two: no vCPU is idle, so only vCPU
# 1's periodic balance (B2-B6, every 7 ticks when busy) makes it 2 and 2
# (before it, they stayed 3 and 1).
asymu_e2e_guest(NAME sched-27-4-balance-busy PROGRAM sched-balance GUEST_ARGS crowd 4 3 100
                MACHINE --cpus 2 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "after 100 ms: cpu0=2 cpu1=2\nhogs ran on cpus 0 1\n")
# The same 32-bit hogs on a machine whose 32-bit vCPUs are 0-1: balanced
# between those two, never onto the idle 64-bit-only vCPUs 2-3 (B5,
# task_cpu_possible_mask()).
asymu_e2e_guest(NAME sched-27-4-balance-32bit-in-m PROGRAM sched-balance ISAS armhf
                GUEST_ARGS crowd 4 3 100 MACHINE --cpus 4 --aarch32 0-1
                OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "after 100 ms: cpu0=2 cpu1=2\nhogs ran on cpus 0 1\n")
# The same on gs201 (three clusters: MC and DIE levels, B1): 8 hogs from
# vCPU 0 end one per vCPU.
asymu_e2e_guest(NAME sched-27-4-balance-gs201 PROGRAM sched-balance GUEST_ARGS crowd 8 8 100
                MACHINE --soc gs201 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "after 100 ms: cpu0=1 cpu1=1 cpu2=1 cpu3=1 cpu4=1 cpu5=1 cpu6=1 cpu7=1\nhogs ran on cpus 0 1 2 3 4 5 6 7\n")
# wake_affine() (B8, B9): woken by its parent on vCPU 0, a task last on
# vCPU 1 where two hogs run goes to vCPU 0 (wake_affine_weight()); with
# vCPU 1 idle it stays there (wake_affine_idle()).
asymu_e2e_guest(NAME sched-27-4-balance-wake-affine PROGRAM sched-balance GUEST_ARGS wake 2
                MACHINE --cpus 2 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "wakee blocks on cpu 1\nwaker on cpu 0\nwakee woke on cpu 0\n")
asymu_e2e_guest(NAME sched-27-4-balance-wake-prev PROGRAM sched-balance GUEST_ARGS wake 0
                MACHINE --cpus 2 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "wakee blocks on cpu 1\nwaker on cpu 0\nwakee woke on cpu 1\n")
