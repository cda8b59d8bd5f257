# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/openat2.cmake: openat2(2) (issue 26 item 5; emu/fs/openat2.c,
# sysfs-fs/vfs.c's walk), both ISAs, one expected output for both.
# `checks`: copy_struct_from_user() and build_open_flags() (sizes, unknown
# flags and resolve bits, mode without O_CREAT, O_PATH and O_TMPFILE rules,
# RESOLVE_CACHED with O_CREAT/O_TRUNC/O_TMPFILE). `resolve`: every RESOLVE_*
# flag on a tree in the private /tmp and on /proc's links.
# The expected outputs are the host kernel's (Linux 6.18): qemu-user 7.2 has
# no openat2 (ENOSYS), so the same source was built for the host and run
# as root in a new mount namespace with a tmpfs on /tmp (as asymu's):
#   unshare -m sh -c 'mount -t tmpfs tmpfs /tmp && ./openat2-native resolve'
# Where 5.15 differs from that kernel asymu follows the later rule, said in
# emu/fs/openat2.c: a size above a page is E2BIG (5.15 read on), and
# RESOLVE_CACHED refuses __O_TMPFILE, not O_DIRECTORY (the 5.15.y fix).
foreach(case checks resolve)
  asymu_e2e_guest(NAME openat2-issue26-${case} PROGRAM openat2 GUEST_ARGS ${case}
                  EXPECT_STDOUT openat2-issue26-${case}.out)
endforeach()
