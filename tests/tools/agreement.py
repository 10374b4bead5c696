#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Check that the audit's plan predicts what align-guard does.

  agreement.py --opt OPT --plugin ALIGNGUARD.so [--cxxfilt LLVM-CXXFILT]
               [--requires llvm>=N:GLOB ...] [--jobs N] FILE-OR-GLOB...
  agreement.py --self-test

For every IR file, every failure action (abort, trap, recover, return=-1,
fallback), for a file with over-aligned accesses every action with
`;accesses` as well, and for a file with type alignments (the audit's
`type` status) abort and recover with `;type-alignment`, this runs the audit
and the guard on the same input:

  opt -passes='align-guard-audit<json;all;system;plan;ACTION[;accesses]>' IN.ll
  opt -passes='align-guard<ACTION[;accesses]>,verify' -S IN.ll -o OUT.ll \\
      -pass-remarks-output=R.yaml

and checks that the audit (its statuses and its `plan` object, computed
before any instrumentation) predicts the guard's remarks, warnings and IR:

 1. A finding the audit calls `checked`, `guarded` or `type` gets no check of its
    own (no `Checked` remark), and its plan says so.
 2. An `unsupported` finding of a promise align-guard looks at gets the
    guard's warning `KIND on SUBJECT left unchecked: REASON`, REASON being
    the audit's reason; and every such warning is an unsupported finding.
 3. `Checked` remarks and findings with plan.check true are the same
    multiset of (function, kind, subject, site, action, placement); a
    finding with plan.check false has none. Every `NoCheck` remark is a
    finding with plan.check false and the same reason, and every finding
    of a promise the guard looks at that gets no check has one. A finding
    covered by another site (check false, site N) names a site that has a
    check. A requested action that cannot be used at a site (plan.reason
    on a checked finding) is the guard's downgrade warning.
 4. Per function, the number of distinct sites in the `Checked` remarks is
    the number of `alignguard.fail*` blocks the guard added to it, and to
    its recover copy (`<name>.alignguard.recover`, which has no remarks).
 5. Both opt runs exit 0; the guarded IR passes `verify`.

Which promises align-guard looks at: not return promises, not guarded
assumes, not opted-out functions, `align` parameters and (with `accesses`)
accesses only in entry points. Whether a function is an entry point comes
from the audit's plan of its other promises where it has one ("not an
entry point: ..."), else from the IR by the default rule (externally
visible definitions, when the module marks no entry point); when neither
answers (a module with entry markers and no other evidence) the guard may
or may not report the promise, but what it says must still match.

Function names: remarks, warnings and IR use the IR (mangled) name, the
audit the demangled one; names are demangled with llvm-cxxfilt of the LLVM
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

NAME = r'(?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)'
DEFINE = re.compile(r'^define\b([^@]*)@(' + NAME + r')\(')
FAIL_LABEL = re.compile(r'^alignguard\.fail[0-9]*:')
LINKAGES = {"private", "internal", "available_externally", "linkonce", "weak",
            "common", "appending", "extern_weak", "linkonce_odr", "weak_odr",
            "external"}
ENTRY_MARKERS = re.compile(r'\b(ptx_kernel|amdgpu_kernel|spir_kernel)\b|'
                           r'"alignguard-entry"|alignguard_entry|'
                           r'!nvvm\.annotations')
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
    """[(type, pass, name, function, message)] from remark YAML."""
    remarks = []
    doc = None
    for line in text.splitlines():
        if line.startswith("--- !"):
            doc = {"type": line[5:].strip(), "args": []}
            remarks.append(doc)
            continue
        if doc is None or line.startswith("..."):
            continue
        m = re.match(r"^(Pass|Name|Function):\s*(.*)$", line)
        if m:
            doc[m.group(1)] = yaml_scalar(m.group(2))
            continue
        # An argument: `- Key: value` (String, or a named value such as
        # Callee); its DebugLoc is on the lines below, with no dash.
        m = re.match(r"^\s+-\s+[A-Za-z0-9_]+:\s*(.*)$", line)
        if m:
            doc["args"].append(yaml_scalar(m.group(1)))
    return [(d["type"], d.get("Pass"), d.get("Name"), d.get("Function"),
             "".join(d["args"])) for d in remarks]


