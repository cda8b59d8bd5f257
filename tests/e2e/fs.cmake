# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/fs.cmake: file-system calls (tests/guest/fs-calls.c, one case
# per test) and symlinks in the private /tmp (tests/guest/fs-symlinks.c);
# expected output in expected/fs-*.out. Every line was checked against
# qemu-user on the host kernel, except where asymu's places differ from
# the host's by design: statfs of /tmp (tmpfs) and / (read-only), the
# read-only root's EROFS and EOPNOTSUPP (extended attributes), F_SETPIPE_SZ
# past pipe-max-size (the guest is root with CAP_SYS_RESOURCE),
# sched_rr_get_interval of a SCHED_OTHER task (5.15's CFS slice; newer
# kernels give 0), the 32-bit readdir qemu-user cannot give, and
# copy_file_range from a negative offset (5.15's rw_verify_area: EINVAL;
# the 6.18 host says EOVERFLOW).

asymu_e2e_guest(NAME fs-symlinks PROGRAM fs-symlinks)

foreach(case umask utime truncate statfs vecio pipesize sendfile rr slash fadvise notify copyrange)
  asymu_e2e_guest(NAME fs-calls-${case} PROGRAM fs-calls GUEST_ARGS ${case})
endforeach()
# The private /tmp of this one lies in the build tree, on a file system
# with user extended attributes (a tmpfs before Linux 6.6 has none).
# A symlink itself has no attributes and takes none: the sandbox allows
# no path-based host call that changes them (docs/security.md).
asymu_e2e_guest(NAME fs-calls-xattr PROGRAM fs-calls GUEST_ARGS xattr
                ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}" EXPECT_STDOUT fs-calls-xattr.out)

# Issue "Real programs, part 3", item 2: the requests every file takes
# (Linux's do_vfs_ioctl, fs/ioctl.c) on each kind of file: FIONREAD on a
# pipe, a regular file (size past the position, negative beyond the end),
# a FIFO, a socket and the console (stdin a 42-byte file, 5 bytes read);
# ENOTTY where the kind has no such request (a directory, eventfd,
# /dev/null), EINVAL from /dev/urandom's random_ioctl; FIOASYNC where the
# file has fasync (pipes, FIFOs, sockets, /dev/urandom), ENOTTY otherwise;
# FIONBIO, FIOCLEX, FIONCLEX; FIOQSIZE (arm numbers it 0x545e). Java reads
# a child's output through FIONREAD on a pipe. The host kernel gives the
# same under qemu-user but for FIOQSIZE, which qemu-user 7.2 does not know.
asymu_e2e_guest(NAME ioctl-generic PROGRAM ioctls STDIN ${DATA}/stdin.txt ASYMU_ONLY)

# splice(2), tee(2) and vmsplice(2) (fs/splice.c of 5.15; issue 28, what
# tracing needed): a pipe to a file at an offset and at its position, a
# file to a pipe, pipe to pipe, to and from a socket, tee leaving the
# bytes, vmsplice in and out, a blocking splice woken by a write; EINVAL,
# ESPIPE, EBADF, EFAULT, EAGAIN, EPIPE and end of file where the kernel
# gives them (tests/guest/splice.c; every line as qemu-user on the host
# kernel gives it).
asymu_e2e_guest(NAME fs-splice PROGRAM splice)

# Linux native AIO (fs/aio.c of 5.15; issue 26 item 5): io_setup's EINVAL
# and EAGAIN (aio-max-nr 65536, aio-nr counted), the ring's header and its
# /[aio] mapping, pread, pwrite, preadv, pwritev, fsync and fdsync on a
# file, the iocb checks in Linux's order and io_submit's partial counts,
# IOCB_FLAG_RESFD with an eventfd, events reaped from the ring in user
# space, a pipe read completed by a child's write, POLL ready, waiting and
# cancelled (EINPROGRESS), io_getevents' timeouts (a count, not ETIMEDOUT)
# and EINTR despite SA_RESTART, io_pgetevents with a signal mask, a forked
# child without the context, a thread waiting in io_getevents woken by a
# completion and by io_destroy (tests/guest/aio.c). qemu-user 7.2 has no AIO
# (io_setup is ENOSYS there), so the same source was built for the host
# (gcc -pthread -I tests/guest tests/guest/aio.c) and run on the host kernel (6.18):
# every line is what it printed. The ring's nr (383 for 128) counts 4
# slots per possible CPU: the same on machines of at most 32 CPUs. Where
# 6.18 and 5.15 differ (more RWF_* flags, I/O priority hints) the test
# asks what both refuse.
asymu_e2e_guest(NAME aio-issue26-ops PROGRAM aio)
# What asymu does where Linux's io_submit would block the submitter (a read
# of an empty blocking pipe or eventfd, a write to a full pipe): the request
# waits and completes when its object is ready; io_destroy drops it, exit
# frees it (docs/guest-root.md).
asymu_e2e_guest(NAME aio-issue26-deferred PROGRAM aio GUEST_ARGS deferred ASYMU_ONLY)

