# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/kmem.cmake: the machine's kernel memory (--max-kmem,
# emu/machine/kmem.h; issue 24 item 4). Buffers the guest makes asymu hold
# outside its mappings end at a count of the machine's own, never at the
# host's free memory: --host-reserve 0 keeps the host's check out of the
# way, so every failure point below is the same on every host.

# A root guest raises msg_qbytes to 1 GiB and queues 8 KiB messages: msgsnd
# fails with ENOMEM (Linux's load_msg when the kernel has no memory) at
# --max-kmem, blocking or not; a receive makes room for exactly one more;
# IPC_RMID gives everything back. Before, the queue took the whole GiB.
asymu_e2e_guest(NAME kmem-msgq-issue24 PROGRAM kmem GUEST_ARGS msgq ASYMU_ONLY
                OPTIONS --max-kmem 16M --host-reserve 0 --max-mem 64M
                EXPECT_STDOUT_TEXT "raise msg_qbytes to 1 GiB: 0
msgsnd IPC_NOWAIT: ENOMEM after 15-16 MiB: yes
msgsnd blocking: ENOMEM
msgrcv: 8192
msgsnd after it: 0
and once more: ENOMEM
IPC_RMID: 0
raise msg_qbytes to 1 GiB: 0
a new queue: ENOMEM after as many: yes
")
# 16 pipes of 64 KiB fill 1 MiB: the 17th pipe() fails with ENFILE (Linux's
# create_pipe_files when get_pipe_inode finds no memory); growing a pipe
# past what is left fails with ENOMEM, shrinking gives back (4 KiB: still
# not room for a pipe), and closing the others makes room.
asymu_e2e_guest(NAME kmem-pipes-issue24 PROGRAM kmem GUEST_ARGS pipes ASYMU_ONLY
                OPTIONS --max-kmem 1M --host-reserve 0
                EXPECT_STDOUT_TEXT "pipe: ENFILE after 16 pipes of 64 KiB
F_SETPIPE_SZ 1 MiB: ENOMEM
F_SETPIPE_SZ 4 KiB: 4096
one more pipe: ENFILE
F_SETPIPE_SZ 512 KiB with the others closed: 524288
")
# setsockopt's buffer sizes as Linux 5.15's sock_setsockopt sets them:
# clamped (as unsigned: -1 is the maximum) to net.core.[rw]mem_max (212992)
# and doubled; the FORCE options (root) skip that clamp, take a negative
# value as 0 and stop at INT_MAX / 2 doubled. Checked against the host
# kernel (python, as root), which agrees but for its own rmem_max.
asymu_e2e_guest(NAME kmem-sockopt-issue24 PROGRAM kmem GUEST_ARGS sockopt
                EXPECT_STDOUT_TEXT "SO_RCVBUF 1073741824: 0, reads 425984
SO_RCVBUF -1: 0, reads 425984
SO_RCVBUF 0: 0, reads 2304
SO_RCVBUF 100000: 0, reads 200000
SO_SNDBUF 1073741824: 0, reads 425984
SO_SNDBUF 0: 0, reads 4608
SO_RCVBUFFORCE 1073741824: 0, reads 2147483646
SO_RCVBUFFORCE 300000: 0, reads 600000
SO_RCVBUFFORCE -5: 0, reads 2304
SO_SNDBUFFORCE 2147483647: 0, reads 2147483646
")
# With 2 GiB socket buffers (SO_*BUFFORCE) a stream pair fills to
# --max-kmem, where send fails with ENOBUFS (sock_alloc_send_pskb's errno
# when the kernel cannot allocate); reading it all gives the memory back.
asymu_e2e_guest(NAME kmem-sockfill-issue24 PROGRAM kmem GUEST_ARGS sockfill ASYMU_ONLY
                OPTIONS --max-kmem 16M --host-reserve 0
                EXPECT_STDOUT_TEXT "send: ENOBUFS after 15-16 MiB: yes
read back all of it: yes
send after: 65536
")
# Pseudo-terminal pairs (two rings each) count too: opening /dev/ptmx
# fails with ENOMEM (ptmx_open when alloc_tty_struct cannot allocate) at
# --max-kmem, and closing a master gives its pair's bytes back.
asymu_e2e_guest(NAME kmem-ptys-issue24 PROGRAM kmem GUEST_ARGS ptys ASYMU_ONLY
                OPTIONS --max-kmem 1M --host-reserve 0
                EXPECT_STDOUT_TEXT "open /dev/ptmx: ENOMEM after 16-64 pairs: yes
after closing one: opened
")
# kernel.pty.max: five processes open 4096 pairs between them (the
# default --max-kmem holds them), then /dev/ptmx fails with ENOSPC, as
# Linux's devpts_new_index does on the initial devpts instance. Before,
# only descriptors bounded the number of pairs.
asymu_e2e_guest(NAME kmem-ptymax-issue24 PROGRAM kmem GUEST_ARGS ptymax ASYMU_ONLY
                OPTIONS --host-reserve 0
                EXPECT_STDOUT_TEXT "opened 4096 pairs, then ENOSPC
")
# Engines and their translation buffers (up to 1 GiB of translated code
# each, emu/machine/engine.c) count against --host-reserve: every 1,024
# slices asymu checks the host, and below the reserve it closes every
# engine, freeing its code. A reserve no host has makes that happen on
# every check: the process runs on through 3,000 slices, its engine closed
# and reopened between them, and computes what it does without (the hash
# is the same as in a normal run).
asymu_e2e_guest(NAME kmem-engines-reclaimed-issue24 PROGRAM kmem GUEST_ARGS yield ASYMU_ONLY
                OPTIONS --host-reserve 1000000G
                EXPECT_STDERR_CONTAINS "closing every engine to free its translated code"
                EXPECT_STDOUT_TEXT "3000 slices, hash 75489bb5da41aa83
")
asymu_e2e_guest(NAME kmem-engines-kept PROGRAM kmem GUEST_ARGS yield
                EXPECT_STDOUT_TEXT "3000 slices, hash 75489bb5da41aa83
")
# The host side of the message-queue case: with the default --max-kmem
# (256 MiB), a guest that tries to queue 1 GiB stops at ENOMEM and asymu's
# peak resident memory stays under 400 MB (it reached 1 GiB before, and the
# guest deadlocked with every task blocked). GNU time measures the peak.
foreach(isa aarch64 armhf)
  asymu_e2e_host_rss(NAME kmem-msgq-host-rss-issue24-${isa} LIMIT_KB 400000
                     LINE "msgsnd IPC_NOWAIT: ENOMEM"
                     ARGS run --max-mem 64M --host-reserve 0 -- ${GUEST_DIR}/kmem-${isa} msgq)
endforeach()