def ir_name(token):
    if token.startswith('"'):
        return re.sub(r"\\(\\|[0-9A-Fa-f]{2})",
                      lambda m: "\\" if m.group(1) == "\\"
                      else chr(int(m.group(1), 16)), token[1:-1])
    return token


RECOVER_SUFFIX = ".alignguard.recover"


def scan_ir(text):
    """Per defined function (IR name): fail blocks and whether it is
    externally visible (external or weak linkage); and whether the module
    marks entry points."""
    fails, visible = {}, {}
    current = None
    for line in text.splitlines():
        m = DEFINE.match(line)
        if m:
            current = ir_name(m.group(2))
            words = set(m.group(1).split())
            linkage = words & LINKAGES
            visible[current] = not linkage or linkage <= {"external", "weak"}
            fails.setdefault(current, 0)
            continue
        if line.startswith("}"):
            current = None
        elif current is not None and FAIL_LABEL.match(line):
            fails[current] += 1
    return fails, visible, bool(ENTRY_MARKERS.search(text))


def parse_guard(remark_text, stderr, demangle):
    """The guard's word: Checked/NoCheck remarks, unsupported and downgrade
    warnings, each with the demangled and the IR function name."""
    checked, nocheck, warned, downgraded = [], [], [], []
    for rtype, rpass, name, fn, msg in parse_remarks(remark_text):
        if rpass != "align-guard":
            continue
        if name == "Checked":
            m = CHECKED_TEXT.match(msg)
            if rtype != "Passed" or not m or fn is None:
                raise ToolFailure("unexpected Checked remark: !%s %r in %r"
                                  % (rtype, msg, fn))
            checked.append({"ir": fn, "function": demangle[fn],
                            "kind": m.group("kind"),
                            "subject": m.group("subject"),
                            "site": int(m.group("site")),
                            "action": m.group("action"),
                            "placement": m.group("placement")})
        elif name == "NoCheck":
            m = NOCHECK_TEXT.match(msg)
            if rtype != "Analysis" or not m or fn is None:
                raise ToolFailure("unexpected NoCheck remark: !%s %r in %r"
                                  % (rtype, msg, fn))
            nocheck.append({"ir": fn, "function": demangle[fn],
                            "kind": m.group("kind"),
                            "subject": m.group("subject"),
                            "why": m.group("why")})
        else:
            raise ToolFailure("unexpected align-guard remark %r: %r"
                              % (name, msg))
    for m in WARN_UNSUPPORTED.finditer(stderr):
        warned.append({"ir": m.group("fn"),
                       "function": demangle[m.group("fn")],
                       "kind": m.group("kind"),
                       "subject": m.group("subject"),
                       "why": m.group("why")})
    for m in WARN_DOWNGRADE.finditer(stderr):
        downgraded.append({"ir": m.group("fn"),
                           "function": demangle[m.group("fn")],
                           "why": m.group("why")})
    return {"checked": checked, "nocheck": nocheck, "warned": warned,
            "downgraded": downgraded}


# --- the comparison ------------------------------------------------------

def key(x):
    return (x["function"], x["kind"], x["subject"])


def show(f):
    return "%s on %s in function '%s'" % (f["kind"], f["subject"],
                                          f["function"])


def show_finding(f):
    p = f["plan"]
    return ("status %s%s; plan: check %s, site %s, action %s, placement %s, "
            "reason %r" % (f["status"],
                           " (%s)" % f["reason"] if f["reason"] else "",
                           str(p["check"]).lower(), p["site"], p["action"],
                           p["placement"], p["reason"]))


def disagree(errors, message):
    if errors is None:
        raise Disagreement(message)
    errors.append(message)


