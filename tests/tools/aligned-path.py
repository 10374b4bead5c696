#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The aligned path of a checked function's entry in x86-64 assembly: how
many instructions it runs before the function's own code, and whether it
sets up a frame.

  aligned-path.py FILE.s FUNCTION:MAX [FUNCTION:MAX ...]

The aligned path is the entry's instructions up to and including the
branch of the check (the first conditional jump that leaves for, or falls
through to, the failing side), plus the jump to an outlined body when the
aligned side is only that (align-guard-outline-body: `jne fail; jmp body`,
where a conditional tail call makes it the branch itself). The failing
side is a block, or the jump itself, that leaves through a tail call of
an align-guard symbol (a hook's thunk, a fallback or rerun thunk, a
recover copy), not the outlined body.

For each FUNCTION it prints the instructions and fails (exit 1) if there
are more than MAX, if the path sets up a frame (push, a change of %rsp, a
store to the stack, a callee-saved register), or if no check is found.
"""
import os
import re
import sys

COLD = re.compile(r"alignguard(?!\.body\b)")
BODY_SUFFIX = ".alignguard.body"
FRAME = re.compile(r"^(push|enter)|%[er]?sp\b|%r1[2-5]|%[er]?bx\b|%[er]?bp\b|%bl\b|%bpl\b")


def load_hot_loop_tool():
    """compare-hot-loop.py beside this file, for its reading of a function."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare-hot-loop.py")
    spec = importlib.util.spec_from_file_location("compare_hot_loop", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def function_lines(lines, name):
    """The function's labels and instructions, comments dropped but for
    `# TAILCALL`."""
    body = load_hot_loop_tool().one_function(lines, name)
    if not body:
        sys.exit("aligned-path.py: function '%s' not found" % name)
    out = []
    for s in body:
        if "# TAILCALL" not in s:
            s = s.split("#")[0].strip()
        if s and (not s.startswith(".") or re.match(r"^\.L\w+:$", s)):
            out.append(s)
    return out


def parse(body):
    """[(label, None) | (None, (mnemonic, operands, tail))]"""
    out = []
    for s in body:
        if s.endswith(":"):
            out.append((s[:-1], None))
            continue
        tail = "# TAILCALL" in s
        s = s.split("#")[0].strip()
        mn, ops = (s.split(None, 1) + [""])[:2]
        out.append((None, (mn, ops.strip().split("@")[0], tail)))
    return out


def block_at(insts, label):
    """The instructions from label to the first unconditional jump or ret."""
    i = next((i for i, (l, _) in enumerate(insts) if l == label), None)
    if i is None:
        return []
    out = []
    for l, ins in insts[i + 1:]:
        if ins:
            out.append(ins)
            if ins[0] in ("jmp", "ret", "retq", "ud2"):
                break
    return out


def leaves_cold(block):
    return any(t and (mn.startswith("j") or mn.startswith("call")) and COLD.search(ops)
               for mn, ops, t in block) or any(COLD.search(ops) and mn.startswith("call")
                                              for mn, ops, _ in block)


def aligned_path(insts):
    """(instructions on the aligned path, or None if no check was found)."""
    code = [(i, ins) for i, (_, ins) in enumerate(insts) if ins]
    path = []
    for n, (i, (mn, ops, tail)) in enumerate(code):
        path.append((mn, ops))
        if mn == "jmp" or mn.startswith("ret"):
            return None  # the entry ended without a check
        if not mn.startswith("j"):
            continue
        target_cold = (tail and COLD.search(ops)) or leaves_cold(block_at(insts, ops))
        rest = [ins for _, ins in code[n + 1:]]
        through = []
        for ins in rest:
            through.append(ins)
            if ins[0] in ("jmp", "ret", "retq", "ud2"):
                break
        if target_cold:
            aligned = through
        elif leaves_cold(through):
            aligned = block_at(insts, ops) if not tail else []
        else:
            continue  # a branch of the function's own code
        # The aligned side that is only a jump to the outlined body.
        if aligned and aligned[0][0] == "jmp" and aligned[0][1].endswith(BODY_SUFFIX):
            path.append(aligned[0][:2])
        return path
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        lines = f.readlines()
    ok = True
    for spec in sys.argv[2:]:
        name, _, limit = spec.rpartition(":")
        path = aligned_path(parse(function_lines(lines, name)))
        if path is None:
            print("%s: no check found at the entry" % name)
            ok = False
            continue
        frame = [mn + " " + ops for mn, ops in path if FRAME.search(mn + " " + ops)]
        over = len(path) > int(limit)
        print("%s: %d instructions on the aligned path (at most %s)%s: %s" % (
            name, len(path), limit, " OVER" if over else "",
            "; ".join((mn + " " + ops).strip() for mn, ops in path)))
        print("%s: frame set-up: %s" % (name, ", ".join(frame) if frame else "none"))
        ok = ok and not over and not frame
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
