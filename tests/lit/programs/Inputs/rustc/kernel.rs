// A Rust kernel as a Rust user writes it: `&mut [Block; 16]` with
// #[repr(align(32))] is a parameter rustc marks `align 32`, and at -O2 the
// loop is vectorised with `align 32` loads and stores from that promise.
// A C caller (host.c) passes it a view one float into a buffer.
#![no_std]
#[repr(C, align(32))]
pub struct Block(pub [f32; 8]);

#[no_mangle]
pub extern "C" fn rs_scale(b: &mut [Block; 16], k: f32) -> i32 {
    for blk in b.iter_mut() {
        for x in blk.0.iter_mut() {
            *x *= k;
        }
    }
    0
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
