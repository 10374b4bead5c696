// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//! Bindings to `vadd`, a C kernel built with AlignGuard (build.rs), whose
//! alignment promises are checked at every call.

extern "C" {
    /// `out[i] = a[i] + b[i]` for `i < n`. The kernel promises the compiler
    /// that the three pointers are 32-byte aligned; AlignGuard checks it and
    /// stops the process with a report when a caller breaks the promise.
    pub fn vadd(out: *mut f32, a: *const f32, b: *const f32, n: usize);
}

/// `out = a + b`, element by element. Panics when the lengths differ. The
/// three slices must start on 32-byte boundaries: one that does not ends
/// the process with AlignGuard's report (SIGABRT), before the kernel reads
/// anything.
pub fn add(out: &mut [f32], a: &[f32], b: &[f32]) {
    assert!(a.len() == out.len() && b.len() == out.len(), "vadd-sys: lengths differ");
    unsafe { vadd(out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), out.len()) }
}
