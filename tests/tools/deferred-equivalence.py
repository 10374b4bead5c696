#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that a deferred run, expanded, leaves the checks an immediate run
makes: for every .ll file in the given directories and each deferred action
(abort, recover, trap), `align-guard<ACTION;deferred>,align-guard-expand`
must verify, leave no marker, and make as many hook calls (traps) as
`align-guard<ACTION>`.

  deferred-equivalence.py OPT PLUGIN DIR...

Prints one line per difference, then `deferred-equivalence: N files,
M differences`; exits 1 when M > 0."""
import glob
import os
import re
import subprocess
import sys

HOOK = re.compile(r"call .*@(__alignguard_report\w*|llvm\.trap)\(")


def run(opt, plugin, passes, path):
    p = subprocess.run([opt, "-load-pass-plugin=" + plugin, "-passes=" + passes + ",verify",
                        "-S", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def main():
    opt, plugin, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    # Inputs that already hold markers test the expansion itself.
    files = sorted(f for d in dirs for f in glob.glob(os.path.join(d, "*.ll"))
                   if "alignguard.deferred.check" not in open(f).read())
    diffs = 0
    for f in files:
        for action in ("abort", "recover", "trap"):
            rc_i, out_i, _ = run(opt, plugin, "align-guard<%s>" % action, f)
            if rc_i != 0:
                continue  # inputs the pass rejects (bad parameters, clashes)
            rc_d, out_d, err_d = run(opt, plugin,
                                     "align-guard<%s;deferred>,align-guard-expand" % action, f)
            why = None
            if rc_d != 0:
                why = "deferred run failed: " + err_d.strip().splitlines()[-1]
            elif "alignguard.deferred.check" in out_d:
                why = "a marker is left"
            elif len(HOOK.findall(out_i)) != len(HOOK.findall(out_d)):
                why = "%d hook calls immediate, %d deferred" % (
                    len(HOOK.findall(out_i)), len(HOOK.findall(out_d)))
            if why:
                diffs += 1
                print("%s %s: %s" % (os.path.basename(f), action, why))
    print("deferred-equivalence: %d files, %d differences" % (len(files), diffs))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
