# SPDX-License-Identifier: GPL-2.0-or-later
# conformance-roots builds the Debian 12 guest roots (downloading packages
# on the first run; build-root.py leaves a root whose package list has not
# changed alone): the fixture of every test that runs a program from them.
# conformance-smoke-MODULE-ISA then runs a few fast modules of CPython's
# test suite under asymu, one test per module and ISA so that ctest spreads
# them over its jobs; each must pass with exactly this many tests run. The
# whole table is `make conformance` (docs/conformance.md). A count that
# depends on the root's libpython3.11-testsuite names its version: deb12u9
# added test_re's test_bug_gh106052, and a mirror whose arm64 and armhf
# indexes lack its Python (build-root.py then takes the deb12u8 test suite)
# gives deb12u8's count.
set(CONFORMANCE_SMOKE test_sched=11 test_random=101
    test_re=156/3.11.2-6+deb12u8 test_re=157/3.11.2-6+deb12u9)
add_test(NAME conformance-roots
         COMMAND sh -c "for isa in arm64 armhf; do /usr/bin/python3 \"$0\" $isa \"$1\" || { echo \"conformance: the $isa guest root could not be built (see above); it needs the Debian mirror in the machine's apt sources\"; exit 1; }; done"
                 ${CMAKE_CURRENT_LIST_DIR}/build-root.py ${CMAKE_BINARY_DIR}/conformance)
# COST: the roots' build is long and everything below waits for it.
set_tests_properties(conformance-roots PROPERTIES LABELS conformance TIMEOUT 900 COST 1000
                     FIXTURES_SETUP conformance-roots)
set(_modules ${CONFORMANCE_SMOKE})
list(TRANSFORM _modules REPLACE "=.*" "")
list(REMOVE_DUPLICATES _modules)
foreach(_module IN LISTS _modules)
  set(_expect ${CONFORMANCE_SMOKE})
  list(FILTER _expect INCLUDE REGEX "^${_module}=")
  list(JOIN _expect "," _expect)
  foreach(isa arm64 armhf)
    add_test(NAME conformance-smoke-${_module}-${isa}
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/run.py --build ${CMAKE_BINARY_DIR}
                     --no-roots --runners asymu --isas ${isa} --modules ${_module}
                     --expect ${_expect} --jobs 1 --timeout 240)
    set_tests_properties(conformance-smoke-${_module}-${isa} PROPERTIES LABELS conformance
                         TIMEOUT 300 FIXTURES_REQUIRED conformance-roots)
  endforeach()
endforeach()

# test_random with a cold byte-code cache translates more code than the old
# 32 MiB translation buffer held; Unicorn 2.1.1 then crashed (SIGSEGV in
# tb_set_jmp_target) flushing it mid-run (emu/machine/engine.c, TCG_BUFFER_BYTES).
set(_root ${CMAKE_BINARY_DIR}/conformance/root-arm64)
add_test(NAME conformance-cold-cache-arm64
         COMMAND $<TARGET_FILE:asymu> run --sysroot ${_root} --seed 1 -- ${_root}/usr/bin/env
                 PYTHONPYCACHEPREFIX=/tmp/pyc HOME=/root LANG=C.UTF-8 PYTHONHASHSEED=0
                 python3.11 -m test test_random
         WORKING_DIRECTORY ${_root})
set_tests_properties(conformance-cold-cache-arm64 PROPERTIES LABELS conformance TIMEOUT 600
                     FIXTURES_REQUIRED conformance-roots
                     PASS_REGULAR_EXPRESSION "Tests result: SUCCESS")

# The report's reading of regrtest output and its "why" column, on a fixed
# transcript, and the syntax of tests/conformance/known-gaps.
add_test(NAME conformance-report
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/test_report.py)
set_tests_properties(conformance-report PROPERTIES LABELS conformance)
# The programs table's runner (tests/conformance/programs.py, `make
# conformance-programs`) on fixed transcripts: every row has its steps and
# expected outputs, what qemu-user is given, each verdict and its reason.
# It runs no program: the table's own roots are built only by `make
# conformance`.
add_test(NAME conformance-programs-report
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/test_programs.py)
set_tests_properties(conformance-programs-report PROPERTIES LABELS conformance)

# CPython's GIL handed over while a daemon thread writes in a loop: the
# waiter starved for ever until a futex wake made the waker pay for it
# (emu/kernel/futex.c, FUTEX_WAKE_COST_BLOCKS).
add_test(NAME conformance-gil-handover-arm64
         COMMAND $<TARGET_FILE:asymu> run --sysroot ${_root} --seed 1 -- ${_root}/usr/bin/env
                 HOME=/root LANG=C.UTF-8 PYTHONHASHSEED=0
                 python3.11 -m test -v test_io -m test_daemon_threads_shutdown_*
         WORKING_DIRECTORY ${_root})
set_tests_properties(conformance-gil-handover-arm64 PROPERTIES LABELS conformance TIMEOUT 300
                     FIXTURES_REQUIRED conformance-roots
                     PASS_REGULAR_EXPRESSION "Ran 2 tests in [0-9.]+s\n\nOK\n")

