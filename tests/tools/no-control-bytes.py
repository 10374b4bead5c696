#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Copy stdin to stdout; fail if it holds a raw control byte.

  PROGRAM 2>&1 | no-control-bytes.py | FileCheck ...

A control byte is one below 0x20 other than the newline that ends a line,
or 0x7f (DEL): what the runtime must write as \\xNN so that a report is one
line and no escape sequence reaches a terminal. Everything is copied first,
so FileCheck still sees the text; then each offender is named on stderr
(offset and value) and the exit status is 1.
"""
import sys

data = sys.stdin.buffer.read()
sys.stdout.buffer.write(data)
sys.stdout.buffer.flush()
bad = [(i, b) for i, b in enumerate(data) if (b < 0x20 and b != 0x0A) or b == 0x7F]
for i, b in bad:
    print("no-control-bytes.py: raw byte 0x%02x at offset %d" % (b, i),
          file=sys.stderr)
sys.exit(1 if bad else 0)
