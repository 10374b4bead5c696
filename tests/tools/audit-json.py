#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Validate align-guard-audit JSON against the contract and print one line
per finding, for FileCheck:

  STATUS KIND FUNCTION | SUBJECT | arg=N align=A offset=O | FILE:LINE:COL | REASON
      [| PLACEMENT] [| SUPPRESSION] [| xOCCURRENCES] [| system]

With --fingerprints, one line per finding instead: `FINGERPRINT STATUS KIND
FUNCTION | SUBJECT` (no location, for comparing two builds).

The contract (docs/audit.md, "The JSON"): exactly these keys and types. Exits 1
with the first violation. Reads a file or stdin (none or `-`); also accepts
the combined output of `scripts/alignguard audit --json` ({"files": [...]}).
"""
import json
import os
import re
import sys

TOP = {"alignguard_audit", "version", "module", "assumptions", "summary",
       "rules"}
FINDING = {"function", "kind", "subject", "argument", "alignment", "offset",
           "file", "line", "column", "status", "reason", "placement",
           "suppression", "path", "system", "listed_when", "fingerprint",
           "occurrences", "rule", "message"}
# The rule each status falls under (SARIF's ruleId).
RULE_OF = {"unchecked": "alignguard/unchecked-assumption",
           "suppressed": "alignguard/unchecked-assumption",
           "unsupported": "alignguard/unsupported-assumption",
           "guarded": "alignguard/verified-assumption",
           "checked": "alignguard/verified-assumption",
           "implied": "alignguard/verified-assumption",
           "type": "alignguard/verified-assumption"}
# The listing words a listing needs to show a finding of each status (one of
# each group), plus ["system"] for one in a system header (listed_when).
LISTED_WHEN = {"unchecked": [], "unsupported": [], "suppressed": [],
               "guarded": [["all"]], "checked": [["all"]], "implied": [["all"]],
               "type": [["all", "type"]]}
LEVELS = {"alignguard/unchecked-assumption": "warning",
          "alignguard/unsupported-assumption": "note",
          "alignguard/verified-assumption": "none"}
RULE = {"id", "name", "shortDescription", "fullDescription", "helpUri",
        "defaultConfiguration"}
KINDS = {"assume-bundle", "assume-icmp", "param-attr", "return-attr", "access",
         "load-metadata"}
STATUSES = {"guarded", "checked", "implied", "unchecked", "unsupported",
            "suppressed", "type"}
SUMMARY = {"total", "unchecked", "guarded", "checked", "implied", "unsupported",
           "suppressed", "type", "system"}
STATUS_COUNTS = SUMMARY - {"total", "system"}
FINGERPRINTS = "--fingerprints" in sys.argv


def fail(msg):
    sys.exit("audit-json: " + msg)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_rules(rules, where):
    """`rules`: exactly SARIF's tool.driver.rules."""
    if not isinstance(rules, list) or [r.get("id") for r in rules] != list(LEVELS):
        fail("%s: rules must be %s in this order" % (where, list(LEVELS)))
    for r in rules:
        if set(r) != RULE:
            fail("%s: rule keys %s" % (where, sorted(r)))
        if not re.fullmatch(r"[A-Z][A-Za-z]+", r["name"]):
            fail("%s: rule name %r is not CamelCase" % (where, r["name"]))
        for key in ("shortDescription", "fullDescription"):
            if set(r[key]) != {"text"} or not r[key]["text"]:
                fail("%s: rule %s needs a text" % (where, key))
        if not re.match(r"[a-z]+://", r["helpUri"]) or not r["helpUri"].endswith("#statuses"):
            fail("%s: helpUri %r must be an absolute URI to #statuses" % (where, r["helpUri"]))
        if r["defaultConfiguration"] != {"level": LEVELS[r["id"]]}:
            fail("%s: defaultConfiguration %r" % (where, r["defaultConfiguration"]))


