# SPDX-License-Identifier: GPL-2.0-or-later
# check.cmake - runs one end-to-end test command and checks its exit status,
# stdout (byte for byte) and stderr. Called by the tests asymu_e2e() adds:
#
#   cmake -DNAME=n -DOUTDIR=dir -DEXPECT_STATUS=n [-DEXPECT_STDOUT=file]
#         [-DIGNORE_STDOUT=1] [-DSTDIN=file] [-DGUEST_DIR=dir]
#         [-DSTDERR_COUNT=k -DSTDERR_1=s ...] [-DSTDERR_LACKS_COUNT=k -DSTDERR_LACKS_1=s ...]
#         [-DMODE=once|repeat|differ]
#         -P check.cmake -- COMMAND ARGS... [@ALSO@ COMMAND2 ARGS...]
#
# An argument spelt @EMPTY@ is passed as the empty string (CMake lists cannot
# carry one). In stdout, GUEST_DIR is replaced by @GUEST_DIR@ before the
# comparison. MODE repeat runs the command twice and wants the same stdout
# and the same stderr, byte for byte, both times; MODE differ runs COMMAND2
# too and wants a different stdout.
# A command killed by a signal (rather than exiting 128+N) is a failure.

cmake_minimum_required(VERSION 3.25)

set(failures 0)
macro(fail msg)
  message("FAIL: ${msg}")
  math(EXPR failures "${failures} + 1")
endmacro()

# Split the arguments after `--` into the first and the optional second command.
set(first)
set(second)
set(which none)
foreach(i RANGE 1 ${CMAKE_ARGC})
  if(i EQUAL CMAKE_ARGC)
    break()
  endif()
  set(arg "${CMAKE_ARGV${i}}")
  if(which STREQUAL "none")
    if(arg STREQUAL "--")
      set(which first)
    endif()
    continue()
  endif()
  if(arg STREQUAL "@ALSO@")
    set(which second)
    continue()
  endif()
  if(arg STREQUAL "@EMPTY@")
    set(arg "")
  endif()
  # Bracket-quote each argument so empty strings and semicolons survive.
  string(APPEND ${which} " [==[${arg}]==]")
endforeach()
if(first STREQUAL "")
  message(FATAL_ERROR "check.cmake: no command after --")
endif()
if(NOT DEFINED MODE)
  set(MODE once)
endif()
if(NOT DEFINED STDIN OR STDIN STREQUAL "")
  set(STDIN /dev/null)
endif()
file(MAKE_DIRECTORY "${OUTDIR}")

if(NOT DEFINED RUN_TIMEOUT)
  set(RUN_TIMEOUT 120)
endif()

# run(<command words> <tag>) runs the command, leaving stdout, stderr and
# the status in run_out, run_err and run_status, and files OUTDIR/NAME.tag.*.
function(run words tag)
  cmake_language(EVAL CODE "
    execute_process(COMMAND ${words}
      INPUT_FILE [==[${STDIN}]==]
      OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status
      TIMEOUT ${RUN_TIMEOUT})")
  if(DEFINED GUEST_DIR AND NOT GUEST_DIR STREQUAL "")
    string(REPLACE "${GUEST_DIR}" "@GUEST_DIR@" out "${out}")
  endif()
  file(WRITE "${OUTDIR}/${NAME}.${tag}.stdout" "${out}")
  file(WRITE "${OUTDIR}/${NAME}.${tag}.stderr" "${err}")
  set(run_out "${out}" PARENT_SCOPE)
  set(run_err "${err}" PARENT_SCOPE)
  set(run_status "${status}" PARENT_SCOPE)
endfunction()

function(show_diff expected_file actual_file)
  find_program(DIFF diff)
  if(DIFF)
    execute_process(COMMAND ${DIFF} -u "${expected_file}" "${actual_file}")
  else()
    file(READ "${expected_file}" e)
    file(READ "${actual_file}" a)
    message("--- expected\n${e}--- actual\n${a}---")
  endif()
endfunction()

# Checks the status and stderr of the last run.
macro(check_status_and_stderr tag)
  if(NOT run_status MATCHES "^[0-9]+$")
    fail("${tag}: the command did not exit normally: ${run_status}")
  elseif(NOT run_status EQUAL EXPECT_STATUS)
    fail("${tag}: exit status ${run_status}, expected ${EXPECT_STATUS}")
  endif()
  if(DEFINED STDERR_COUNT AND STDERR_COUNT GREATER 0)
    string(TOLOWER "${run_err}" err_lower)
    foreach(k RANGE 1 ${STDERR_COUNT})
      string(TOLOWER "${STDERR_${k}}" want)
      string(FIND "${err_lower}" "${want}" at)
      if(at EQUAL -1)
        fail("${tag}: stderr does not contain \"${STDERR_${k}}\" (case-insensitive)")
      endif()
    endforeach()
  endif()
  if(DEFINED STDERR_LACKS_COUNT AND STDERR_LACKS_COUNT GREATER 0)
    string(TOLOWER "${run_err}" err_lower)
    foreach(k RANGE 1 ${STDERR_LACKS_COUNT})
      string(TOLOWER "${STDERR_LACKS_${k}}" unwanted)
      string(FIND "${err_lower}" "${unwanted}" at)
      if(NOT at EQUAL -1)
        fail("${tag}: stderr contains \"${STDERR_LACKS_${k}}\" (case-insensitive)")
      endif()
    endforeach()
  endif()
endmacro()

run("${first}" 1)
check_status_and_stderr("run 1")
if(NOT IGNORE_STDOUT)
  if(DEFINED EXPECT_STDOUT AND NOT EXPECT_STDOUT STREQUAL "")
    file(READ "${EXPECT_STDOUT}" expected)
    set(expected_file "${EXPECT_STDOUT}")
  else()
    set(expected "")
    set(expected_file "${OUTDIR}/${NAME}.expected-empty")
    file(WRITE "${expected_file}" "")
  endif()
  if(NOT run_out STREQUAL expected)
    fail("run 1: stdout differs from ${expected_file}")
    show_diff("${expected_file}" "${OUTDIR}/${NAME}.1.stdout")
  endif()
endif()
set(out1 "${run_out}")
set(err1 "${run_err}")

if(MODE STREQUAL "repeat")
  run("${first}" 2)
  check_status_and_stderr("run 2")
  if(NOT run_out STREQUAL out1)
    fail("the same command gave different stdout on a second run")
    show_diff("${OUTDIR}/${NAME}.1.stdout" "${OUTDIR}/${NAME}.2.stdout")
  endif()
  if(NOT run_err STREQUAL err1)
    fail("the same command gave different stderr on a second run")
    show_diff("${OUTDIR}/${NAME}.1.stderr" "${OUTDIR}/${NAME}.2.stderr")
  endif()
elseif(MODE STREQUAL "differ")
  if(second STREQUAL "")
    message(FATAL_ERROR "check.cmake: MODE differ needs @ALSO@ COMMAND2")
  endif()
  run("${second}" 2)
  check_status_and_stderr("second command")
  if(run_out STREQUAL out1)
    fail("the second command gave the same stdout as the first:\n${out1}")
  endif()
endif()

if(failures GREATER 0)
  file(READ "${OUTDIR}/${NAME}.1.stderr" err)
  message("stderr of run 1:\n${err}")
  message(FATAL_ERROR "${NAME}: ${failures} check(s) failed; outputs are in ${OUTDIR}")
endif()
