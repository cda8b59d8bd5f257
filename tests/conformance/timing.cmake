# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 27's "Tests" with Debian's own programs (docs/timing.md, "Tests with
# Debian's programs"): rt-app 1.0's logs on a machine of capacity-512 and
# capacity-1024 vCPUs (tests/conformance/rtapp_check.py: a periodic pair, a
# thread moving between CPU sets, a SCHED_DEADLINE thread; the armhf root's
# 32-bit rt-app on the AArch32 vCPUs), and stress-ng's fork stressor ending
# with the rate of the cost table (tests/conformance/stressng_check.py).
# Skipped when the roots lack the programs.
foreach(isa arm64 armhf)
  add_test(NAME conformance-rtapp-${isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/rtapp_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${isa} ${isa})
  add_test(NAME conformance-stressng-fork-${isa}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/stressng_check.py $<TARGET_FILE:asymu>
                   ${CMAKE_BINARY_DIR}/conformance/root-${isa})
  set_tests_properties(conformance-rtapp-${isa} conformance-stressng-fork-${isa} PROPERTIES
                       LABELS conformance TIMEOUT 300 SKIP_RETURN_CODE 77
                       FIXTURES_REQUIRED conformance-roots)
endforeach()

# docs/tracing.md's worked example: rt-app and asymu report of its trace.dat,
# the document's text checked against the report (rtapp_report_doc.py).
add_test(NAME conformance-rtapp-report-doc-arm64
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/rtapp_report_doc.py $<TARGET_FILE:asymu>
                 ${CMAKE_BINARY_DIR}/conformance/root-arm64 ${PROJECT_SOURCE_DIR}/docs/tracing.md
                 ${PROJECT_SOURCE_DIR}/examples/rtapp/light-heavy.json)
set_tests_properties(conformance-rtapp-report-doc-arm64 PROPERTIES
                     LABELS conformance TIMEOUT 300 SKIP_RETURN_CODE 77
                     FIXTURES_REQUIRED conformance-roots)
