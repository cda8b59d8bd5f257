# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/lifetimes.cmake: a vfork parent that dies while it waits
# (tests/guest/lifetimes.c). qemu-user turns vfork into fork, so the
# expected lines are Linux's rules rather than qemu-user's output: the wait
# is killable (SIGKILL, and fatal signals without a core dump, end it at
# once), not interruptible (a handler runs when vfork returns).

# A thread's exit_group ends P while it waits; P is reaped before C exits,
# and C's exit must not wake P's freed task (an ASan use-after-free).
asymu_e2e_guest(NAME lifetimes-exit-group PROGRAM lifetimes GUEST_ARGS exit-group ASYMU_ONLY
  EXPECT_STDOUT_TEXT "P exited 3 at 0.1 s\nchild: parent gone\nC gone at 0.3 s\n")
# SIGKILL and SIGTERM end the wait at once, not when C exits at 0.9 s.
asymu_e2e_guest(NAME lifetimes-kill PROGRAM lifetimes GUEST_ARGS kill ASYMU_ONLY
  EXPECT_STDOUT_TEXT "P killed by SIGKILL at 0.1 s\nchild: parent gone\nC gone at 0.9 s\n")
asymu_e2e_guest(NAME lifetimes-term PROGRAM lifetimes GUEST_ARGS term ASYMU_ONLY
  EXPECT_STDOUT_TEXT "P killed by SIGTERM at 0.1 s\nchild: parent gone\nC gone at 0.9 s\n")
# SIGQUIT dumps core: Linux does not make it a group SIGKILL, so it waits.
asymu_e2e_guest(NAME lifetimes-quit PROGRAM lifetimes GUEST_ARGS quit ASYMU_ONLY
  EXPECT_STDOUT_TEXT "child: parent still there\nP killed by SIGQUIT (core dumped) at 0.3 s\nC gone at 0.3 s\n")
asymu_e2e_guest(NAME lifetimes-handler PROGRAM lifetimes GUEST_ARGS handler ASYMU_ONLY
  EXPECT_STDOUT_TEXT "child: parent still there\nP: vfork returned at 0.3 s, handler ran at 0.3 s\nP: child exited 5\nP exited 0 at 0.3 s\nC gone at 0.3 s\n")
# Exited threads are freed between slices; their CPU time stays with the
# process (the same on the host kernel).
asymu_e2e_guest(NAME lifetimes-threads PROGRAM lifetimes GUEST_ARGS threads
  EXPECT_STDOUT_TEXT "process CPU time counts the exited threads': yes\n")
