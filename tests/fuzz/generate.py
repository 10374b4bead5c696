#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The fuzzer's modules: an llvm-stress function with alignment promises of
every kind AlignGuard knows injected into it, and functions written from
templates beside it (return and `!align` promises, masked and memory
intrinsics, loops, TVM-style wrappers, exception handling, musttail,
vectors of pointers, kernel calling conventions, GPU triples).

  generate.py --stress llvm-stress-14 --seed 7 [--opaque] > m.ll

One seed gives one module, the same on every run (random.Random(seed)).
`--opaque` writes `ptr` (LLVM 15 and later); without it, typed pointers
(LLVM 14). Used by fuzz.py; run alone to look at what a seed makes.
"""
import argparse
import random
import re
import subprocess
import sys

ALIGNS = [1, 2, 4, 8, 16, 32, 64, 128, 4096, 1 << 32]
ODD_ALIGNS = [0, 3, 48, 1 << 40, -1, -64]


class Types:
    """Pointer spelling for typed (LLVM 14) or opaque (15+) pointers."""

    def __init__(self, opaque):
        self.opaque = opaque

    def p(self, elem="i8", addrspace=0):
        space = " addrspace(%d)" % addrspace if addrspace else ""
        return "ptr" + space if self.opaque else "%s%s*" % (elem, space)


def pick_align(rng):
    if rng.random() < 0.06:
        return rng.choice(ODD_ALIGNS)
    return rng.choice(ALIGNS[:8]) if rng.random() < 0.9 else rng.choice(ALIGNS)


# ---- the llvm-stress function and its injections --------------------------

ARG = re.compile(r"(?P<type>[^,()]+?)\s+(?P<name>%[\w.]+)$")


def stress_function(stress, seed, size):
    out = subprocess.run([stress, "-seed=%d" % seed, "-size=%d" % size, "-o", "-"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    lines = [l for l in out.splitlines()
             if not l.startswith(("; ModuleID", "source_filename"))]
    return lines


def parse_signature(line):
    m = re.match(r"define (\S+) (@[\w.]+)\((.*)\) \{$", line)
    ret, name, params = m.group(1), m.group(2), m.group(3)
    args = []
    for p in (x.strip() for x in params.split(",")) if params else []:
        a = ARG.match(p)
        args.append([a.group("type"), a.group("name")])
    return ret, name, args


def is_pointer(ty):
    return ty.endswith("*") or ty == "ptr" or ty.startswith("ptr ")


def promise_lines(rng, ptr_ty, ptr, ints, counter):
    """IR lines promising ptr's alignment, one of the forms at random."""
    n = next(counter)
    align = pick_align(rng)
    form = rng.randrange(6)
    if form == 0 or align <= 0:
        return ['  call void @llvm.assume(i1 true) [ "align"(%s %s, i64 %d) ]'
                % (ptr_ty, ptr, align)]
    if form == 1:
        return ['  call void @llvm.assume(i1 true) [ "align"(%s %s, i64 %d, i64 %d) ]'
                % (ptr_ty, ptr, align, rng.choice([0, 4, 16, 100, -8]))]
    if form == 2 and ints:
        ty, name = rng.choice(ints)
        if rng.random() < 0.5:
            return ['  call void @llvm.assume(i1 true) [ "align"(%s %s, %s %s) ]'
                    % (ptr_ty, ptr, ty, name)]
        return ['  call void @llvm.assume(i1 true) [ "align"(%s %s, i64 %d, %s %s) ]'
                % (ptr_ty, ptr, align, ty, name)]
    if form == 3:
        two = [
            '  call void @llvm.assume(i1 true) [ "align"(%s %s, i64 %d), "align"(%s %s, i64 %d) ]'
            % (ptr_ty, ptr, align, ptr_ty, ptr, pick_align(rng))]
        return two
    if form == 4 and align > 1 and align & (align - 1) == 0 and align < 1 << 32:
        op = rng.choice(["and", "urem"])
        rhs = align - 1 if op == "and" else align
        return ["  %%ag.i%d = ptrtoint %s %s to i64" % (n, ptr_ty, ptr),
                "  %%ag.m%d = %s i64 %%ag.i%d, %d" % (n, op, n, rhs),
                "  %%ag.c%d = icmp eq i64 %%ag.m%d, 0" % (n, n),
                "  call void @llvm.assume(i1 %%ag.c%d)" % n]
    # a promise beside another operand bundle
    return ['  call void @llvm.assume(i1 true) [ "nonnull"(%s %s), "align"(%s %s, i64 %d) ]'
            % (ptr_ty, ptr, ptr_ty, ptr, align)]


