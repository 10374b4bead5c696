// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//! Builds the C kernel (csrc/vadd.c) with an installed AlignGuard and links
//! it with AlignGuard's runtime. ALIGNGUARD_PREFIX names the installation:
//! the prefix of `cmake --install build-N --prefix PREFIX`, or /usr for the
//! Debian packages.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let prefix = PathBuf::from(env::var_os("ALIGNGUARD_PREFIX").unwrap_or_else(|| {
        panic!(
            "vadd-sys: ALIGNGUARD_PREFIX is not set: set it to the prefix AlignGuard \
             is installed in (cmake --install build-N --prefix PREFIX), e.g. \
             ALIGNGUARD_PREFIX=/opt/alignguard"
        )
    }));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let object = out.join("vadd.o");
    let archive = out.join("libvadd.a");

    // The kernel, with its alignment promises checked: alignguard-clang is
    // clang with the AlignGuard plugin of an installed LLVM major; the
    // action is the default, abort.
    run(Command::new(prefix.join("bin/alignguard-clang"))
        .args(["-O2", "-g", "-fPIC", "-c", "csrc/vadd.c", "-o"])
        .arg(&object));
    let _ = std::fs::remove_file(&archive);
    run(Command::new(env::var_os("AR").unwrap_or_else(|| "ar".into()))
        .arg("crs")
        .arg(&archive)
        .arg(&object));

    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=vadd");
    // The runtime that the kernel's checks call: PREFIX/lib/libalignguard_rt.a.
    println!("cargo:rustc-link-search=native={}", prefix.join("lib").display());
    println!("cargo:rustc-link-lib=static=alignguard_rt");
    println!("cargo:rerun-if-changed=csrc/vadd.c");
    println!("cargo:rerun-if-env-changed=ALIGNGUARD_PREFIX");
}

/// Runs a build step; a step that cannot start or fails ends the build with
/// one line naming it.
fn run(command: &mut Command) {
    match command.status() {
        Ok(status) if status.success() => {}
        Ok(status) => panic!("vadd-sys: {:?} failed ({})", command, status),
        Err(e) => panic!("vadd-sys: cannot run {:?}: {}", command.get_program(), e),
    }
}
