#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compare the hot loop of one function in two x86-64 assembly files.

  compare-hot-loop.py --function vadd plain.s instrumented.s [--expect-differ]

The hot loop is the loop (a label that a later jump goes back to) with the
most packed SSE/AVX instructions (a scalar `ss`/`sd` operation on an xmm
register does not count: a vectorised loop's scalar remainder loop, often
as long as the vector loop, is not its hot loop). Its instructions, with register names kept, must
be identical in both files up to register names, and must contain an aligned vector memory access
(movaps/movdqa/... or a packed SSE op that folds a memory operand, which
requires alignment). --expect-differ inverts the comparison: the control
case (a kernel without the promise) must NOT have the same loop.
"""
import argparse
import re
import sys

ALIGNED_MOVES = re.compile(r"^v?mov(aps|apd|dqa|dqa32|dqa64|ntps|ntpd|ntdq)$")
PACKED_OP = re.compile(r"^(add|sub|mul|div|min|max|and|or|xor)p[sd]$")


# The function align-guard-outline-body moves a checked function's body
# into (plugin/OutlineBodyPass.h): its code is the function's too.
BODY_SUFFIX = ".alignguard.body"


def one_function(lines, name):
    body, inside = [], False
    for line in lines:
        stripped = line.strip()
        if not inside and re.match(r"^%s:" % re.escape(name), stripped):
            inside = True
            continue
        if inside:
            if stripped.startswith(".Lfunc_end") or stripped == ".cfi_endproc":
                break
            body.append(stripped)
    return body


def function_body(lines, name):
    """The function's instructions, and its outlined body's after them."""
    body = one_function(lines, name) + one_function(lines, name + BODY_SUFFIX)
    if not body:
        sys.exit("error: function '%s' not found" % name)
    return body


def instructions(body):
    """(label or None, mnemonic, operands) per line, comments dropped."""
    out = []
    for line in body:
        line = line.split("#")[0].strip()
        if not line or line.startswith("."):
            if re.match(r"^\.L\w+:$", line):
                out.append((line[:-1], None, None))
            continue
        if line.endswith(":"):
            out.append((line[:-1], None, None))
            continue
        parts = line.split(None, 1)
        out.append((None, parts[0], parts[1] if len(parts) > 1 else ""))
    return out


SCALAR_ON_XMM = re.compile(r"(ss|sd|ss2sd|sd2ss|si2ss|si2sd|ss2si|sd2si)$|^v?mov[dq]$")


def is_vector(mnemonic, operands):
    """A packed vector instruction: a ymm or zmm operand, or an xmm operand
    under a mnemonic that is not a scalar operation (addss, vfmadd213sd,
    movd, ...)."""
    if "ymm" in operands or "zmm" in operands:
        return True
    return "xmm" in operands and not SCALAR_ON_XMM.search(mnemonic)


def hot_loop(insts):
    labels = {lab: i for i, (lab, _, _) in enumerate(insts) if lab}
    best = None
    for j, (_, mn, ops) in enumerate(insts):
        if not mn or not mn.startswith("j"):
            continue
        target = ops.strip()
        if target in labels and labels[target] < j:
            loop = [(m, o) for (_, m, o) in insts[labels[target]:j + 1] if m]
            score = sum(is_vector(m, o) for m, o in loop)
            if best is None or score > best[0]:
                best = (score, loop)
    if not best or best[0] == 0:
        sys.exit("error: no vector loop found")
    return best[1]


def aligned_accesses(loop):
    found = []
    for mn, ops in loop:
        if "(" not in ops:
            continue
        if ALIGNED_MOVES.match(mn) or (PACKED_OP.match(mn) and not mn.startswith("v")):
            found.append("%s %s" % (mn, ops))
    return found


def normalize(loop):
    """Instructions with registers renamed in order of first use, so that a
    different register allocation of the same code compares equal. Jump
    targets are label numbers, which shift when blocks are added."""
    names = {}

    def rename(match):
        reg = match.group(0)
        kind = "v" if re.match(r"%[xyz]mm", reg) else "r"
        if reg not in names:
            names[reg] = "%%%s%d" % (kind, sum(1 for n in names.values() if n[1] == kind))
        return names[reg]

    return ["%s %s" % (m, ".L" if m.startswith("j") else re.sub(r"%[a-z0-9]+", rename, o))
            for m, o in loop]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--function", required=True)
    ap.add_argument("--expect-differ", action="store_true")
    ap.add_argument("plain")
    ap.add_argument("other")
    args = ap.parse_args()
    loops = []
    for path in (args.plain, args.other):
        with open(path) as f:
            loops.append(hot_loop(instructions(function_body(f.readlines(), args.function))))
    plain, other = (normalize(l) for l in loops)
    aligned = aligned_accesses(loops[0])
    print("hot loop of %s: %d instructions, aligned vector accesses: %s"
          % (args.function, len(plain), "; ".join(aligned) or "none"))
    if not aligned:
        sys.exit("error: the plain kernel's hot loop has no aligned vector access")
    same = plain == other
    if args.expect_differ:
        if same:
            sys.exit("error: the control kernel has the same hot loop")
        print("control differs, as expected")
        return
    if not same:
        print("plain:\n  " + "\n  ".join(plain))
        print("other:\n  " + "\n  ".join(other))
        sys.exit("error: hot loops differ")
    if [a.split()[0] for a in aligned_accesses(loops[1])] != [a.split()[0] for a in aligned]:
        sys.exit("error: aligned accesses differ")
    print("identical")


if __name__ == "__main__":
    main()
