#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Validate a SARIF log against the required fields of the SARIF 2.1.0
schema (sarifLog, run, tool, toolComponent, result, message, location,
physicalLocation, artifactLocation, region, suppression) and print one
line per result:

  RULE LEVEL URI:LINE:COL | MESSAGE [| suppressed KIND: JUSTIFICATION]
"""
import json
import sys


def fail(msg):
    sys.exit("check-sarif: " + msg)


def main():
    log = json.load(open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin)
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
            suppressed = ""
            sups = res.get("suppressions", [])
            if not isinstance(sups, list):
                fail("result.suppressions must be an array")
            for sup in sups:
                if sup.get("kind") not in ("inSource", "external"):
                    fail("suppression.kind %r" % sup.get("kind"))
                if sup.get("status", "accepted") not in ("accepted", "underReview", "rejected"):
                    fail("suppression.status %r" % sup.get("status"))
                suppressed += " | suppressed %s: %s" % (sup["kind"],
                                                        sup.get("justification"))
            print("%s %s %s | %s%s" % (res["ruleId"], res.get("level", "warning"),
                                       where, msg["text"], suppressed))


if __name__ == "__main__":
    main()
