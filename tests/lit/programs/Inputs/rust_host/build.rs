// Links the instrumented C kernel and the AlignGuard runtime, both built by
// the test into one static library: ALIGNGUARD_KERNEL_LIB names it.
use std::env;
use std::path::Path;

fn main() {
    let lib = env::var("ALIGNGUARD_KERNEL_LIB")
        .expect("set ALIGNGUARD_KERNEL_LIB to the static kernel library");
    let path = Path::new(&lib);
    let dir = path.parent().expect("a directory");
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("lib"))
        .expect("lib<name>.a");
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=static={}", name);
    println!("cargo:rerun-if-env-changed=ALIGNGUARD_KERNEL_LIB");
    println!("cargo:rerun-if-changed={}", lib);
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
