#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Check that the plan the audit prints is the plan align-guard carries out.

  agreement.py --opt OPT --plugin ALIGNGUARD.so [--cxxfilt LLVM-CXXFILT]
               [--requires llvm>=N:GLOB ...] [--jobs N] FILE-OR-GLOB...
  agreement.py --self-test

For every IR file, every failure action (abort, trap, recover, return=-1,
fallback), for a file with over-aligned accesses every action with
`;accesses` as well, and for a file with type alignments (the audit's
`type` status) or loaded pointers' `!align`, abort and recover with
`;type-alignment` or `;loads`, this runs the audit and the guard on the
same input:

  opt -passes='align-guard-audit<json;all;system;plan;ACTION[;accesses]>' IN.ll
  opt -passes='align-guard<ACTION[;accesses]>,verify' -S IN.ll -o OUT.ll \\
      -pass-remarks-output=R.yaml

Both sides print one plan per promise, made by one function
(CheckPlan::planOf): the audit as each finding's `plan` object, computed
before any instrumentation; the guard as the named arguments of its
`Checked` or `NoCheck` remark, from the plan it carries out. The check:

 1. Plans. Per function, kind and subject, every plan the guard carried out
    is one the audit printed, field for field (check, site, action,
    placement, reason, deferred, report); every plan the audit printed and
    the guard did not carry out is of a promise align-guard with these
    options does not look at (the planner's not-in-scope reasons, an access
    without `accesses`, a loaded `!align` without `loads`, an assume an
    earlier run guarded). A `Checked` remark has a plan with a check, a
    `NoCheck` remark one without, and the remark's text names its plan's
    site or reason.
 2. The audit's statuses against its plans: a `checked`, `guarded`, `type`
    or `suppressed` finding gets no check; `type` exactly when the plan
    calls it a type alignment; an `unsupported` one no site; a finding
    covered by another site names a site whose plan has a check.
 3. Warnings: each unsupported finding the guard carried out a plan for
    gets the guard's warning `KIND on SUBJECT left unchecked: REASON` with
    the audit's reason, and no other such warning is printed; a checked
    finding whose plan has a reason (its action downgraded) is the guard's
    warning that the requested action cannot be used there.
 4. Both opt runs exit 0; the guarded IR passes `verify`.

That the guard's IR is what its plan says (a site's checks, its table or
descriptors, deferral) is the emitter's part, tested on its own
(tests/lit/audit/plan-emission.ll and the pass tests).

Function names: remarks and warnings use the IR (mangled) name, the audit
the demangled one; names are demangled with llvm-cxxfilt of the LLVM
under test (default: next to --opt).

