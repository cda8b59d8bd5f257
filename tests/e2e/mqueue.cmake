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

# The mqueue file system (sysfs-fs/mqueue_fs.c; issue 26 item 5):
# /dev/mqueue mounted from boot as systemd mounts it (mounts and mountinfo
# lines, statfs), readdir, stat, the QSIZE line through the file, a file
# used as an mq descriptor, unlink as mq_unlink, open(O_CREAT) and mknod
# as mqueue_create, the errnos of what the directory cannot do, hostile
# names (a path below a queue, "..", 256 bytes), a second mount busy while
# a queue is open through it then detached, a user that is not root
# (mount EPERM, the sticky directory); ro: a read-only mount's EROFS and
# /dev/mqueue unmounted and mounted again. The expected outputs are what
# the host kernel (Linux 6.18) printed for the same binaries under
# qemu-user, run in private mount and IPC namespaces with a tmpfs /dev
# holding an mqueue mount at /dev/mqueue (`mount -t mqueue -o
# nosuid,nodev,noexec`), except one line of the armhf run: qemu-arm lists
# an empty host directory (/tmp/asymu-mq2 after the detach) as nothing at
# all, its 64-bit directory offsets being too large for a 32-bit guest,
# where asymu lists "." and "..". ASYMU_ONLY: a plain qemu-user runner
# has neither that /dev/mqueue nor the right to mount one.
asymu_e2e_guest(NAME mqueue-fs-issue26 PROGRAM mqueue-fs ASYMU_ONLY)
asymu_e2e_guest(NAME mqueue-fs-issue26-ro PROGRAM mqueue-fs GUEST_ARGS ro ASYMU_ONLY)
# Debian's busybox: a queue made by the shell's `>`, `ls`, `stat`, `cat`
# of its line, `rm`, a refused mkdir, /proc/mounts' line; arm64's busybox
# printed the same under qemu-user on the host kernel, set up as above.
asymu_e2e_busybox(NAME mqueue-fs-issue26 ASYMU_ONLY
                  ARGS sh -c ": > /dev/mqueue/q1 && ls /dev/mqueue && stat -c '%A %s %u %n' /dev/mqueue /dev/mqueue/q1 && cat /dev/mqueue/q1 && rm /dev/mqueue/q1 && ls -a /dev/mqueue && mkdir /dev/mqueue/d 2>/dev/null || grep mqueue /proc/mounts"
                  EXPECT_STDOUT_TEXT "q1
drwxrwxrwt 60 0 /dev/mqueue
-rw-r--r-- 80 0 /dev/mqueue/q1
QSIZE:0          NOTIFY:0     SIGNO:0     NOTIFY_PID:0     
.
..
mqueue /dev/mqueue mqueue rw,nosuid,nodev,noexec,relatime 0 0
")
