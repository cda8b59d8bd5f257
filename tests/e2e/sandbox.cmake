# The emulator's own confinement (sandbox.sh): --version names it, a running
# emulator is under its seccomp filter with no_new_privs while its janitor is
# not, and it still does its work. The policy itself: unit-sandbox.
add_test(NAME e2e-sandbox
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/sandbox.sh $<TARGET_FILE:asymu>
          ${CMAKE_BINARY_DIR}/tests/guest/stdin-wait-aarch64)
set_tests_properties(e2e-sandbox PROPERTIES LABELS e2e TIMEOUT 60)
