#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs every command the documentation shows (scripts/test.sh runs it last).

  run-docs.py ROOT WORK

ROOT is the checkout, after scripts/test.sh built build-14 and build-22;
WORK a directory of the run's own (emptied first). Pages: ROOT/README.md,
then ROOT/docs/*.md. In each page, in order:

  - a ```sh block is a command block: the page's blocks run one after
    another in one `bash -euo pipefail` process, from ROOT, with
    `/opt/alignguard` replaced by WORK/opt/alignguard (the install prefix
    the pages use), `/tmp/alignguard` by WORK/tmp/alignguard (the scratch
    paths they write, so that each run starts from nothing whatever an
    earlier run from another checkout left in /tmp) and
    $ALIGNGUARD_DOCS_WORK set to WORK. A line that runs
    scripts/test.sh is the command CI runs (.ci/run): it is checked against
    .ci/run, not run again from inside itself;
  - a block in a source language (c, cpp, cmake, make, python, rust, toml,
    llvm, json, yaml, ini) must be a verbatim excerpt, whole consecutive
    lines, of a file git tracks in ROOT outside README.md and docs/ (the
    tests build and run those files);
  - a ```text block is output shown, not run; a block with no language is
    an error, and so is a fence not at the start of its line (in a list
    item Markdown renders it, but it would not be run).

Also checked: README.md links every page of docs/ and is at most
README_MAX_LINES lines. Exits non-zero with one line per failure.
"""
import os
import re
import shutil
import subprocess
import sys

README_MAX_LINES = 300
PREFIX = "/opt/alignguard"
SCRATCH = "/tmp/alignguard"
RUN = "sh"
SOURCE_LANGS = {"c", "cpp", "cmake", "make", "python", "rust", "toml", "llvm",
                "json", "yaml", "ini"}
SHOWN_LANGS = {"text"}
FENCE = re.compile(r"^```(\S*)\s*$")
INDENTED_FENCE = re.compile(r"^\s+```")
TEST_SH = re.compile(r"^\s*scripts/test\.sh(\s|$)")


def blocks(path):
    """(line, language, text) of each fenced block of a Markdown file."""
    out, lang, start, body = [], None, 0, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = FENCE.match(line.rstrip("\n"))
            if lang is None and INDENTED_FENCE.match(line):
                # Markdown renders it (in a list item), but it is no block
                # here: its command would go unrun.
                raise SystemExit("%s:%d: an indented ``` fence: put the block "
                                 "at the start of the line" % (path, n))
            if lang is None and m:
                lang, start, body = m.group(1), n, []
            elif lang is not None and line.rstrip() == "```":
                out.append((start, lang, "".join(body)))
                lang = None
            elif lang is not None:
                body.append(line)
    if lang is not None:
        raise SystemExit("%s:%d: the block is not closed" % (path, start))
    return out


def tracked_sources(root):
    files = subprocess.run(["git", "-C", root, "ls-files", "-co",
                            "--exclude-standard"], capture_output=True,
                           text=True, check=True).stdout.split("\n")
    texts = []
    for rel in files:
        if not rel or rel == "README.md" or rel.startswith("docs/"):
            continue
        try:
            with open(os.path.join(root, rel)) as f:
                texts.append("\n" + f.read())
        except (UnicodeDecodeError, OSError):
            continue
    return texts


def ci_command(root):
    with open(os.path.join(root, ".ci", "run")) as f:
        for line in f:
            m = re.match(r"^\s*(?:exec\s+)?(scripts/test\.sh.*)$", line.strip())
            if m:
                return m.group(1).split()
    return None


def run_page(root, work, page, sh_blocks, ci):
    """Runs the command blocks of one page; the failures, as lines."""
    script = ["set -euo pipefail"]
    for line, text in sh_blocks:
        script.append("echo '--- %s:%d' >&2" % (page, line))
        for cmd in text.splitlines():
            if TEST_SH.match(cmd):
                words = cmd.split("#")[0].split()
                if words != ci:
                    return ["%s:%d: '%s' is not what .ci/run runs (%s)"
                            % (page, line, cmd.strip(), " ".join(ci or ["nothing"]))]
                script.append(": run by .ci/run: " + cmd.replace("'", ""))
                continue
            script.append(cmd.replace(PREFIX, os.path.join(work, "opt", "alignguard"))
                          .replace(SCRATCH, os.path.join(work, "tmp", "alignguard")))
    log = os.path.join(work, os.path.basename(page) + ".log")
    env = dict(os.environ, ALIGNGUARD_DOCS_WORK=work)
    with open(log, "w") as out:
        rc = subprocess.run(["bash", "-c", "\n".join(script)], cwd=root, env=env,
                            stdout=out, stderr=subprocess.STDOUT).returncode
    if rc == 0:
        print("run-docs.py: %s: %d command blocks ran" % (page, len(sh_blocks)))
        return []
    with open(log) as f:
        tail = f.read()[-3000:]
    return ["%s: a command block failed (exit %d); the end of %s:\n%s"
            % (page, rc, log, tail)]


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, work = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "opt"))
    os.makedirs(os.path.join(work, "tmp"))
    docs = os.path.join(root, "docs")
    pages = ["README.md"] + sorted(
        "docs/" + p for p in os.listdir(docs) if p.endswith(".md"))
    failures = []
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    if readme.count("\n") > README_MAX_LINES:
        failures.append("README.md: %d lines, more than %d"
                        % (readme.count("\n"), README_MAX_LINES))
    for page in pages[1:]:
        if "(%s)" % page not in readme:
            failures.append("README.md does not link %s" % page)
    sources, ci = tracked_sources(root), ci_command(root)
    for page in pages:
        sh = []
        for line, lang, text in blocks(os.path.join(root, page)):
            if lang == RUN:
                sh.append((line, text))
            elif lang in SOURCE_LANGS:
                if not any("\n" + text in s for s in sources):
                    failures.append("%s:%d: this ```%s block is not an excerpt "
                                    "of a tracked file" % (page, line, lang))
            elif lang not in SHOWN_LANGS:
                failures.append("%s:%d: a block needs a language (%s, %s or %s)"
                                % (page, line, RUN, "/".join(sorted(SOURCE_LANGS)),
                                   "/".join(sorted(SHOWN_LANGS))))
        if sh:
            failures += run_page(root, work, page, sh, ci)
    for f in failures:
        print("run-docs.py: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