Prints one line per file and action, then `agreement: N files, M runs, all
agree`; a file skipped by --requires is named with the reason. Exits 1
with a precise message at the first disagreement. --self-test feeds the
comparison a consistent fabricated case (which must agree) and then one
broken copy per check (each must be caught); it prints each detection and
exits 1 when every broken copy was caught (run it under `not`), 0 when one
was missed, 2 when the consistent case was rejected.
"""
import argparse
import collections
import concurrent.futures
import copy
import fnmatch
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ACTIONS = ["abort", "trap", "recover", "return=-1", "fallback"]
KINDS = ["assume-bundle", "assume-icmp", "param-attr", "return-attr", "access",
         "load-metadata"]
KIND_RE = "|".join(re.escape(k) for k in KINDS)

# The planner's reasons for promises align-guard with these options does not
# look at (CheckPlanner.cpp, whyNotInScope; AlignGuardAuditPass.cpp).
NOT_ENTRY_PARAM = ("not an entry point: its callers in this module make the "
                   "promise")
NOT_ENTRY_ACCESS = "accesses are checked only in entry points"
NO_ACCESSES = "accesses are checked only by align-guard<accesses>"
NO_LOADS = "loaded pointers' !align is checked only by align-guard<loads>"
# align-guard looks at a function's own return promise and leaves it out
# with a NoCheck remark (CheckPlanner.cpp).
NO_RETURNS = ("a function's own return promise is checked after each call "
              "that relies on it")
OPTED_OUT = 'the function opts out with "no-align-guard"'
# An access the audit finds in a copy of the module after inlining
# (AlignGuardAuditPass.cpp, InlinedWhy): align-guard on the module itself
# does not see it.
INLINED = ("an access of an inlinable callee: a build with `accesses` checks "
           "it once the inliner has put it here")
NOT_IN_SCOPE = {NOT_ENTRY_PARAM, NOT_ENTRY_ACCESS, NO_ACCESSES, NO_LOADS,
                OPTED_OUT, INLINED}
# The planner's reason for a type alignment (CheckPlanner.cpp,
# TypeAlignmentWhy): the audit's `type` status, no check without
# `type-alignment`.
TYPE_ALIGNMENT = ("the alignment of a reference's type, not a kernel's "
                  "promise; align-guard<type-alignment> checks it")
# The planner's reason for a promise of a suppressed function (CheckPlanner.cpp,
# suppressionReason): the audit's `suppressed` status for what would otherwise
# be unchecked or unsupported; a type alignment stays `type`.
SUPPRESSED_BY = "suppressed by "
# Statuses whose promise gets no check of its own.
NO_CHECK_STATUSES = ("checked", "guarded", "type", "suppressed")

# (A function's name may hold a newline: the name may span lines.)
WARN_UNSUPPORTED = re.compile(
    r"warning: align-guard: .*?in function '(?P<fn>[^']*)': "
    r"(?P<kind>" + KIND_RE + r") on (?P<subject>.*) left unchecked: "
    r"(?P<why>.*)$", re.M)
WARN_DOWNGRADE = re.compile(
    r"warning: align-guard: .*?in function '(?P<fn>[^']*)': "
    r"(?P<action>\S+) cannot be used for the check of (?P<what>.*?): "
    r"(?P<why>.*); a violation there aborts$", re.M)
CHECKED_TEXT = re.compile(
    r"^(?P<kind>" + KIND_RE + r") on (?P<subject>.*) checked at site "
    r"(?P<site>[0-9]+) \((?P<action>[^,()]+), (?P<placement>[^,()]+)\)$")
NOCHECK_TEXT = re.compile(
    r"^(?P<kind>" + KIND_RE + r") on (?P<subject>.*?) gets no check: "
    r"(?P<why>.*)$")


class Disagreement(Exception):
    pass


class ToolFailure(Exception):
    pass


# --- parsing -------------------------------------------------------------

def yaml_scalar(text):
    """One scalar of LLVM's remark YAML: plain, 'single' or "double"."""
    text = text.strip()
    if text.startswith("'"):
        if not text.endswith("'") or len(text) < 2:
            raise ValueError("unterminated scalar %r" % text)
        return text[1:-1].replace("''", "'")
    if text.startswith('"'):
        if not text.endswith('"') or len(text) < 2:
            raise ValueError("unterminated scalar %r" % text)
        out, body, i = [], text[1:-1], 0
        simple = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n",
                  "v": "\v", "f": "\f", "r": "\r", "e": "\x1b", " ": " ",
                  '"': '"', "/": "/", "\\": "\\", "N": "\x85",
                  "_": "\xa0", "L": "\u2028", "P": "\u2029"}
        while i < len(body):
            c = body[i]
            if c != "\\":
                out.append(c)
                i += 1
                continue
            e = body[i + 1]
            if e in simple:
                out.append(simple[e])
                i += 2
            else:
                width = {"x": 2, "u": 4, "U": 8}[e]
                out.append(chr(int(body[i + 2:i + 2 + width], 16)))
                i += 2 + width
        return "".join(out)
    return text


def parse_remarks(text):
    """[(type, pass, name, function, message, args)] from remark YAML: the
    message is the `String` arguments joined, args the named ones."""
    remarks = []
    doc = None
    for line in text.splitlines():
        if line.startswith("--- !"):
            doc = {"type": line[5:].strip(), "args": [], "named": {}}
            remarks.append(doc)
            continue
        if doc is None or line.startswith("..."):
            continue
        m = re.match(r"^(Pass|Name|Function):\s*(.*)$", line)
        if m:
            doc[m.group(1)] = yaml_scalar(m.group(2))
            continue
        # An argument: `- Key: value`; its DebugLoc is on the lines below,
        # with no dash.
        m = re.match(r"^\s+-\s+([A-Za-z0-9_]+):\s*(.*)$", line)
        if m and m.group(1) == "String":
            doc["args"].append(yaml_scalar(m.group(2)))
        elif m:
            doc["named"][m.group(1)] = yaml_scalar(m.group(2))
    return [(d["type"], d.get("Pass"), d.get("Name"), d.get("Function"),
             "".join(d["args"]), d["named"]) for d in remarks]


PLAN_FIELDS = ("check", "site", "action", "placement", "reason", "deferred",
               "report")


