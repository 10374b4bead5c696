#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""An `opt` that fails in each way fuzz.py must catch, one per action of
the align-guard pipeline it is given (fuzz.py's negative control, run by
selftest.sh):

  trap       the verifier rejects the output ("Broken module found")
  recover    a crash (SIGSEGV)
  fallback   a second run changes the module
  return=-1  the output fails default<O2>, the input does not; and so
             does the plugin's clang pipeline (ALIGNGUARD_PIPELINE)
Anything else: prints its input (or nothing with -disable-output).
"""
import os
import re
import signal
import sys

args = sys.argv[1:]
passes = next((a[len("-passes="):] for a in args if a.startswith("-passes=")), "")
files = [a for a in args if not a.startswith("-") and a != "-"]
text = open(files[0]).read() if files else sys.stdin.read()
action = re.match(r"align-guard<([^;>]*)", passes)
action = action.group(1) if action else ""
pipeline = os.environ.get("ALIGNGUARD_PIPELINE", "")

if action == "trap":
    sys.stderr.write("too many arguments\nLLVM ERROR: Broken module found, compilation aborted!\n")
    os.kill(os.getpid(), signal.SIGABRT)
if action == "recover":
    os.kill(os.getpid(), signal.SIGSEGV)
if action == "fallback":
    text += "; run again\n"
if action == "return=-1" and "; BROKEN" not in text:
    text += "; BROKEN\n"
if passes.startswith("default<O2>") and "; BROKEN" in text:
    sys.exit("Instruction does not dominate all uses!")
if passes.startswith("default<O2>") and pipeline.startswith("align-guard<return=-1"):
    sys.exit("Instruction does not dominate all uses!")
if "-disable-output" not in args:
    sys.stdout.write(text)
