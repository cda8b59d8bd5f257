# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sched-rt.cmake: the real-time class across vCPUs (issue 27 item
# 4; docs/scheduler.md, rules R1-R8). The guest is tests/guest/sched-rt.c.
# ASYMU_ONLY: exact vCPU numbers and virtual CPU times.

# Two FIFO 10 hogs wait on vCPU 0 behind a FIFO 20 task; vCPU 1 runs a
# fair hog. Given every vCPU, A is pushed to vCPU 1 (push_rt_task()) and B
# stays: they end on two vCPUs.
asymu_e2e_guest(NAME sched-27-4-rt-push PROGRAM sched-rt GUEST_ARGS push 50
                MACHINE --cpus 2 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "A ran on cpus 1\nB ran on cpus 0\n")
# The same as 32-bit tasks with vCPU 1 64-bit only: task_cpu_possible_mask()
# is vCPU 0, so neither is ever pushed there (and no fair hog can run there).
asymu_e2e_guest(NAME sched-27-4-rt-push-m32 PROGRAM sched-rt ISAS armhf GUEST_ARGS push 50
                MACHINE --cpus 2 --aarch32 0 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "A ran on cpus 0\nB ran on cpus 0\n")
# B (FIFO 20) waits behind A (FIFO 30) on vCPU 0 while C (FIFO 40) runs on
# vCPU 1; when C ends, vCPU 1's priority drops and it pulls B
# (pull_rt_task()), though a fair hog runs there.
asymu_e2e_guest(NAME sched-27-4-rt-pull PROGRAM sched-rt GUEST_ARGS pull 20
                MACHINE --cpus 3 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "C ran on cpus 1\nA ran on cpus 0\nB ran on cpus 1\n")
# A FIFO hog for 2 s with a fair task on one vCPU: throttled at the first
# tick past 950 ms of each 1 s period, the fair task runs until the period
# ends (sched_rt_runtime_exceeded(), do_sched_rt_period_timer()).
asymu_e2e_guest(NAME sched-27-4-rt-throttle PROGRAM sched-rt GUEST_ARGS throttle 2000
                MACHINE --cpus 1 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "sched_rt_runtime_us: 950000\nsched_rt_period_us: 1000000\nfair task: 96 ms of CPU time\n")
# sched_rt_runtime_us -1: no throttling, the fair task waits the 2 s out.
asymu_e2e_guest(NAME sched-27-4-rt-throttle-off PROGRAM sched-rt GUEST_ARGS nothrottle 2000
                MACHINE --cpus 1 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "sched_rt_runtime_us: -1\nsched_rt_period_us: 1000000\nfair task: 0 ms of CPU time\n")
