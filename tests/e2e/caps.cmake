# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/caps.cmake: capabilities (issue 26 item 5; emu/kernel/capability.c,
# docs/processes.md "Credentials and capabilities").

# Every scenario of tests/guest/caps.c: capget's version probe and errors,
# capset's rules and errors, setuid/seteuid/setfsuid moving the sets,
# PR_SET_KEEPCAPS, the ambient set raised and kept across the execve of a
# non-root program, the bounding set dropped before an execve, securebits,
# no_new_privs, /proc/self/status's Cap lines, and the calls that ask for a
# capability (F_SETPIPE_SZ, setrlimit, SO_RCVBUFFORCE, sethostname,
# clock_settime, vhangup, chown, mlock, SHM_LOCK) failing with euid 0 but
# the capability out of the effective set, and kill's permission (another
# user's process: EPERM, SIGCONT in the session, kill(-1)), SO_PEERCRED's
# effective ids and SCM_CREDENTIALS' real ones, a sender's claimed
# credentials checked, ptrace access (PTRACE_ATTACH/SEIZE, process_vm_readv,
# PTRACE_TRACEME: the target's ids, dumpable, permitted set, or
# CAP_SYS_PTRACE; PR_GET/SET_DUMPABLE) (expected/caps-issue26.out).
# The expected output is Linux's: caps.c built for x86-64 and run as root
# on the host kernel (6.18) prints the same lines, but for the last
# scenario: 5.15's cap_bprm_creds_from_file() gives a no_new_privs process
# whose euid is not its uid the real uid at execve (uid 65534 65534 65534),
# where kernels from 6.15 keep euid 0 ("uid 65534 0 0 fsuid 0").
# ASYMU_ONLY: the execve of a guest program needs binfmt_misc under qemu-user.
asymu_e2e_guest(NAME caps-issue26 PROGRAM caps ASYMU_ONLY)
# Root's sets as the first process starts: every capability of 5.15
# (CAP_LAST_CAP 40) permitted, effective and in the bounding set.
asymu_e2e_guest(NAME caps-issue26-root PROGRAM caps GUEST_ARGS root ASYMU_ONLY
  EXPECT_STDOUT_TEXT "  uid 0 0 0 fsuid 0\n  CapInh: 0000000000000000 CapPrm: 000001ffffffffff CapEff: 000001ffffffffff CapBnd: 000001ffffffffff CapAmb: 0000000000000000 NoNewPrivs: 0\n")
