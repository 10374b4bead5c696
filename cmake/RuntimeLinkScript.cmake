# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Writes libalignguard_rt.a, the file users link: a linker script (GNU ld,
# gold and lld read it, as they read libc.so) that names every symbol the
# runtime defines as needed (EXTERN) and then adds the archive itself
# (INPUT, found relative to the script's own directory). The runtime's
# members are therefore linked wherever the file stands on the command
# line: before the objects that call the hooks too (CMAKE_EXE_LINKER_FLAGS,
# LDFLAGS), where a plain archive would leave
# `undefined reference to '__alignguard_report_abort'`.
#
#   cmake -DNM=nm -DARCHIVE=<dir>/alignguard/libalignguard_rt.a
#         -DMEMBERS=alignguard/libalignguard_rt.a -DOUTPUT=<dir>/libalignguard_rt.a
#         -P RuntimeLinkScript.cmake
foreach(var NM ARCHIVE MEMBERS OUTPUT)
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
string(REPLACE ";" "\n  " extern "${symbols}")
file(WRITE "${OUTPUT}.tmp"
"/* AlignGuard's runtime: a linker script, not an archive. It makes every
   symbol of the runtime needed, then adds the archive (relative to this
   file's directory), so it links before or after the objects that call
   the hooks. The archive itself: ${MEMBERS} */
EXTERN(
  ${extern}
)
INPUT(${MEMBERS})
")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
