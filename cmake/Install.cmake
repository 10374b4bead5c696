# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Install rules and Debian packages. The builds of several LLVM majors install
# into one prefix side by side:
#
#   lib/alignguard/llvm-N/AlignGuard.so          the plugin of LLVM N   } component
#   lib/alignguard/llvm-N/AlignGuard.llvm-bin    its LLVM's bin dir     } llvmN
#   lib/pkgconfig/alignguard-llvmN.pc            -fpass-plugin, clang   }
#   lib/libalignguard_rt.a, include/alignguard/  the runtime archive   } component
#   lib/libalignguard_rt.so                      its -l linker script  }
#   lib/cmake/AlignGuard/                        find_package(AlignGuard) } dev: the
#   lib/pkgconfig/alignguard.pc                  the runtime's flags    } same files
#   bin/alignguard, share/man/man1/alignguard.1  the driver             } major
#   share/doc/alignguard/                        README, LICENSE        }
#
#   cmake --install build-14 --prefix P && cmake --install build-22 --prefix P
#   cpack --config build-14/CPackConfig.cmake -G DEB
#     -> alignguard-llvm14_<v>_<arch>.deb, libalignguard-dev_<v>_<arch>.deb

set(ALIGNGUARD_MAJOR "${LLVM_VERSION_MAJOR}")
set(ALIGNGUARD_LLVM_COMPONENT "llvm${ALIGNGUARD_MAJOR}")

# The plugin of this major.
install(TARGETS AlignGuard
  LIBRARY DESTINATION lib/alignguard/llvm-${ALIGNGUARD_MAJOR}
  COMPONENT ${ALIGNGUARD_LLVM_COMPONENT})
install(FILES "${PROJECT_BINARY_DIR}/AlignGuard.llvm-bin"
  DESTINATION lib/alignguard/llvm-${ALIGNGUARD_MAJOR}
  COMPONENT ${ALIGNGUARD_LLVM_COMPONENT})
configure_file(cmake/alignguard-llvm.pc.in
  "${PROJECT_BINARY_DIR}/alignguard-llvm${ALIGNGUARD_MAJOR}.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/alignguard-llvm${ALIGNGUARD_MAJOR}.pc"
  DESTINATION lib/pkgconfig COMPONENT ${ALIGNGUARD_LLVM_COMPONENT})

# What every major shares.
# lib/libalignguard_rt.a is the archive, lib/libalignguard_rt.so the linker
# script beside it that -lalignguard_rt finds (runtime/CMakeLists.txt).
install(TARGETS alignguard_rt ARCHIVE DESTINATION lib COMPONENT dev)
install(FILES "${ALIGNGUARD_RUNTIME_SCRIPT}" DESTINATION lib COMPONENT dev)
install(DIRECTORY runtime/include/ DESTINATION include COMPONENT dev)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/AlignGuardConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES cmake/AlignGuardConfig.cmake cmake/AlignGuardInstrument.cmake
  "${PROJECT_BINARY_DIR}/AlignGuardConfigVersion.cmake"
  DESTINATION lib/cmake/AlignGuard COMPONENT dev)
configure_file(cmake/alignguard.pc.in "${PROJECT_BINARY_DIR}/alignguard.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/alignguard.pc"
  DESTINATION lib/pkgconfig COMPONENT dev)
install(PROGRAMS scripts/alignguard DESTINATION bin COMPONENT dev)
# The compiler wrappers; alignguard_instrument() runs alignguard-clang as the
# targets' compiler launcher (--alignguard-launch).
install(PROGRAMS scripts/alignguard-clang scripts/alignguard-clang++
  DESTINATION bin COMPONENT dev)
install(FILES docs/alignguard.1 DESTINATION share/man/man1 COMPONENT dev)
install(FILES README.md LICENSE DESTINATION share/doc/alignguard COMPONENT dev)
# docs/, which README.md links and the audit's SARIF names (helpUri).
install(DIRECTORY docs/ DESTINATION share/doc/alignguard/docs COMPONENT dev
  FILES_MATCHING PATTERN "*.md")

#===-------------------------------------------------------------------------===
# Debian packages: cpack -G DEB makes alignguard-llvmN (this build's plugin)
# and libalignguard-dev (the rest, identical from every major's build).
#===-------------------------------------------------------------------------===
if(NOT CMAKE_SOURCE_DIR STREQUAL PROJECT_SOURCE_DIR)
  return() # a parent project packages itself
endif()
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME alignguard)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "AlignGuard")
set(CPACK_PACKAGE_CONTACT "AlignGuard maintainers <alignguard@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "LLVM pass plugin that checks alignment promises at run time")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL dev ${ALIGNGUARD_LLVM_COMPONENT})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The plugin links no LLVM library (it takes LLVM's symbols from clang or
# opt), so dpkg-shlibdeps would find nothing to say: Depends is written here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libalignguard-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "pkg-config, cmake")
# The summary line is CPACK_PACKAGE_DESCRIPTION_SUMMARY; these are the bodies.
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "The C runtime (libalignguard_rt.a) that code instrumented by AlignGuard
links, its headers, find_package(AlignGuard) with alignguard_instrument(),
alignguard.pc and the alignguard driver. The plugin of LLVM N is in
alignguard-llvmN.")

string(TOUPPER "${ALIGNGUARD_LLVM_COMPONENT}" _ag_comp)
set(CPACK_DEBIAN_${_ag_comp}_PACKAGE_NAME alignguard-llvm${ALIGNGUARD_MAJOR})
set(CPACK_DEBIAN_${_ag_comp}_PACKAGE_DEPENDS
  "libalignguard-dev (= ${PROJECT_VERSION}), libllvm${ALIGNGUARD_MAJOR}, clang-${ALIGNGUARD_MAJOR}")
# opt, for the alignguard driver (clang builds need only clang).
set(CPACK_DEBIAN_${_ag_comp}_PACKAGE_RECOMMENDS "llvm-${ALIGNGUARD_MAJOR}")
set(CPACK_COMPONENT_${_ag_comp}_DESCRIPTION
  "The AlignGuard pass plugin for clang-${ALIGNGUARD_MAJOR} and opt
(/usr/lib/alignguard/llvm-${ALIGNGUARD_MAJOR}/AlignGuard.so) and its
alignguard-llvm${ALIGNGUARD_MAJOR}.pc: it turns the alignment promises of a
kernel into checks at run time.")
include(CPack)
