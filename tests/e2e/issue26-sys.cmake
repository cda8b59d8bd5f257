# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/issue26-sys.cmake: issue 26 item 5's clock, NUMA and process
# calls, one case of a guest program per test, both ISAs, the same output
# on both (expected/NAME.out).
#
# adjtimex, clock_adjtime (arm: also the compat adjtimex and clock_adjtime
# of struct old_timex32 and clock_adjtime64) and settimeofday
# (emu/kernel/adjtimex.c, tests/guest/adjtimex.c). read and user were
# compared with qemu-user on the host kernel (6.18, not synchronised) and
# agree line for line, but for qemu 7.2 aborting in the child's
# settimeofday; set and offset would move the host's clock and follow
# kernel/time/ntp.c and timekeeping.c.
foreach(case read user set offset)
  asymu_e2e_guest(NAME time-adjtimex-issue26-${case} PROGRAM adjtimex GUEST_ARGS ${case})
endforeach()

# set_mempolicy, get_mempolicy, mbind, migrate_pages, move_pages on a
# machine of one node and /sys/devices/system/node (emu/mm/mempolicy.c,
# tests/guest/mempolicy.c). qemu-user 7.2 has none of the calls (ENOSYS);
# the lines follow mm/mempolicy.c and mm/migrate.c of 5.15. The host's
# sysfs files have the same shape.
foreach(case task vma move sysfs)
  asymu_e2e_guest(NAME mempolicy-issue26-${case} PROGRAM mempolicy GUEST_ARGS ${case})
endforeach()

# ioprio_set and ioprio_get (emu/kernel/ioprio.c). Under qemu-user the
# host kernel (6.18) reports what 5.15 did not: 0 for a task that never
# set a priority (5.15's get_task_ioprio: IOPRIO_CLASS_NONE, IOPRIO_NORM:
# 4) and level 8 of BE accepted; the rest agrees.
asymu_e2e_guest(NAME ioprio-issue26 PROGRAM procmisc GUEST_ARGS ioprio)
# kcmp (emu/kernel/kcmp.c): only same (0) or not is printed, the order of
# different objects being host addresses. The host kernel under qemu-user
# agrees, but for KCMP_SYSVSEM between a process and its child before
# either used SEM_UNDO (the host's qemu process has an undo list; both
# NULL are the same object in kernel/kcmp.c). process_madvise and
# process_mrelease (emu/mm/process_mm.c): qemu-user 7.2 has neither.
asymu_e2e_guest(NAME kcmp-issue26 PROGRAM procmisc GUEST_ARGS kcmp)
asymu_e2e_guest(NAME kcmp-issue26-pidfd PROGRAM procmisc GUEST_ARGS pidfd)
