#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Validate align-guard-audit JSON against the contract and print one line
per finding, for FileCheck:

  STATUS KIND FUNCTION | SUBJECT | arg=N align=A offset=O | FILE:LINE:COL | REASON

The contract (README, "Audit JSON"): exactly these keys and types. Exits 1
with the first violation. Reads a file or stdin; also accepts the combined
output of `scripts/alignguard audit --json` ({"files": [...]}).
"""
import json
import sys

TOP = {"alignguard_audit", "module", "assumptions", "summary"}
FINDING = {"function", "kind", "subject", "argument", "alignment", "offset",
           "file", "line", "column", "status", "reason", "placement",
           "suppression"}
KINDS = {"assume-bundle", "assume-icmp", "param-attr", "return-attr", "access",
         "load-metadata"}
STATUSES = {"guarded", "checked", "implied", "unchecked", "unsupported",
            "suppressed", "type"}
SUMMARY = {"total", "unchecked", "guarded", "checked", "implied", "unsupported",
           "suppressed", "type"}


def fail(msg):
    sys.exit("audit-json: " + msg)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_module(doc, where):
    if set(doc) - {"file"} != TOP:
        fail("%s: keys %s, expected %s" % (where, sorted(doc), sorted(TOP)))
    if doc["alignguard_audit"] != 1 or not isinstance(doc["module"], str):
        fail("%s: bad alignguard_audit/module" % where)
    if set(doc["summary"]) != SUMMARY or not all(is_int(v) for v in doc["summary"].values()):
        fail("%s: bad summary %s" % (where, doc["summary"]))
    s = doc["summary"]
    if s["total"] != sum(s[k] for k in SUMMARY - {"total"}):
        fail("%s: summary does not add up: %s" % (where, s))
    for i, a in enumerate(doc["assumptions"]):
        w = "%s: assumptions[%d]" % (where, i)
        if set(a) != FINDING:
            fail("%s: keys %s" % (w, sorted(a)))
        for key in ("function", "subject"):
            if not isinstance(a[key], str) or not a[key]:
                fail("%s: %s must be a non-empty string" % (w, key))
        if a["kind"] not in KINDS or a["status"] not in STATUSES:
            fail("%s: kind %r / status %r" % (w, a["kind"], a["status"]))
        for key in ("argument", "alignment", "offset", "line", "column"):
            if a[key] is not None and not is_int(a[key]):
                fail("%s: %s must be an integer or null" % (w, key))
        if a["placement"] not in (None, "hoisted", "in-loop", "in-place"):
            fail("%s: placement %r" % (w, a["placement"]))
        if a["placement"] is not None and a["kind"] not in (
                "access", "load-metadata"):
            fail("%s: placement on a %s" % (w, a["kind"]))
        for key in ("file", "reason"):
            if a[key] is not None and not isinstance(a[key], str):
                fail("%s: %s must be a string or null" % (w, key))
        if a["file"] is None and (a["line"] is not None or a["column"] is not None):
            fail("%s: line/column without file" % w)
        if a["status"] in ("unchecked", "unsupported", "suppressed", "type") and not a["reason"]:
            fail("%s: an %s finding needs a reason" % (w, a["status"]))
        if (a["suppression"] is not None) != (a["status"] == "suppressed") or \
                a["suppression"] not in (None, "external", "inSource"):
            fail("%s: suppression %r on a %s finding" % (w, a["suppression"], a["status"]))
        loc = "-" if a["file"] is None else "%s:%s:%s" % (a["file"], a["line"], a["column"])
        print("%s %s %s | %s | arg=%s align=%s offset=%s | %s | %s%s%s" % (
            a["status"], a["kind"], a["function"], a["subject"], a["argument"],
            a["alignment"], a["offset"], loc, a["reason"],
            "" if a["placement"] is None else " | " + a["placement"],
            "" if a["suppression"] is None else " | " + a["suppression"]))
    print("summary %s" % " ".join("%s=%d" % (k, s[k]) for k in
                                  ["total", "unchecked", "guarded", "checked",
                                   "implied", "unsupported", "suppressed",
                                   "type"]))


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    try:
        doc = json.loads(text)
    except ValueError as e:
        fail("not JSON: %s" % e)
    if "files" in doc:
        for m in doc["files"]:
            print("file %s" % m["file"])
            check_module(m, m["file"])
    else:
        check_module(doc, "audit")


if __name__ == "__main__":
    main()
