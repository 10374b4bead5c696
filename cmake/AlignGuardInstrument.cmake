# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# alignguard_instrument(): instrument one target's C and C++ code with the
# AlignGuard plugin, with its own action and options. Included by the
# installed AlignGuardConfig.cmake and by AlignGuard's own CMakeLists.txt
# (for projects that use it through add_subdirectory).
#
#   alignguard_instrument(<target>
#     [ACTION abort|trap|recover|return=N|fallback]   # default: abort
#     [ACCESSES] [ENTRY glob...] [EXCLUDE glob...]
#     [IGNORELIST file] [AUDIT dir])
#
# Needs the targets AlignGuard::plugin (an interface target: -fpass-plugin on
# C and C++ compiles, and the runtime) and the global property
# ALIGNGUARD_WRAPPER, the path of alignguard-clang (a global property, not a
# variable: the function may be called from any directory scope). The
# configuration becomes compile options of the target (--alignguard=ACTION,
# --alignguard-entry=GLOB, ...: the flags of alignguard-clang,
# docs/flags.md), and alignguard-clang, the target's compiler launcher in its
# --alignguard-launch mode, turns them into the compiler's `-mllvm
# -alignguard-pipeline=TEXT` (with the -fplugin= its LLVM may need: the
# wrapper's answer, --alignguard-print-plugin-args) for that compile
# only, exactly as it does as CC: they are in the command line, so make and
# ninja rebuild the target's objects when they change, a compiler launcher
# after it (ccache, sccache, distcc) sees and forwards the pipeline, and no
# shell or CMake list ever sees the '<', '>' and ';' of the pipeline text.
# The target's link libraries are set as target_link_libraries(PRIVATE)
# would, without calling it: a target that used its plain signature keeps
# working.

function(alignguard_instrument target)
  cmake_parse_arguments(PARSE_ARGV 1 AG "ACCESSES" "ACTION;IGNORELIST;AUDIT"
    "ENTRY;EXCLUDE")
  if(AG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "alignguard_instrument(${target}): unexpected "
      "arguments '${AG_UNPARSED_ARGUMENTS}'; expected ACTION, ACCESSES, "
      "ENTRY, EXCLUDE, IGNORELIST or AUDIT")
  endif()
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "alignguard_instrument: no target '${target}'")
  endif()
  if(NOT TARGET AlignGuard::plugin)
    get_property(why GLOBAL PROPERTY ALIGNGUARD_PLUGIN_ERROR)
    message(FATAL_ERROR "alignguard_instrument(${target}): no AlignGuard "
      "plugin: ${why}")
  endif()
  get_target_property(done "${target}" ALIGNGUARD_INSTRUMENTED)
  if(done)
    message(FATAL_ERROR "alignguard_instrument(${target}): the target is "
      "already instrumented; give all options in one call")
  endif()

  if(NOT DEFINED AG_ACTION)
    set(AG_ACTION abort)
  endif()
  if(NOT AG_ACTION MATCHES "^(abort|trap|recover|fallback|return=-?[0-9]+)$")
    message(FATAL_ERROR "alignguard_instrument(${target}): ACTION "
      "'${AG_ACTION}' is not one of abort, trap, recover, return=N, fallback")
  endif()
  set(flags "--alignguard=${AG_ACTION}")
  if(AG_ACCESSES)
    list(APPEND flags --alignguard-accesses)
  endif()
  foreach(glob IN LISTS AG_ENTRY)
    list(APPEND flags "--alignguard-entry=${glob}")
  endforeach()
  foreach(glob IN LISTS AG_EXCLUDE)
    list(APPEND flags "--alignguard-exclude=${glob}")
  endforeach()
  if(DEFINED AG_IGNORELIST)
    get_filename_component(file "${AG_IGNORELIST}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags "--alignguard-ignorelist=${file}")
  endif()
  if(DEFINED AG_AUDIT)
    get_filename_component(dir "${AG_AUDIT}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND flags "--alignguard-audit=${dir}")
  endif()
  foreach(flag IN LISTS flags)
    target_compile_options("${target}" PRIVATE
      "$<$<COMPILE_LANGUAGE:C,CXX>:${flag}>")
  endforeach()
  # -fpass-plugin, and the runtime archive after the target's objects: what
  # target_link_libraries(PRIVATE) does (a static or object library's
  # consumers link the runtime, without its compile options), without its
  # rule that one target uses one signature of it.
  set_property(TARGET "${target}" APPEND PROPERTY LINK_LIBRARIES AlignGuard::plugin)
  get_target_property(type "${target}" TYPE)
  if(type MATCHES "^(STATIC|OBJECT)_LIBRARY$")
    set_property(TARGET "${target}" APPEND PROPERTY INTERFACE_LINK_LIBRARIES
      "$<LINK_ONLY:AlignGuard::plugin>")
  endif()
  get_property(plugin_target GLOBAL PROPERTY ALIGNGUARD_PLUGIN_BUILD_TARGET)
  if(plugin_target)
    add_dependencies("${target}" ${plugin_target}) # built in this tree
  endif()

  get_property(wrapper GLOBAL PROPERTY ALIGNGUARD_WRAPPER)
  # The wrapper first; a launcher the target already has (ccache) after it.
  foreach(lang C CXX)
    get_target_property(old "${target}" ${lang}_COMPILER_LAUNCHER)
    if(NOT old)
      set(old "")
    endif()
    set_property(TARGET "${target}" PROPERTY ${lang}_COMPILER_LAUNCHER
      "${wrapper}" --alignguard-launch ${old})
  endforeach()
  set_property(TARGET "${target}" PROPERTY ALIGNGUARD_INSTRUMENTED TRUE)
endfunction()
