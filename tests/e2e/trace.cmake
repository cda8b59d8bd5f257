# SPDX-License-Identifier: GPL-2.0-or-later
# Traces (docs/tracing.md): trace-demo under --trace (JSON, ftrace) and
# --timeline, each file parsed and checked by trace_check.py (the ftrace
# text also by ftrace_check.py, Perfetto's rules; ftrace-signal runs the
# signals guest's abort for signal_generate/signal_deliver); the SVG also
# rendered by headless chromium; the same seed twice gives the same bytes.
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    foreach(mode json json-kill ftrace ftrace-kill ftrace-signal svg chromium determinism)
      add_test(NAME e2e-trace-${mode}-${isa}
        COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/trace_check.py ${mode}
                $<TARGET_FILE:asymu> ${CMAKE_BINARY_DIR}/tests/guest ${isa}
                ${CMAKE_CURRENT_BINARY_DIR}/out/trace)
      set_tests_properties(e2e-trace-${mode}-${isa} PROPERTIES LABELS e2e TIMEOUT 300)
    endforeach()
  endforeach()
endif()

# trace.dat (issue 28 item 2): trace-demo under --trace-format dat, read by
# Debian's trace-cmd and compared event by event with the ftrace text and
# the JSON of the same seed (trace_dat_check.py).
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    foreach(mode report threads kill plugins stat determinism errors)
      add_test(NAME e2e-trace-dat-${mode}-${isa}
        COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/trace_dat_check.py ${mode}
                $<TARGET_FILE:asymu> ${CMAKE_BINARY_DIR}/tests/guest ${isa}
                ${CMAKE_CURRENT_BINARY_DIR}/out/trace-dat)
      set_tests_properties(e2e-trace-dat-${mode}-${isa} PROPERTIES LABELS e2e TIMEOUT 300)
    endforeach()
  endforeach()
endif()

# power:cpu_frequency from schedutil's steps, in the text and the trace.dat
# (trace_freq_check.py).
if(NOT ASYMU_E2E_RUNNER)
  add_test(NAME e2e-trace-28-1-cpu-frequency
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/trace_freq_check.py $<TARGET_FILE:asymu>
            ${CMAKE_BINARY_DIR}/tests/guest ${CMAKE_CURRENT_BINARY_DIR}/out/trace-freq)
  set_tests_properties(e2e-trace-28-1-cpu-frequency PROPERTIES LABELS e2e TIMEOUT 300)
endif()

# The timeline's side panel (issue 28 item 4): two hogs on one vCPU, one
# named with XML's special characters; every number the panel shows is
# `asymu report`'s of the same run (timeline_panel_check.py).
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    add_test(NAME e2e-trace-issue28-timeline-panel-${isa}
      COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/timeline_panel_check.py
              $<TARGET_FILE:asymu> ${CMAKE_BINARY_DIR}/tests/guest ${isa}
              ${CMAKE_CURRENT_BINARY_DIR}/out/timeline-panel)
    set_tests_properties(e2e-trace-issue28-timeline-panel-${isa} PROPERTIES LABELS e2e TIMEOUT 300)
  endforeach()
endif()
