# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/review.cmake: issue 11 item 5, the review's fixes: descriptor
# tables shared across execve and close_range, exec from a thread, thread
# names, file owners. Each is ASYMU_ONLY: qemu-user drops CLONE_FILES and
# cannot exec a guest path itself, and the comm and owners programs do
# their host-changing part (offlining a CPU, chown of /etc/passwd) only
# when uname says asymu; their expected outputs were checked against the
# host kernel with the programs built for x86-64 and run natively (the
# owners one in a private tmpfs /tmp), but for those asymu-only lines.

# prctl(PR_SET_NAME) names the calling thread, cut to 15 bytes: PR_GET_NAME,
# /proc/PID/comm, /proc/PID/task/TID/comm, status Name: and the kernel log
# follow it (the log part runs under asymu only: it offlines cpu3).
asymu_e2e_guest(NAME comm PROGRAM comm ASYMU_ONLY
  EXPECT_STDOUT_TEXT "PR_SET_NAME: 0
main PR_GET_NAME: 0 \"main-thread-nam\" byte 15: 0
/proc/self/comm: \"main-thread-nam\"
/proc/self/status: \"Name:\tmain-thread-nam\"
worker inherits: 0 \"main-thread-nam\" byte 15: 0
worker PR_GET_NAME: 0 \"worker-with-a-l\" byte 15: 0
worker's task comm: \"worker-with-a-l\"
worker's task status: \"Name:\tworker-with-a-l\"
main's task comm: \"main-thread-nam\"
/proc/self/comm after the worker's: \"main-thread-nam\"
pthread_setname_np(worker): 0
worker's task comm: \"renamed-by-main\"
pthread_getname_np(worker): 0 \"renamed-by-main\"
write another process's comm: EINVAL
sched_setaffinity: 0
offline cpu3: 1
kmsg: process 1 (pinned) no longer affine to cpu3
")

# A descriptor table shared by clone(CLONE_FILES) without CLONE_VM: execve
# unshares it before closing the close-on-exec descriptors, close_range
# with CLOSE_RANGE_UNSHARE before closing or marking; the other process
# keeps its descriptors. The expected output is the host kernel's, the
# program built for x86-64 and run natively (qemu-user drops CLONE_FILES;
# expected/fdshare.out).
asymu_e2e_guest(NAME fdshare PROGRAM fdshare ASYMU_ONLY)

# execve from a thread other than the main one: the other threads end and
# the exec'ing thread takes the pid as its tid; the parent reaps one child,
# with the new image's status; with the main thread still running and
# after it left with pthread_exit. The expected output is the host
# kernel's, the program built for x86-64 and run natively
# (expected/threadexec.out).
asymu_e2e_guest(NAME threadexec PROGRAM threadexec ASYMU_ONLY)

# File owners the guest gives (emu/fs/owner.c): created files belong to the
# fsuid and fsgid (a set-group-ID directory's group), chown/lchown/fchown/
# fchownat as root give any owner and clear set-user-ID (and set-group-ID
# with group execute) of non-directories; without CAP_CHOWN only a group
# the caller is in, on its own file; /proc/self/status Uid:, Gid:, Groups:
# (expected/owners.out).
asymu_e2e_guest(NAME owners PROGRAM owners ASYMU_ONLY)