def remark_plan(named, where):
    """The plan a guard remark carries (its named arguments), in the audit's
    JSON form: null for an empty text and for site -1."""
    keys = [k.capitalize() for k in PLAN_FIELDS]
    if sorted(named) != sorted(keys):
        raise ToolFailure("%s: expected the plan's arguments %s, got %s"
                          % (where, keys, sorted(named)))
    bools = {"true": True, "false": False}
    plan = {k: named[k.capitalize()] or None for k in PLAN_FIELDS}
    try:
        plan["check"] = bools[named["Check"]]
        plan["deferred"] = bools[named["Deferred"]]
        plan["site"] = int(named["Site"])
    except (KeyError, ValueError):
        raise ToolFailure("%s: unreadable plan arguments %r" % (where, named))
    if plan["site"] < 0:
        plan["site"] = None
    return plan


def parse_guard(remark_text, stderr, demangle):
    """The guard's word: one plan per promise (its Checked and NoCheck
    remarks), the unsupported and downgrade warnings."""
    plans, warned, downgraded = [], [], []
    for rtype, rpass, name, fn, msg, named in parse_remarks(remark_text):
        if rpass != "align-guard":
            continue
        text = {"Checked": CHECKED_TEXT, "NoCheck": NOCHECK_TEXT}.get(name)
        want = {"Checked": "Passed", "NoCheck": "Analysis"}.get(name)
        m = text.match(msg) if text else None
        if rtype != want or not m or fn is None:
            raise ToolFailure("unexpected align-guard remark: !%s %s %r in "
                              "%r" % (rtype, name, msg, fn))
        plan = remark_plan(named, "%s remark %r" % (name, msg))
        plans.append({"ir": fn, "function": demangle[fn], "remark": name,
                      "kind": m.group("kind"), "subject": m.group("subject"),
                      "text": m.groupdict(), "plan": plan})
    for m in WARN_UNSUPPORTED.finditer(stderr):
        warned.append({"function": demangle[m.group("fn")],
                       "kind": m.group("kind"),
                       "subject": m.group("subject"),
                       "why": m.group("why")})
    for m in WARN_DOWNGRADE.finditer(stderr):
        downgraded.append({"function": demangle[m.group("fn")],
                           "why": m.group("why")})
    return {"plans": plans, "warned": warned, "downgraded": downgraded}


# --- the comparison ------------------------------------------------------

def key(x):
    return (x["function"], x["kind"], x["subject"])


def show(f):
    return "%s on %s in function '%s'" % (f["kind"], f["subject"],
                                          f["function"])


def show_plan(p):
    return "{%s}" % ", ".join("%s %s" % (k, json.dumps(p[k]))
                             for k in PLAN_FIELDS)


def show_finding(f):
    return "status %s%s; plan %s" % (
        f["status"], " (%s)" % f["reason"] if f["reason"] else "",
        show_plan(f["plan"]))


def disagree(errors, message):
    if errors is None:
        raise Disagreement(message)
    errors.append(message)


def not_looked_at(f, accesses, loads):
    """Whether align-guard with these options may carry out no plan for the
    finding's promise (its remark is then missing)."""
    return (f["plan"]["reason"] in NOT_IN_SCOPE or f["status"] == "guarded"
            or (f["kind"] == "access" and not accesses)
            or (f["kind"] == "load-metadata" and not loads))


def check_audit(findings, errors):
    """2. The audit's statuses against its own plans."""
    sites = {(f["function"], f["plan"]["site"]) for f in findings
             if f["plan"]["check"]}
    for f in findings:
        p = f["plan"]
        if p["check"] and not (isinstance(p["site"], int) and p["action"]
                               and p["placement"]):
            disagree(errors, "audit: %s: plan.check true without site, action "
                     "and placement: %s" % (show(f), show_finding(f)))
        if f["status"] in NO_CHECK_STATUSES and p["check"]:
            disagree(errors, "audit: %s is %s, yet its plan gives it a check: "
                     "%s" % (show(f), f["status"], show_finding(f)))
        if (f["status"] == "type") != (p["reason"] == TYPE_ALIGNMENT and
                                       not p["check"]):
            disagree(errors, "audit: %s: status %s, but the plan %s a type "
                     "alignment: %s" % (show(f), f["status"],
                                        "calls it" if f["status"] != "type"
                                        else "does not call it",
                                        show_finding(f)))
        if f["status"] == "suppressed" and not (
                p["reason"] or "").startswith(SUPPRESSED_BY):
            disagree(errors, "audit: %s is suppressed, but the plan does not "
                     "say so: %s" % (show(f), show_finding(f)))
        if f["status"] == "unsupported" and (p["check"] or
                                             p["site"] is not None):
            disagree(errors, "audit: %s is unsupported, yet its plan gives "
                     "it a site: %s" % (show(f), show_finding(f)))
        if p["reason"] in NOT_IN_SCOPE and (p["check"] or
                                            p["site"] is not None):
            disagree(errors, "audit: %s is a promise align-guard does not "
                     "look at, yet its plan gives it a site: %s"
                     % (show(f), show_finding(f)))
        if not p["check"] and p["site"] is not None and (
                (f["function"], p["site"]) not in sites):
            disagree(errors, "audit: %s: covered by site %d, but no plan of "
                     "that function has a check there: %s"
                     % (show(f), p["site"], show_finding(f)))


