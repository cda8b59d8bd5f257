# SPDX-License-Identifier: GPL-2.0-or-later
# The slowest tests, started first: ctest -j runs tests in descending COST,
# and a fresh tree (CI's clone) has no Testing/Temporary/CTestCostData.txt
# yet to take the costs from, so without these one of them could start last
# and keep a core busy alone at the end. The values are the seconds each
# took (CTestCostData averages of the normal suite on 2 shared cores,
# December 2026); tests not named here cost 0 until measured. The Debian
# package's build (tests/e2e/demo.cmake) and the guest roots' fixture
# (tests/conformance/smoke.cmake) set their own. Included at the end of
# tests/ and of tests/e2e/: each directory sets the costs of its own tests.
set(ASYMU_TEST_COSTS
    e2e-scenario-determinism=87
    e2e-pol-3.3-many-tasks-4-7-upstream=36 e2e-pol-3.3-many-tasks-4-7-override=35
    e2e-limits-threads-default-stacks-aarch64=30 e2e-pol-3.3-many-tasks-fixup=29
    conformance-cold-cache-arm64=29 e2e-pol-3.3-many-tasks-kill=28
    e2e-pol-determinism-many-tasks-kill=27 e2e-pol-3.3-many-tasks-upstream=26
    e2e-pol-3.3-many-tasks-override=25
    conformance-smoke-test_re-armhf=25 conformance-smoke-test_re-arm64=20
    conformance-smoke-test_random-armhf=18 conformance-smoke-test_random-arm64=14
    conformance-gdb-arm64-armhf=18 e2e-scenario-counts=16 conformance-gil-handover-arm64=16
    bench-smoke=16 e2e-sandboxed-ftrace-long-aarch64=14 e2e-limits-threads-aarch64=14
    e2e-sandboxed-ftrace-long-armhf=13 e2e-limits-threads-armhf=13
    e2e-trace-dat-threads-aarch64=12 e2e-trace-chromium-armhf=11 e2e-scenario-anywhere=11
    e2e-trace-chromium-aarch64=10 e2e-ptrace-gdb-step-armhf=10 e2e-ptrace-gdb-step-aarch64=10
    e2e-pol-3.3-many-tasks-4-7-kill=10 e2e-pol-3.3-many-tasks-4-7-fixup=10
    e2e-overcommit-asan-leak-aarch64=10 e2e-control-armhf=10 e2e-control-aarch64=10
    conformance-gdb-armhf-armhf=10 e2e-trace-dat-threads-armhf=9
    e2e-overcommit-asan-clean-aarch64=9)
foreach(_cost IN LISTS ASYMU_TEST_COSTS)
  string(REPLACE "=" ";" _cost ${_cost})
  list(GET _cost 0 _test)
  list(GET _cost 1 _seconds)
  if(TEST ${_test})
    set_tests_properties(${_test} PROPERTIES COST ${_seconds})
  endif()
endforeach()
