//===- PromiseDescription.h - How a promise is named, once ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime's report, the guard's warnings and remarks and the audit's
// finding all say the same things about a promise: in which function, of
// which kind, about which pointer, written where, with which constant
// alignment and offset. describePromise is the one function that works
// them out; the site descriptor (RuntimeABI.h) and the audit finding
// (AuditReport.h) are both made from its result.
//
//   define void @vadd(ptr %a, ptr align 64 %b)   !dbg at vadd.c:12
//     -> {vadd, param-attr, "argument #1 'b'", arg 1, 64, 0, vadd.c:12:0,
//         promised at vadd.c:12:0}
//
// Two places: where the promise is checked (File/Line/Column, in the
// function itself: for inlined code, the call site) and where it was
// written (Promised: an inlined helper's assume, a callee's declaration).
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_PROMISEDESCRIPTION_H
#define ALIGNGUARD_PROMISEDESCRIPTION_H

#include "Promises.h"

#include "llvm/IR/DebugLoc.h"

#include <optional>
#include <string>

namespace alignguard {

class SubjectNamer;

struct PromiseDescription {
  std::string Function; ///< demangled: Particle::step(float)
  PromiseKind Kind;     ///< a guarded assume made from `align` parameters
                        ///< reads as ParamAttr
  std::string Subject;  ///< "argument #1 'b'", "A->data", ...
  std::optional<unsigned> Argument;  ///< when the subject is a parameter
  std::optional<uint64_t> Alignment; ///< none when only known at run time
  std::optional<int64_t> Offset;     ///< none when only known at run time
  std::string File;                  ///< empty without debug info
  unsigned Line = 0, Column = 0;
  /// File as an absolute, normalised path (its DIFile's directory joined
  /// with its name, `.` and `..` removed); empty without debug info.
  std::string Path;
  /// The same for the file of the function's DISubprogram; empty without.
  std::string FunctionPath;
  /// Where the promise was written (promiseOriginLoc); often the place
  /// above. Empty without debug info.
  std::string PromisedFile;
  unsigned PromisedLine = 0, PromisedColumn = 0;
};

/// Describes A; Namer must be F's (A.F).
PromiseDescription describePromise(const AlignmentPromise &A,
                                   const SubjectNamer &Namer);

/// Where A is made: its instruction's location (for inlined code, the call
/// site in A's function), else (a parameter's promise) the start of its
/// function; empty without debug info.
llvm::DebugLoc promiseDebugLoc(const AlignmentPromise &A);

/// Where A was written, as far as debug info (-g or -gline-tables-only)
/// says: an assume's or an access's own location (for inlined code, in the
/// inlined helper, not the call site), the callee's DISubprogram for a
/// call's return promise (empty when the callee has none), the function's
/// for its parameters and its own return; else promiseDebugLoc(A).
llvm::DebugLoc promiseOriginLoc(const AlignmentPromise &A);

/// A finding's identity across unrelated edits: the first 16 hex digits of
/// the MD5 (llvm::MD5: the same on every LLVM) of the demangled function,
/// the kind, the subject, the alignment (or `run-time`), the offset (or
/// `run-time`) and the base name of File, NUL-separated. No line, column or
/// status: a line inserted above the promise, or a check added for it,
/// keeps its fingerprint.
std::string promiseFingerprint(const PromiseDescription &D);

/// Directory joined with File (unless File is absolute), made absolute
/// against the current directory if the debug info says none, with `.` and
/// `..` removed; empty when File is.
std::string absoluteSourcePath(llvm::StringRef Directory, llvm::StringRef File);

/// ` at file:line` for a message, or "" without debug info.
std::string describeLocation(const llvm::DebugLoc &DL);

/// Text from the IR (names, subjects, files) as every report shows it:
/// control bytes (below 0x20, and 0x7f) as \xNN, so that a report stays one
/// line, as the runtime writes them (alignguard_format_report).
std::string escapeControlBytes(llvm::StringRef Text);

} // namespace alignguard

#endif // ALIGNGUARD_PROMISEDESCRIPTION_H
