# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sysctl.cmake: the IPC, keys, AIO and inotify limits of /proc/sys
# (emu/kernel/sysctl.c; issue 26, item 5): root writes them as Linux 5.15's
# proc_dointvec_minmax and proc_doulongvec_minmax take them, uid 1000 may
# not, and mq_open, add_key, io_setup, inotify_init, msgget, msgsnd, shmget,
# semget and semop enforce the new values. Both ISAs, one expected output
# each (expected/sysctl-issue26-CASE.out).
# Checked against the host kernel (Linux 6.18, as root):
# - show under qemu-aarch64: the same modes and owners, and the same values
#   but max_user_watches (the host's memory).
# - write: its cases that leave the host's values as they are (every
#   refused write, the same value written as "10\n", "  10 \n", "\t0xa",
#   "012\n", "10 6\n", "10\n\n\n", the second write and the pwrite at 1,
#   the one-byte read, sem's ERANGE and EINVAL, uid 1000's EACCES and
#   EPERM, access(2) for root and uid 1000) from a script: the same results. The host refuses aio-max-nr
#   "-5" with EINVAL: Linux 5.17 made proc_doulongvec_minmax do that; 5.15
#   skips the negative number and takes the write, as asymu does.
# - enforce changes the limits it tests, so it ran on asymu only; its lines
#   follow the Linux functions named in mqueue.c, keys.c, aio.c, inotify.c
#   and the System V files.
foreach(case show write enforce)
  asymu_e2e_guest(NAME sysctl-issue26-${case} PROGRAM sysctl-limits GUEST_ARGS ${case} ASYMU_ONLY)
endforeach()
