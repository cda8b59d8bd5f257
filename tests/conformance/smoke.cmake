# conformance-smoke: a few fast modules of CPython's test suite under asymu,
# both ISAs, on the Debian 12 guest roots (built, downloading packages, on
# the first run). Each must pass with exactly this many tests run; the whole
# table is `make conformance` (docs/conformance.md).
set(CONFORMANCE_SMOKE test_sched=11 test_random=101 test_re=157)
string(REPLACE ";" "," _smoke_expect "${CONFORMANCE_SMOKE}")
string(REGEX REPLACE "=[0-9]+" "" _smoke_modules "${_smoke_expect}")
add_test(NAME conformance-smoke
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/run.py --build ${CMAKE_BINARY_DIR}
                 --runners asymu --isas arm64,armhf --modules ${_smoke_modules}
                 --expect ${_smoke_expect} --jobs 2 --timeout 240)
set_tests_properties(conformance-smoke PROPERTIES LABELS conformance TIMEOUT 900 PROCESSORS 2)
