# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sched-tick.cmake: timers and the tick as Linux keeps them, and
# the fair class's time sharing (issue 27 items 3 and 4; docs/timing.md,
# docs/scheduler.md). The guest is tests/guest/sched-tick.c. ASYMU_ONLY:
# exact virtual times.
#
# Item 3: --slice is only the emulator's batch size. Each workload runs with
# --slice 1000 and --slice 100000 and must print the same, byte for byte:
# a 1 ms clock_nanosleep loop beside a CPU hog on the other vCPU (the
# overshoot is the context switch, 2 us, and the clock reads); timerfd, a
# POSIX timer, an itimer, futex, poll, epoll and select timeouts of 1 ms;
# a SCHED_FIFO task's wake-up latency beside a CFS hog on its vCPU (it
# preempts the hog at its wake-up: check_preempt_curr()).
# (The sleep and fifo values moved by a few ns when the cross mode was
# added to sched-tick.c: the compiler laid out its clock reads anew.)
# Tasks on two vCPUs that talk while both run (cross): a token passed
# through shared memory both spin on, a futex and pipes. vCPUs take turns
# at each 100 us sync quantum (docs/timing.md, "One clock"), not at --slice
# ends, so what each sees of the other, and when, is the same at any
# --slice (before the quantum, the spinning round trips took 7.85 ms with
# --slice 1000 and 10.75 ms with --slice 100000). Each way starts at a
# 20 ms mark of the clock, so the times do not depend on the program's path.
set(cross_aarch64 "shared memory: round trips 8595826 ns, seen after 8100606 ns\nfutex: round trips 49504 ns, seen after 36534 ns\npipe: round trips 29296 ns, seen after 16296 ns\n")
set(cross_armhf "shared memory: round trips 8495178 ns, seen after 8200112 ns\nfutex: round trips 49930 ns, seen after 36230 ns\npipe: round trips 30786 ns, seen after 17136 ns\n")
foreach(isa aarch64 armhf)
  foreach(slice 1000 100000)
    asymu_e2e_guest(NAME sched-27-3-cross-slice${slice} PROGRAM sched-tick ISAS ${isa} GUEST_ARGS cross 5
                    MACHINE --cpus 2 OPTIONS --slice ${slice} --check-invariants ASYMU_ONLY
                    EXPECT_STDOUT_TEXT "${cross_${isa}}")
  endforeach()
endforeach()
asymu_e2e_guest(NAME sched-27-3-sleep-slice1000 PROGRAM sched-tick ISAS aarch64 GUEST_ARGS sleep 4
                MACHINE --cpus 2 OPTIONS --slice 1000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "sleep 0: overshoot 2608 ns\nsleep 1: overshoot 2608 ns\nsleep 2: overshoot 2608 ns\nsleep 3: overshoot 2608 ns\ntotal overshoot 10432 ns\n")
asymu_e2e_guest(NAME sched-27-3-sleep-slice100000 PROGRAM sched-tick ISAS aarch64 GUEST_ARGS sleep 4
                MACHINE --cpus 2 OPTIONS --slice 100000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "sleep 0: overshoot 2608 ns\nsleep 1: overshoot 2608 ns\nsleep 2: overshoot 2608 ns\nsleep 3: overshoot 2608 ns\ntotal overshoot 10432 ns\n")
asymu_e2e_guest(NAME sched-27-3-sleep-slice1000 PROGRAM sched-tick ISAS armhf GUEST_ARGS sleep 4
                MACHINE --cpus 2 OPTIONS --slice 1000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "sleep 0: overshoot 2838 ns\nsleep 1: overshoot 2838 ns\nsleep 2: overshoot 2838 ns\nsleep 3: overshoot 2838 ns\ntotal overshoot 11352 ns\n")
asymu_e2e_guest(NAME sched-27-3-sleep-slice100000 PROGRAM sched-tick ISAS armhf GUEST_ARGS sleep 4
                MACHINE --cpus 2 OPTIONS --slice 100000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "sleep 0: overshoot 2838 ns\nsleep 1: overshoot 2838 ns\nsleep 2: overshoot 2838 ns\nsleep 3: overshoot 2838 ns\ntotal overshoot 11352 ns\n")
asymu_e2e_guest(NAME sched-27-3-timers-slice1000 PROGRAM sched-tick ISAS aarch64 GUEST_ARGS timers 2
                MACHINE --cpus 2 OPTIONS --slice 1000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "timerfd 5152\nposix timer 8672\nitimer 8672\nfutex 5196\npoll 5296\nepoll 5192\nselect 5436\n")
asymu_e2e_guest(NAME sched-27-3-timers-slice100000 PROGRAM sched-tick ISAS aarch64 GUEST_ARGS timers 2
                MACHINE --cpus 2 OPTIONS --slice 100000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "timerfd 5152\nposix timer 8672\nitimer 8672\nfutex 5196\npoll 5296\nepoll 5192\nselect 5436\n")
asymu_e2e_guest(NAME sched-27-3-timers-slice1000 PROGRAM sched-tick ISAS armhf GUEST_ARGS timers 2
                MACHINE --cpus 2 OPTIONS --slice 1000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "timerfd 5632\nposix timer 9088\nitimer 9152\nfutex 5448\npoll 5424\nepoll 5416\nselect 6212\n")
asymu_e2e_guest(NAME sched-27-3-timers-slice100000 PROGRAM sched-tick ISAS armhf GUEST_ARGS timers 2
                MACHINE --cpus 2 OPTIONS --slice 100000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "timerfd 5632\nposix timer 9088\nitimer 9152\nfutex 5448\npoll 5424\nepoll 5416\nselect 6212\n")