def inject(rng, lines, types, counter):
    """Promises on the stress function's pointer arguments and allocas:
    `align` parameter attributes, assumes at entry and in later blocks
    (loops included), over-aligned loads and stores."""
    define = next(i for i, l in enumerate(lines) if l.startswith("define "))
    ret, name, args = parse_signature(lines[define])
    pointers = [(t, n) for t, n in args if is_pointer(t)]
    ints = [(t, n) for t, n in args if t in ("i32", "i64", "i8")]
    params = []
    for ty, arg in args:
        attrs = ""
        if is_pointer(ty) and rng.random() < 0.35:
            attrs = " align %d" % rng.choice(ALIGNS[:8])
            if rng.random() < 0.3:
                attrs = " noalias" + attrs
            if rng.random() < 0.2:
                attrs += " dereferenceable(%d)" % rng.choice([4, 64])
        params.append("%s%s %s" % (ty, attrs, arg))
    lines[define] = "define %s %s(%s) {" % (ret, name, ", ".join(params))

    body = lines[define + 1:]
    allocas = [(i, l) for i, l in enumerate(body) if " = alloca " in l]
    local = []
    for _, l in allocas:
        m = re.match(r"\s*(%[\w.]+) = alloca ([^,]+)", l)
        local.append((types.p(m.group(2).strip()), m.group(1)))
    after_allocas = (allocas[-1][0] + 1) if allocas else 1
    inserts = {}  # index in body -> lines inserted before it
    for ty, ptr in pointers + local:
        if rng.random() < 0.6:
            inserts.setdefault(after_allocas, []).extend(
                promise_lines(rng, ty, ptr, ints, counter))
    # promises in later blocks (after a phi-free point), loops included
    spots = [i for i, l in enumerate(body)
             if i > after_allocas and l.startswith("  ") and " phi " not in l
             and "landingpad" not in l]
    for _ in range(rng.randrange(4)):
        if spots and pointers + local:
            at = rng.choice(spots)
            ty, ptr = rng.choice(pointers + local)
            inserts.setdefault(at, []).extend(promise_lines(rng, ty, ptr, ints, counter))
    # over-aligned accesses through the arguments
    for i, l in enumerate(body):
        m = re.search(r"(load|store) .*, (\S+) (%\d+), align (\d+)$", l)
        if m and rng.random() < 0.3:
            body[i] = l[:m.start(4)] + str(rng.choice([16, 32, 64]))
    out = []
    for i, l in enumerate(body):
        out.extend(inserts.get(i, []))
        out.append(l)
    return lines[:define + 1] + out


# ---- functions from templates ---------------------------------------------


def t_return(t, rng):
    a = rng.choice(ALIGNS[3:8])
    return """
define align {a} {p} @ag_ret({p} %p) {{
  ret {p} %p
}}

define void @ag_use_ret({p} %q) {{
  %r = call align {a} {p} @ag_ret({p} %q)
  store i8 1, {p} %r, align 1
  ret void
}}
""".format(a=a, p=t.p())


def t_load_md(t, rng):
    return """
define i8 @ag_loads({pp} %pp) {{
  %p = load {p}, {pp} %pp, align 8, !align !{{i64 {a}}}
  %v = load i8, {p} %p, align 1
  ret i8 %v
}}
""".format(p=t.p(), pp=t.p(t.p()), a=rng.choice(ALIGNS[2:8]))


