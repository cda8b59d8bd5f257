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
