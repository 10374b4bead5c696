#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compares two `alignguard audit --json` documents file by file, leaving
out only where each was read from (the files' "file": a .json audit or an
.ll file). Prints `same: N files, M findings`, or the first difference and
exits 1."""
import json
import sys


def load(path):
    doc = json.load(open(path))
    files = []
    for f in doc["files"]:
        f = dict(f)
        f.pop("file")
        files.append(f)
    return files, doc["summary"]


(a, sa), (b, sb) = load(sys.argv[1]), load(sys.argv[2])
if len(a) != len(b):
    sys.exit("different: %d files, %d files" % (len(a), len(b)))
for fa, fb in zip(a, b):
    for key in sorted(set(fa) | set(fb)):
        if fa.get(key) != fb.get(key):
            sys.exit("different %s in module %s:\n  %s\n  %s" % (
                key, fa.get("module"), json.dumps(fa.get(key)),
                json.dumps(fb.get(key))))
if sa != sb:
    sys.exit("different summaries: %s, %s" % (sa, sb))
print("same: %d files, %d findings" % (
    len(a), sum(len(f["assumptions"]) for f in a)))