def check_remark(g, errors):
    """A Checked remark carries a plan with a check, a NoCheck remark one
    without; the text names the plan's site or reason."""
    p, t = g["plan"], g["text"]
    if g["remark"] == "Checked":
        said = (int(t["site"]), t["action"], t["placement"])
        ok = p["check"] and said == (p["site"], p["action"], p["placement"])
    else:
        ok = not p["check"] and t["why"] == p["reason"]
    if not ok:
        disagree(errors, "align-guard: %s: its %s remark says %r, its plan "
                 "is %s" % (show(g), g["remark"], t, show_plan(p)))


def match_plans(findings, guard, accesses, loads, errors):
    """1. Every plan the guard carried out is one the audit printed; the
    audit's other plans are of promises the guard does not look at.
    Returns the findings the guard carried out a plan for."""
    by_key = collections.defaultdict(list)
    for f in findings:
        by_key[key(f)].append(f)
    carried = []
    for g in guard["plans"]:
        check_remark(g, errors)
        left = by_key[key(g)]
        same = [f for f in left if f["plan"] == g["plan"]]
        if not same:
            disagree(errors, "%s: align-guard carried out the plan %s; the "
                     "audit's plans for it: %s" % (
                         show(g), show_plan(g["plan"]),
                         "; ".join(show_finding(f) for f in left) or
                         "none left"))
            continue
        left.remove(same[0])
        carried.append(same[0])
    # A definition's own return promise moves to its calls in the module
    # before align-guard plans (CheckPreparation.cpp,
    # prepareReturnPromises): the callee then has none to plan.
    relied_on = collections.defaultdict(set)
    for f in findings:
        relied_on[f["subject"]].add(f["function"])
    for k in sorted(by_key):
        for f in by_key[k]:
            moved = (f["plan"]["reason"] == NO_RETURNS and
                     relied_on[f["subject"]] - {f["function"]})
            if not moved and not not_looked_at(f, accesses, loads):
                disagree(errors, "%s: the audit plans %s, but align-guard "
                         "carried out no plan for it (no Checked or NoCheck "
                         "remark)" % (show(f), show_finding(f)))
    return carried


def check_warnings(findings, carried, guard, errors):
    """3. Unsupported warnings and downgrade warnings."""
    want = collections.Counter((key(f), f["reason"]) for f in carried
                               if f["status"] == "unsupported")
    got = collections.Counter((key(w), w["why"]) for w in guard["warned"])
    for (k, why), n in sorted((want - got).items()):
        disagree(errors, "%s on %s in function '%s': the audit calls it "
                 "unsupported (%r) and align-guard looks at it, but it printed "
                 "no warning 'left unchecked: %s'" % (k[1], k[2], k[0], why,
                                                      why))
    for (k, why), n in sorted((got - want).items()):
        disagree(errors, "%s on %s in function '%s': align-guard warned "
                 "'left unchecked: %s', but no unsupported finding it looks "
                 "at has that reason" % (k[1], k[2], k[0], why))
    want_down = collections.defaultdict(set)
    for f in findings:
        if f["plan"]["check"] and f["plan"]["reason"]:
            want_down[f["function"]].add(f["plan"]["reason"])
    got_down = collections.defaultdict(set)
    for d in guard["downgraded"]:
        got_down[d["function"]].add(d["why"])
    for fn in sorted(set(want_down) | set(got_down)):
        if want_down.get(fn, set()) != got_down.get(fn, set()):
            disagree(errors, "function '%s': the audit's plan downgrades the "
                     "requested action because %s; align-guard warned %s" % (
                         fn, sorted(want_down.get(fn, set())) or "(never)",
                         sorted(got_down.get(fn, set())) or "nothing"))


