#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Validate a SARIF log against the required fields of the SARIF 2.1.0
schema (sarifLog, run, tool, toolComponent, result, message, location,
physicalLocation, artifactLocation, region, suppression), and what
AlignGuard's logs add for code-scanning tools (tool.driver.version,
semanticVersion and informationUri; each rule's name, descriptions, helpUri
and defaultConfiguration; each result's partialFingerprints, occurrenceCount
only above 1, invocations), and print one line per result:

  RULE LEVEL URI:LINE:COL | MESSAGE [| suppressed KIND: JUSTIFICATION] [| xCOUNT]

With --fingerprints, `FINGERPRINT RULE MESSAGE` instead (AlignGuard's
partialFingerprints["alignguard/v1"]).
"""
import json
import re
import sys


def fail(msg):
    sys.exit("check-sarif: " + msg)


def main():
    fingerprints = "--fingerprints" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--fingerprints"]
    log = json.load(open(args[0]) if args else sys.stdin)
    if log.get("version") != "2.1.0":
        fail("version must be \"2.1.0\"")
    if not isinstance(log.get("runs"), list) or not log["runs"]:
        fail("runs must be a non-empty array")
    for run in log["runs"]:
        driver = run.get("tool", {}).get("driver")
        if not isinstance(driver, dict) or not isinstance(driver.get("name"), str):
            fail("run.tool.driver.name is required")
        rules = {r["id"] for r in driver.get("rules", [])}
        for r in driver.get("rules", []):
            if not isinstance(r.get("id"), str):
                fail("rule.id is required")
        if driver.get("rules"):
            # AlignGuard's own log (the driver's empty one has no rules).
            for key in ("version", "semanticVersion"):
                if not re.fullmatch(r"\d+\.\d+\.\d+.*", str(driver.get(key))):
                    fail("tool.driver.%s %r" % (key, driver.get(key)))
            if not re.match(r"[a-z]+://", str(driver.get("informationUri"))):
                fail("tool.driver.informationUri must be an absolute URI")
            for r in driver["rules"]:
                if not re.fullmatch(r"[A-Z][A-Za-z]+", str(r.get("name"))):
                    fail("rule.name %r is not CamelCase" % r.get("name"))
                for key in ("shortDescription", "fullDescription"):
                    if not isinstance(r.get(key, {}).get("text"), str):
                        fail("rule.%s.text is required" % key)
                if not re.match(r"[a-z]+://", str(r.get("helpUri"))):
                    fail("rule.helpUri must be an absolute URI")
                if r.get("defaultConfiguration", {}).get("level") not in (
                        "none", "note", "warning", "error"):
                    fail("rule.defaultConfiguration.level %r" % r.get("defaultConfiguration"))
            invocations = run.get("invocations")
            if not isinstance(invocations, list) or len(invocations) != 1 or \
                    not isinstance(invocations[0].get("executionSuccessful"), bool):
                fail("invocations must be one invocation with executionSuccessful")
            for n in invocations[0].get("toolExecutionNotifications", []):
                if n.get("level") != "error" or not n.get("message", {}).get("text"):
                    fail("toolExecutionNotifications: an error with a message")
        for res in run.get("results", []):
            msg = res.get("message")
            if not isinstance(msg, dict) or not isinstance(msg.get("text"), str):
                fail("result.message.text is required")
            if "ruleId" not in res and "rule" not in res:
                fail("result needs ruleId or rule")
            if res["ruleId"] not in rules:
                fail("result.ruleId %r is not a rule of the driver" % res["ruleId"])
            if res.get("level", "warning") not in ("none", "note", "warning", "error"):
                fail("result.level %r" % res.get("level"))
            where = "-"
            for loc in res.get("locations", []):
                phys = loc.get("physicalLocation")
                if phys is None:
                    continue
                art = phys.get("artifactLocation")
                if not isinstance(art, dict) or not isinstance(art.get("uri"), str):
                    fail("physicalLocation.artifactLocation.uri is required")
                region = phys.get("region", {})
                for key in ("startLine", "startColumn"):
                    if key in region and (not isinstance(region[key], int) or region[key] < 1):
                        fail("region.%s must be an integer >= 1" % key)
                where = "%s:%s:%s" % (art["uri"], region.get("startLine"),
                                      region.get("startColumn"))
            if driver.get("rules"):
                fps = res.get("partialFingerprints")
                if not isinstance(fps, dict) or not re.fullmatch(
                        r"[0-9a-f]{16}", str(fps.get("alignguard/v1"))):
                    fail("result.partialFingerprints[alignguard/v1] must be 16 hex digits")
            count = res.get("occurrenceCount")
            if count is not None and (not isinstance(count, int) or count < 2):
                fail("occurrenceCount %r: only given when above 1" % count)
            suppressed = ""
            sups = res.get("suppressions", [])
            if not isinstance(sups, list):
                fail("result.suppressions must be an array")
            for sup in sups:
                if sup.get("kind") not in ("inSource", "external"):
                    fail("suppression.kind %r" % sup.get("kind"))
                if "state" in sup:
                    fail("suppression.state: SARIF 2.1.0 (errata01) calls it status")
                if sup.get("status") not in ("accepted", "underReview", "rejected"):
                    fail("suppression.status %r" % sup.get("status"))
                suppressed += " | suppressed %s: %s" % (sup["kind"],
                                                        sup.get("justification"))
            if fingerprints:
                print("%s %s %s" % (res.get("partialFingerprints", {}).get(
                    "alignguard/v1"), res["ruleId"], msg["text"]))
                continue
            print("%s %s %s | %s%s%s" % (res["ruleId"], res.get("level", "warning"),
                                         where, msg["text"], suppressed,
                                         "" if count is None else " | x%d" % count))


if __name__ == "__main__":
    main()
