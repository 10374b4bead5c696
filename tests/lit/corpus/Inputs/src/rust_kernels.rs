//! Rust kernels with a C ABI. References carry `align` on their parameters
//! (4 for f32, 64 for a #[repr(align(64))] struct); a slice is (ptr, len)
//! with `align 4` on the ptr; is_aligned is a runtime test, not a promise.
#![crate_type = "lib"]
#![no_std]

#[no_mangle]
pub extern "C" fn rs_sum16(v: &[f32; 16]) -> f32 {
    let mut s = 0.0;
    let mut i = 0;
    while i < 16 {
        s += v[i];
        i += 1;
    }
    s
}

#[repr(C, align(64))]
pub struct Block {
    pub data: [f32; 16],
}

#[no_mangle]
pub extern "C" fn rs_block_scale(b: &mut Block, k: f32) {
    let mut i = 0;
    while i < 16 {
        b.data[i] *= k;
        i += 1;
    }
}

// The Rust ABI keeps a slice as (ptr, len): `align 4` on the ptr half.
#[no_mangle]
pub fn rs_accumulate(acc: &mut f32, xs: &[f32]) {
    let mut i = 0;
    while i < xs.len() {
        *acc += xs[i];
        i += 1;
    }
}

#[no_mangle]
pub extern "C" fn rs_is_aligned(p: *const f32) -> bool {
    p.is_aligned()
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
