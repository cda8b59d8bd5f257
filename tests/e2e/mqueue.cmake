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
foreach(case basic timeout poll signal)
  asymu_e2e_guest(NAME mqueue-${case} PROGRAM mqueue GUEST_ARGS ${case})
endforeach()
# Blocked senders and receivers across processes, by priority: run twice,
# the same output and stderr (REPEAT: the waits are on virtual time).
asymu_e2e_guest(NAME mqueue-block PROGRAM mqueue GUEST_ARGS block REPEAT)
foreach(case errors notify thread)
  asymu_e2e_guest(NAME mqueue-${case} PROGRAM mqueue GUEST_ARGS ${case} ASYMU_ONLY)
endforeach()
# Queued messages are the machine's kernel memory (--max-kmem): a root
# guest that lifts RLIMIT_MSGQUEUE and opens a queue of 65536 messages of
# 1 MiB (HARD_MSGMAX, within HARD_MSGSIZEMAX) gets ENOMEM from mq_send at
# 16 MiB (Linux's load_msg when the kernel has no memory), blocking or
# not; a receive makes room for one more; a new queue after the old one
# is gone takes as many. Without it the queue could take 64 GiB of host memory.
asymu_e2e_guest(NAME mqueue-kmem-issue24 PROGRAM mqueue GUEST_ARGS kmem ASYMU_ONLY
                OPTIONS --max-kmem 16M --host-reserve 0 --max-mem 64M
                EXPECT_STDOUT_TEXT "lift RLIMIT_MSGQUEUE: ok
open 65536 x 1 MiB: ok
send: ENOMEM after 14-16 MiB: yes
receive: ok
send after it: ok
and once more: ENOMEM
blocking send: ENOMEM
unlink, close: ok ok
a new queue: ENOMEM after as many: yes
")
