# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Reads clang -### output on stdin and prints how the cc1 command loads the
plugin PATH, as the driver's flags would say it, one a line, sorted:
-fpass-plugin=PATH and -fplugin=PATH (cc1's `-load PATH`).

  plugin-loads.py PATH < listing
"""
import shlex
import sys

plugin = sys.argv[1]
found = set()
for line in sys.stdin:
    if '"-cc1"' not in line:
        continue
    args = shlex.split(line)
    for i, a in enumerate(args):
        if a == "-fpass-plugin=" + plugin:
            found.add(a)
        elif a == "-load" and i + 1 < len(args) and args[i + 1] == plugin:
            found.add("-fplugin=" + plugin)
for a in sorted(found):
    print(a)
