# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Writes libalignguard_rt.so, the linker script that sits beside the runtime
# archive libalignguard_rt.a (as Debian's libc.so sits beside libc.a): it
# names every symbol the archive defines as needed (EXTERN) and then adds the
# archive (INPUT, found in the script's own directory). A linker resolving
# -lalignguard_rt looks for libalignguard_rt.so before libalignguard_rt.a, so
# `cc -lalignguard_rt objs` links the runtime's members even though the
# objects that call the hooks come after it (GNU ld, gold and lld read the
# script), where the archive there would leave
# `undefined reference to '__alignguard_report_abort'`. Everything that names
# the archive itself (a path after the objects, ar, CMake's imported target,
# pkg-config, rustc's static kind) gets the real archive.
#
#   cmake -DNM=nm -DARCHIVE=<dir>/libalignguard_rt.a
#         -DOUTPUT=<dir>/libalignguard_rt.so -P RuntimeLinkScript.cmake
foreach(var NM ARCHIVE OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RuntimeLinkScript.cmake: -D${var}=... missing")
  endif()
endforeach()
execute_process(COMMAND "${NM}" -g --defined-only "${ARCHIVE}"
  OUTPUT_VARIABLE listing RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${ARCHIVE}: ${err}")
endif()
string(REGEX MATCHALL "[0-9a-fA-F]+ [TDBRVW] [A-Za-z_][A-Za-z0-9_]*" defs "${listing}")
set(symbols "")
foreach(def IN LISTS defs)
  string(REGEX REPLACE "^[0-9a-fA-F]+ [A-Z] " "" name "${def}")
  list(APPEND symbols "${name}")
endforeach()
list(REMOVE_DUPLICATES symbols)
list(SORT symbols)
list(FIND symbols __alignguard_report_abort has_abort)
if(has_abort EQUAL -1)
  message(FATAL_ERROR "RuntimeLinkScript.cmake: ${ARCHIVE} defines no "
    "__alignguard_report_abort (nm found: ${symbols})")
endif()
get_filename_component(archive_name "${ARCHIVE}" NAME)
string(REPLACE ";" "\n  " extern "${symbols}")
# "GNU ld script" in the first line: ldconfig, which looks at every lib*.so
# in the library directories, then knows the file for a script (as libc.so)
# and does not complain that it is not an ELF file.
file(WRITE "${OUTPUT}.tmp"
"/* GNU ld script
   AlignGuard's runtime as -lalignguard_rt finds it: every symbol of the
   runtime is made needed, then the archive beside this file is added, so
   -lalignguard_rt links before or after the objects that call the hooks.
   Not a shared library: the runtime links statically, and anything that
   wants the archive itself takes ${archive_name}. */
EXTERN(
  ${extern}
)
INPUT(${archive_name})
")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