def check_module(doc, where):
    if set(doc) - {"file"} != TOP:
        fail("%s: keys %s, expected %s" % (where, sorted(doc), sorted(TOP)))
    if doc["alignguard_audit"] != 1 or not isinstance(doc["module"], str):
        fail("%s: bad alignguard_audit/module" % where)
    if not isinstance(doc["version"], str) or not re.fullmatch(r"\d+\.\d+\.\d+.*", doc["version"]):
        fail("%s: bad version %r" % (where, doc["version"]))
    check_rules(doc["rules"], where)
    if set(doc["summary"]) != SUMMARY or not all(is_int(v) for v in doc["summary"].values()):
        fail("%s: bad summary %s" % (where, doc["summary"]))
    s = doc["summary"]
    if s["total"] != sum(s[k] for k in STATUS_COUNTS):
        fail("%s: summary does not add up: %s" % (where, s))
    seen = set()
    for i, a in enumerate(doc["assumptions"]):
        w = "%s: assumptions[%d]" % (where, i)
        # Optional: "plan" (align-guard-audit<plan>), "baseline" (the
        # driver's --baseline: new or unchanged).
        if not FINDING <= set(a) or set(a) - FINDING - {"plan", "baseline"}:
            fail("%s: keys %s" % (w, sorted(a)))
        if a.get("baseline", "new") not in ("new", "unchanged"):
            fail("%s: baseline %r" % (w, a["baseline"]))
        if not isinstance(a["fingerprint"], str) or not re.fullmatch(r"[0-9a-f]{16}", a["fingerprint"]):
            fail("%s: fingerprint %r must be 16 hex digits" % (w, a["fingerprint"]))
        key = (a["fingerprint"], a["status"], a["reason"], a["placement"],
               a["suppression"], json.dumps(a.get("plan"), sort_keys=True))
        if key in seen:
            fail("%s: a duplicate of an earlier finding, not merged" % w)
        seen.add(key)
        if not is_int(a["occurrences"]) or a["occurrences"] < 1:
            fail("%s: occurrences %r" % (w, a["occurrences"]))
        if not isinstance(a["system"], bool):
            fail("%s: system must be true or false" % w)
        if a["listed_when"] != LISTED_WHEN[a["status"]] + ([["system"]] if a["system"] else []):
            fail("%s: listed_when %r on a %s finding%s" % (
                w, a["listed_when"], a["status"], " in a system header" if a["system"] else ""))
        if a["rule"] != RULE_OF.get(a["status"]):
            fail("%s: rule %r on a %s finding" % (w, a["rule"], a["status"]))
        if not isinstance(a["message"], str) or not a["message"].startswith(
                "%s in '%s': %s is promised" % (a["kind"], a["function"], a["subject"])):
            fail("%s: message %r" % (w, a["message"]))
        if (a["path"] is None) != (a["file"] is None) or (
                a["path"] is not None and not (isinstance(a["path"], str) and os.path.isabs(a["path"]))):
            fail("%s: path %r must be absolute, and null exactly when file is" % (w, a["path"]))
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
                "access", "load-metadata") and not (
                a["kind"] == "assume-bundle" and a["placement"] == "hoisted"):
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
        if FINGERPRINTS:
            print("%s %s %s %s | %s" % (a["fingerprint"], a["status"], a["kind"],
                                        a["function"], a["subject"]))
            continue
        loc = "-" if a["file"] is None else "%s:%s:%s" % (a["file"], a["line"], a["column"])
        print("%s %s %s | %s | arg=%s align=%s offset=%s | %s | %s%s%s%s%s" % (
            a["status"], a["kind"], a["function"], a["subject"], a["argument"],
            a["alignment"], a["offset"], loc, a["reason"],
            "" if a["placement"] is None else " | " + a["placement"],
            "" if a["suppression"] is None else " | " + a["suppression"],
            "" if a["occurrences"] == 1 else " | x%d" % a["occurrences"],
            " | system" if a["system"] else ""))
    if FINGERPRINTS:
        return
    print("summary %s" % " ".join("%s=%d" % (k, s[k]) for k in
                                  ["total", "unchecked", "guarded", "checked",
                                   "implied", "unsupported", "suppressed",
                                   "type", "system"]))


def main():
    args = [a for a in sys.argv[1:] if a != "--fingerprints"]
    text = open(args[0]).read() if args and args[0] != "-" else sys.stdin.read()
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
