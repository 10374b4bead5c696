#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A Python host of an AlignGuard-instrumented kernel, with ctypes and numpy.

  python3 vscale_host.py LIBRARY CASE

LIBRARY is examples/python/vscale.c built into a shared object by
scripts/alignguard-clang with one --alignguard=ACTION (docs/python.md);
CASE is one of
  aligned   vscale on 64-byte aligned arrays (aligned_zeros)
  view      vscale, twice, with its input a view one float into an aligned
            array: what happens depends on the library's action
  abort     runs `view` in a child interpreter and says how the child ended
  numpy     how np.zeros aligns its arrays, and vscale on a plain one
"""
import ctypes
import signal
import subprocess
import sys

import numpy as np

N = 1024
SCALE = np.float32(2.5)


class AlignGuardError(RuntimeError):
    """A kernel returned an error code; the message is AlignGuard's report."""


def load_kernel(path):
    """The kernel library, with the prototypes of vscale and of the runtime
    functions linked into it (alignguard/alignguard.h)."""
    lib = ctypes.CDLL(path)
    lib.vscale.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_float,
                           ctypes.c_long]
    lib.vscale.restype = ctypes.c_int
    # const char *alignguard_last_error(void): this thread's last report.
    lib.alignguard_last_error.argtypes = []
    lib.alignguard_last_error.restype = ctypes.c_char_p
    # uint64_t alignguard_violation_count(void), alignguard_fallback_count(void)
    for counter in (lib.alignguard_violation_count, lib.alignguard_fallback_count):
        counter.argtypes = []
        counter.restype = ctypes.c_uint64
    return lib


def vscale(lib, out, x, s):
    """out[:] = x * s, computed by the kernel; raises AlignGuardError when
    the kernel returns an error code (built with --alignguard=return=-1)."""
    assert out.dtype == x.dtype == np.float32 and out.shape == x.shape
    assert out.flags.c_contiguous and x.flags.c_contiguous
    if lib.vscale(out.ctypes.data, x.ctypes.data, s, x.size) != 0:
        raise AlignGuardError(lib.alignguard_last_error().decode())


def aligned_zeros(n, dtype=np.float32, alignment=64):
    """A zeroed array of n elements whose data is `alignment`-byte aligned:
    allocate `alignment` bytes more, and slice at the first boundary."""
    itemsize = np.dtype(dtype).itemsize
    raw = np.zeros(n * itemsize + alignment, dtype=np.uint8)
    start = -raw.ctypes.data % alignment
    return raw[start:start + n * itemsize].view(dtype)


def run(lib, what, out, x):
    """Calls vscale and prints what came of it."""
    try:
        vscale(lib, out, x, SCALE)
    except AlignGuardError as e:
        print(f"{what}: AlignGuardError: {e}")
        return
    right = "right" if np.array_equal(out, x * SCALE) else "WRONG"
    print(f"{what}: {right} answer, violations "
          f"{lib.alignguard_violation_count()}, fallbacks "
          f"{lib.alignguard_fallback_count()}")


def case_aligned(lib):
    x = aligned_zeros(N)
    x[:] = np.arange(N)
    out = aligned_zeros(N)
    run(lib, f"aligned (x % 64 = {x.ctypes.data % 64})", out, x)


def case_view(lib):
    buf = aligned_zeros(N + 1)
    buf[:] = np.arange(N + 1)
    x = buf[1:]  # one float past a 64-byte boundary
    out = aligned_zeros(N)
    for call in (1, 2):
        run(lib, f"view (x % 64 = {x.ctypes.data % 64}), call {call}", out, x)


def case_abort(path):
    # abort() ends the whole interpreter: only a child process can show it.
    child = subprocess.run([sys.executable, __file__, path, "view"])
    if child.returncode < 0:
        name = signal.Signals(-child.returncode).name
        print(f"child killed by {name} (exit status "
              f"{128 - child.returncode} in a shell)")
    else:
        print(f"child exited with status {child.returncode}")


def case_numpy(lib):
    plain = [np.zeros(N, np.float32) for _ in range(100)]
    offsets = [a.ctypes.data % 64 for a in plain]
    print(f"np.zeros({N}, np.float32).ctypes.data % 64 over 100 arrays: "
          f"{sorted(set(offsets))}; 16-byte aligned: "
          f"{sum(o % 16 == 0 for o in offsets)} of 100, 64-byte aligned: "
          f"{offsets.count(0)} of 100")
    print(f"aligned_zeros({N}).ctypes.data % 64: "
          f"{aligned_zeros(N).ctypes.data % 64}")
    x = next(a for a in plain if a.ctypes.data % 64 != 0)
    x[:] = np.arange(N)
    run(lib, f"plain array (x % 64 = {x.ctypes.data % 64})", aligned_zeros(N), x)


def main():
    sys.stdout.reconfigure(line_buffering=True)  # in order with the reports
    if len(sys.argv) != 3 or sys.argv[2] not in ("aligned", "view", "abort", "numpy"):
        sys.exit(__doc__)
    path, case = sys.argv[1], sys.argv[2]
    if case == "abort":
        case_abort(path)
        return
    lib = load_kernel(path)
    {"aligned": case_aligned, "view": case_view, "numpy": case_numpy}[case](lib)


if __name__ == "__main__":
    main()