def t_intrinsics(t, rng):
    v = "<8 x float>"
    pv = t.p(v)
    a = rng.choice([16, 32, 64])
    if t.opaque:
        ml, ms = "@llvm.masked.load.v8f32.p0", "@llvm.masked.store.v8f32.p0"
        mc = "@llvm.memcpy.p0.p0.i64"
    else:
        ml, ms = "@llvm.masked.load.v8f32.p0v8f32", "@llvm.masked.store.v8f32.p0v8f32"
        mc = "@llvm.memcpy.p0i8.p0i8.i64"
    return """
declare {v} {ml}({pv}, i32, <8 x i1>, {v})
declare void {ms}({v}, {pv}, i32, <8 x i1>)
declare void {mc}({p}, {p}, i64, i1)

define void @ag_masked({pv} %dst, {pv} %src, <8 x i1> %m, {p} %d8, {p} %s8) {{
entry:
  %x = call {v} {ml}({pv} %src, i32 {a}, <8 x i1> %m, {v} undef)
  call void {ms}({v} %x, {pv} %dst, i32 {a}, <8 x i1> %m)
  call void {mc}({p} align {a} %d8, {p} align 16 %s8, i64 64, i1 false)
  %y = load {v}, {pv} %src, align {a}
  store {v} %y, {pv} %dst, align {a}
  ret void
}}
""".format(v=v, pv=pv, p=t.p(), ml=ml, ms=ms, mc=mc, a=a)


def t_loop(t, rng):
    f, pf, pv = "float", t.p("float"), t.p("<8 x float>")
    cast = ("" if t.opaque else
            "  %vp = bitcast {pf} %gep to {pv}\n".format(pf=pf, pv=pv))
    vp = "%gep" if t.opaque else "%vp"
    a = rng.choice([16, 32, 64])
    return """
define float @ag_loop({pf} %a, i64 %n) {{
entry:
  call void @llvm.assume(i1 true) [ "align"({pf} %a, i64 {a}) ]
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi {f} [ 0.0, %entry ], [ %sum, %loop ]
  %gep = getelementptr inbounds {f}, {pf} %a, i64 %i
{cast}  %v = load <8 x float>, {pv} {vp}, align {a}
  %e = extractelement <8 x float> %v, i32 0
  %sum = fadd {f} %acc, %e
  %next = add i64 %i, 8
  %done = icmp uge i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret {f} %sum
}}
""".format(f=f, pf=pf, pv=pv, cast=cast, vp=vp, a=a)


def t_tvm(t, rng):
    pf, p = t.p("float"), t.p()
    pp = t.p(p)
    a = rng.choice([32, 64, 128])
    load_b = ("  %b = load {p}, {pp} %slot, align 8\n".format(p=p, pp=pp))
    casts = "" if t.opaque else (
        "  %af = bitcast {p} %a to {pf}\n  %bf = bitcast {p} %b to {pf}\n"
        .format(p=p, pf=pf))
    av, bv = ("%a", "%b") if t.opaque else ("%af", "%bf")
    return """
define internal void @default_function_compute_({pf} noalias align {a} %x, {pf} noalias align {a} %y, i32 %n) {{
entry:
  call void @llvm.assume(i1 true) [ "align"({pf} %x, i64 {a}) ]
  %v = load float, {pf} %x, align {a}
  store float %v, {pf} %y, align {a}
  ret void
}}

define i32 @default_function({pp} %args, {pi} %codes, i32 %num) {{
entry:
  %a = load {p}, {pp} %args, align 8
  %slot = getelementptr inbounds {p}, {pp} %args, i64 1
{load_b}{casts}  call void @default_function_compute_({pf} {av}, {pf} {bv}, i32 %num)
  ret i32 0
}}
""".format(pf=pf, p=p, pp=pp, pi=t.p("i32"), a=a, load_b=load_b,
           casts=casts, av=av, bv=bv)


def t_eh(t, rng):
    p = t.p()
    pers = ("ptr @__gxx_personality_v0" if t.opaque else
            "i8* bitcast (i32 (...)* @__gxx_personality_v0 to i8*)")
    return """
declare i32 @__gxx_personality_v0(...)
declare void @ag_ext({p})

define void @ag_eh({p} align {a} %p) personality {pers} {{
entry:
  invoke void @ag_ext({p} %p)
          to label %ok unwind label %lp

ok:
  ret void

lp:
  %l = landingpad {{ {p}, i32 }}
          cleanup
  resume {{ {p}, i32 }} %l
}}
""".format(p=p, pers=pers, a=rng.choice([16, 32, 64]))


def t_musttail(t, rng):
    p = t.p()
    return """
declare {p} @ag_mt_callee({p}, i32)

define {p} @ag_musttail({p} align {a} %p, i32 %n) {{
  call void @llvm.assume(i1 true) [ "align"({p} %p, i64 {a}) ]
  %r = musttail call {p} @ag_mt_callee({p} %p, i32 %n)
  ret {p} %r
}}
""".format(p=p, a=rng.choice([16, 32, 64]))


