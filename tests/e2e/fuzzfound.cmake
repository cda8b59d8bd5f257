# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/fuzzfound.cmake: each crash the fuzz harnesses (tests/fuzz/)
# found in the syscall layer, replayed by tests/guest/fuzzfound.c. Expected
# lines are Linux 5.15's answers (checked under qemu-user unless noted).

# asymu_e2e_fuzzfound(CASE "expected stdout")
function(asymu_e2e_fuzzfound case text)
  asymu_e2e_guest(NAME fuzzfound-${case} PROGRAM fuzzfound GUEST_ARGS ${case}
                  EXPECT_STDOUT_TEXT "${text}" ${ARGN})
endfunction()

# UBSan: signal.c negated INT_MIN for kill's process group (the sanitizer
# build, -DASYMU_SANITIZE=undefined, fails this test without the fix; the
# plain build got ESRCH by luck of wrapping). Linux refuses
# INT_MIN first (kill_something_info); not run under qemu-user as root,
# where a kernel that got it wrong would SIGKILL every process.
asymu_e2e_fuzzfound(kill-int-min "kill(INT_MIN, 0) -1 ESRCH\nkill(INT_MIN, SIGKILL) -1 ESRCH\n")

# UBSan: wait4 negated INT_MIN for the process group it names; Linux
# answers ESRCH first (kernel_wait4).
asymu_e2e_fuzzfound(wait4-int-min "wait4(INT_MIN, WNOHANG) -1 ESRCH\n")

# UBSan: timespec_from_guest's clamp left no room for tv_nsec, so a timeout
# near the end of 64-bit time overflowed (pselect6_time64 on arm); the
# sanitizer build fails this test without the fix.
asymu_e2e_fuzzfound(ppoll-far-timeout
  "ppoll(ready, {9223372036, 999999999}) 1\nppoll(ready, {9223372036, 1000000000}) -1 EINVAL\n")

# UBSan: pwritev to /dev/null (which never reads the buffers) summed huge
# lengths past INT64_MAX when adding them to its offset. Linux reads and
# checks the whole vector first (import_iovec: a negative length is
# EINVAL), cuts what one call moves to MAX_RW_COUNT, and refuses a range
# ending past INT64_MAX (rw_verify_area); the mode is checked even for an
# empty vector. qemu-user agrees except on three lines, which the host
# kernel answers as here: the two 2 GiB writes to /dev/null (qemu-user
# wants every page of a buffer mapped: EFAULT) and readv of no buffers from
# a write-only descriptor (qemu-user answers 0 without asking the kernel).
asymu_e2e_fuzzfound(rw-limits
  "writev(null, 2 x 0x7fff0000) 2147479552
write(null, 0x80000000) 2147479552
pwritev(null, 16, INT64_MAX - 8) -1 EINVAL
preadv(zero, 16, INT64_MAX - 8) -1 EINVAL
pread(zero, 16, INT64_MAX - 8) -1 EINVAL
pread(zero, 16, INT64_MAX - 16) 16
readv(zero, SSIZE_MAX + 1) -1 EINVAL
readv(null, none) -1 EBADF
sendfile(null, zero, INT64_MAX - 8, 16) -1 EINVAL
")

# ASan: pselect6 checked nfds as an int but sized its fd_set copies from
# the whole 64-bit register, overflowing a host stack buffer (the sanitizer
# build fails this test without the fix). Linux takes the int and cuts an
# nfds past the descriptor table to the table (core_sys_select), where
# asymu answered EINVAL. Checked against the host kernel (qemu-user aborts
# on these calls).
asymu_e2e_fuzzfound(select-nfds
  "pselect6(0x100000005, {3}, zero timeout) 1
set[0] 0x8
pselect6(2048, {3}, zero timeout) 1
set[0] 0x8
pselect6(-1) -1 EINVAL
")

# A hang: a 64 TiB SysV segment (SHM_NORESERVE) attached and then unmapped
# stalled asymu for hours, as Unicorn removes a region page by page (about
# 0.2 s per GiB). asymu's own bound, not Linux's (which maps them): shared
# mappings of files and segments add up to at most 16 times --max-mem per
# process (4 GiB here), beyond which mmap, shmat and mprotect fail with
# ENOMEM, as for --max-mem itself. arm64 only: an armhf process cannot map
# that much.
asymu_e2e_fuzzfound(shared-huge
  "shmget(64 TiB) 0
shmat(64 TiB) -1 ENOMEM
shmat(1 GiB) 0
shmdt(1 GiB) 0
ftruncate(1 MiB) 0
mmap(file, 4 GiB + 4 KiB) -1 ENOMEM
mmap(file, 1 GiB) 0
mmap(file, 3 GiB + 4 KiB, PROT_NONE) 0
mprotect(3 GiB + 4 KiB, PROT_READ) -1 ENOMEM
mprotect(3 GiB, PROT_READ) 0
" ISAS aarch64 OPTIONS --max-mem 256M ASYMU_ONLY)
