#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Lower an MLIR file to LLVM IR with the MLIR tools of one LLVM major.

  mlir-lower.py --bin /usr/lib/llvm-N/bin [--pre PASS]... IN.mlir -o OUT.ll

The input is written for current MLIR (`func.func`, `%A = memref.
assume_alignment %a, N`); for older MLIR it is rewritten to that release's
spelling (`func` before MLIR 15; before MLIR 21, assume_alignment has no
result: the result's uses read the operand). The pass pipeline is the
standard lowering of func, scf, arith, vector and memref to the LLVM
dialect, each pass under the name this mlir-opt knows (names changed
between releases: convert-scf-to-std became convert-scf-to-cf,
convert-memref-to-llvm finalize-memref-to-llvm, ...). --pre runs an MLIR
pass before the lowering (e.g. generate-runtime-verification).
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--pre", action="append", default=[])
    ap.add_argument("input")
    ap.add_argument("-o", dest="output", required=True)
    args = ap.parse_args()
    mlir_opt = os.path.join(args.bin, "mlir-opt")
    translate = os.path.join(args.bin, "mlir-translate")
    known = subprocess.run([mlir_opt, "--help"], capture_output=True,
                           text=True, check=True).stdout

    def first(*names):
        for n in names:
            if "--" + n + " " in known or "--" + n + "\n" in known:
                return "--" + n
        return None

    old = first("convert-std-to-llvm") is not None
    passes = [first("convert-vector-to-llvm"),
              first("convert-scf-to-cf", "convert-scf-to-std"),
              first("convert-arith-to-llvm"),
              first("finalize-memref-to-llvm", "convert-memref-to-llvm"),
              first("convert-func-to-llvm", "convert-std-to-llvm"),
              first("convert-cf-to-llvm"),
              first("reconcile-unrealized-casts")]
    passes = ["--" + p for p in args.pre] + [p for p in passes if p]
    with open(args.input) as f:
        text = f.read()
    if old:
        text = text.replace("func.func @", "func @")
    probe = subprocess.run(
        [mlir_opt], capture_output=True, text=True,
        input="func.func @f(%a: memref<4xf32>) {\n"
              "  %b = memref.assume_alignment %a, 16 : memref<4xf32>\n"
              "  return\n}\n")
    if probe.returncode:
        for m in re.finditer(r"(%\w+) = (memref\.assume_alignment (%\w+),)",
                             text):
            text = text.replace(m.group(0), m.group(2))
            text = re.sub(re.escape(m.group(1)) + r"\b", m.group(3), text)
    lowered = subprocess.run([mlir_opt] + passes, input=text,
                             capture_output=True, text=True)
    if lowered.returncode:
        sys.stderr.write(lowered.stderr)
        sys.exit("mlir-lower: mlir-opt %s failed" % " ".join(passes))
    subprocess.run([translate, "--mlir-to-llvmir", "-o", args.output],
                   input=lowered.stdout, text=True, check=True)


if __name__ == "__main__":
    main()