# io_uring (fs/io_uring.c of 5.15; issue 26 item 5; emu/fs/io_uring.c):
# io_uring_setup's EINVAL/EFAULT and params (entries rounded, CQ twice the
# SQ or CQSIZE, CLAMP), the three regions mapped, the ring file's link and
# O_CLOEXEC, enter's and register's errors, NOP, write/read and
# writev/readv on a file (offset -1: the file's position), fsync (a pipe's
# EINVAL), fadvise (ESPIPE on a pipe) and madvise, a pipe read,
# openat/statx/close (the ring's own fd is EBADF), bad
# SQE flags, opcode and personality, a bad SQ index (sq_dropped, the batch
# ends), a lone failed prep ending the batch, linked chains (a prep failure
# cancels the whole chain, a short read cancels the rest of a link but not
# of a hard link), a read of an empty pipe and a POLL_ADD completed by a
# later write, ASYNC_CANCEL (ENOENT the second time) and POLL_REMOVE of a
# waiting poll, TIMEOUT (-ETIME after 10 ms, 0 on a count of one
# completion, TIMEOUT_REMOVE, EINVAL for len 2 or a negative time),
# GETEVENTS with nothing in flight ended by a signal
# (EINTR), IORING_REGISTER_PROBE, REGISTER_EVENTFD (one count per
# CQE), REGISTER_FILES with IOSQE_FIXED_FILE, R_DISABLED and ENABLE_RINGS
# (tests/guest/io_uring.c). qemu-user 7.2 has no io_uring, so the same
# source was built for the host (gcc -I tests/guest tests/guest/io_uring.c)
# and run on the host kernel (6.18): every line is what it printed but
# two: an mmap of the ring at an unknown offset (0x40000000), which 6.18
# answers ENOMEM and 5.15's io_uring_validate_mmap_request EINVAL; and the
# POLL_ADD woken by a pipe write, 65 (POLLIN | POLLRDNORM, the wake-up's
# key, which 5.15's __io_async_wake keeps) where 6.18 re-polls and gives 1. The
# test waits for each CQE with IORING_ENTER_GETEVENTS (the host completes
# some in task work; asymu has them all when enter returns), orders
# requests by links, and prints of features only the bits asymu offers
# (6.18 has more). Where 6.18 and 5.15 differ otherwise (a file looked up
# at issue, not at prep; a read of an empty O_NONBLOCK pipe waits on 6.18)
# the test asks what both answer alike.
asymu_e2e_guest(NAME iouring-issue26-ops PROGRAM io_uring)
# What asymu does where 5.15 would complete a request later or keep a CQE
# (docs/guest-root.md): a read of an empty blocking pipe inside a chain is
# -EAGAIN at once (a lone one waits), a waiting read goes without a CQE
# when its ring is closed, a full CQ ring drops the CQE and counts it in overflow (no
# IORING_FEAT_NODROP), a short EXT_ARG is EINVAL, SQPOLL's thread sleeps
# (IORING_SQ_NEED_WAKEUP) until IORING_ENTER_SQ_WAKEUP, IOPOLL refuses; an
# exit with a read and a timeout waiting frees them with the ring (clean
# under ASan/LSan, checked by hand with a sanitized build).
asymu_e2e_guest(NAME iouring-issue26-asymu PROGRAM io_uring GUEST_ARGS asymu ASYMU_ONLY)