# rt-tests' oslat (libnuma's start: get_mempolicy and /sys/devices/system/node
# of a one-node machine, emu/mm/mempolicy.c) starts and ends on both roots
# (tests/conformance/oslat_check.py; skipped when the roots lack it).
foreach(isa arm64 armhf)
  add_test(NAME conformance-oslat-${isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/oslat_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${isa} ${isa})
  set_tests_properties(conformance-oslat-${isa} PROPERTIES LABELS conformance TIMEOUT 300
                       SKIP_RETURN_CODE 77 FIXTURES_REQUIRED conformance-roots)
endforeach()

# rt-tests' pmqtest: a SCHED_FIFO sender and receiver pass 100 messages
# through POSIX message queues (emu/ipc/mqueue.c; issue 26 item 5),
# both roots (tests/conformance/pmqtest_check.py; skipped when the roots
# lack it).
foreach(isa arm64 armhf)
  add_test(NAME conformance-pmqtest-${isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/pmqtest_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${isa})
  set_tests_properties(conformance-pmqtest-${isa} PROPERTIES LABELS conformance TIMEOUT 300
                       SKIP_RETURN_CODE 77 FIXTURES_REQUIRED conformance-roots)
endforeach()
# Debian's sqlite3 on a database in the private /tmp and under --rw (a small
# root of its own), rollback journal and WAL (a MAP_SHARED -shm file and
# fcntl locks), both ISAs.
foreach(isa arm64 armhf)
  add_test(NAME conformance-sqlite3-${isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/sqlite3_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${isa}
                   ${CMAKE_BINARY_DIR}/conformance/sqlite3-rw-${isa})
  set_tests_properties(conformance-sqlite3-${isa} PROPERTIES LABELS conformance TIMEOUT 300
                       FIXTURES_REQUIRED conformance-roots)
endforeach()

# Debian's strace -f inside the machine (guest ptrace, docs/ptrace.md) on a
# shell pipeline that execs a 32-bit program (under the 64-bit strace of the
# arm64 root, and the 32-bit one of the armhf root): the same calls per
# process as asymu's own --strace, the same output and status.
foreach(isa arm64 armhf)
  set(_other ${CMAKE_BINARY_DIR}/tests/guest/ptrace-armhf)
  add_test(NAME conformance-strace-${isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/strace_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${isa}
                   ${CMAKE_BINARY_DIR}/conformance/strace-${isa} ${_other})
  set_tests_properties(conformance-strace-${isa} PROPERTIES LABELS conformance TIMEOUT 300
                       SKIP_RETURN_CODE 77 FIXTURES_REQUIRED conformance-roots)
endforeach()

# Debian's gdb -batch inside the machine (guest ptrace, docs/ptrace.md): a
# breakpoint at main, print, step, finish, next, continue to the exit, on a
# 64-bit and a 32-bit program under the arm64 root's gdb and a 32-bit one
# under the armhf root's (tests/conformance/gdb_check.py; skipped when the
# roots have no gdb).
foreach(combo arm64:aarch64 arm64:armhf armhf:armhf)
  string(REPLACE ":" ";" _pair ${combo})
  list(GET _pair 0 _root_isa)
  list(GET _pair 1 _prog_isa)
  add_test(NAME conformance-gdb-${_root_isa}-${_prog_isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/gdb_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${_root_isa}
                   ${CMAKE_BINARY_DIR}/conformance/gdb-${_root_isa}-${_prog_isa}
                   ${CMAKE_BINARY_DIR}/tests/guest/gdb-target-${_prog_isa}
                   ${CMAKE_SOURCE_DIR}/tests/guest/gdb-target.c)
  set_tests_properties(conformance-gdb-${_root_isa}-${_prog_isa} PROPERTIES LABELS conformance
                       TIMEOUT 300 SKIP_RETURN_CODE 77 FIXTURES_REQUIRED conformance-roots)
endforeach()

# Debian's trace-cmd record (with --nosplice, and without: splice() of
# trace_pipe_raw) and report inside the machine on its tracefs, and rt-app
# 1.0 with "ftrace": true under it; record -B of an instance; rt-tests' cyclicdeadline
# with debugfs's sched/features (tests/conformance/tracecmd_check.py;
# skipped when the roots lack the programs).
foreach(isa arm64 armhf)
  foreach(mode record splice rtapp instance cyclicdeadline)
    add_test(NAME conformance-tracecmd-${mode}-${isa}
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/tracecmd_check.py
                     $<TARGET_FILE:asymu> ${CMAKE_BINARY_DIR}/conformance/root-${isa} ${mode})
    set_tests_properties(conformance-tracecmd-${mode}-${isa} PROPERTIES LABELS conformance
                         TIMEOUT 300 SKIP_RETURN_CODE 77 FIXTURES_REQUIRED conformance-roots)
  endforeach()
endforeach()
# rt-tests' pi_stress: one group of low, medium and high SCHED_FIFO
# threads on one CPU doing 500 priority inversions through a
# PTHREAD_PRIO_INHERIT mutex (emu/kernel/futex_pi.c; issue 26 item 5;
# the lock protocol: this pi_stress would finish without the boost too),
# both roots (tests/conformance/pistress_check.py; skipped when the roots
# lack it).
foreach(isa arm64 armhf)
  add_test(NAME conformance-pi-stress-${isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/pistress_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${isa})
  set_tests_properties(conformance-pi-stress-${isa} PROPERTIES LABELS conformance TIMEOUT 300
                       SKIP_RETURN_CODE 77 FIXTURES_REQUIRED conformance-roots)
endforeach()

# Debian's setpriv (util-linux) dropping to nobody, clearing the bounding
# set, keeping an ambient capability across execve (emu/kernel/capability.c;
# issue 26 item 5), both roots (tests/conformance/setpriv_check.py; skipped
# when the roots lack it).
foreach(isa arm64 armhf)
  add_test(NAME conformance-setpriv-${isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/setpriv_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${isa})
  set_tests_properties(conformance-setpriv-${isa} PROPERTIES LABELS conformance TIMEOUT 300
                       SKIP_RETURN_CODE 77 FIXTURES_REQUIRED conformance-roots)
endforeach()
