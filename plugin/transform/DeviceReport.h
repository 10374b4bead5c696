//===- DeviceReport.h - A check reported from a GPU kernel -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Device code cannot call the AlignGuard runtime. On a device that prints
// (devicePrinter) the failing side of an `abort` place prints the runtime's
// report line from the device and stops the kernel:
//
//   %before = atomicrmw xchg ptr addrspace(1) @__alignguard_device_claim,
//                            i64 <this launch's id>
//   br i1 <%before != id>, label %alignguard.report, label %alignguard.leave
//   alignguard.report:                      ; the first failing thread only
//     NVPTX:  call i32 @vprintf(ptr @fmt, ptr %args) ; pointer, alignments, ids
//             call void @__assertfail(ptr @msg, ptr @file, i32 LINE, ptr @fn,
//             i64 1)
//     AMDGPU: call i64 @__ockl_fprintf_stderr_begin(), then
//             @__ockl_fprintf_append_string_n(fmt) and _append_args(values)
//     call void @llvm.trap()
//   alignguard.leave:                       ; every other failing thread
//     NVPTX:  call void asm sideeffect "exit;", ""()
//     AMDGPU: ret void in a kernel, a trap elsewhere
//
// The format is the check's own constant: the runtime's words
// (alignguard_format_report), the function, subject and location written in,
// the values computed on the device, then where: ` [block (x,y,z) thread
// (x,y,z)]`. On NVPTX, vprintf and __assertfail need no library: ptxas and
// the driver resolve them, and the assert makes the launch fail with the
// driver's assert error after the message is flushed. On AMDGPU the ROCm
// device libraries define the ockl functions, linked after this pass; the
// kernels keep their hostcall buffer (keepHostcallBuffer).
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_DEVICEREPORT_H
#define ALIGNGUARD_DEVICEREPORT_H

#include "Options.h"
#include "RuntimeABI.h"

#include <string>

namespace alignguard {

/// The printf format of Site's report from the device: a private constant
/// string of M.
llvm::Constant *deviceReportFormat(llvm::Module &M, const SiteInfo &Site);

/// Empty when M can call what its device report calls (vprintf and
/// __assertfail, or the ockl stderr functions) with the types it calls
/// them with; otherwise why not (M declares one with another type).
std::string checkDeviceReportFunctions(const llvm::Module &M);

/// Empty when the failing sides of M's checks under Action can call what
/// they need: nothing under trap, the device report's functions on a GPU
/// (where abort is left, the device prints: moduleAction), the runtime's
/// hooks elsewhere
/// (checkReportHooks); otherwise why not.
std::string checkFailureCalls(llvm::Module &M, FailureAction Action);

/// Puts the report from the device before Term, the end of a failing side:
/// Format (deviceReportFormat, or a select of them) with Pointer, Alignment
/// and Offset (i64). Stop (abort): the first failing thread then stops the
/// kernel and the others leave it, Term unreached. Otherwise (return=N)
/// every failing thread goes on to Term, which the caller makes a return.
/// Loc: the place's.
void emitDeviceReport(llvm::Instruction *Term, llvm::Value *Format,
                      llvm::Value *Pointer, llvm::Value *Alignment,
                      llvm::Value *Offset, const llvm::DebugLoc &Loc,
                      bool Stop);

} // namespace alignguard

#endif // ALIGNGUARD_DEVICEREPORT_H
