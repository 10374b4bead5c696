#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One listing rule, applied three ways (listing.test):

  views.py OPT PLUGIN ALIGNGUARD WORK IR...

For each set of listing words (`all`, `type`, `system`: the eight of them)
the findings listed by the plugin (align-guard-audit<json;WORDS> on each IR
file), by the driver on the IR files (alignguard audit --json with --all,
--include-type, --include-system) and by the driver merging JSON audits
written once with every word (--merge) must be the same, in the same order.
The plugin's own listing must also be the one its `listed_when` says: with
every word given, a finding is listed for WORDS exactly when one word of
each group of its listed_when is among them.

Prints, per set of words, `view WORDS: STATUS=N ...` (the listed findings'
statuses, `system=N` for those in system headers); then `agreed: N views`;
then each status's listed_when (`listed_when STATUS[ system]: [...]`).
Exits 1 naming the first disagreement.
"""
import itertools
import json
import os
import subprocess
import sys

WORDS = ("all", "type", "system")
FLAGS = {"all": "--all", "type": "--include-type", "system": "--include-system"}


def run(cmd):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout


def plugin_audit(opt, plugin, path, words):
    params = ";".join(["json"] + list(words))
    return json.loads(run([opt, "-load-pass-plugin=" + plugin,
                           "-passes=align-guard-audit<%s>" % params,
                           "-disable-output", path]))


def key(a):
    return (a["fingerprint"], a["status"], a["kind"], a["function"], a["subject"],
            a["reason"], a["occurrences"], a["system"])


def findings(audits):
    return [[key(a) for a in audit["assumptions"]] for audit in audits]


def fail(msg):
    sys.exit("views: " + msg)


def main():
    opt, plugin, driver, work = sys.argv[1:5]
    irs = sys.argv[5:]
    merged = os.path.join(work, "audits")
    os.makedirs(merged, exist_ok=True)
    everything = []
    for i, path in enumerate(irs):
        audit = plugin_audit(opt, plugin, path, WORDS)
        everything.append(audit)
        with open(os.path.join(merged, "%d.json" % i), "w") as f:
            json.dump(audit, f)
    views = 0
    for n in range(len(WORDS) + 1):
        for words in itertools.combinations(WORDS, n):
            name = ";".join(words) or "-"
            flags = [FLAGS[w] for w in words]
            own = findings(plugin_audit(opt, plugin, p, words) for p in irs)
            ruled = [[key(a) for a in audit["assumptions"]
                      if all(any(w in words for w in g) for g in a["listed_when"])]
                     for audit in everything]
            on_ir = findings(m for m in json.loads(run(
                [sys.executable, driver, "--plugin", plugin, "audit", "--json"]
                + flags + ["--"] + irs))["files"])
            on_merge = findings(m for m in json.loads(run(
                [sys.executable, driver, "audit", "--json", "--merge"] + flags
                + [merged]))["files"])
            for what, got in (("listed_when", ruled), ("the driver", on_ir),
                              ("the driver --merge", on_merge)):
                if got != own:
                    fail("%s: the plugin lists %s, %s %s" % (name, own, what, got))
            counts = {}
            for f in itertools.chain(*own):
                counts[f[1]] = counts.get(f[1], 0) + 1
                counts["system"] = counts.get("system", 0) + f[7]
            print("view %s: %s" % (name, " ".join(
                "%s=%d" % (k, counts.get(k, 0)) for k in
                ("unchecked", "unsupported", "suppressed", "guarded", "checked",
                 "implied", "type", "system"))))
            views += 1
    print("agreed: %d views" % views)
    for line in sorted({"listed_when %s%s: %s" % (
            a["status"], " system" if a["system"] else "", json.dumps(a["listed_when"]))
            for audit in everything for a in audit["assumptions"]}):
        print(line)


if __name__ == "__main__":
    main()
