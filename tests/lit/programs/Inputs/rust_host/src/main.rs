//! Calls the instrumented C kernel `saxpy` on slices of Rust buffers:
//! `aligned` uses 32-byte aligned memory, `vec-offset` a `Vec<f32>` slice
//! starting one element in (4-byte aligned at best). Prints whether the
//! result is bit-identical to a Rust reference computation.
use std::alloc::{alloc, dealloc, Layout};

extern "C" {
    fn saxpy(a: f32, x: *const f32, y: *mut f32, n: usize);
    fn alignguard_fallback_count() -> u64;
}

const N: usize = 1024;

fn inputs() -> (Vec<f32>, Vec<f32>) {
    let x: Vec<f32> = (0..N + 8).map(|i| i as f32 * 0.25 - 3.0).collect();
    let y: Vec<f32> = (0..N + 8).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    (x, y)
}

fn run(x: &[f32], y: &mut [f32]) -> bool {
    let reference: Vec<f32> = x.iter().zip(y.iter()).map(|(a, b)| 1.5 * a + b).collect();
    unsafe { saxpy(1.5, x.as_ptr(), y.as_mut_ptr(), x.len()) };
    y.iter().zip(reference.iter()).all(|(a, b)| a.to_bits() == b.to_bits())
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let (x, mut y) = inputs();
    let ok = match mode.as_str() {
        "aligned" => unsafe {
            let layout = Layout::from_size_align(N * 4, 32).unwrap();
            let px = alloc(layout) as *mut f32;
            let py = alloc(layout) as *mut f32;
            let xs = std::slice::from_raw_parts_mut(px, N);
            let ys = std::slice::from_raw_parts_mut(py, N);
            xs.copy_from_slice(&x[..N]);
            ys.copy_from_slice(&y[..N]);
            let ok = run(xs, ys);
            dealloc(px as *mut u8, layout);
            dealloc(py as *mut u8, layout);
            ok
        },
        "vec-offset" => {
            // Find an offset that breaks 32-byte alignment for both slices
            // whatever the allocator returned.
            let off = (1..8)
                .find(|o| {
                    (x[*o..].as_ptr() as usize) % 32 != 0 && (y[*o..].as_ptr() as usize) % 32 != 0
                })
                .unwrap();
            run(&x[off..off + N], &mut y[off..off + N])
        }
        _ => panic!("usage: alignguard-rust-host aligned|vec-offset"),
    };
    println!(
        "{}: {}, fallbacks {}",
        mode,
        if ok { "bit-identical" } else { "WRONG" },
        unsafe { alignguard_fallback_count() }
    );
    std::process::exit(if ok { 0 } else { 1 });
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
