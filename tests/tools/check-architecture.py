#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the shape of plugin/ that the code relies on, and fails the build
(plugin/CMakeLists.txt runs it before compiling) when it does not hold:

  layering   a file includes headers of its own folder or of one below it:
             the top (Options, Diagnostics, Compat.h) < analysis/ < plan/ <
             transform/ < passes/ < Plugin.cpp. analysis/ and plan/ decide;
             they never see transform/, which acts.
  cycles     no two modules (a .h/.cpp pair) include each other, however
             indirectly.
  one place  Plugin.cpp is the only file that registers passes (Compat.h may
             wrap a registration API for it); Compat.h the only one that
             tests LLVM_VERSION_MAJOR or __has_include.
  sizes      no function body over MAX_FUNCTION lines, no class body over
             MAX_CLASS (plugin/ is clang-formatted: LLVM style).

  check-architecture.py PLUGIN_DIR
"""
import re
import sys
from pathlib import Path

MAX_FUNCTION = 100
MAX_CLASS = 300
LAYERS = ["", "analysis", "plan", "transform", "passes"]
REGISTRATION = re.compile(
    r"\b(registerPipelineParsingCallback|register\w*EPCallback|"
    r"llvmGetPassPluginInfo|PassPluginLibraryInfo)\b")
VERSION_SWITCH = re.compile(r"\b(LLVM_VERSION_MAJOR|__has_include)\b")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rank(path, root):
    """The layer of a file under root; Plugin.cpp is above every layer."""
    rel = path.relative_to(root)
    if rel.as_posix() == "Plugin.cpp":
        return len(LAYERS)
    return LAYERS.index(rel.parts[0]) if len(rel.parts) > 1 else 0


def strip_code(text):
    """text with comments, string and character literals blanked, newlines
    kept, so that line numbers and braces stay where they were."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


CLASS_HEAD = re.compile(r"\b(class|struct|union)\b[^;()=]*$")
FUNCTION_TAIL = re.compile(
    r"\)\s*(const\b|override\b|final\b|noexcept\b|mutable\b|\s|->[\w:<>,\s*&]+)*$")


def bodies(code):
    """(kind, name, first line, line count) of each function and class body;
    a lambda or local class is part of the function it is in."""
    found, stack, head_start = [], [], 0
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c in ";":
            head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            in_function = any(kind == "function" for kind, *_ in stack)
            kind = "other"
            if not in_function:
                flat = " ".join(head.split())
                if re.search(r"\bnamespace\b|\benum\b|extern\s*$", flat):
                    kind = "other"
                elif CLASS_HEAD.search(flat):
                    kind = "class"
                elif FUNCTION_TAIL.search(flat) and "=" not in flat.split(")")[-1]:
                    kind = "function"
                name = re.search(r"\b(?:class|struct|union)\s+(\w+)", flat)
                if kind != "class" or not name:
                    name = re.search(r"([\w:~]+)\s*\(", flat)
                name = name.group(1) if name else flat[-40:]
            else:
                name = ""
            stack.append((kind, name, line))
            head_start = i + 1
        elif c == "}":
            if stack:
                kind, name, start = stack.pop()
                if kind in ("function", "class"):
                    found.append((kind, name, start, line - start + 1))
            head_start = i + 1
    return found


def main(argv):
    if len(argv) != 2:
        print("usage: check-architecture.py PLUGIN-DIR", file=sys.stderr)
        return 2
    root = Path(argv[1]).resolve()
    files = sorted(p for p in root.rglob("*") if p.suffix in (".h", ".cpp"))
    if not files:
        print("check-architecture: no .h or .cpp file under %s" % argv[1],
              file=sys.stderr)
        return 2
    by_name = {}
    for p in files:
        by_name.setdefault(p.name, []).append(p)
    errors = []
    graph = {}
    for p in files:
        text = p.read_text()
        rel = p.relative_to(root).as_posix()
        module = p.with_suffix("")
        for inc in INCLUDE.findall(text):
            target = (p.parent / inc).resolve()
            if not target.exists():
                matches = [q for q in by_name.get(Path(inc).name, [])
                           if q.as_posix().endswith(inc)]
                if not matches:
                    continue  # LLVM's or the standard library's
                target = matches[0]
            if root not in target.parents:
                continue
            if rank(target, root) > rank(p, root):
                errors.append(
                    f"{rel}: includes {target.relative_to(root).as_posix()}, "
                    f"which is in a layer above its own "
                    f"(top < analysis < plan < transform < passes)")
            if target.with_suffix("") != module:
                graph.setdefault(module, set()).add(target.with_suffix(""))
        code = strip_code(text)
        # Compat.h may wrap a registration API whose signature changed.
        if rel not in ("Plugin.cpp", "Compat.h") and REGISTRATION.search(code):
            errors.append(f"{rel}: registers passes; Plugin.cpp is the only "
                          f"registration")
        if rel != "Compat.h" and VERSION_SWITCH.search(code):
            errors.append(f"{rel}: tests the LLVM version; Compat.h is the "
                          f"only version switch")
        for kind, name, start, lines in bodies(code):
            limit = MAX_FUNCTION if kind == "function" else MAX_CLASS
            if lines > limit:
                errors.append(f"{rel}:{start}: {kind} {name} is {lines} "
                              f"lines (at most {limit})")
    errors += cycles(graph, root)
    for e in errors:
        print(f"check-architecture: {e}", file=sys.stderr)
    if not errors:
        print(f"check-architecture: {len(files)} files in "
              f"{root.name}/: layering, cycles, registration, version "
              f"switch and sizes hold")
    return 1 if errors else 0


def cycles(graph, root):
    """One error per strongly connected group of more than one module."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                names = sorted(g.relative_to(root).as_posix() for g in group)
                out.append("modules include each other: " + ", ".join(names))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv))
