#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs compiles through a private sccache server and prints its counts.

  with-sccache.py CACHE_DIR STATS_JSON COMPILE [-- COMPILE]...

Each COMPILE runs as given (sccache is in it, where its launcher puts it:
`alignguard-clang --alignguard-launch sccache clang ...`), one after
another, against a server of its own (a free port, CACHE_DIR as its local
cache; the compiles see it through SCCACHE_* variables), which is stopped
afterwards. Prints `hits H misses M` (C and C++ compiles) and keeps
sccache's full statistics in STATS_JSON. Exit status: 1 when a compile
fails."""
import json
import os
import socket
import subprocess
import sys

cache, stats_file, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
compiles, cur = [], []
for arg in rest:
    if arg == "--":
        compiles.append(cur)
        cur = []
    else:
        cur.append(arg)
compiles.append(cur)

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
# sccache waits 10 s for its server by default; on a loaded machine (a CI
# running several builds beside the tests) the start can take longer.
os.makedirs(cache, exist_ok=True)
conf = os.path.join(cache, "sccache.toml")
with open(conf, "w") as f:
    f.write("server_startup_timeout_ms = 120000\n")
env = dict(os.environ, SCCACHE_DIR=cache, SCCACHE_SERVER_PORT=str(port),
           SCCACHE_IDLE_TIMEOUT="300", SCCACHE_LOG="", SCCACHE_CONF=conf)
env.pop("RUSTC_WRAPPER", None)
subprocess.run(["sccache", "--start-server"], env=env, check=True,
               stdout=subprocess.DEVNULL)
try:
    for cmd in compiles:
        if subprocess.run(cmd, env=env).returncode:
            sys.exit(1)
    out = subprocess.run(["sccache", "--show-stats", "--stats-format=json"],
                         env=env, check=True, capture_output=True,
                         text=True).stdout
finally:
    subprocess.run(["sccache", "--stop-server"], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
with open(stats_file, "w") as f:
    f.write(out)
stats = json.loads(out)["stats"]


def count(name):
    value = stats.get(name, 0)
    # sccache 0.4: {"counts": {"C/C++": N}}; older: a number.
    return sum(value["counts"].values()) if isinstance(value, dict) else value


print("hits %d misses %d" % (count("cache_hits"), count("cache_misses")))
