// Rust kernels that read a pointer through a reference (rustc marks each
// such load `!align`): a #[repr(align(64))] block (`!align 64`, a promise
// align-guard<loads> checks) and a plain array (`!align 4`, the type's).
#[repr(C, align(64))]
pub struct Block(pub [f32; 16]);

#[no_mangle]
pub extern "C" fn block_sum(x: &&Block) -> f32 {
    let b: &Block = *x;
    b.0.iter().sum()
}

#[no_mangle]
pub extern "C" fn row_first(x: &&[f32; 16]) -> f32 {
    (*x)[0]
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
