# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/seccomp.cmake: seccomp(2) and prctl(PR_SET_SECCOMP) filters and
# strict mode (emu/kernel/guest_seccomp.c, Linux 5.15's kernel/seccomp.c), and
# prctl's own settings (emu/kernel/prctl.c, kernel/sys.c's prctl), issue 26
# item 5. Both ISAs print the same (expected/seccomp-CASE.out), as Linux
# 5.15 answers; qemu-user is no reference here: it refuses seccomp (its
# filter would confine the emulator) and answers EINVAL to the prctl
# options it does not know.
foreach(case nnp errno trap kill kill-thread tsync strict errors pdeath subreaper settings)
  asymu_e2e_guest(NAME seccomp-issue26-${case} PROGRAM seccomp GUEST_ARGS ${case}
                  EXPECT_STDOUT seccomp-${case}.out)
endforeach()
