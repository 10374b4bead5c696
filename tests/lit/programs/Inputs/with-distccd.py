#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs COMMAND with a private distccd on 127.0.0.1 as its only host.

  with-distccd.py LOG COMMAND...

The daemon gets an empty environment (PATH only: no ALIGNGUARD_* reaches
it, as none would reach a remote host), runs as `nobody`, and is stopped
afterwards; its log goes to LOG. COMMAND sees DISTCC_HOSTS and a DISTCC_DIR
of its own (no back-off state from earlier runs: after a refused job the
client backs off from the host and compiles locally, unless
DISTCC_FALLBACK=0). Exit status: COMMAND's.

Run as root, the daemon is `nobody`, which must be able to read the files
COMMAND names as -fpass-plugin= or -fplugin=: when one is in a directory others
cannot enter (a checkout under a `mktemp -d` directory, mode 0700), the
script says which and exits 2 instead of letting the compile fail in the
daemon's log."""
import os
import re
import socket
import stat
import subprocess
import sys
import tempfile
import time

log, cmd = sys.argv[1], sys.argv[2:]


def unreachable_for_others(path):
    """The first directory on the way to path (or path itself) that a user
    other than its owner and group cannot pass, or None."""
    parts = os.path.abspath(path).split(os.sep)
    for i in range(2, len(parts) + 1):
        here = os.sep.join(parts[:i]) or os.sep
        mode = os.stat(here).st_mode
        need = stat.S_IROTH if i == len(parts) else stat.S_IXOTH
        if not mode & need:
            return here, stat.S_IMODE(mode)
    return None


if os.geteuid() == 0:
    for arg in cmd:
        for path in re.findall(r"-f(?:pass-)?plugin=([^\s'\"]+)", arg):
            if not os.path.isfile(path):
                continue
            bad = unreachable_for_others(path)
            if bad:
                print("with-distccd.py: distccd runs as 'nobody' and cannot "
                      "read %s (%s is mode %04o); run the tests from a "
                      "directory others can read" % (path, bad[0], bad[1]),
                      file=sys.stderr)
                sys.exit(2)
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
