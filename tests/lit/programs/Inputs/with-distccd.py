#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs COMMAND with a private distccd on 127.0.0.1 as its only host.

  with-distccd.py LOG COMMAND...

The daemon gets an empty environment (PATH only: no ALIGNGUARD_* reaches
it, as none would reach a remote host), runs as `nobody`, and is stopped
afterwards; its log goes to LOG. COMMAND sees DISTCC_HOSTS and a DISTCC_DIR
of its own (no back-off state from earlier runs: after a refused job the
client backs off from the host and compiles locally, unless
DISTCC_FALLBACK=0). Exit status: COMMAND's."""
import os
import socket
import subprocess
import sys
import tempfile
import time

log, cmd = sys.argv[1], sys.argv[2:]
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
open(log, "w").close()
os.chmod(log, 0o666)
path = os.environ["PATH"]
daemon = subprocess.Popen(
    ["distccd", "--daemon", "--no-detach", "--allow", "127.0.0.1",
     "--listen", "127.0.0.1", "--port", str(port), "--enable-tcp-insecure",
     "--log-file", log, "--log-level", "info", "--jobs", "1"]
    + (["--user", "nobody"] if os.geteuid() == 0 else []),
    env={"PATH": path}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL)
try:
    for _ in range(100):  # until it listens
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, DISTCC_HOSTS="127.0.0.1:%d/1" % port,
                   DISTCC_DIR=home)
        rc = subprocess.run(cmd, env=env, timeout=120).returncode
finally:
    daemon.terminate()
    daemon.wait(timeout=10)
sys.exit(rc)
