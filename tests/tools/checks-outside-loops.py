#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Assert that align-guard left no check inside a loop of some functions.

  checks-outside-loops.py FILE.ll --function NAME [--function NAME ...]

Reads textual IR (any LLVM version, typed or opaque pointers) and, for each
named function, builds the control-flow graph from its block labels and the
`label %X` operands of its instructions (br, switch, invoke, callbr, ...).
A block is in a loop when it lies on a cycle of that graph: a strongly
connected component with more than one block, or a block that branches to
itself. This needs no dominator tree and also counts irreducible cycles, so
it cannot miss a loop that LoopInfo would find.

A check is a block that branches to an `alignguard.fail*` block (the
one-branch test of a place). It is an error for a check to be in a loop,
and for a block in a loop to call an AlignGuard hook
(`@__alignguard_report*`, `@__alignguard_fallback`; in recover mode the
fail block rejoins the code, so it is on the cycle too).

A function's body that align-guard-outline-body moved into
`NAME.alignguard.body` counts as the function's.

Prints one line per function, for FileCheck:

  NAME: B blocks, L in loops; C checks, K in loops; loop accesses: G guarded (H hoisted, I in-loop), U unguarded

(`loop accesses` are loads, stores and calls in loop blocks that carry
`!alignguard.guarded`, by the placement the pass recorded; `unguarded` are
vector loads and stores in loop blocks aligned beyond their element type
without it: memory the function allocates itself, say.)
then, for a check in a loop, `error: NAME: check in a loop: block %B ...`.
Exits 1 when a check is in a loop or a function is missing.
"""
import argparse
import re
import sys

NAME = r'(?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)'
DEFINE = re.compile(r'^define\b[^@]*@(' + NAME + r')\(')
LABEL_DEF = re.compile(r'^(' + NAME + r'):')
LABEL_USE = re.compile(r'\blabel %(' + NAME + r')')
HOOK_CALL = re.compile(r'\bcall\b.*@__alignguard_(report|report_abort|fallback)\b')
GUARDED = re.compile(r'!alignguard\.guarded (![0-9]+)')
METADATA = re.compile(r'^(![0-9]+) = (?:distinct )?!\{!"([^"]*)"\}')
VECTOR_ACCESS = re.compile(r'^\s*(?:%\S+ = )?(?:load|store) <\d+ x (i\d+|half|bfloat|float|double)>.*, align (\d+)')
ELEMENT_BYTES = {"half": 2, "bfloat": 2, "float": 4, "double": 8}
BODY_SUFFIX = ".alignguard.body"


def unquote(name):
    return name[1:-1] if name.startswith('"') else name


def functions(lines):
    """{name: [(label, [instruction lines])]} for every definition."""
    out, current, blocks = {}, None, None
    for line in lines:
        if current is None:
            m = DEFINE.match(line)
            if m:
                current, blocks = unquote(m.group(1)), [["<entry>", []]]
            continue
        if line.startswith("}"):
            out[current] = [(lab, body) for lab, body in blocks
                            if lab != "<entry>" or body]
            current = None
            continue
        stripped = line.split(";", 1)[0].rstrip() if not line.lstrip().startswith(";") else ""
        m = LABEL_DEF.match(line)
        if m:
            blocks.append([unquote(m.group(1)), []])
        elif stripped.strip():
            blocks[-1][1].append(stripped)
    return out


def cyclic_blocks(succ):
    """Blocks on a cycle: Tarjan's SCCs, iteratively."""
    index, low, on_stack, stack, result = {}, {}, set(), [], set()
    counter = [0]
    for root in succ:
        if root in index:
            continue
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in succ:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                scc = []
                while True:
                    n = stack.pop()
                    on_stack.discard(n)
                    scc.append(n)
                    if n == node:
                        break
                if len(scc) > 1 or node in succ[node]:
                    result.update(scc)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ir")
    ap.add_argument("--function", action="append", required=True)
    args = ap.parse_args()
    with open(args.ir) as f:
        lines = f.read().splitlines()
    placement = {}
    for line in lines:
        m = METADATA.match(line)
        if m:
            placement[m.group(1)] = m.group(2)
    defs = functions(lines)
    status = 0
    for name in args.function:
        if name not in defs:
            print("error: %s: no such function in %s" % (name, args.ir))
            status = 1
            continue
        # A checked function's body may be a function of its own
        # (plugin/OutlineBodyPass.h): its blocks are the function's too.
        parts = [defs[name]] + ([defs[name + BODY_SUFFIX]]
                                if name + BODY_SUFFIX in defs else [])
        n_blocks, n_loops, checks, in_loops, errors = 0, 0, 0, 0, []
        guarded = {"hoisted": 0, "in-loop": 0}
        other_guarded, unguarded = 0, 0
        for blocks in parts:
            succ = {lab: [unquote(t) for line in body for t in LABEL_USE.findall(line)]
                    for lab, body in blocks}
            loops = cyclic_blocks(succ)
            n_blocks += len(blocks)
            n_loops += len(loops)
            for lab, body in blocks:
                to_fail = [t for t in succ[lab] if t.startswith("alignguard.fail")]
                if to_fail:
                    checks += 1
                if lab not in loops:
                    continue
                if to_fail:
                    in_loops += 1
                    errors.append("error: %s: check in a loop: block %%%s branches to %%%s"
                                  % (name, lab, ", %".join(to_fail)))
                for line in body:
                    if HOOK_CALL.search(line):
                        errors.append("error: %s: check in a loop: block %%%s calls %s"
                                      % (name, lab, line.strip()))
                for line in body:
                    g = GUARDED.search(line)
                    if g:
                        kind = placement.get(g.group(1))
                        if kind in guarded:
                            guarded[kind] += 1
                        else:
                            other_guarded += 1
                        continue
                    v = VECTOR_ACCESS.match(line)
                    if v:
                        elem = v.group(1)
                        size = ELEMENT_BYTES.get(elem) or max(1, int(elem[1:]) // 8)
                        if int(v.group(2)) > size:
                            unguarded += 1
        print("%s: %d blocks, %d in loops; %d checks, %d in loops; loop accesses: "
              "%d guarded (%d hoisted, %d in-loop), %d unguarded"
              % (name, n_blocks, n_loops, checks, in_loops,
                 guarded["hoisted"] + guarded["in-loop"] + other_guarded,
                 guarded["hoisted"], guarded["in-loop"], unguarded))
        for e in errors:
            print(e)
        if errors:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
