# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/mqueue.cmake: POSIX message queues (emu/ipc/mqueue.c; issue 26
# item 5), one case of tests/guest/mqueue.c per test, both ISAs (armhf
# also calls mq_timedsend_time64 and mq_timedreceive_time64 directly:
# glibc uses them only past 2038). Each expected output
# (expected/mqueue-CASE.out) is the same on both ISAs; basic, block,
# timeout, poll and signal were compared with qemu-user on the host kernel
# and agree. errors, notify and thread are asymu's alone: qemu-user 7.2
# has no mq_notify (ENOSYS) and opens O_RDWR|O_WRONLY as O_RDONLY, where
# Linux's prepare_open says EINVAL; their lines follow ipc/mqueue.c.
foreach(case basic block timeout poll signal)
  asymu_e2e_guest(NAME mqueue-${case} PROGRAM mqueue GUEST_ARGS ${case})
endforeach()
foreach(case errors notify thread)
  asymu_e2e_guest(NAME mqueue-${case} PROGRAM mqueue GUEST_ARGS ${case} ASYMU_ONLY)
endforeach()
