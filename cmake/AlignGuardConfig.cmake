# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# AlignGuardConfig.cmake: find_package(AlignGuard CONFIG) of an installed
# AlignGuard (cmake --install, or the Debian packages). The same file serves
# every LLVM major installed in the prefix (lib/alignguard/llvm-N/).
#
#   find_package(AlignGuard CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE AlignGuard::runtime)  # runtime only
#   alignguard_instrument(k ACTION recover)                 # plugin + runtime
#
# Targets:
#   AlignGuard::runtime  libalignguard_rt.a and include/ (any compiler)
#   AlignGuard::plugin   -fpass-plugin=<lib/alignguard/llvm-N/AlignGuard.so> on
#                        C and C++ compiles, and AlignGuard::runtime
# The LLVM major N is AlignGuard_LLVM_MAJOR when set, else the major of the
# project's C (else C++) compiler when it is clang. With a compiler that is
# not clang and no AlignGuard_LLVM_MAJOR, only AlignGuard::runtime is defined.
# Variables: AlignGuard_LLVM_MAJOR, AlignGuard_PLUGIN (the plugin's path),
# AlignGuard_LLVM_MAJORS (the majors installed). Unless QUIET, a STATUS line
# says which plugin it chose (`AlignGuard: plugin of LLVM N: PATH`), or why
# none.

cmake_minimum_required(VERSION 3.20)
get_filename_component(_ag_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET AlignGuard::runtime)
  add_library(AlignGuard::runtime STATIC IMPORTED)
  set_target_properties(AlignGuard::runtime PROPERTIES
    IMPORTED_LOCATION "${_ag_prefix}/lib/libalignguard_rt.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES C
    INTERFACE_INCLUDE_DIRECTORIES "${_ag_prefix}/include")
endif()

# The majors installed in this prefix.
file(GLOB _ag_plugins "${_ag_prefix}/lib/alignguard/llvm-*/AlignGuard.so")
set(AlignGuard_LLVM_MAJORS "")
foreach(_ag_p IN LISTS _ag_plugins)
  if(_ag_p MATCHES "/llvm-([0-9]+)/AlignGuard.so$")
    list(APPEND AlignGuard_LLVM_MAJORS "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT AlignGuard_LLVM_MAJORS COMPARE NATURAL)
string(REPLACE ";" ", " _ag_have "${AlignGuard_LLVM_MAJORS}")
if(NOT _ag_have)
  set(_ag_have "none")
endif()

if(NOT AlignGuard_LLVM_MAJOR)
  foreach(_ag_lang C CXX)
    if(CMAKE_${_ag_lang}_COMPILER_ID STREQUAL "Clang" AND
       CMAKE_${_ag_lang}_COMPILER_VERSION MATCHES "^([0-9]+)")
      set(AlignGuard_LLVM_MAJOR "${CMAKE_MATCH_1}")
      break()
    endif()
  endforeach()
endif()

set(_ag_want_plugin TRUE)
if(AlignGuard_FIND_COMPONENTS AND NOT "plugin" IN_LIST AlignGuard_FIND_COMPONENTS)
  set(_ag_want_plugin FALSE)
endif()

set(AlignGuard_PLUGIN "")
if(NOT AlignGuard_LLVM_MAJOR)
  # The compilers found, of the languages the project enabled; one line,
  # no list separators.
  get_property(_ag_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(_ag_found "")
  set(_ag_set "")
  set(_ag_n 0)
  foreach(_ag_lang C CXX)
    if(_ag_lang IN_LIST _ag_langs)
      if(_ag_n GREATER 0)
        string(APPEND _ag_found " and ")
        string(APPEND _ag_set " and ")
      endif()
      math(EXPR _ag_n "${_ag_n} + 1")
      if(_ag_lang STREQUAL "CXX")
        string(APPEND _ag_found "C++")
        string(APPEND _ag_set "CMAKE_CXX_COMPILER to /usr/lib/llvm-N/bin/clang++")
      else()
        string(APPEND _ag_found "C")
        string(APPEND _ag_set "CMAKE_C_COMPILER to /usr/lib/llvm-N/bin/clang")
      endif()
      string(APPEND _ag_found " compiler ${CMAKE_${_ag_lang}_COMPILER} "
        "(${CMAKE_${_ag_lang}_COMPILER_ID} ${CMAKE_${_ag_lang}_COMPILER_VERSION})")
    endif()
  endforeach()
  if(_ag_n EQUAL 0)
    set(_ag_why "the project enables neither C nor C++; set")
  elseif(_ag_n EQUAL 1)
    set(_ag_why "the project's ${_ag_found} is not clang; set ${_ag_set}, or")
  else()
    set(_ag_why "the project's ${_ag_found} are not clang; set ${_ag_set}, or")
  endif()
  string(CONCAT _ag_why "${_ag_why} AlignGuard_LLVM_MAJOR to N (installed "
    "in ${_ag_prefix}: ${_ag_have})")
  set_property(GLOBAL PROPERTY ALIGNGUARD_PLUGIN_ERROR "${_ag_why}")
elseif(NOT EXISTS "${_ag_prefix}/lib/alignguard/llvm-${AlignGuard_LLVM_MAJOR}/AlignGuard.so")
  string(CONCAT _ag_why
    "AlignGuard has no plugin for LLVM ${AlignGuard_LLVM_MAJOR} "
    "(installed: LLVM ${_ag_have}) in ${_ag_prefix}/lib/alignguard. Install "
    "alignguard-llvm${AlignGuard_LLVM_MAJOR}, or use a clang of an installed "
    "major, or set AlignGuard_LLVM_MAJOR to one.")
  set_property(GLOBAL PROPERTY ALIGNGUARD_PLUGIN_ERROR "${_ag_why}")
  if(_ag_want_plugin)
    set(AlignGuard_FOUND FALSE)
    set(AlignGuard_NOT_FOUND_MESSAGE "${_ag_why}")
    return()
  endif()
else()
  set(AlignGuard_PLUGIN
    "${_ag_prefix}/lib/alignguard/llvm-${AlignGuard_LLVM_MAJOR}/AlignGuard.so")
  if(NOT TARGET AlignGuard::plugin)
    add_library(AlignGuard::plugin INTERFACE IMPORTED)
    set_target_properties(AlignGuard::plugin PROPERTIES
      INTERFACE_COMPILE_OPTIONS
        "$<$<COMPILE_LANGUAGE:C,CXX>:-fpass-plugin=${AlignGuard_PLUGIN}>"
      INTERFACE_LINK_LIBRARIES AlignGuard::runtime)
  endif()
  set(AlignGuard_plugin_FOUND TRUE)
endif()
set(AlignGuard_runtime_FOUND TRUE)
if(NOT AlignGuard_FIND_QUIETLY)
  if(AlignGuard_PLUGIN)
    message(STATUS "AlignGuard: plugin of LLVM ${AlignGuard_LLVM_MAJOR}: "
      "${AlignGuard_PLUGIN}")
  else()
    get_property(_ag_why GLOBAL PROPERTY ALIGNGUARD_PLUGIN_ERROR)
    message(STATUS "AlignGuard: the runtime only, no plugin: ${_ag_why}")
  endif()
endif()

# alignguard_instrument() makes the compiler wrapper its targets' compiler
# launcher (alignguard-clang --alignguard-launch).
set_property(GLOBAL PROPERTY ALIGNGUARD_WRAPPER "${_ag_prefix}/bin/alignguard-clang")
include("${CMAKE_CURRENT_LIST_DIR}/AlignGuardInstrument.cmake")
