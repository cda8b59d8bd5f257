# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/proc.cmake: process and signal gaps CPython's regression tests
# found (tests/guest/creds.c and friends). The expected output is the host
# kernel's under qemu-user, as root, on both ISAs.

# set*id from root down to an unprivileged user and back by the saved id,
# sorted supplementary groups, setfs*id (expected/creds.out).
asymu_e2e_guest(NAME creds PROGRAM creds)
# posix_fadvise: EBADF, ESPIPE for pipes before the advice is looked at,
# EINVAL, else 0 (expected/creds-fadvise.out).
asymu_e2e_guest(NAME creds-fadvise PROGRAM creds GUEST_ARGS fadvise)
# /dev/stdin, /dev/fd/N, /proc/self/fd/N open the descriptor's file again:
# a pipe end (another writer keeps the reader from end of file), a file
# (its own offset), ENXIO for a socket; O_NOFOLLOW gives ELOOP
# (expected/devfd.out).
asymu_e2e_guest(NAME devfd PROGRAM devfd)
# The guest's O_NOFOLLOW, O_DIRECTORY and O_DIRECT are other host flags:
# each reaches the host and F_GETFL (glibc's lchmod, CPython's
# test_tempfile symlink cleanup, needs O_PATH|O_NOFOLLOW; expected/nofollow.out).
asymu_e2e_guest(NAME nofollow PROGRAM nofollow)
# pidfd_send_signal on a /proc/PID directory descriptor (a thread group's,
# also through /proc/self; not /proc/PID/task/TID, not O_PATH): signals the
# process, its zombie takes signal 0, ESRCH once reaped. Flags are EINVAL on
# 5.15; the host kernel under qemu-user (6.9 and later) takes flag 1,
# PIDFD_SIGNAL_THREAD (expected/procdir-signal.out).
asymu_e2e_guest(NAME procdir-signal PROGRAM procdir-signal)
# Advisory locks between guest processes: flock per open file description,
# fcntl record locks per process (merged when they touch, dropped at any
# close of the file and at exit), OFD locks, their errors, and a blocked
# flock or F_SETLKW a SIGALRM interrupts: EINTR without SA_RESTART, waited
# on with it (CPython's test_eintr; expected/flocks.out).
asymu_e2e_guest(NAME flocks PROGRAM flocks)
# Closing every descriptor by listing /proc/self/fd a few entries at a time
# (CPython's subprocess child, test_pass_fds): none is skipped; rewinddir
# lists the directory again (". .. 0 1 2 dir").
asymu_e2e_guest(NAME closefrom PROGRAM closefrom
  EXPECT_STDOUT_TEXT "open before: 24\ngetdents64 calls > 1: yes, last: 0\nopen after: 4\nentries after rewinding: 6\n")
# A blocking pipe write writes everything, or what it could before a
# signal (CPython's test_io test_interrupted_write_unbuffered).
asymu_e2e_guest(NAME pipe-write-whole PROGRAM pipewrite
  EXPECT_STDOUT_TEXT "reader got 300000\nwrite to a slow reader: 300000\nwrite interrupted after filling the pipe: 65536\nwrite interrupted with the pipe full: -1 EINTR\n")
