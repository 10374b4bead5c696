// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The TVM-style packed kernel of the tests (an exported wrapper that
// unpacks DLTensors, asserts like TVM, promises 64-byte aligned data with
// __builtin_assume_aligned and calls an internal compute function with
// align_value parameters): the benchmark measures the very kernel the
// tvm-packed-kernel test runs. TVMAPISetLastError comes from bench/driver.c.
#include "../../tests/lit/programs/Inputs/tvm_kernel.c"
