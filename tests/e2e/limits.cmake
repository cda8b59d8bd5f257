# SPDX-License-Identifier: GPL-2.0-or-later
# Resource limits (RLIMIT_*) and the private /tmp's size limit
# (docs/processes.md "Limits", docs/guest-root.md, docs/security.md).
# Linux 5.15's values; qemu-user on the host kernel agrees except where the
# host differs (its NOFILE defaults, nr_open, MEMLOCK after 5.16).

asymu_e2e_guest(NAME rlimit-nofile PROGRAM rlimits GUEST_ARGS nofile ASYMU_ONLY
                EXPECT_STDOUT_TEXT "NOFILE at start: 1024 / 4096
setrlimit NOFILE 20/10: EINVAL
setrlimit NOFILE hard 2000000: EPERM
setrlimit NOFILE 10/20: 0
opened 7, then EMFILE
dup2 to 10: EBADF
dup2 to 9: 0
F_DUPFD from 10: EINVAL
pipe: EMFILE
setrlimit NOFILE 1024/1048576 (root raises the hard limit): 0
F_DUPFD from 10: 10
NOFILE in the child: 50 / 60
NOFILE after exec: 50 / 60
child status 0
")
# SIGXFSZ caught, then its default action: the process dies with core (153).
asymu_e2e_guest(NAME rlimit-fsize PROGRAM rlimits GUEST_ARGS fsize ASYMU_ONLY EXPECT_STATUS 153
                EXPECT_STDOUT_TEXT "setrlimit FSIZE 1000: 0
write 600: 600
write 600: 400
write 1: -1 EFBIG, SIGXFSZ 1
pwrite 10 at 995: 5
ftruncate 2000: EFBIG, SIGXFSZ 2
ftruncate 500: 0, SIGXFSZ 2
write 600 to a pipe (no file size): 600
")
# SIGXCPU at once (soft limit 0, which then moves to 1), SIGKILL at the hard
# limit, 1 s of virtual CPU time.
asymu_e2e_guest(NAME rlimit-cpu PROGRAM rlimits GUEST_ARGS cpu ASYMU_ONLY EXPECT_STATUS 137
                EXPECT_STDOUT_TEXT "setrlimit CPU 0/1: 0
SIGXCPU; the soft limit moved to 1
")
asymu_e2e_guest(NAME rlimit-as PROGRAM rlimits GUEST_ARGS as ASYMU_ONLY
                EXPECT_STDOUT_TEXT "setrlimit AS 256M: 0
mmap 512M: ENOMEM
mmap 16M: mapped
malloc 300M: NULL
")
asymu_e2e_guest(NAME rlimit-stack PROGRAM rlimits GUEST_ARGS stack ASYMU_ONLY
                EXPECT_STDOUT_TEXT "setrlimit STACK 1M: 0
stack mapping: 1024 KiB
")
# Linux does not apply RLIMIT_NPROC to root (CAP_SYS_RESOURCE).
asymu_e2e_guest(NAME rlimit-nproc PROGRAM rlimits GUEST_ARGS nproc
                EXPECT_STDOUT_TEXT "setrlimit NPROC 1/1: 0
fork as root: a child
")
asymu_e2e_guest(NAME rlimit-prlimit PROGRAM rlimits GUEST_ARGS prlimit ASYMU_ONLY
                EXPECT_STDOUT_TEXT "prlimit64 on the child: 0
its old NOFILE: 1024 / 4096
prlimit64 reads back: 0 77 / 88
prlimit64 on pid 9999: ESRCH
prlimit64 resource 16: EINVAL
getrlimit resource 99: EINVAL
setrlimit bad pointer: EFAULT
STACK: 8388608 / unlimited
CORE: 0 / unlimited
CPU: unlimited / unlimited
FSIZE: unlimited / unlimited
AS: unlimited / unlimited
MEMLOCK: 65536 / 65536
")
# --tmp-size 1M: 100000-byte writes fill it to the byte (the last one
# short, counted in 4 KiB pages as tmpfs does), then ENOSPC; a file past
# the size is EFBIG; what unlink frees is found again.
asymu_e2e_guest(NAME tmp-size PROGRAM rlimits GUEST_ARGS tmp OPTIONS --tmp-size 1M ASYMU_ONLY
                EXPECT_STDOUT_TEXT "/tmp/a: 1048576 bytes in 11 writes, then ENOSPC
/tmp/b: 0 bytes in 0 writes, then ENOSPC
ftruncate 4096 when full: ENOSPC
unlink /tmp/a: 0
pwrite at 1 TiB: EFBIG
ftruncate 2M: EFBIG
ftruncate 4096: 0
/tmp/d: 1044480 bytes in 16 writes, then ENOSPC
")

# A symlink (or a bind mount) into the host's procfs: whatever the host
# answers (EACCES for another process's environ), the guest sees ENOENT, so
# that nothing there can be told apart from a missing file.
set(HOSTPROC_LINK ${CMAKE_CURRENT_BINARY_DIR}/bproc)
file(CREATE_LINK /proc ${HOSTPROC_LINK} SYMBOLIC)
asymu_e2e_guest(NAME confine-hostproc PROGRAM confine ASYMU_ONLY
                GUEST_ARGS "environ=open:${HOSTPROC_LINK}/1/environ"
                           "missing=open:${HOSTPROC_LINK}/1/no-such-file"
                           "status=open:${HOSTPROC_LINK}/self/status"
                EXPECT_STDOUT_TEXT "environ: ENOENT\nmissing: ENOENT\nstatus: ENOENT\n")

# MADV_DONTNEED releases host memory (madvise.sh), both ISAs.
foreach(isa aarch64 armhf)
  add_test(NAME e2e-madvise-dontneed-${isa}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/madvise.sh $<TARGET_FILE:asymu>
            ${CMAKE_BINARY_DIR}/tests/guest/madvise-${isa})
  set_tests_properties(e2e-madvise-dontneed-${isa} PROPERTIES LABELS e2e TIMEOUT 60)
endforeach()
