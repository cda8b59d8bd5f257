# SPDX-License-Identifier: GPL-2.0-or-later
# The gdb stub (asymu run --gdb PORT --gdb-wait; docs/ptrace.md), with
# Debian's gdb-multiarch in batch mode (scripts/bootstrap installs it):
# break at main, registers, a global, next, stepi, threads with their vCPU
# and affinity, the exit code (break); follow a fork and an exec into the
# other ISA's program (fork-exec); stop on a signal and pass it (signal);
# stop on a fault, then die of it (fault);
# and the protocol by hand, malformed and hostile packets (packets).
find_program(GDB_MULTIARCH gdb-multiarch)
if(NOT GDB_MULTIARCH)
  set(GDB_MULTIARCH gdb-multiarch) # the tests fail, naming what is missing
endif()
foreach(isa aarch64 armhf)
  foreach(case break fork-exec signal fault packets)
    add_test(NAME e2e-gdbstub-${case}-${isa}
      COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/gdbstub.py $<TARGET_FILE:asymu>
              ${GUEST_DIR} ${isa} ${case} ${GDB_MULTIARCH})
    set_tests_properties(e2e-gdbstub-${case}-${isa} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
# Issue 24: a status register Linux would refuse a tracer gets E16 and
# changes nothing, the program then runs to its end (item 2: `P19=00000000`
# aborted asymu); only asymu's own user may connect (item 5: as root, a
# connection made by nobody is closed and said on stderr; root's is served;
# skipped, 77, when the tests do not run as root).
foreach(isa aarch64 armhf)
  foreach(case sec-cpsr sec-peer-uid)
    add_test(NAME e2e-gdbstub-${case}-${isa}
      COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/gdbstub.py $<TARGET_FILE:asymu>
              ${GUEST_DIR} ${isa} ${case} ${GDB_MULTIARCH})
    set_tests_properties(e2e-gdbstub-${case}-${isa} PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
  endforeach()
endforeach()
