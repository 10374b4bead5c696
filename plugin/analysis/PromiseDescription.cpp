//===- PromiseDescription.cpp - How a promise is named, in one place -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "PromiseDescription.h"

#include "GuardMetadata.h"
#include "PointerOrigins.h"
#include "SubjectNames.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace alignguard {

DebugLoc promiseDebugLoc(const AlignmentPromise &A) {
  // A promise inlined from a library (Highway's Load, Eigen's packet
  // access) is reported where the function's own code made it: the
  // outermost call site of the inlined chain.
  if (A.Inst && A.Inst->getDebugLoc()) {
    DILocation *Loc = A.Inst->getDebugLoc().get();
    while (DILocation *Caller = Loc->getInlinedAt())
      Loc = Caller;
    return DebugLoc(Loc);
  }
  // A parameter's promise is made where the function begins.
  if (DISubprogram *SP = A.F->getSubprogram())
    return DILocation::get(A.F->getContext(), SP->getLine(), 0, SP);
  return DebugLoc();
}

/// Where SP's function is declared (line, no column).
static DebugLoc subprogramLoc(LLVMContext &Ctx, DISubprogram *SP) {
  if (!SP)
    return DebugLoc();
  return DILocation::get(Ctx, SP->getLine(), 0, SP);
}

DebugLoc promiseOriginLoc(const AlignmentPromise &A) {
  LLVMContext &Ctx = A.F->getContext();
  switch (A.Kind) {
  case PromiseKind::ParamAttr:
    return subprogramLoc(Ctx, A.F->getSubprogram());
  case PromiseKind::ReturnAttr:
    // A call's result is promised by its callee's declaration; a return
    // of F's own by F.
    if (auto *CB = dyn_cast_or_null<CallBase>(A.Inst)) {
      const Function *Callee = CB->getCalledFunction();
      return Callee ? subprogramLoc(Ctx, Callee->getSubprogram()) : DebugLoc();
    }
    return subprogramLoc(Ctx, A.F->getSubprogram());
  case PromiseKind::AssumeBundle:
  case PromiseKind::AssumeICmp:
  case PromiseKind::Access:
  case PromiseKind::LoadMetadata:
    // The instruction's own location: for inlined code, the innermost one,
    // where __builtin_assume_aligned, the aligned load or the load with
    // `!align` was written.
    if (A.Inst && A.Inst->getDebugLoc())
      return A.Inst->getDebugLoc();
    break;
  }
  return promiseDebugLoc(A);
}

std::string promiseFingerprint(const PromiseDescription &D) {
  auto Constant = [](const auto &V) {
    return V ? std::to_string(*V) : std::string("run-time");
  };
  std::string Alignment = Constant(D.Alignment), Offset = Constant(D.Offset);
  MD5 Hash;
  for (StringRef Part :
       {StringRef(D.Function), promiseKindName(D.Kind), StringRef(D.Subject),
        StringRef(Alignment), StringRef(Offset), sys::path::filename(D.File)}) {
    Hash.update(Part);
    Hash.update(ArrayRef<uint8_t>(uint8_t(0)));
  }
  MD5::MD5Result Result;
  Hash.final(Result);
  return Result.digest().substr(0, 16).str();
}

std::string absoluteSourcePath(StringRef Directory, StringRef File) {
  if (File.empty())
    return "";
  SmallString<256> Path;
  if (!sys::path::is_absolute(File))
    Path = Directory;
  sys::path::append(Path, File);
  sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

std::string describeLocation(const DebugLoc &DL) {
  if (!DL)
    return "";
  return (" at " + DL->getFilename() + ":" + Twine(DL.getLine())).str();
}

/// The subject of a return promise: whose returned pointer it is (the
/// call's, or, for its own `ret`, F's; for a guarded assume made from a
/// call's promise, the call's it names).
static std::string returnedBy(const AlignmentPromise &A) {
  auto *CB = dyn_cast<CallBase>(A.Assume ? A.Pointer : A.Inst);
  const Function *Callee = CB                        ? CB->getCalledFunction()
                           : isa<ReturnInst>(A.Inst) ? A.F
                                                     : nullptr;
  return "the pointer returned by " +
         (Callee ? "'" + demangle(Callee->getName().str()) + "'"
                 : std::string("an indirect call"));
}

PromiseDescription describePromise(const AlignmentPromise &A,
                                   const SubjectNamer &Namer) {
  PromiseDescription D;
  D.Function = Namer.functionName(*A.F);
  D.Kind = A.Kind;
  // An assume that align-guard made from `align` parameters keeps
  // reporting as those parameters.
  if (A.Guarded && A.Inst)
    if (std::optional<GuardNote> Note = readGuardNote(*A.Inst))
      if (Note->MadeFrom)
        D.Kind = *Note->MadeFrom;

  if (D.Kind == PromiseKind::ReturnAttr) {
    D.Subject = returnedBy(A);
  } else if (auto *Load = dyn_cast_or_null<LoadInst>(A.Pointer);
             Load && D.Kind == PromiseKind::LoadMetadata) {
    // What the pointer was loaded from says more than its value's name.
    D.Subject =
        "the pointer loaded from " + Namer.describe(Load->getPointerOperand());
  } else if (!A.Pointer) {
    D.Subject = "a value";
  } else if (const Argument *Arg = argumentOf(A.Pointer)) {
    D.Argument = Arg->getArgNo();
    D.Subject = Namer.describe(A.Pointer);
  } else if (A.Kind == PromiseKind::Access) {
    // An access is through a GEP of the buffer: name the buffer.
    const Value *Root = pointerRoot(A.Pointer);
    if (auto *RootArg = dyn_cast<Argument>(Root))
      D.Argument = RootArg->getArgNo();
    D.Subject = Namer.describe(Root);
  } else {
    D.Subject = Namer.describe(A.Pointer);
  }

  if (auto *C = dyn_cast_or_null<ConstantInt>(A.Alignment))
    D.Alignment = C->getValue().getLimitedValue();
  if (!A.Offset)
    D.Offset = 0;
  else if (auto *C = dyn_cast<ConstantInt>(A.Offset))
    D.Offset = C->getValue().sextOrTrunc(64).getSExtValue();

  if (DebugLoc Loc = promiseDebugLoc(A)) {
    D.File = Loc->getFilename().str();
    D.Line = Loc.getLine();
    D.Column = Loc.getCol();
    D.Path = absoluteSourcePath(Loc->getDirectory(), Loc->getFilename());
  }
  if (const DISubprogram *SP = A.F->getSubprogram())
    D.FunctionPath = absoluteSourcePath(SP->getDirectory(), SP->getFilename());
  if (DebugLoc Loc = promiseOriginLoc(A)) {
    D.PromisedFile = Loc->getFilename().str();
    D.PromisedLine = Loc.getLine();
    D.PromisedColumn = Loc.getCol();
  }
  return D;
}

std::string escapeControlBytes(StringRef Text) {
  std::string Out;
  for (unsigned char C : Text) {
    if (C < 0x20 || C == 0x7f) {
      static const char Hex[] = "0123456789abcdef";
      Out += "\\x";
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    } else {
      Out += static_cast<char>(C);
    }
  }
  return Out;
}

} // namespace alignguard
