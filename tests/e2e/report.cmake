# SPDX-License-Identifier: GPL-2.0-or-later
# asymu report TRACE [--json] (issue 28 item 4, docs/tracing.md "asymu
# report"): traces of tests/guest/report-load.c, workloads whose answer is
# known (a hog pinned to one vCPU, two hogs on one vCPU, 32-bit hogs, a
# machine of two capacities, affinity changes, a sleeper beside a hog), read
# back and checked by report_check.py; and the errors for traces it cannot
# read.
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    # 28-4-reason: the migrate events' recorded reasons (issue 28, item 3 of
    # what was left) and the report's counts of them
    # 28-4-formats: the ftrace text and the trace.dat give the JSON's report
    foreach(mode pin pair compat capacity affinity sleep table determinism errors 28-4-reason
            28-4-formats 28-4-formats-errors)
      add_test(NAME e2e-report-${mode}-${isa}
        COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/report_check.py ${mode}
                $<TARGET_FILE:asymu> ${CMAKE_BINARY_DIR}/tests/guest ${isa}
                ${CMAKE_CURRENT_BINARY_DIR}/out/report/${mode})
      set_tests_properties(e2e-report-${mode}-${isa} PROPERTIES LABELS e2e TIMEOUT 300)
    endforeach()
  endforeach()
endif()
