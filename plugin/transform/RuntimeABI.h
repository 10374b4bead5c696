//===- RuntimeABI.h - The pass's side of the runtime's C ABI ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hooks and the site descriptors of
// runtime/include/alignguard/alignguard.h, built in IR. Keep the two in step:
// the field order here is the struct alignguard_site there, and SiteVersion is
// ALIGNGUARD_SITE_VERSION; a table's bytes are alignguard_packed_site's
// (PackedSiteVersion is ALIGNGUARD_PACKED_SITE_VERSION).
//
//   @__alignguard_site = private constant { i32 2, i32 2, ptr @fn, ptr @subj,
//                                           ptr @file, i32 12, i32 3,
//                                           i64 64, i64 0,
//                                           ptr @file, i32 12, i32 0 }
//   call void @__alignguard_report_abort(ptr @__alignguard_site, i64 %p,
//                                        i64 64, i64 0)
//
// and a table (2 to 4 descriptors for one table-hook call) is one block,
// the packed descriptors' bytes then their strings (little-endian here):
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
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Module.h"

#include <optional>
#include <string>

namespace alignguard {

inline constexpr unsigned SiteVersion = 2;
/// A table's descriptors: alignguard_packed_site, PackedSiteSize bytes each.
inline constexpr unsigned PackedSiteVersion = 3;
inline constexpr unsigned PackedSiteSize = 56;
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
  /// empty without debug info. Since SiteVersion 2.
  std::string PromiseFile;
  unsigned PromiseLine = 0;
  unsigned PromiseColumn = 0;
};

/// Emits site descriptors into one module, sharing their strings.
class SiteDescriptors {
public:
  explicit SiteDescriptors(llvm::Module &M);
  /// Which descriptors a copy of already emitted functions has taken.
  struct Reuse {
    llvm::DenseMap<llvm::Constant *, unsigned> Taken;
  };
  /// A new constant descriptor for Site (one per check: the runtime
  /// deduplicates reports by descriptor address). With R, a recover copy's:
  /// the k-th request for the same fields gets the k-th descriptor made for
  /// them, so the copy's checks report as its original's, once per site.
  llvm::Constant *create(const SiteInfo &Site, Reuse *R = nullptr);
  /// One constant table of Sites' descriptors (2 to MaxTableChecks, for a
  /// table hook), packed: the descriptors' bytes, then the strings they
  /// name (each once), in one global without a pointer, which the later
  /// passes carry as two byte arrays rather than a dozen operands per
  /// descriptor. Its elements (tableElementPointer) are descriptors the
  /// one-check hooks take as well; a place's checks name the table
  /// itself and which element (PlaceCheck::Element).
  llvm::GlobalVariable *createTable(llvm::ArrayRef<SiteInfo> Sites);
  /// The type of a descriptor pointer, as the hooks take it.
  llvm::Type *pointerType() const { return StrTy; }

private:
  /// Site's descriptor, as a constant struct.
  llvm::Constant *initializer(const SiteInfo &Site);
  /// The field value V of Bits bits. Most fields are 0 or the version
  /// (no debug info: no line, no column): those are looked up once, not
  /// in the context's map per field (LLVM 14, 250 small kernels: 1.3 M of
  /// align-guard's own 26.7 M instructions).
  llvm::Constant *field(unsigned Bits, uint64_t V);
  /// A private NUL-terminated string; null for an empty one when asked (the
  /// runtime reads a NULL file as "no debug info").
  llvm::Constant *string(llvm::StringRef Text, bool NullIfEmpty);
  /// Base, or Base.N for the next N from Next that no global of M has. A
  /// name LLVM had to make unique itself costs a retry per taken suffix and,
  /// up to LLVM 20, a parse of the target triple (on 1000 small kernels,
  /// LLVM 14: 5% of align-guard's own instructions, bench/README.md).
  std::string freshName(llvm::StringRef Base, unsigned &Next) const;

  llvm::Module &M;
  unsigned AddrSpace;
  llvm::Type *StrTy;
  llvm::StringMap<llvm::Constant *> Strings;
  llvm::Constant *Zero32, *Zero64, *Version;
  unsigned NextString = 0, NextSite = 0; ///< freshName's suffixes
  /// Every descriptor made, by its initializer, in order.
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
/// True for a global named like a descriptor whose type is an array: a
/// table in the layout before PackedSiteVersion (an older plugin's
/// bitcode), which is neither a table nor one descriptor now.
bool isOldSiteTable(const llvm::Value *Site);
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
