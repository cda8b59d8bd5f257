# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/futex-pi.cmake: priority-inheritance futexes (issue 26 item 5;
# emu/kernel/futex_pi.c, futex_robust.c), one case of
# tests/guest/futex-pi.c per test, both ISAs, the same expected output
# (expected/futex-pi-issue26-CASE.out). errors, mutex, boost, chain and requeue
# were run under qemu-user on the host kernel (6.18, SCHED_FIFO allowed) and
# agree line for line, the boost's /proc priority field (-31 while the
# SCHED_FIFO 30 thread waits), the chain, the fair owner's 15 and the
# order of events included. robust is
# asymu's alone: qemu-user does not pass set_robust_list on (ENOSYS, its
# guest list is no list for the host), so glibc's robust PI lock asserts
# there; its lines follow exit_robust_list() and exit_pi_state_list().
foreach(case errors mutex boost chain requeue robust)
  set(only)
  if(case STREQUAL robust)
    set(only ASYMU_ONLY)
  endif()
  asymu_e2e_guest(NAME futex-pi-issue26-${case} PROGRAM futex-pi GUEST_ARGS ${case} ${only})
endforeach()
# The same on a one-CPU machine, run twice for the same output (REPEAT):
# the boost decides the order there too.
asymu_e2e_guest(NAME futex-pi-issue26-boost-cpus1 PROGRAM futex-pi GUEST_ARGS boost
                MACHINE --cpus 1 --aarch32 0 REPEAT
                EXPECT_STDOUT futex-pi-issue26-boost.out)
