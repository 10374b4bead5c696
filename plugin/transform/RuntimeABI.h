//===- RuntimeABI.h - The pass's side of the runtime's C ABI ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hooks and the site descriptors of
// runtime/include/alignguard/alignguard.h, built in IR. Keep the two in step:
// a descriptor's bytes are struct alignguard_site's there, and SiteVersion is
// ALIGNGUARD_SITE_VERSION. A descriptor is one block, its bytes then its
// strings (little-endian here), and a table (2 to 4 descriptors for one
// table-hook call) is one block too, the descriptors then their strings:
//
//   @__alignguard_site = private constant { [56 x i8], [22 x i8] }
//       { [56 x i8] c"\03\00\00\00\02\00\00\008\00\00\00>\00...",
//         [22 x i8] c"saxpy\00argument #1 'y'\00" }, align 8
//   call void @__alignguard_report_abort(ptr @__alignguard_site, i64 %p,
//                                        i64 64, i64 0)
//
//   @__alignguard_site.1 = private constant { [112 x i8], [38 x i8] }
//       { [112 x i8] c"\03\00\00\00\02\00\00\00p\00\00\00v\00...",
//         [38 x i8] c"saxpy\00argument #0 'x'\00argument #1 'y'\00" },
//       align 8
//
// Every hook argument is an integer or the descriptor pointer, so the same
// tests read alike on typed (LLVM 14) and opaque pointers.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_RUNTIMEABI_H
#define ALIGNGUARD_RUNTIMEABI_H

#include "HookNames.h"
#include "PromiseDescription.h"
#include "Promises.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"

#include <optional>
#include <string>

namespace alignguard {

/// alignguard_site: its version, and its size in bytes.
inline constexpr unsigned SiteVersion = 3;
inline constexpr unsigned SiteSize = 56;
/// A hook call's arguments, in its parameters' order, from the descriptor
/// (or table) and Rest: for OneCheck the pointer, alignment and offset; for
/// Table the MaxTableChecks pointers (0 past the count), then the count.
llvm::SmallVector<llvm::Value *, 6>
hookArguments(HookShape Shape, llvm::Value *Site,
              llvm::ArrayRef<llvm::Value *> Rest);

/// Everything a report says about where a promise was made.
struct SiteInfo {
  /// The site of the promise D describes (Alignment and Offset 0 when only
  /// known at run time).
  static SiteInfo from(const PromiseDescription &D);

  PromiseKind Kind;
  std::string Function;
  std::string Subject;
  std::string File; ///< empty without debug info
  unsigned Line = 0;
  unsigned Column = 0;
  uint64_t Alignment = 0; ///< 0 when only known at run time
  int64_t Offset = 0;     ///< the constant offset, 0 when at run time
  /// Where the promise was written (PromiseDescription::PromisedFile...);
  /// empty without debug info.
  std::string PromiseFile;
  unsigned PromiseLine = 0;
  unsigned PromiseColumn = 0;
};

/// Emits site descriptors into one module.
class SiteDescriptors {
public:
  explicit SiteDescriptors(llvm::Module &M) : M(M) {}
  /// Which descriptors a copy of already emitted functions has taken.
  struct Reuse {
    llvm::DenseMap<llvm::Constant *, unsigned> Taken;
  };
  /// A new constant descriptor for Site, with its strings after it (one per
  /// check: the runtime deduplicates reports by descriptor address). With
  /// R, a recover copy's: the k-th request for the same fields gets the
  /// k-th descriptor made for them, so the copy's checks report as its
  /// original's, once per site.
  llvm::Constant *create(const SiteInfo &Site, Reuse *R = nullptr);
  /// One constant table of Sites' descriptors (2 to MaxTableChecks, for a
  /// table hook): the descriptors' bytes, then the strings they name (each
  /// once), in one global without a pointer, which the later passes carry
  /// as two byte arrays rather than a dozen operands per descriptor. Its
  /// elements (tableElementPointer) are descriptors the one-check hooks
  /// take as well; a place's checks name the table itself and which
  /// element (PlaceCheck::Element).
  llvm::GlobalVariable *createTable(llvm::ArrayRef<SiteInfo> Sites);
  /// The type of a descriptor pointer, as the hooks take it.
  llvm::Type *pointerType() const;

private:
  /// A new private constant block of Sites' descriptors and strings.
  llvm::GlobalVariable *block(llvm::ArrayRef<SiteInfo> Sites);
  /// Base, or Base.N for the next N from Next that no global of M has. A
  /// name LLVM had to make unique itself costs a retry per taken suffix and,
  /// up to LLVM 20, a parse of the target triple.
  std::string freshName(llvm::StringRef Base, unsigned &Next) const;

  llvm::Module &M;
  unsigned NextSite = 0; ///< freshName's suffix
  /// Every one-check descriptor made, by its initializer, in order.
  llvm::DenseMap<llvm::Constant *, llvm::SmallVector<llvm::Constant *, 1>> Made;
};

/// Declares (or finds) a hook of Shape: cold, and noreturn for the abort
/// ones. Call checkReportHooks first.
llvm::FunctionCallee getHook(llvm::Module &M, HookKind Kind,
                             llvm::Type *SitePtrTy,
                             HookShape Shape = HookShape::OneCheck);

/// Site as a table createTable made; null when it is not one (a single
/// descriptor, another value, or none).
llvm::GlobalVariable *siteTable(llvm::Value *Site);
/// How many descriptors Table (a table siteTable returned) holds.
unsigned tableSize(const llvm::GlobalVariable &Table);
/// The alignment and offset the Index-th descriptor of Table (a table
/// siteTable returned) names (what the table hook tests for it); none when
/// it has no such element.
struct TableElement {
  uint64_t Alignment;
  int64_t Offset;
};
std::optional<TableElement> tableElement(const llvm::GlobalVariable &Table,
                                         unsigned Index);
/// A pointer to Table's Index-th descriptor, as the hooks take it.
llvm::Constant *tableElementPointer(llvm::GlobalVariable &Table,
                                    unsigned Index);

/// Empty when the module's symbols named like the hooks (if any) are the
/// hooks; otherwise why not (a variable, or a function of another type):
/// calling it would be undefined, so the pass refuses.
std::string checkReportHooks(const llvm::Module &M, llvm::Type *SitePtrTy);

} // namespace alignguard

#endif // ALIGNGUARD_RUNTIMEABI_H
