# SPDX-License-Identifier: GPL-2.0-or-later
# The emulator's own confinement (sandbox.sh): --version names it, a running
# emulator is under its seccomp filter with no_new_privs while its janitor is
# not, and it still does its work. The policy itself: unit-sandbox.
# A sanitizer build's new root holds all of /proc (emu/machine/newroot.c).
if(ASYMU_SANITIZE)
  set(SANDBOX_BUILD sanitized)
else()
  set(SANDBOX_BUILD release)
endif()
add_test(NAME e2e-sandbox
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/sandbox.sh $<TARGET_FILE:asymu>
          ${CMAKE_BINARY_DIR}/tests/guest/stdin-wait-aarch64 ${SANDBOX_BUILD})
set_tests_properties(e2e-sandbox PROPERTIES LABELS e2e TIMEOUT 60)
# The same with a 32-bit guest (the new root of issue 24 item 1 included).
add_test(NAME e2e-sandbox-armhf
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/sandbox.sh $<TARGET_FILE:asymu>
          ${CMAKE_BINARY_DIR}/tests/guest/stdin-wait-armhf ${SANDBOX_BUILD})
set_tests_properties(e2e-sandbox-armhf PROPERTIES LABELS e2e TIMEOUT 60)

# Issue 24, item 1: file metadata in the private /tmp, changed through a
# descriptor only (the sandbox allows no path-based change): chmod,
# utimensat, xattrs, chown's setuid clearing on a file, a directory, a
# fifo; a socket node and a symlink itself answer EOPNOTSUPP (times, mode)
# as docs/guest-root.md says, hence ASYMU_ONLY. TMPDIR: a file system with
# user extended attributes.
asymu_e2e_guest(NAME sandboxed-meta PROGRAM sandboxed GUEST_ARGS meta ASYMU_ONLY
                ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}" EXPECT_STDOUT sandboxed-meta.out)
# Issue 24, item 3: sizes at which asymu's qsort takes glibc's slow branch
# (sysinfo(2)): 64 and 500 ready epoll items, 256 and 65536 groups.
asymu_e2e_guest(NAME sandboxed-epoll64 PROGRAM sandboxed GUEST_ARGS epoll64
                EXPECT_STDOUT sandboxed-epoll64.out)
asymu_e2e_guest(NAME sandboxed-groups256 PROGRAM sandboxed GUEST_ARGS groups256
                EXPECT_STDOUT sandboxed-groups256.out)
# ... and a long --trace-format ftrace trace, whose lines asymu sorts.
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    add_test(NAME e2e-sandboxed-ftrace-long-${isa}
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/ftrace-long.sh $<TARGET_FILE:asymu>
              ${CMAKE_BINARY_DIR}/tests/guest/threads-${isa})
    set_tests_properties(e2e-sandboxed-ftrace-long-${isa} PROPERTIES LABELS e2e TIMEOUT 120)
  endforeach()
endif()
