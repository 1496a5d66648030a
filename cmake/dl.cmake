# SPDX-License-Identifier: Apache-2.0
# dl_add_part(<name> SOURCES <files...> [DEPS <targets...>])
#   Defines the static library dl_<name> with src/ as its include root.
function(dl_add_part name)
  cmake_parse_arguments(P "" "" "SOURCES;DEPS" ${ARGN})
  add_library(dl_${name} STATIC ${P_SOURCES})
  target_include_directories(dl_${name} PUBLIC ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include)
  if(P_DEPS)
    target_link_libraries(dl_${name} PUBLIC ${P_DEPS})
  endif()
endfunction()

# dl_add_unit_test(<name> SOURCES <files...> DEPS <targets...>)
#   One test executable, registered with ctest under its name.
function(dl_add_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/unit)
  target_link_libraries(${name} PRIVATE ${T_DEPS})
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
  set_tests_properties(${name} PROPERTIES LABELS unit TIMEOUT 300)
endfunction()
