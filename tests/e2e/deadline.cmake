# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/deadline.cmake: scheduling classes (sched_setattr/sched_getattr,
# SCHED_DEADLINE, FIFO/RR priorities) and rule U9 of the asymmetric-AArch32
# spec (deadline tasks and 32-bit exec). docs/processes.md describes the
# classes, docs/policies.md maps U9 to its tests. ASYMU_ONLY: never make a
# host process a deadline or real-time task.

# The struct's size protocol, every policy's checks, admission control,
# reset-on-fork and a deadline task's affinity and fork, on 2 vCPUs.
asymu_e2e_guest(NAME sched-attr PROGRAM sched-attr MACHINE --cpus 2 OPTIONS --seed 1
                ASYMU_ONLY REPEAT)

# EDF first, then real-time by priority (FIFO and RR alike), then fair; the
# throttled deadline task finishes two periods later. One vCPU.
asymu_e2e_guest(NAME sched-edf-order PROGRAM sched-edf MACHINE --cpus 1 OPTIONS --seed 1
                ASYMU_ONLY REPEAT
                EXPECT_STDOUT_TEXT "dl-early done\ndl-late done\nfifo60 done\nrr50 done\nfifo40 done\nfair done\ndl-throttled done (after 200 ms: yes)\nall done\n")

# A deadline task's budget ends its slice at the virtual time it is spent
# (sched_dl_next_event, docs/scheduler.md), whatever --slice is; the next
# period gives it back at its start. Runtime 1 ms every 10 ms.
foreach(slice 100 10000000)
  asymu_e2e_guest(NAME sched-dl-budget-slice${slice} PROGRAM sched-dl-budget MACHINE --cpus 2
                  OPTIONS --seed 1 --slice ${slice} --check-invariants ASYMU_ONLY
                  EXPECT_STDOUT_TEXT "period 1: ran 1000 us, the next began 10000 us after it\nperiod 2: ran 1000 us, the next began 10000 us after it\nperiod 3: ran 1000 us, the next began 10000 us after it\n")
endforeach()

# U9: upstream refuses a 64-bit deadline task's 32-bit exec (ENOEXEC, the
# task lives on and its 64-bit exec works); a 32-bit task cannot become a
# deadline task (EPERM: A, narrowed to M, does not span the root domain).
# The other policies, from series without the check, exec it and narrow A
# like any 32-bit exec (override, fixup) or leave it (kill).
set(DL_EXEC32 ${GUEST_DIR}/dl-exec-armhf)
set(DL_EXEC64 ${GUEST_DIR}/dl-exec-aarch64)
asymu_e2e_policy(NAME pol-U9-deadline-exec32-enoexec RUN ${DL_EXEC64} ${DL_EXEC32} ${DL_EXEC64}
                 EXPECT_STDOUT_TEXT "aarch64: exec 32-bit: ENOEXEC\naarch64: policy 6 cpus 0 1 2 3 4 5 6 7\n")
asymu_e2e_policy(NAME pol-U9-deadline-exec32-enoexec-armhf
                 RUN ${DL_EXEC32} ${DL_EXEC32} ${DL_EXEC64}
                 EXPECT_STATUS 1 EXPECT_STDOUT_TEXT "arm: sched_setattr: EPERM\n")
asymu_e2e_policy(NAME pol-U9-deadline-exec32-override POLICY override
                 RUN ${DL_EXEC64} ${DL_EXEC32} ${DL_EXEC64}
                 EXPECT_STDOUT_TEXT "arm: policy 6 cpus 0 1 2 3\n")
asymu_e2e_policy(NAME pol-U9-deadline-exec32-kill POLICY kill
                 RUN ${DL_EXEC64} ${DL_EXEC32} ${DL_EXEC64}
                 EXPECT_STDOUT_TEXT "arm: policy 6 cpus 0 1 2 3 4 5 6 7\n")

# /proc/sys/kernel/sched_rt_runtime_us and sched_rt_period_us: read,
# written, refused (EINVAL; EBUSY below the admitted deadline bandwidth),
# and -1 turning admission control off. Two vCPUs.
asymu_e2e_guest(NAME sched-rt-sysctl PROGRAM sched-rt-sysctl MACHINE --cpus 2 OPTIONS --seed 1
                ASYMU_ONLY)
