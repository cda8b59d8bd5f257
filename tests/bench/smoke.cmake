# SPDX-License-Identifier: GPL-2.0-or-later
# bench-smoke: bench/run.sh in smoke mode (every workload of the main table
# once, tiny, under asymu only, both ISAs; the real programs from the
# conformance roots), so the script cannot rot; then its JSON and SVG are
# checked (check_results.py). Speed is not checked: that is `make bench`.
set(_bench_out ${CMAKE_BINARY_DIR}/bench-smoke)
set(_bench_smoke [=[
rm -rf "$2" && mkdir -p "$2" &&
BENCH_SMOKE=1 BENCH_CPU=none BENCH_OUT="$2" BENCH_RESULTS="$2/results" "$1/bench/run.sh" "$3" &&
/usr/bin/python3 "$1/tests/bench/check_results.py" "$2/results"
]=])
add_test(NAME bench-smoke
         COMMAND sh -c "${_bench_smoke}" bench-smoke ${PROJECT_SOURCE_DIR} ${_bench_out}
                 ${CMAKE_BINARY_DIR})
set_tests_properties(bench-smoke PROPERTIES LABELS bench TIMEOUT 600
                     FIXTURES_REQUIRED conformance-roots)

# bench-report-why: the table's "not met, and why" lines (bench/report.py).
add_test(NAME bench-report-why
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/bench/test_report.py ${PROJECT_SOURCE_DIR})
set_tests_properties(bench-report-why PROPERTIES LABELS bench TIMEOUT 60)
