# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/chroot.cmake: chroot(2) and the per-process root directory
# (issue 26 item 5; emu/fs/openat2.c, sysfs-fs/vfs.c's walk), both ISAs,
# one expected output for both. `errors`: ENOENT, ENOTDIR, EFAULT, and as
# uid 1000 EACCES (a directory without search permission) before EPERM
# (no CAP_SYS_CHROOT). `jail`: a root in the private /tmp whose symlinks
# (absolute, "../../..", one to /tmp/outside) and ".." stay inside it, the
# cwd left outside ("(unreachable)" from the getcwd system call),
# /proc/PID/root and /proc/self/cwd seen from both sides, fork keeping the
# root, exec of /prog inside it.
# The expected outputs are the host kernel's (Linux 6.18): the same source
# built static for the host and run as root in a new mount namespace with
# a tmpfs on /tmp (as asymu's):
#   unshare -m sh -c 'mount -t tmpfs tmpfs /tmp && cd / && ./chroot-native jail'
# (a native build asks the host kernel itself, as root, so chroot(2) answers;
# the guest binaries under qemu-user were not used.)
foreach(case errors jail)
  asymu_e2e_guest(NAME chroot-issue26-${case} PROGRAM chroot GUEST_ARGS ${case}
                  OPTIONS --cwd / EXPECT_STDOUT chroot-issue26-${case}.out)
endforeach()

# Debian 12's chroot(8) (coreutils, in the conformance roots; named
# conformance-* so that ctest -R chroot does not pull the roots' build in):
# `chroot /tmp/jail /prog inside` of a jail the guest made in its private
# /tmp, /prog a copy of the static test program, which the guest reads
# through -L (the folder of the guest programs) under the --sysroot. What
# /prog prints is the `inside:` part of the jail case.
foreach(isa arm64 armhf)
  set(_root ${CMAKE_BINARY_DIR}/conformance/root-${isa})
  set(_prog chroot-aarch64)
  if(isa STREQUAL armhf)
    set(_prog chroot-armhf)
  endif()
  add_test(NAME conformance-chroot-issue26-coreutils-${isa}
           COMMAND sh -c "\"$0\" run --sysroot \"$1\" -L \"$2\" -- \"$2/$3\" coreutils \"/$3\" | diff -u \"$4\" -"
                   $<TARGET_FILE:asymu> ${_root} ${GUEST_DIR} ${_prog}
                   ${CMAKE_CURRENT_SOURCE_DIR}/expected/chroot-issue26-inside.out)
  set_tests_properties(conformance-chroot-issue26-coreutils-${isa} PROPERTIES LABELS conformance
                       TIMEOUT 300 FIXTURES_REQUIRED conformance-roots)
endforeach()

# A dynamic program in a chroot: its ELF interpreter and libc are looked
# up in the jail (open_exec() of PT_INTERP under the process's root). With
# them copied in, the sysroot's cat runs there; without, execve is ENOENT
# (chroot(8) exits 127).
foreach(isa arm64 armhf)
  set(_root ${CMAKE_BINARY_DIR}/conformance/root-${isa})
  if(isa STREQUAL arm64)
    set(_ld ld-linux-aarch64.so.1)
    set(_triplet aarch64-linux-gnu)
  else()
    set(_ld ld-linux-armhf.so.3)
    set(_triplet arm-linux-gnueabihf)
  endif()
  set(_script "mkdir -p /tmp/j/lib/${_triplet} /tmp/bare && cp /bin/cat /tmp/j/ && cp /bin/cat /tmp/bare/ && cp -L /lib/${_ld} /tmp/j/lib/ && cp -L /lib/${_triplet}/libc.so.6 /tmp/j/lib/${_triplet}/ && echo inside > /tmp/j/x && chroot /tmp/j /cat /x; echo rc=$?; chroot /tmp/bare /cat /x 2>/dev/null; echo rc=$?")
  add_test(NAME conformance-chroot-issue26-dynamic-${isa}
           COMMAND $<TARGET_FILE:asymu> run --sysroot ${_root} -- /bin/sh -c "${_script}")
  set_tests_properties(conformance-chroot-issue26-dynamic-${isa} PROPERTIES LABELS conformance
                       TIMEOUT 300 FIXTURES_REQUIRED conformance-roots
                       PASS_REGULAR_EXPRESSION "^inside\nrc=0\nrc=127\n$")
endforeach()
