; Every kind of alignment promise, and every status the audit gives one,
; before and after align-guard. The JSON follows the contract (the checker
; fails on any other key or type).
; RUN: %opt-ag -passes='align-guard-audit<json;all>' -disable-output %s > %t.before.json
; RUN: %python %tools/audit-json.py %t.before.json | FileCheck %s --check-prefix=BEFORE
; RUN: %opt-ag -passes='align-guard,align-guard-audit<json;all>' -disable-output %s > %t.after.json
; RUN: %python %tools/audit-json.py %t.after.json | FileCheck %s --check-prefix=AFTER
; RUN: %opt-ag -passes='align-guard-audit' -disable-output %s 2>&1 | FileCheck %s --check-prefix=TABLE

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128-ni:7"

declare void @abort() noreturn
declare align 64 i8* @aligned_buffer()
declare void @llvm.assume(i1)

; BEFORE: unchecked assume-bundle plain | argument #0 'p' | arg=0 align=64 offset=0 | - | nothing checks it
; AFTER:  guarded assume-bundle plain | argument #0 'p' | arg=0 align=64 offset=0 | - | None
define void @plain(i8* %p) {
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  ret void
}

; The code's own test, `if ((uintptr_t)p & 63) abort();`, makes it checked,
; and align-guard adds no check to what the audit calls checked.
; BEFORE: checked assume-bundle self_checked | argument #0 'p' | arg=0 align=32 offset=0 | - | None
; AFTER:  checked assume-bundle self_checked
define void @self_checked(i8* %p) {
  %i = ptrtoint i8* %p to i64
  %low = and i64 %i, 63
  %bad = icmp ne i64 %low, 0
  br i1 %bad, label %fail, label %ok
fail:
  call void @abort()
  unreachable
ok:
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 32) ]
  ret void
}

; BEFORE: unchecked assume-icmp legacy | argument #0 'q' | arg=0 align=16 offset=0 | - | nothing checks it
; AFTER:  guarded assume-icmp legacy
define void @legacy(i8* %q) {
  %i = ptrtoint i8* %q to i64
  %low = and i64 %i, 15
  %c = icmp eq i64 %low, 0
  call void @llvm.assume(i1 %c)
  ret void
}

; BEFORE: unchecked assume-bundle runtime | argument #0 'r' | arg=0 align=None offset=0 | - | known only at run time, and nothing checks it
; AFTER:  guarded assume-bundle runtime
define void @runtime(i8* %r, i64 %a) {
  call void @llvm.assume(i1 true) [ "align"(i8* %r, i64 %a) ]
  ret void
}

; An entry point's parameter; align-guard turns it into a guarded assume,
; still reported as the parameter it was.
; BEFORE: unchecked param-attr entry | argument #0 'e' | arg=0 align=64 offset=0 | - | promised by the callers of entry point 'entry'
; AFTER:  guarded param-attr entry | argument #0 'e' | arg=0 align=64 offset=0 | - | None
; An internal callee's parameter: implied when every call passes a checked
; or guarded pointer of at least that alignment.
; BEFORE: unchecked param-attr inner | argument #0 'x' | arg=0 align=64 offset=0 | - | the call in 'entry' passes argument #0 'e', which is unchecked (promised by the callers of entry point 'entry')
; AFTER:  implied param-attr inner | argument #0 'x' | arg=0 align=64 offset=0 | - | None
define void @entry(i8* align 64 %e) {
  call void @inner(i8* %e)
  ret void
}
define internal void @inner(i8* align 64 %x) {
  ret void
}

; A call's return promise is the callee's.
; align-guard checks it after the call, and the audit then calls it guarded.
; BEFORE: unchecked return-attr uses_return | the pointer returned by 'aligned_buffer' | arg=None align=64 offset=0 | - | promised by 'aligned_buffer'; nothing checks the returned pointer
; AFTER:  guarded return-attr uses_return | the pointer returned by 'aligned_buffer' | arg=None align=64 offset=0 | - | None
; A definition's return promise is checked when its returned pointer is.
; BEFORE: checked return-attr returns | the pointer returned by 'returns' | arg=None align=32 offset=0 | - | None
define i8* @uses_return() {
  %b = call i8* @aligned_buffer()
  ret i8* %b
}
define align 32 i8* @returns(i8* %p) {
  %i = ptrtoint i8* %p to i64
  %low = and i64 %i, 31
  %ok = icmp eq i64 %low, 0
  br i1 %ok, label %good, label %bad
good:
  ret i8* %p
bad:
  ret i8* null
}

; A vector access aligned beyond its element on an entry's argument.
; BEFORE: unchecked access vload | argument #0 'v' | arg=0 align=16 offset=0 | - | nothing checks it
; BEFORE: checked access vload | argument #0 'v' | arg=0 align=16 offset=0 | - | None
; AFTER:  unchecked access vload | argument #0 'v' | arg=0 align=16 offset=0 | - | nothing checks it
; AFTER:  checked access vload | argument #0 'v' | arg=0 align=16 offset=0 | - | None
define <4 x float> @vload(<4 x float>* %v, i1 %c) {
  %early = load <4 x float>, <4 x float>* %v, align 16
  %i = ptrtoint <4 x float>* %v to i64
  %low = and i64 %i, 15
  %ok = icmp eq i64 %low, 0
  br i1 %ok, label %good, label %bad
good:
  %later = getelementptr <4 x float>, <4 x float>* %v, i64 3
  %x = load <4 x float>, <4 x float>* %later, align 16
  ret <4 x float> %x
bad:
  ret <4 x float> %early
}

; BEFORE: unsupported param-attr fat | argument #0 'f' | arg=0 align=16 offset=0 | - | pointers in non-integral address space 7 have no stable address to check
define void @fat(i8 addrspace(7)* align 16 %f) {
  ret void
}

; BEFORE: summary total=11 unchecked=7 guarded=0 checked=3 implied=0 unsupported=1
; AFTER: summary total=11 unchecked=1 guarded=5 checked=3 implied=1 unsupported=1

; The table lists what needs attention, then the summary.
; TABLE:      alignguard audit: {{.*}}kinds-and-statuses.ll
; TABLE-NEXT: STATUS {{ *}}KIND {{ *}}FUNCTION {{ *}}SUBJECT {{ *}}ALIGN {{ *}}LOCATION {{ *}}REASON
; TABLE-NEXT: unchecked {{ *}}assume-bundle {{ *}}plain {{ *}}argument #0 'p' {{ *}}64 {{ *}}- {{ *}}nothing checks it
; TABLE-NOT:  checked {{ *}}assume-bundle {{ *}}self_checked
; TABLE:      unsupported {{ *}}param-attr {{ *}}fat
; TABLE-NEXT: summary: 11 assumptions: 7 unchecked, 0 guarded, 3 checked, 0 implied, 1 unsupported
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