asymu_e2e_guest(NAME sched-27-3-fifo-slice1000 PROGRAM sched-tick ISAS aarch64 GUEST_ARGS fifo 3
                MACHINE --cpus 1 OPTIONS --slice 1000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "wake-up 0: latency 2286 ns\nwake-up 1: latency 2288 ns\nwake-up 2: latency 2288 ns\ntotal latency 6862 ns\n")
asymu_e2e_guest(NAME sched-27-3-fifo-slice100000 PROGRAM sched-tick ISAS aarch64 GUEST_ARGS fifo 3
                MACHINE --cpus 1 OPTIONS --slice 100000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "wake-up 0: latency 2286 ns\nwake-up 1: latency 2288 ns\nwake-up 2: latency 2288 ns\ntotal latency 6862 ns\n")
asymu_e2e_guest(NAME sched-27-3-fifo-slice1000 PROGRAM sched-tick ISAS armhf GUEST_ARGS fifo 3
                MACHINE --cpus 1 OPTIONS --slice 1000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "wake-up 0: latency 2396 ns\nwake-up 1: latency 2396 ns\nwake-up 2: latency 2396 ns\ntotal latency 7188 ns\n")
asymu_e2e_guest(NAME sched-27-3-fifo-slice100000 PROGRAM sched-tick ISAS armhf GUEST_ARGS fifo 3
                MACHINE --cpus 1 OPTIONS --slice 100000 --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "wake-up 0: latency 2396 ns\nwake-up 1: latency 2396 ns\nwake-up 2: latency 2396 ns\ntotal latency 7188 ns\n")

# --hz takes the values of Linux's Kconfig.hz only, with a clear error.
foreach(hz 200 0 x 2500)
  asymu_e2e(NAME cli-hz-${hz} ASYMU_ONLY EXPECT_STATUS 2
            EXPECT_STDERR_CONTAINS "invalid value '${hz}' for --hz"
            ARGS run --hz ${hz} -- ${GUEST_DIR}/sched-tick-aarch64 sleep 1)
endforeach()

# Item 4, the fair class as 5.15's CFS: two nice-0 hogs on cpu 0 share it
# 50/50; nice 5 against nice 0 gets 335:1024 of the weights, measured over
# 1 s of ticks: 338:1024; on a 2-vCPU machine (sched_latency 12 ms, each
# hog's sched_slice 6 ms) each runs 2 ticks (8 ms) at a time, never past
# the latency target.
asymu_e2e_guest(NAME sched-27-4-cfs-two-hogs PROGRAM sched-tick GUEST_ARGS share 400 0 other
                MACHINE --cpus 1 OPTIONS --check-invariants ASYMU_ONLY REPEAT
                EXPECT_STDOUT_TEXT "share = 1024:1024\n")
asymu_e2e_guest(NAME sched-27-4-cfs-nice5 PROGRAM sched-tick GUEST_ARGS share 1000 5 other
                MACHINE --cpus 1 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "share = 338:1024\n")
asymu_e2e_guest(NAME sched-27-4-cfs-batch PROGRAM sched-tick GUEST_ARGS share 400 0 batch
                MACHINE --cpus 1 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "share = 1024:1024\n")
asymu_e2e_guest(NAME sched-27-4-cfs-turns PROGRAM sched-tick ISAS aarch64 GUEST_ARGS turns 100
                MACHINE --cpus 2 OPTIONS --check-invariants --slice 1000 ASYMU_ONLY
                EXPECT_STDOUT_TEXT "longest run without the other: 7.997 ms\n")
asymu_e2e_guest(NAME sched-27-4-cfs-turns PROGRAM sched-tick ISAS armhf GUEST_ARGS turns 100
                MACHINE --cpus 2 OPTIONS --check-invariants --slice 1000 ASYMU_ONLY
                EXPECT_STDOUT_TEXT "longest run without the other: 7.996 ms\n")

# Issue 27's defect of two hogs pinned to vCPU 0 of a bigger machine: on 8
# vCPUs (sched_latency 24 ms, slices 12 ms less the weights' rounding) the
# first task, picked at time 0, has run past its slice at the 12 ms tick
# while its vruntime is still behind the child's (START_DEBIT): it runs on,
# its slice's count kept (5.15's pick_next_task_fair() picks prev again
# without set_next_entity()), and the child first runs at the 16 ms tick
# (it ran at 24 ms when the count restarted), with any --slice. The guest
# is tests/guest/sched-pinned.c; on vCPU 1 the turns are the same.
foreach(slice 1000 100000)
  asymu_e2e_guest(NAME sched-27-4-cfs-pinned-cpu0-cpus8-slice${slice} PROGRAM sched-pinned
                  GUEST_ARGS 0 40 MACHINE --cpus 8 OPTIONS --slice ${slice} --check-invariants ASYMU_ONLY
                  EXPECT_STDOUT_TEXT "child first ran at 16.0 ms\nparent's first turn ended at 16.0 ms\n")
endforeach()
asymu_e2e_guest(NAME sched-27-4-cfs-pinned-cpu1-cpus8 PROGRAM sched-pinned
                GUEST_ARGS 1 40 MACHINE --cpus 8 OPTIONS --check-invariants ASYMU_ONLY
                EXPECT_STDOUT_TEXT "child first ran at 16.0 ms\nparent's first turn ended at 16.0 ms\n")
