# SPDX-License-Identifier: Apache-2.0
# Runs the sqllogictest runner on FILE, which must fail: the runner must exit with 1 and report
# the record at the line given by the file's first line, "# expect-fail-at: <line>".
file(STRINGS ${FILE} first LIMIT_COUNT 1)
string(REGEX MATCH "expect-fail-at: ([0-9]+)" _ "${first}")
set(line ${CMAKE_MATCH_1})
execute_process(COMMAND ${RUNNER} ${FILE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "the runner exited with ${rc} on ${FILE}, which must fail:\n${out}${err}")
endif()
get_filename_component(name ${FILE} NAME)
if(NOT out MATCHES "FAIL [^\n]*${name}:${line}:")
  message(FATAL_ERROR "the runner did not report ${name}:${line}:\n${out}")
endif()
if(NOT out MATCHES "1 failed")
  message(FATAL_ERROR "the runner's summary does not count the failure:\n${out}")
endif()