def entry_points(findings, ir_visible, has_markers, demangle, accesses,
                 errors=None):
    """Demangled function name -> True/False/None (unknown): from the audit's
    plan where it tells, else from the IR's default rule. Disagreement when
    both tell and differ (the rule here is then wrong)."""
    said = collections.defaultdict(set)
    for f in findings:
        p = f["plan"]
        if f["kind"] not in ("param-attr", "access") or p["reason"] == OPTED_OUT:
            continue
        if f["kind"] == "access" and not accesses:
            continue
        if p["reason"] in (NOT_ENTRY_PARAM, NOT_ENTRY_ACCESS):
            said[f["function"]].add(False)
        elif p["check"] or p["site"] is not None:
            said[f["function"]].add(True)
    from_ir = collections.defaultdict(set)
    if not has_markers:
        for fn, vis in ir_visible.items():
            from_ir[demangle[fn]].add(vis)
    out = {}
    for fn in sorted(set(said) | set(from_ir) |
                     {f["function"] for f in findings}):
        a, b = said.get(fn, set()), from_ir.get(fn, set())
        if len(a) == 1 and len(b) == 1 and a != b:
            disagree(errors, "function '%s': the audit's plan says it is %san "
                     "entry point, the default rule on the IR says it is %s"
                     % (fn, "" if True in a else "not ",
                        "one" if True in b else "not"))
        out[fn] = next(iter(a)) if len(a) == 1 else (
            next(iter(b)) if len(b) == 1 else None)
    return out


def in_scope(f, entry, accesses, loads=False):
    """Whether align-guard looks at the promise: True, False, None (maybe)."""
    p = f["plan"]
    if p["reason"] in NOT_IN_SCOPE:
        return False
    if f["kind"] == "access" and not accesses:
        return False
    if f["kind"] == "load-metadata" and not loads:
        return False  # align-guard without `loads` does not collect them
    if f["status"] == "guarded":
        # An assume an earlier run guarded is skipped; a promise that such
        # an assume covers is looked at and left out.
        return None
    if f["kind"] in ("param-attr", "access"):
        return entry.get(f["function"])
    return True


def match(required, optional, got, missing, extra, errors):
    """Multiset match of one key's texts: every `required` (finding, text)
    by an equal `got` text, every remaining `got` by an equal `optional`."""
    got = list(got)
    for r in required:
        if r[1] in got:
            got.remove(r[1])
        else:
            disagree(errors, missing(r))
    opt = [o[1] for o in optional]
    for g in got:
        if g in opt:
            opt.remove(g)
        else:
            disagree(errors, extra(g))


