// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//! Calls vadd-sys's kernel on 32-byte aligned buffers (`vadd-demo aligned`)
//! and with `a` a view one element into a Vec<f32> (`vadd-demo view`), which
//! breaks the kernel's promise: AlignGuard stops that call.

const N: usize = 1000;

/// n floats that start on a 32-byte boundary, inside a Vec with room to
/// spare: the offset is computed from the Vec's address.
struct Aligned {
    buf: Vec<f32>,
    start: usize,
    len: usize,
}

impl Aligned {
    fn new(len: usize) -> Self {
        let buf = vec![0.0f32; len + 8];
        let past = buf.as_ptr() as usize % 32; // a multiple of 4
        Aligned { buf, start: (32 - past) % 32 / 4, len }
    }
    fn slice(&self) -> &[f32] {
        &self.buf[self.start..self.start + self.len]
    }
    fn slice_mut(&mut self) -> &mut [f32] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "aligned".to_string());
    let mut a = Aligned::new(N);
    let mut b = Aligned::new(N);
    let mut out = Aligned::new(N);
    for i in 0..N {
        a.slice_mut()[i] = i as f32;
        b.slice_mut()[i] = 0.5;
    }
    match mode.as_str() {
        "aligned" => {
            vadd_sys::add(out.slice_mut(), a.slice(), b.slice());
            let o = out.slice();
            println!("aligned: out[0] = {}, out[{}] = {}", o[0], N - 1, o[N - 1]);
        }
        "view" => {
            // A Vec's data is only as aligned as the allocator makes it (16
            // bytes with glibc's malloc), and &v[1..] starts 4 bytes later.
            let v: Vec<f32> = (0..=N).map(|i| i as f32).collect();
            println!("view: a = &v[1..] at {:p}", v[1..].as_ptr());
            vadd_sys::add(out.slice_mut(), &v[1..], b.slice());
            println!("view: out[0] = {} (not reached: AlignGuard aborts)", out.slice()[0]);
        }
        _ => {
            eprintln!("usage: vadd-demo aligned|view");
            std::process::exit(2);
        }
    }
}
