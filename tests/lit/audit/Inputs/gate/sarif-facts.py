#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints what code scanning reads from a SARIF log, one line each:

  root URI                      (originalUriBaseIds' %SRCROOT%)
  result RULE URI BASE fingerprint=F baseline=S function=NAME
"""
import json
import sys

log = json.load(open(sys.argv[1]))
for run in log["runs"]:
    for name, base in sorted(run.get("originalUriBaseIds", {}).items()):
        print("root", base["uri"])
    for r in run["results"]:
        loc = r.get("locations", [{}])[0]
        art = loc.get("physicalLocation", {}).get("artifactLocation", {})
        fn = next((l["name"] for l in loc.get("logicalLocations", [])), "-")
        print("result %s %s %s fingerprint=%s baseline=%s function=%s" % (
            r["ruleId"], art.get("uri", "-"), art.get("uriBaseId", "-"),
            r.get("partialFingerprints", {}).get("alignguard/v1", "-"),
            r.get("baselineState", "-"), fn))