def t_vector_of_pointers(t, rng):
    p = t.p()
    return """
define void @ag_vecptr(<2 x {p}> align {a} %agp1, <2 x {p}> %agp2) {{
  %e = extractelement <2 x {p}> %agp1, i32 1
  store i8 0, {p} %e, align {a}
  %f = extractelement <2 x {p}> %agp2, i32 0
  call void @llvm.assume(i1 true) [ "align"({p} %f, i64 {a}) ]
  ret void
}}
""".format(p=p, a=rng.choice([8, 16, 32]))


def t_status(t, rng):
    pf = t.p("float")
    return """
define i32 @ag_status({pf} align {a} %p, i32 %n) {{
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %work, label %done

work:
  store float 1.0, {pf} %p, align {a}
  br label %done

done:
  %r = phi i32 [ 1, %work ], [ 0, %entry ]
  ret i32 %r
}}

define float @ag_float({pf} %p) {{
  call void @llvm.assume(i1 true) [ "align"({pf} %p, i64 {a}) ]
  %v = load float, {pf} %p, align 4
  ret float %v
}}
""".format(pf=pf, a=rng.choice([16, 32, 64]))


def t_kernel(t, rng, triple):
    """A kernel with a promise, in the convention of the module's target
    (nvptx before LLVM 15: a C function named by !nvvm.annotations)."""
    a = rng.choice([16, 32, 64])
    p = t.p("float", 1)
    cc, ann = "spir_kernel ", ""
    if triple.startswith("amdgcn"):
        cc = "amdgpu_kernel "
    elif triple.startswith("nvptx") and t.opaque:
        cc = "ptx_kernel "
    elif triple.startswith("nvptx"):
        cc = ""
        ann = ('!nvvm.annotations = !{!900}\n'
               '!900 = !{void (%s, %s)* @ag_kernel, !"kernel", i32 1}\n' % (p, p))
    return """
define {cc}void @ag_kernel({p} align {a} %out, {p} %in) {{
  call void @llvm.assume(i1 true) [ "align"({p} %in, i64 {a}) ]
  %v = load float, {p} %in, align {a}
  store float %v, {p} %out, align 4
  ret void
}}
{ann}""".format(p=p, a=a, cc=cc, ann=ann)


TEMPLATES = [t_return, t_load_md, t_intrinsics, t_loop, t_tvm, t_eh,
             t_musttail, t_vector_of_pointers, t_status]
TRIPLES = [None, None, "x86_64-unknown-linux-gnu", "x86_64-unknown-linux-gnu",
           "aarch64-unknown-linux-gnu", "spir64-unknown-unknown",
           "nvptx64-nvidia-cuda", "amdgcn-amd-amdhsa"]
X86_DL = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"


def module(stress, seed, opaque, size=None):
    rng = random.Random(seed)
    t = Types(opaque)
    counter = iter(range(1 << 30))
    triple = rng.choice(TRIPLES)
    out = ["; alignguard fuzz module, seed %d" % seed]
    if triple:
        if triple.startswith("x86_64"):
            out.append('target datalayout = "%s"' % X86_DL)
        out.append('target triple = "%s"' % triple)
    size = size or rng.choice([20, 50, 100, 160])
    if not (triple or "").startswith("amdgcn"):  # its allocas: addrspace(5)
        out += inject(rng, stress_function(stress, seed, size), t, counter)
    for tmpl in TEMPLATES:
        if rng.random() < 0.45:
            out.append(tmpl(t, rng))
    if triple and not triple.startswith(("x86", "aarch64")) or rng.random() < 0.2:
        out.append(t_kernel(t, rng, triple or ""))
    if not any("declare void @llvm.assume" in l for l in out):
        out.append("declare void @llvm.assume(i1)")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stress", required=True, help="llvm-stress of the LLVM under test")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--opaque", action="store_true", help="write ptr (LLVM 15+)")
    ap.add_argument("--size", type=int, help="llvm-stress -size (default: from the seed)")
    args = ap.parse_args()
    sys.stdout.write(module(args.stress, args.seed, args.opaque, args.size))


if __name__ == "__main__":
    main()
