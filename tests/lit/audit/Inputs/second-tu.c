// A second translation unit for clang-build.c: one promise, unchecked.
void *scratch(void) __attribute__((assume_aligned(32)));
float first(void) { return *(float *)scratch(); }
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
