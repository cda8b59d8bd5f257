# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 24 (security, third pass), items 6 to 10: the host side of a run.

# Items 6 and 7 (host-dirs.py): the private /tmp and /dev/shm are 0700 on
# the host while the guest sees 01777; the janitor ends with asymu (and on
# SIGTERM) when asymu holds descriptors past 1024.
if(NOT ASYMU_E2E_RUNNER)
  foreach(arch arm64 armhf)
    foreach(case mode janitor)
      add_test(NAME e2e-issue24-host-dirs-${case}-${arch}
        COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/host-dirs.py $<TARGET_FILE:asymu>
                ${BUSYBOX_DIR}/${arch}/bin/busybox ${case})
      set_tests_properties(e2e-issue24-host-dirs-${case}-${arch} PROPERTIES LABELS e2e
                           TIMEOUT 120 FIXTURES_REQUIRED busybox ENVIRONMENT "PATH=/usr/bin:/bin")
    endforeach()
  endforeach()
endif()

# Item 10c: a guest's write to a host pipe whose reader has gone gets
# SIGPIPE with its EPIPE; the default action kills the guest and asymu's
# status mirrors it, 128 + 13, as Linux's and qemu-user's shells report.
if(NOT ASYMU_E2E_RUNNER)
  foreach(arch arm64 armhf)
    add_test(NAME e2e-issue24-host-sigpipe-${arch}
      COMMAND bash -c "\"$0\" run -- \"$1\" yes | head -1; echo \"status \${PIPESTATUS[0]}\""
              $<TARGET_FILE:asymu> ${BUSYBOX_DIR}/${arch}/bin/busybox)
    set_tests_properties(e2e-issue24-host-sigpipe-${arch} PROPERTIES LABELS e2e TIMEOUT 60
                         FIXTURES_REQUIRED busybox PASS_REGULAR_EXPRESSION "^y\nstatus 141\n$")
  endforeach()
endif()

# Item 10a: --tmp-size counts entries too, one per 4 KiB page as tmpfs's
# nr_inodes: 64K allows 16 (empty files, a directory, a symlink alike);
# ENOSPC past them, EEXIST first for a name that is there, and an unlink
# gives one back.
asymu_e2e_busybox(NAME issue24-tmp-inodes ASYMU_ONLY OPTIONS --tmp-size 64K
  ARGS sh ${CMAKE_CURRENT_SOURCE_DIR}/busybox/tmp-inodes.sh
  EXPECT_STDOUT_TEXT "files 16
mkdir: can't create directory '/tmp/d': No space left on device
ln: /tmp/s: No space left on device
mkfifo: /tmp/p: No space left on device
touch: /dev/shm/x: No space left on device
mkdir: can't create directory '/tmp/f1': File exists
mkdir after rm
ln: /tmp/s: No space left on device
")

# Item 8 (nofile.py): under a host soft limit of 1024, three guest
# processes hold 1,000 files each; with the host out of descriptors the
# guest gets ENFILE, and the control socket neither spins nor stays deaf.
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    foreach(case three control)
      add_test(NAME e2e-issue24-nofile-${case}-${isa}
        COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/nofile.py $<TARGET_FILE:asymu>
                ${GUEST_DIR} ${isa} ${case})
      set_tests_properties(e2e-issue24-nofile-${case}-${isa} PROPERTIES LABELS e2e TIMEOUT 300)
    endforeach()
  endforeach()
endif()
