# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/sysv.cmake: the guest programs of the System V IPC tests
# (tests/e2e/sysv.cmake) and of the POSIX message queue tests (mqueue.c,
# mqueue-fs.c for the mqueue file system),
# each built for both ISAs.
asymu_guest_program(sysv-sem sysv-sem.c)
asymu_guest_program(sysv-msg sysv-msg.c)
asymu_guest_program(mqueue mqueue.c EXTRA -pthread -lrt)
asymu_guest_program(mqueue-fs mqueue-fs.c)
