# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/exact.cmake: what checking the policies against the v5.15 and
# v6.6 sources found (issue 12): deadline tasks at a 32-bit exec (U9) under
# both generations, and a hotplug sequence's kernel log line for line.
# docs/policies.md maps each test to its rule and kernel function. Uses
# policies.cmake's and generations.cmake's helpers, deadline.cmake's
# DL_EXEC32/DL_EXEC64.

set(DL_OFF_64BIT_CPUS online:4:0 online:5:0 online:6:0 online:7:0)
set(DL_ON_64BIT_CPUS online:4:1 online:5:1 online:6:1 online:7:1)

# U9 in 6.6: compat_elf_check_arch() (arch/arm64/kernel/process.c) is 5.15's,
# so linux-6.6 refuses the 64-bit deadline task's 32-bit exec too.
asymu_e2e_policy(NAME pol-U9-deadline-exec32-enoexec-linux-6.6 POLICY linux-6.6
                 RUN ${DL_EXEC64} ${DL_EXEC32} ${DL_EXEC64}
                 EXPECT_STDOUT_TEXT "aarch64: exec 32-bit: ENOEXEC\naarch64: policy 6 cpus 0 1 2 3 4 5 6 7\n")

# U9/G7: with every 64-bit-only CPU offline the exec is allowed, but
# restrict_cpus_allowed_ptr() refuses to narrow a deadline task (-EPERM), so
# force_compatible_cpus_allowed_ptr() overrides A (the "Overriding affinity"
# line) and saves nothing. The 64-bit exec then keeps 0-3 (5.15: nothing
# saved) or applies every CPU (6.6: no user mask, task_user_cpus()).
asymu_e2e_generations(NAME deadline-exec32-overridden
                      RUN ${SHOW64} deadline ${DL_OFF_64BIT_CPUS} exec:${SHOW32} aff
                          dmesg:Overriding exec:${SHOW64} ${DL_ON_64BIT_CPUS} aff)

# U9 with sched_rt_runtime_us = -1: dl_bandwidth_enabled() is false, so
# neither the exec check nor restrict_cpus_allowed_ptr()'s refusal applies:
# the 32-bit exec narrows A like any other, silently, and the 64-bit exec
# brings 0-7 back (5.15: the saved mask; 6.6: every CPU).
foreach(policy upstream linux-6.6)
  asymu_e2e_policy(NAME pol-U9-admission-off-exec32-narrows-${policy} POLICY ${policy}
                   RUN ${SHOW64} rt-runtime:-1 deadline exec:${SHOW32} aff dmesg:Overriding
                       exec:${SHOW64} aff
                   EXPECT_STDOUT pol-U9-admission-off-exec32-narrows.out)
  # 1.2 and U9: with every CPU 32-bit and the parameter given, the exec hooks
  # still run (arm64_mismatched_32bit_el0 is on), so a deadline task's 32-bit
  # exec is overridden to every online CPU with the log line.
  asymu_e2e_policy(NAME pol-U9-deadline-exec32-symmetric-${policy} POLICY ${policy}
                   MACHINE --cpus 8 --aarch32 0-7
                   RUN ${SHOW64} deadline exec:${SHOW32} aff dmesg:Overriding
                   EXPECT_STDOUT pol-U9-deadline-exec32-symmetric.out)
endforeach()

# Deadline bandwidth through hotplug (v5.15 kernel/sched/deadline.c): EBUSY
# while the admitted total does not fit on the CPU left (dl_cpu_busy() from
# cpuset_cpu_inactive()), and the share of a task that left the class or
# exited with budget left stays in the total until its 0-lag time
# (task_non_contending(), inactive_task_timer()).
asymu_e2e_guest(NAME dl-bandwidth PROGRAM dl-bandwidth MACHINE --cpus 2 OPTIONS --seed 1
                ASYMU_ONLY REPEAT
                EXPECT_STDOUT_TEXT "child: sched_setattr(DEADLINE): 0\nparent: sched_setattr(DEADLINE): 0\necho 0 > cpu1/online: EBUSY\nparent: sched_setattr(OTHER): 0\necho 0 > cpu1/online: EBUSY\necho 0 > cpu1/online: 0\necho 1 > cpu1/online: 0\nparent: sched_setattr(DEADLINE): 0\nchild exited 0\necho 0 > cpu1/online: EBUSY\necho 0 > cpu1/online: 0\n")

# 6: the kernel log of a hotplug sequence, line for line (read back with
# syslog(2), timestamps cut): a compat task pinned to cpu3 takes cpu3
# offline (select_fallback_rq()'s "no longer affine", then
# cpu_psci_cpu_kill(); "CPU3: shutdown" is pr_debug) and back online
# (cpuinfo_detect_icache_policy(), the GICv3 redistributor, then
# secondary_start_kernel()). The same texts in 5.15 and 6.6.
foreach(policy upstream linux-6.6)
  asymu_e2e_policy(NAME pol-6-hotplug-dmesg-${policy} POLICY ${policy}
                   RUN ${SHOW32} set:3 online:3:0 aff online:3:1 aff dmesg:
                   EXPECT_STDOUT pol-6-hotplug-dmesg.out)
endforeach()

# 6: select_fallback_rq() and force_compatible_cpus_allowed_ptr() log through
# printk_ratelimit(): 10 lines every 5 s, all callers together, then
# "select_fallback_rq: N callbacks suppressed" before the next line allowed.
# Eleven sleeping compat tasks pinned to cpu3 fall back as they wake after
# cpu3 went offline (the log has 10 of them, in wake-up order, which the
# test does not fix); 6 s later the caller's own fallback is logged.
set(pol_ratelimit_children)
foreach(i RANGE 1 11)
  list(APPEND pol_ratelimit_children spawn:${LAUNCH} 3 ${SHOW32} sleep:100 --)
endforeach()
asymu_e2e_policy(NAME pol-6-printk-ratelimit REPEAT
                 RUN ${SHOW32} ${pol_ratelimit_children} sleep:10 online:3:0 sleep:6000 set:2
                     online:2:0 wait dmesg-order dmesg:suppressed dmesg:cpu2)