def compare(findings, guard, accesses, errors=None, loads=False):
    """Raises Disagreement at the first difference (with `errors`, a list:
    appends every difference to it); returns the counts."""
    check_audit(findings, errors)
    carried = match_plans(findings, guard, accesses, loads, errors)
    check_warnings(findings, carried, guard, errors)
    plans = guard["plans"]
    return {"promises": len(findings),
            "checked": sum(g["plan"]["check"] for g in plans),
            "sites": len({(g["ir"], g["plan"]["site"]) for g in plans
                          if g["plan"]["check"]}),
            "left out": sum(not g["plan"]["check"] for g in plans),
            "unsupported": len(guard["warned"])}


# --- running opt ---------------------------------------------------------

def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, errors="replace")


def demangler(cxxfilt, names):
    """IR name -> demangled name. A name with white space in it is no
    mangled name (and llvm-cxxfilt would split it): it stays as it is."""
    plain = {n: n for n in names if re.search(r"\s", n) or not n}
    names = sorted(set(names) - set(plain))
    if not names:
        return plain
    p = subprocess.run([cxxfilt], input="\n".join(names) + "\n",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    out = p.stdout.splitlines()
    if p.returncode != 0 or len(out) != len(names):
        raise ToolFailure("%s failed (exit %d): %s" % (cxxfilt, p.returncode,
                                                      p.stderr.strip()))
    return dict(plain, **dict(zip(names, out)))


def one_run(args, path, name, action, accesses, tmp):
    """Audit and guard one file with one action; compare. `name` is how the
    file is called in messages and under `tmp`."""
    opts = action + (";accesses" if accesses else "")
    label = "%s %s" % (name, opts)
    audit_cmd = [args.opt, "-load-pass-plugin=" + args.plugin,
                 "-passes=align-guard-audit<json;all;system;plan;%s>" % opts,
                 "-disable-output", path]
    a = run(audit_cmd)
    if a.returncode != 0:
        raise ToolFailure("%s: the audit failed (exit %d): %s\n  %s" % (
            label, a.returncode, a.stderr.strip(), " ".join(audit_cmd)))
    try:
        # One entry per promise: a merged finding stands for `occurrences`
        # promises identical but for their location (plan included).
        findings = [f for f in json.loads(a.stdout)["assumptions"]
                    for _ in range(f["occurrences"])]
    except (ValueError, KeyError) as e:
        raise ToolFailure("%s: the audit's output is not its JSON: %s" % (
            label, e))
    stem = os.path.join(tmp, "%s.%s" % (re.sub(r"[^A-Za-z0-9.-]", "_", name),
                                        re.sub(r"[^a-z0-9]", "_", opts)))
    guard_cmd = [args.opt, "-load-pass-plugin=" + args.plugin,
                 "-passes=align-guard<%s>,verify" % opts,
                 "-pass-remarks-output=" + stem + ".yaml", "-S", path,
                 "-o", stem + ".out.ll"]
    g = run(guard_cmd)
    refusal = [text for pattern, text in args.guard_error
               if fnmatch.fnmatch(os.path.basename(path), pattern)]
    if g.returncode != 0 and any(t in g.stderr for t in refusal):
        return findings, {"refused": g.stderr.strip().splitlines()[0]}
    if g.returncode != 0:
        raise ToolFailure("%s: align-guard failed (exit %d): %s\n  %s" % (
            label, g.returncode, g.stderr.strip(), " ".join(guard_cmd)))
    with open(stem + ".yaml") as f:
        remarks = f.read()
    names = {r[3] for r in parse_remarks(remarks) if r[3]}
    names |= {m.group("fn") for m in WARN_UNSUPPORTED.finditer(g.stderr)}
    names |= {m.group("fn") for m in WARN_DOWNGRADE.finditer(g.stderr)}
    demangle = demangler(args.cxxfilt, names)
    guard = parse_guard(remarks, g.stderr, demangle)
    errors = [] if args.keep_going else None
    try:
        counts = compare(findings, guard, accesses, errors,
                         loads=";loads" in action)
        if errors:
            raise Disagreement("\n  ".join(errors))
    except Disagreement as e:
        err = Disagreement("%s: %s" % (label, e))
        err.findings = findings
        raise err
    return findings, counts


def llvm_major(opt):
    m = re.search(r"LLVM version (\d+)", run([opt, "--version"]).stdout)
    if not m:
        raise ToolFailure("cannot tell the LLVM version of %s" % opt)
    return int(m.group(1))


def main_runs(args):
    files = []
    for pattern in args.files:
        found = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else (
            [pattern] if os.path.exists(pattern) else [])
        if not found:
            raise ToolFailure("no IR file matches %s" % pattern)
        files += [f for f in found if f not in files]
    major = llvm_major(args.opt)
    needs = []
    for spec in args.requires:
        m = re.match(r"^llvm(>=|<)(\d+):(.+)$", spec)
        if not m:
            raise ToolFailure("--requires %r: expected llvm>=N:GLOB or "
                              "llvm<N:GLOB" % spec)
        needs.append((m.group(1), int(m.group(2)), m.group(3)))
    skipped, todo = [], []
    for path in files:
        unmet = ["LLVM %s %d" % (op, n) for op, n, g in needs
                 if fnmatch.fnmatch(os.path.basename(path), g)
                 and not (major >= n if op == ">=" else major < n)]
        (skipped if unmet else todo).append((path, unmet))
    for path, unmet in skipped:
        print("%s: skipped: LLVM %d cannot read it (needs %s)"
              % (os.path.basename(path), major, " and ".join(unmet)))
    # Files are named by their base name, by their path when two share one.
    bases = collections.Counter(os.path.basename(p) for p in files)
    names = {p: os.path.basename(p) if bases[os.path.basename(p)] == 1
             else p for p in files}
    if args.work_dir:
        os.makedirs(args.work_dir, exist_ok=True)
        tmp = args.work_dir
    else:
        holder = tempfile.TemporaryDirectory(prefix="agreement.")
        tmp = holder.name

    def file_runs(path):
        """[(label, counts or the exception)] of one file: the plain
        actions, then, when the audit lists accesses, with `;accesses`;
        without --keep-going it stops at the first disagreement."""
        out = []
        for accesses in (False, True):
            for action in ACTIONS:
                label = "%s %s%s" % (names[path], action,
                                     ";accesses" if accesses else "")
                try:
                    findings, counts = one_run(args, path, names[path],
                                               action, accesses, tmp)
                    out.append((label, counts))
                except (Disagreement, ToolFailure) as e:
                    out.append((label, e))
                    if not args.keep_going:
                        return out
                    findings = getattr(e, "findings", [])
                if action == ACTIONS[0] and not accesses:
                    has_accesses = any(f["kind"] == "access"
                                       for f in findings)
                    has_type = any(f["status"] == "type" for f in findings)
                    has_loads = any(f["kind"] == "load-metadata" and
                                    f["status"] != "type" for f in findings)
            if not has_accesses:
                break
        # Type alignments and loaded pointers' `!align`, checked on
        # request: two actions each suffice.
        extra = ((";type-alignment",) if has_type else ()) + (
            (";loads",) if has_loads else ())
        for action in [a + e for e in extra for a in (ACTIONS[0], "recover")]:
            label = "%s %s" % (names[path], action)
            try:
                _, counts = one_run(args, path, names[path], action,
                                    False, tmp)
                out.append((label, counts))
            except (Disagreement, ToolFailure) as e:
                out.append((label, e))
                if not args.keep_going:
                    return out
        return out

    runs, failed, refused = 0, 0, 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(file_runs, path) for path, _ in todo]
        for fut in futures:
            for label, r in fut.result():
                runs += 1
                if isinstance(r, Exception):
                    failed += 1
                    print("agreement: %s: %s" % (
                        "DISAGREEMENT" if isinstance(r, Disagreement)
                        else "ERROR", r))
                    if not args.keep_going:
                        for other in futures:
                            other.cancel()
                        return 1
                elif "refused" in r:
                    refused += 1
                    print("%s: align-guard refuses the module, as "
                          "--guard-error declares: %s" % (label, r["refused"]))
                else:
                    print("%s: %d promises, %d checked, %d sites, %d left out, "
                          "%d unsupported" % (label, r["promises"],
                                              r["checked"], r["sites"],
                                              r["left out"], r["unsupported"]))
                sys.stdout.flush()
    if failed:
        print("agreement: %d files, %d runs, %d disagree" % (
            len(todo), runs, failed))
        return 1
    notes = []
    if refused:
        notes.append("%d refused as declared" % refused)
    if skipped:
        notes.append("%d file%s skipped" % (len(skipped),
                                            "" if len(skipped) == 1 else "s"))
    print("agreement: %d files, %d runs, all agree%s" % (
        len(todo), runs, " (%s)" % ", ".join(notes) if notes else ""))
    return 0


