# SPDX-License-Identifier: GPL-2.0-or-later
# Record and replay of host input (asymu run --record F / --input F,
# docs/recording.md), tests/e2e/record.py: stdin fed with pauses, a host
# SIGINT, a control session with trace off/on, broken recordings, a
# scenario's control session (replay --record, --input, the input: key), and the
# recorded-input determinism case (a recording kept in data/ replays to the
# exact stdout kept there). Issue 27 (docs/timing.md) moved the virtual
# times in data/record-reader-*.rec and .out to the new model's, at the same
# points, and again for the tick and the context switch charged before a
# task runs (item 3); the inputs and what the reader reads are unchanged.
# The fixed sync quantum (item 3) changed the points at which a run takes
# its input: the recordings were made again (the same inputs, as record.py's
# stdin case feeds them).
foreach(isa aarch64 armhf)
  foreach(case stdin sigint control broken crafted scenario)
    add_test(NAME e2e-record-${case}-${isa}
      COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/record.py $<TARGET_FILE:asymu>
              ${GUEST_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/data ${isa} ${case})
    set_tests_properties(e2e-record-${case}-${isa} PROPERTIES TIMEOUT 300)
  endforeach()
  add_test(NAME e2e-determinism-recorded-input-${isa}
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/record.py $<TARGET_FILE:asymu>
            ${GUEST_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/data ${isa} determinism)
  set_tests_properties(e2e-determinism-recorded-input-${isa} PROPERTIES TIMEOUT 300)
endforeach()