def compare(findings, guard, fails_in, fails_out, entry, accesses,
            errors=None, loads=False):
    """Raises Disagreement at the first difference (with `errors`, a list:
    appends every difference to it); returns the counts."""
    def all_findings(k):
        return "; ".join(show_finding(f) for f in by_key.get(k, [])) or "none"

    by_key = collections.defaultdict(list)
    for f in findings:
        by_key[key(f)].append(f)
        p = f["plan"]
        if p["check"] and not (isinstance(p["site"], int) and p["action"]
                               and p["placement"]):
            disagree(errors, "audit: %s: plan.check true without site, action "
                     "and placement: %s" % (show(f), show_finding(f)))
        # 1. (the audit's side) checked and guarded promises get no check.
        if f["status"] in NO_CHECK_STATUSES and p["check"]:
            disagree(errors, "audit: %s is %s, yet its plan gives it a check: "
                     "%s" % (show(f), f["status"], show_finding(f)))
        # A type alignment: status `type` exactly when the plan says so.
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
        if in_scope(f, entry, accesses, loads) is False and (
                p["check"] or p["site"] is not None):
            disagree(errors, "audit: %s is a promise align-guard does not "
                     "look at, yet its plan gives it a site: %s"
                     % (show(f), show_finding(f)))

    checked_by_key = collections.defaultdict(list)
    for c in guard["checked"]:
        checked_by_key[key(c)].append(c)

    # 1. (the guard's side) no check of its own for a checked or guarded
    # finding: more Checked remarks than findings of another status.
    for k, cs in sorted(checked_by_key.items()):
        fs = by_key.get(k, [])
        open_ = [f for f in fs if f["status"] not in NO_CHECK_STATUSES]
        closed = [f for f in fs if f not in open_]
        if len(cs) > len(open_) and closed:
            c = cs[len(open_)]
            disagree(errors, "%s: align-guard gave it a check of its own at "
                     "site %d (%s, %s), but the audit calls it %s (%s)" % (
                         show(c), c["site"], c["action"], c["placement"],
                         closed[0]["status"], show_finding(closed[0])))

    # 3. Checked remarks == findings with plan.check true.
    for k in sorted(set(by_key) | set(checked_by_key)):
        want = sorted((f["plan"]["site"], f["plan"]["action"],
                       f["plan"]["placement"])
                      for f in by_key.get(k, []) if f["plan"]["check"])
        got = sorted((c["site"], c["action"], c["placement"])
                     for c in checked_by_key.get(k, []))
        if want != got:
            disagree(errors, "%s on %s in function '%s': the audit plans %s; "
                     "align-guard checked it %s. Audit findings: %s" % (
                         k[1], k[2], k[0],
                         "checks at (site, action, placement) %s" % want
                         if want else "no check of its own",
                         "at %s" % got if got
                         else "nowhere (no Checked remark)", all_findings(k)))

    # 3. NoCheck remarks: the promises the guard looked at and left out.
    nocheck_by_key = collections.defaultdict(list)
    for n in guard["nocheck"]:
        nocheck_by_key[key(n)].append(n["why"])
    for k in sorted(set(by_key) | set(nocheck_by_key)):
        scope = [(f, in_scope(f, entry, accesses, loads)) for f in by_key.get(k, [])
                 if not f["plan"]["check"]]
        match([(f, f["plan"]["reason"]) for f, s in scope if s is True],
              [(f, f["plan"]["reason"]) for f, s in scope if s is None],
              nocheck_by_key.get(k, []),
              lambda r: "%s: align-guard looks at it and should leave it out "
                        "(%s), but it has no NoCheck remark with that reason "
                        "(its NoCheck reasons: %r)" % (
                            show(r[0]), show_finding(r[0]),
                            nocheck_by_key.get(k, [])),
              lambda g: "%s on %s in function '%s': align-guard left it out "
                        "(%r), which no finding's plan says (audit findings: "
                        "%s)" % (k[1], k[2], k[0], g, all_findings(k)),
              errors)

    # 3. A covered finding names a site with a check.
    sites = {(c["function"], c["site"]) for c in guard["checked"]}
    for f in findings:
        p = f["plan"]
        if not p["check"] and p["site"] is not None and (
                (f["function"], p["site"]) not in sites):
            disagree(errors, "%s: the audit says the check at site %d covers "
                     "it, but align-guard checks nothing at site %d of that "
                     "function (sites with checks: %s)" % (
                         show(f), p["site"], p["site"], sorted(
                             s for fn, s in sites if fn == f["function"])))

    # 3. Downgraded actions: the plan.reason of a checked finding is the
    # guard's warning that the requested action cannot be used there.
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

    # 2. Unsupported promises the guard looks at: its warning, same reason.
    warned_by_key = collections.defaultdict(list)
    for w in guard["warned"]:
        warned_by_key[key(w)].append(w["why"])
    for k in sorted(set(by_key) | set(warned_by_key)):
        scope = [(f, in_scope(f, entry, accesses, loads)) for f in by_key.get(k, [])
                 if f["status"] == "unsupported"]
        match([(f, f["reason"]) for f, s in scope if s is True],
              [(f, f["reason"]) for f, s in scope if s is None],
              warned_by_key.get(k, []),
              lambda r: "%s: the audit calls it unsupported (%r) and "
                        "align-guard looks at it, but it printed no warning "
                        "'left unchecked: %s' (its warnings for it: %r)" % (
                            show(r[0]), r[1], r[1], warned_by_key.get(k, [])),
              lambda g: "%s on %s in function '%s': align-guard warned "
                        "'left unchecked: %s', but no unsupported finding "
                        "has that reason (audit findings: %s)" % (
                            k[1], k[2], k[0], g, all_findings(k)),
              errors)

    # 4. Distinct sites per function == alignguard.fail blocks added.
    sites_ir = collections.defaultdict(set)
    for c in guard["checked"]:
        sites_ir[c["ir"]].add(c["site"])
    # A recover copy (a failing call reruns in it) is checked as its
    # original is, with no remarks of its own: its original's sites.
    for fn in sorted(set(sites_ir) | set(fails_out)):
        added = fails_out.get(fn, 0) - fails_in.get(fn, 0)
        named = fn[:-len(RECOVER_SUFFIX)] if fn.endswith(RECOVER_SUFFIX) \
            else fn
        if added != len(sites_ir.get(named, ())):
            disagree(errors, "function '%s': the Checked remarks name %d "
                     "site(s) %s, but align-guard added %d alignguard.fail "
                     "block(s) (%d before, %d after)" % (
                         fn, len(sites_ir.get(named, ())),
                         sorted(sites_ir.get(named, ())), added,
                         fails_in.get(fn, 0), fails_out.get(fn, 0)))

    return {"promises": len(findings), "checked": len(guard["checked"]),
            "sites": sum(len(s) for s in sites_ir.values()),
            "left out": len(guard["nocheck"]),
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


def one_run(args, path, name, text_in, action, accesses, tmp):
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
    with open(stem + ".out.ll") as f:
        text_out = f.read()
    fails_in, visible, markers = scan_ir(text_in)
    fails_out, _, _ = scan_ir(text_out)
    names = set(visible) | set(fails_out)
    names |= {r[3] for r in parse_remarks(remarks) if r[3]}
    names |= {m.group("fn") for m in WARN_UNSUPPORTED.finditer(g.stderr)}
    names |= {m.group("fn") for m in WARN_DOWNGRADE.finditer(g.stderr)}
    demangle = demangler(args.cxxfilt, names)
    guard = parse_guard(remarks, g.stderr, demangle)
    errors = [] if args.keep_going else None
    try:
        entry = entry_points(findings, visible, markers, demangle, accesses,
                             errors)
        counts = compare(findings, guard, fails_in, fails_out, entry,
                         accesses, errors, loads=";loads" in action)
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
    texts = {}
    for path, _ in todo:
        with open(path, errors="replace") as f:
            texts[path] = f.read()

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
                                               texts[path], action, accesses,
                                               tmp)
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
                _, counts = one_run(args, path, names[path], texts[path],
                                    action, False, tmp)
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
    def finding(fn, kind, subject, status, reason, check, site, action=None,
                placement=None, why=None):
        return {"function": fn, "kind": kind, "subject": subject,
                "status": status, "reason": reason,
                "plan": {"check": check, "site": site, "action": action,
                         "placement": placement, "reason": why}}
    naked_why = "the function is naked; no check can be inserted"
    findings = [
        finding("k(float*)", "param-attr", "argument #0 'a'", "unchecked",
                "promised by the callers of entry point 'k(float*)'", True, 0,
                "abort", "at-promise"),
        finding("k(float*)", "assume-bundle", "argument #0 'a'", "unchecked",
                "nothing checks it", False, 0,
                why="covered by the check at site 0"),
        finding("k(float*)", "assume-icmp", "argument #0 'a'", "checked",
                None, False, None, why="checked by the code at k.c:3"),
        finding("k(float*)", "return-attr", "the pointer returned by 'g'",
                "unchecked", "promised by 'g'", False, None, why=NO_RETURNS),
        finding("naked", "param-attr", "argument #0 'p'", "unsupported",
                naked_why, False, None, why=naked_why),
        finding("helper", "param-attr", "argument #0 'q'", "unchecked",
                "nothing", False, None, why=NOT_ENTRY_PARAM),
    ]
    # What the guard would write: remark YAML (quoting, a DebugLoc, an
    # argument with another key), stderr, and the IR before and after.
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
...
--- !Analysis
Pass:            align-guard
Name:            NoCheck
Function:        "_Z1kPf"
Args:
  - String:          assume-bundle
  - String:          ' on '
  - String:          "argument #0 'a'"
  - String:          ' gets no check: '
  - String:          'covered by the check at site '
  - Site:            '0'
    DebugLoc:        { File: k.c, Line: 2, Column: 3 }
