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