# --- self-test -----------------------------------------------------------

def self_test():
    """A consistent fabricated case, then one broken copy per check."""
    def plan(check, site, action=None, placement=None, why=None,
             deferred=False, report=None):
        return {"check": check, "site": site, "action": action,
                "placement": placement, "reason": why, "deferred": deferred,
                "report": report}

    def finding(fn, kind, subject, status, reason, p):
        return {"function": fn, "kind": kind, "subject": subject,
                "status": status, "reason": reason, "plan": p}
    naked_why = "the function is naked; no check can be inserted"
    covered = "covered by the check at site 0"
    findings = [
        finding("k(float*)", "param-attr", "argument #0 'a'", "unchecked",
                "promised by the callers of entry point 'k(float*)'",
                plan(True, 0, "abort", "at-promise", report="each")),
        finding("k(float*)", "assume-bundle", "argument #0 'a'", "unchecked",
                "nothing checks it", plan(False, 0, why=covered)),
        finding("k(float*)", "assume-icmp", "argument #0 'a'", "checked",
                None, plan(False, None, why="checked by the code at k.c:3")),
        finding("k(float*)", "return-attr", "the pointer returned by 'g'",
                "unchecked", "promised by 'g'",
                plan(False, None, why=NO_RETURNS)),
        finding("naked", "param-attr", "argument #0 'p'", "unsupported",
                naked_why, plan(False, None, why=naked_why)),
        finding("helper", "param-attr", "argument #0 'q'", "unchecked",
                "nothing", plan(False, None, why=NOT_ENTRY_PARAM)),
    ]

    def args(p):
        return "".join("  - %s: '%s'\n" % (k.capitalize(), v) for k, v in (
            ("check", str(p["check"]).lower()),
            ("site", -1 if p["site"] is None else p["site"]),
            ("action", p["action"] or ""),
            ("placement", p["placement"] or ""),
            ("reason", (p["reason"] or "").replace("'", "''")),
            ("deferred", str(p["deferred"]).lower()),
            ("report", p["report"] or "")))
    # What the guard writes: remark YAML (quoting, a DebugLoc, the plan's
    # named arguments after the message) and stderr. The helper is no
    # entry point: no remark.
    remarks = """--- !Passed
Pass:            align-guard
Name:            Checked
DebugLoc:        { File: k.c, Line: 2, Column: 3 }
Function:        _Z1kPf
Args:
  - String:          param-attr
  - String:          ' on '
  - String:          'argument #0 ''a'''
  - String:          ' checked at site '
  - String:          '0'
  - String:          ' ('
  - String:          abort
  - String:          ', '
  - String:          at-promise
  - String:          ')'
""" + args(findings[0]["plan"]) + """...
--- !Analysis
Pass:            align-guard
Name:            NoCheck
Function:        "_Z1kPf"
Args:
  - String:          assume-bundle
  - String:          ' on '
  - String:          "argument #0 'a'"
  - String:          ' gets no check: '
  - String:          'covered by the check at site 0'
""" + args(findings[1]["plan"]) + """    DebugLoc:        { File: k.c, Line: 2, Column: 3 }
...
--- !Analysis
Pass:            align-guard
Name:            NoCheck
Function:        _Z1kPf
Args:
  - String:          'assume-icmp on argument #0 ''a'' gets no check: '
  - String:          "checked by the code at k.c:3"
""" + args(findings[2]["plan"]) + """...
--- !Analysis
Pass:            align-guard
Name:            NoCheck
Function:        _Z1kPf
Args:
  - String:          "return-attr on the pointer returned by 'g' gets no check: a function's own return promise is checked after each call that relies on it"
""" + args(findings[3]["plan"]) + """...
--- !Analysis
Pass:            align-guard
Name:            NoCheck
Function:        naked
Args:
  - String:          'param-attr on argument #0 ''p'' gets no check: the function is naked; no check can be inserted'
""" + args(findings[4]["plan"]) + """...
"""
    stderr = ("warning: align-guard: in function 'naked': param-attr on "
              "argument #0 'p' left unchecked: " + naked_why + "\n")
    demangle = {"_Z1kPf": "k(float*)", "naked": "naked", "helper": "helper"}
    guard = parse_guard(remarks, stderr, demangle)
    if [g["plan"] for g in guard["plans"]] != [f["plan"]
                                               for f in findings[:5]]:
        print("self-test: the fabricated remarks read wrong: %s"
              % [g["plan"] for g in guard["plans"]])
        return 2
    try:
        compare(findings, guard, False)
    except Disagreement as e:
        print("self-test: the consistent case was rejected: %s" % e)
        return 2
    print("self-test: the consistent case agrees")

    def mutated(name, edit):
        fs, g = copy.deepcopy(findings), copy.deepcopy(guard)
        edit(fs, g)
        return name, fs, g

    def unplanned_check(fs, g):
        # a check the plan lacks: the guard checks the covered assume
        g["plans"][1].update(remark="Checked", text=dict(
            g["plans"][0]["text"], kind="assume-bundle"),
            plan=dict(g["plans"][0]["plan"]))

    def missing_check(fs, g):
        g["plans"].pop(0)

    def other_site(fs, g):
        g["plans"][0]["plan"]["site"] = 1
        g["plans"][0]["text"]["site"] = "1"

    def other_report(fs, g):
        g["plans"][0]["plan"]["report"] = "table"

    def other_deferral(fs, g):
        g["plans"][0]["plan"]["deferred"] = True

    def other_why(fs, g):
        g["plans"][2]["plan"]["reason"] = "aligned by construction"
        g["plans"][2]["text"]["why"] = "aligned by construction"

    def text_and_plan(fs, g):
        g["plans"][0]["text"]["site"] = "2"

    def not_in_scope_planned(fs, g):
        # the audit plans a left-out promise the guard looks at, yet the
        # guard carried out no plan for it
        fs[5]["plan"]["reason"] = "nothing checks it"

    def status_checked(fs, g):
        fs[0]["status"] = "checked"

    def status_type(fs, g):
        fs[0]["status"] = "type"
        fs[0]["reason"] = TYPE_ALIGNMENT

    def covered_elsewhere(fs, g):
        fs[1]["plan"]["site"] = 1
        g["plans"][1]["plan"]["site"] = 1

    def no_warning(fs, g):
        g["warned"] = []

    def other_reason(fs, g):
        g["warned"][0]["why"] = "something else"

    def downgrade(fs, g):
        fs[0]["plan"]["reason"] = "it does not return an integer"
        g["plans"][0]["plan"]["reason"] = "it does not return an integer"

    broken = [mutated("1 check the plan lacks", unplanned_check),
              mutated("1 planned check missing", missing_check),
              mutated("1 check at another site", other_site),
              mutated("1 plan with another report", other_report),
              mutated("1 plan with another deferral", other_deferral),
              mutated("1 NoCheck with another reason", other_why),
              mutated("1 remark text and plan differ", text_and_plan),
              mutated("1 plan the guard did not carry out",
                      not_in_scope_planned),
              mutated("2 checked but checked again", status_checked),
              mutated("2 type alignment but checked", status_type),
              mutated("2 covered by a site without a check",
                      covered_elsewhere),
              mutated("3 no unsupported warning", no_warning),
              mutated("3 warning with another reason", other_reason),
              mutated("3 downgrade without the warning", downgrade)]
    for name, fs, g in broken:
        try:
            compare(fs, g, False)
        except Disagreement as e:
            print("self-test: detected (%s): %s" % (name, e))
            continue
        print("self-test: NOT detected: %s" % name)
        return 0
    print("agreement: self-test: every fabricated disagreement was caught")
    return 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opt")
    ap.add_argument("--plugin")
    ap.add_argument("--cxxfilt", help="default: llvm-cxxfilt next to --opt")
    ap.add_argument("--requires", action="append", default=[],
                    metavar="llvm>=N:GLOB|llvm<N:GLOB",
                    help="files whose name matches GLOB can be read only by "
                         "these LLVM majors; elsewhere they are skipped, and "
                         "named")
    ap.add_argument("--guard-error", action="append", default=[],
                    metavar="GLOB:TEXT", type=lambda v: tuple(v.split(":", 1)),
                    help="align-guard may refuse files matching GLOB with an "
                         "error containing TEXT (the run is named, not "
                         "compared)")
    ap.add_argument("--work-dir", help="keep the guard's IR and remarks here")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep-going", action="store_true",
                    help="report every disagreeing run, not only the first")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.opt or not args.plugin or not args.files:
        ap.error("--opt, --plugin and at least one file are needed")
    if not args.cxxfilt:
        args.cxxfilt = os.path.join(os.path.dirname(args.opt), "llvm-cxxfilt")
    for tool in (args.opt, args.cxxfilt, args.plugin):
        if not os.path.exists(tool):
            raise ToolFailure("%s does not exist" % tool)
    return main_runs(args)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Disagreement as e:
        print("agreement: DISAGREEMENT: %s" % e)
        sys.exit(1)
    except ToolFailure as e:
        print("agreement: ERROR: %s" % e)
        sys.exit(1)