...
--- !Analysis
Pass:            align-guard
Name:            NoCheck
Function:        _Z1kPf
Args:
  - String:          'assume-icmp on argument #0 ''a'' gets no check: '
  - String:          "checked by the code at k.c:3"
...
--- !Analysis
Pass:            align-guard
Name:            NoCheck
Function:        _Z1kPf
Args:
  - String:          "return-attr on the pointer returned by 'g' gets no check: a function's own return promise is checked after each call that relies on it"
...
--- !Analysis
Pass:            align-guard
Name:            NoCheck
Function:        naked
Args:
  - String:          'param-attr on argument #0 ''p'' gets no check: the function is naked; no check can be inserted'
...
"""
    stderr = ("warning: align-guard: in function 'naked': param-attr on "
              "argument #0 'p' left unchecked: " + naked_why + "\n")
    ir_in = ("define void @_Z1kPf(ptr %a) {\nentry:\n  ret void\n}\n"
             "define void @naked(ptr align 16 %p) naked {\n  unreachable\n}\n"
             "define internal void @helper(ptr align 16 %q) {\n"
             "  ret void\n}\n")
    ir_out = ir_in.replace("entry:\n", "entry:\n  br label %alignguard.ok\n"
                           "alignguard.fail:                  ; preds = %x\n"
                           "  unreachable\nalignguard.ok:\n")
    demangle = {"_Z1kPf": "k(float*)", "naked": "naked", "helper": "helper"}
    guard = parse_guard(remarks, stderr, demangle)
    fails_in, ir_visible, markers = scan_ir(ir_in)
    fails_out, _, _ = scan_ir(ir_out)
    if markers or ir_visible != {"_Z1kPf": True, "naked": True,
                                 "helper": False} or fails_out != {
                                     "_Z1kPf": 1, "naked": 0, "helper": 0}:
        print("self-test: the fabricated IR reads wrong: %s %s"
              % (ir_visible, fails_out))
        return 2

    def check(fs, g, fin, fout, vis):
        entry = entry_points(fs, vis, False, demangle, False)
        return compare(fs, g, fin, fout, entry, False)

    try:
        check(findings, guard, fails_in, fails_out, ir_visible)
    except Disagreement as e:
        print("self-test: the consistent case was rejected: %s" % e)
        return 2
    print("self-test: the consistent case agrees")

    def mutated(name, edit):
        fs, g = copy.deepcopy(findings), copy.deepcopy(guard)
        fin, fout = dict(fails_in), dict(fails_out)
        vis = dict(ir_visible)
        edit(fs, g, fin, fout, vis)
        return name, (fs, g, fin, fout, vis)

    def status_checked(fs, g, fin, fout, vis):
        # 1: the audit calls the checked promise checked, the guard checks it
        fs[0]["status"] = "checked"
        fs[0]["plan"].update(check=False, site=None, action=None,
                             placement=None, reason="checked by the code")

    def status_type(fs, g, fin, fout, vis):
        # 1: the audit calls the checked promise a type alignment
        fs[0]["status"] = "type"
        fs[0]["reason"] = TYPE_ALIGNMENT

    def no_warning(fs, g, fin, fout, vis):
        g["warned"] = []                       # 2: warning missing

    def other_reason(fs, g, fin, fout, vis):
        g["warned"][0]["why"] = "something else"   # 2: reason differs

    def unplanned_check(fs, g, fin, fout, vis):
        g["checked"].append(dict(g["checked"][0], kind="assume-bundle"))
        g["nocheck"].pop(0)                    # 3: a check the plan lacks

    def missing_check(fs, g, fin, fout, vis):
        g["checked"] = []                      # 3: planned check missing
        fout["_Z1kPf"] = 0

    def other_site(fs, g, fin, fout, vis):
        g["checked"][0]["site"] = 1            # 3: site number differs

    def other_why(fs, g, fin, fout, vis):
        g["nocheck"][1]["why"] = "aligned by construction"  # 3: NoCheck why

    def covered_elsewhere(fs, g, fin, fout, vis):
        fs[1]["plan"]["site"] = 1              # 3: covered by no check

    def downgrade(fs, g, fin, fout, vis):
        fs[0]["plan"]["reason"] = "it does not return an integer"  # 3

    def fail_blocks(fs, g, fin, fout, vis):
        fout["_Z1kPf"] = 2                     # 4: fail blocks != sites

    def not_entry(fs, g, fin, fout, vis):
        fs[5]["function"] = "naked"            # the plan: not an entry

    broken = [mutated("1 checked but checked again", status_checked),
              mutated("1 type alignment but checked", status_type),
              mutated("2 no unsupported warning", no_warning),
              mutated("2 warning with another reason", other_reason),
              mutated("3 check the plan lacks", unplanned_check),
              mutated("3 planned check missing", missing_check),
              mutated("3 check at another site", other_site),
              mutated("3 NoCheck with another reason", other_why),
              mutated("3 covered by a site without a check",
                      covered_elsewhere),
              mutated("3 downgrade without the warning", downgrade),
              mutated("4 fail blocks differ from sites", fail_blocks),
              mutated("entry rule contradicts the plan", not_entry)]
    for name, case in broken:
        try:
            check(*case)
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
