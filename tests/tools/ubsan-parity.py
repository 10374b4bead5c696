#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""AlignGuard against UBSan's alignment-assumption check, program by program.

  ubsan-parity.py --clang CLANG --plugin ALIGNGUARD.so --rt LIBALIGNGUARD_RT.a
                  [--work-dir DIR] [--jobs N] [--only GLOB] DIR
  ubsan-parity.py --self-test [--clang CLANG --plugin SO --rt LIB DIR]

DIR holds C programs written from compiler-rt's alignment-assumption tests
(test/ubsan/TestCases/Pointer/align-assume-*.cpp and
test/ubsan_minimal/TestCases/alignment-assumption.c), each misaligning a
pointer into a 32 KiB-aligned arena (parity.h) so that the misalignment is
the same in every build. Directives in a program's comments:

  PARITY-LANGS: c c++        languages it is compiled as (-x c, -x c++)
  PARITY-FLAGS: ...          flags for both tools' builds (-fopenmp-simd)
  PARITY-UBSAN-FLAGS: ...    flags for the UBSan build only
  PARITY-UBSAN: minimal      UBSan's minimal runtime (count only)
  PARITY-IGNORELIST: FILE    a special-case list next to the program
  PARITY-EXPECT: A O M       one report: alignment A, offset O,
                             misalignment M = (pointer - O) mod A;
                             `none` for a program that must stay silent

For every program, language and -O0..-O3 (a "case") it builds and runs

  ubsan    clang -fsanitize=alignment [UBSAN-FLAGS]
  recover  clang -fpass-plugin=SO, ALIGNGUARD_PIPELINE='align-guard<recover>'
  abort    clang -fpass-plugin=SO, ALIGNGUARD_PIPELINE='align-guard<abort>'

and, for a program with an ignorelist, the same three again with
-fsanitize-ignorelist=FILE and `ignorelist=FILE`. Each report becomes a
tuple (alignment, offset, misalignment): UBSan's from `assumption of A byte
alignment (with offset of O byte)` and `misalignment offset is M bytes`,
AlignGuard's from its report line (`= 0xADDR - O`, `not A-byte aligned`,
`(M bytes past a boundary)`). A case agrees when

 1. UBSan reports what the program expects (else the program is wrong);
 2. the recover build reports the same multiset of tuples as UBSan (UBSan
    reports each site once; so must recover, every program runs its site
    twice) and exits 0;
 3. the abort build exits with SIGABRT (134 in a shell) after exactly one
    report, equal to UBSan's first, when UBSan reports anything, and exits
    0 silently when UBSan reports nothing;
 4. with the ignorelist, all three builds are silent and exit 0;
 5. every report is consistent with its own address (M = (addr - O) mod A)
    and every report line of either tool is understood.

It prints one row per case, then every disagreement with both tools'
outputs and the build commands, then `ubsan-parity: P programs, N cases,
all agree` (exit 0) or the cases that disagree (exit 1).

--self-test feeds the comparison fabricated outputs: a consistent case
(which must agree) and one broken copy per rule (each must be caught);
given the tools and DIR as well, it also builds one real case with an
AlignGuard pipeline that checks nothing and requires that to be caught. It
exits 1 when everything was caught (run it under `not`), 0 when something
was missed, 2 when the consistent case was rejected.
"""
import argparse
import collections
import concurrent.futures
import fnmatch
import os
import re
import shlex
import subprocess
import sys
import tempfile

OPT_LEVELS = ("-O0", "-O1", "-O2", "-O3")

UBSAN_ERROR = re.compile(
    r"runtime error: assumption of (\d+) byte alignment"
    r"(?: \(with offset of (-?\d+) bytes?\))? for pointer of type .* failed")
UBSAN_NOTE = re.compile(
    r"^(0x[0-9a-fA-F]+): note: (?:offset )?address is \d+ aligned, "
    r"misalignment offset is (\d+) bytes?")
UBSAN_MINIMAL = re.compile(r"^ubsan: alignment-assumption\b")
# AlignGuard's report: `alignguard: FN: SUBJECT = 0xADDR[ - O| + O] is ...
# not A-byte aligned (M bytes past a boundary)[ at FILE:LINE:COL]...`. Only
# these pieces are read, so that more fields (the address's own alignment,
# where the promise was made) do not break the parse.
AG_ADDRESS = re.compile(r" = (0x[0-9a-fA-F]+)(?: ([-+]) (\d+))? is\b")
AG_ALIGNMENT = re.compile(r"\bnot (\d+)-byte aligned\b")
AG_MISALIGNMENT = re.compile(r"\((\d+) bytes? past a boundary\)")

SIGABRT_STATUS = -6  # subprocess's returncode for a process killed by SIGABRT


class Report(collections.namedtuple("Report", "alignment offset misalignment")):
    def __str__(self):
        if self.alignment is None:
            return "(report)"
        return "%d/%d/%d" % self


COUNT_ONLY = Report(None, None, None)


def parse_ubsan(output):
    """UBSan's reports in OUTPUT, in order, and the lines it could not read."""
    reports, problems = [], []
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if UBSAN_MINIMAL.match(line):
            reports.append(COUNT_ONLY)
            continue
        if "runtime error:" not in line:
            continue
        m = UBSAN_ERROR.search(line)
        # The address note follows, after `note: alignment assumption was
        # specified here` where UBSan knows where the promise was made.
        note = None
        for following in lines[i + 1:i + 3] if m else []:
            note = UBSAN_NOTE.match(following)
            if note or "note: alignment assumption was specified here" not in following:
                break
        if not note:
            problems.append("UBSan line not understood: %r" % line)
            continue
        alignment, offset = int(m.group(1)), int(m.group(2) or 0)
        # UBSan prints the offset address, pointer - offset.
        address, misalignment = int(note.group(1), 16), int(note.group(2))
        if address % alignment != misalignment:
            problems.append("UBSan report inconsistent with its address %s: %r"
                            % (note.group(1), line))
        reports.append(Report(alignment, offset, misalignment))
    return reports, problems


def parse_alignguard(output):
    """AlignGuard's reports in OUTPUT, in order, and the lines it could not read."""
    reports, problems = [], []
    for line in output.splitlines():
        if not line.startswith("alignguard:"):
            continue
        addr, align, mis = (AG_ADDRESS.search(line), AG_ALIGNMENT.search(line),
                            AG_MISALIGNMENT.search(line))
        if not (addr and align and mis):
            problems.append("AlignGuard line not understood: %r" % line)
            continue
        offset = int(addr.group(3) or 0) * (-1 if addr.group(2) == "+" else 1)
        alignment, misalignment = int(align.group(1)), int(mis.group(1))
        if (int(addr.group(1), 16) - offset) % alignment != misalignment:
            problems.append("AlignGuard report inconsistent with its address: %r" % line)
        reports.append(Report(alignment, offset, misalignment))
    return reports, problems


def show(reports):
    if not reports:
        return "-"
    return " ".join(str(r) for r in reports)


def same(a, b):
    """Whether two reports agree; a count-only report (minimal runtime)
    agrees with any."""
    return a == b or COUNT_ONLY in (a, b)


def same_multiset(a, b):
    if any(r == COUNT_ONLY for r in a + b):
        return len(a) == len(b)
    return collections.Counter(a) == collections.Counter(b)


def compare(expected, runs):
    """The disagreements of one case. EXPECTED: the program's reports.
    RUNS: name -> (returncode, output) for ubsan, recover, abort and, with an
    ignorelist, ubsan-ignored, recover-ignored, abort-ignored. Returns
    (problems, summary) where summary maps a run to what it reported."""
    problems, parsed = [], {}
    for name, (rc, out) in runs.items():
        parse = parse_ubsan if name.startswith("ubsan") else parse_alignguard
        reports, unread = parse(out)
        parsed[name] = reports
        problems += ["%s: %s" % (name, u) for u in unread]

    ubsan = parsed["ubsan"]
    # 1. UBSan does what the program says (count only for the minimal runtime).
    if not same_multiset(ubsan, expected):
        problems.append("ubsan reports %s, the program expects %s"
                        % (show(ubsan), show(expected)))
    # The reference: UBSan's tuples; the expectation's where UBSan has none.
    reference = ubsan
    if ubsan and all(r == COUNT_ONLY for r in ubsan) and len(expected) == len(ubsan):
        reference = expected
    # 2. recover: the same reports, each site once, and the program finishes.
    rc, _ = runs["recover"]
    if not same_multiset(parsed["recover"], reference):
        problems.append("recover reports %s, ubsan %s"
                        % (show(parsed["recover"]), show(reference)))
    if rc != 0:
        problems.append("recover exits with %s, not 0" % describe_status(rc))
    # 3. abort: SIGABRT after UBSan's first report, or silence and 0.
    rc, _ = runs["abort"]
    got = parsed["abort"]
    if reference:
        if rc != SIGABRT_STATUS:
            problems.append("abort exits with %s, not SIGABRT (134), though ubsan reports %s"
                            % (describe_status(rc), show(reference)))
        if len(got) != 1 or not same(got[0], reference[0]):
            problems.append("abort reports %s, not exactly ubsan's first report %s"
                            % (show(got), reference[0]))
    else:
        if rc != 0:
            problems.append("abort exits with %s, though ubsan reports nothing"
                            % describe_status(rc))
        if got:
            problems.append("abort reports %s, ubsan nothing" % show(got))
    # 4. the ignorelist silences all three.
    for name in ("ubsan-ignored", "recover-ignored", "abort-ignored"):
        if name not in runs:
            continue
        rc, _ = runs[name]
        if parsed[name]:
            problems.append("%s reports %s despite the ignorelist" % (name, show(parsed[name])))
        if rc != 0:
            problems.append("%s exits with %s despite the ignorelist" % (name, describe_status(rc)))
    summary = {name: show(reports) for name, reports in parsed.items()}
    for name in ("abort", "abort-ignored"):
        if name in runs:
            summary[name] = "%s %s" % (describe_status(runs[name][0]), summary[name])
    return problems, summary


def describe_status(rc):
    if rc == SIGABRT_STATUS:
        return "134"
    if rc is not None and rc < 0:
        return "signal %d" % -rc
    return str(rc)


# --- Programs and cases -------------------------------------------------------

class Program:
    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.langs, self.flags, self.ubsan_flags = ["c"], [], []
        self.minimal, self.ignorelist, self.expected = False, None, []
        seen_expect = False
        with open(path) as f:
            for line in f:
                m = re.match(r"\s*//\s*PARITY-([A-Z-]+):\s*(.*?)\s*$", line)
                if not m:
                    continue
                key, value = m.groups()
                if key == "LANGS":
                    self.langs = value.split()
                elif key == "FLAGS":
                    self.flags = shlex.split(value)
                elif key == "UBSAN-FLAGS":
                    self.ubsan_flags = shlex.split(value)
                elif key == "UBSAN":
                    self.minimal = value == "minimal"
                elif key == "IGNORELIST":
                    self.ignorelist = os.path.join(os.path.dirname(path), value)
                elif key == "EXPECT":
                    seen_expect = True
                    if value != "none":
                        self.expected.append(Report(*(int(v) for v in value.split())))
                else:
                    raise SystemExit("%s: unknown directive PARITY-%s" % (path, key))
        if not seen_expect:
            raise SystemExit("%s: no PARITY-EXPECT line" % path)


class Tools:
    def __init__(self, clang, plugin, rt):
        self.clang, self.plugin, self.rt = clang, plugin, rt
        clangxx = os.path.join(os.path.dirname(clang), "clang++")
        self.clangxx = [clangxx] if os.path.exists(clangxx) else [clang, "--driver-mode=g++"]

    def driver(self, lang):
        return list(self.clangxx) if lang == "c++" else [self.clang]


def run_case(tools, program, lang, opt, work_dir, pipeline_override=None):
    """Builds and runs one case; returns (problems, summary, log)."""
    stem = os.path.join(work_dir, "%s.%s%s" % (program.name, lang.replace("+", "x"), opt))
    common = tools.driver(lang) + ["-x", lang, opt, "-g", "-w"] + program.flags
    builds = collections.OrderedDict()
    ubsan = common + ["-fsanitize=alignment"] + program.ubsan_flags
    if program.minimal:
        ubsan.append("-fsanitize-minimal-runtime")
    builds["ubsan"] = (None, ubsan)
    ag = common + ["-fpass-plugin=" + tools.plugin]
    builds["recover"] = ("align-guard<recover>", ag)
    builds["abort"] = ("align-guard<abort>", ag)
    if program.ignorelist:
        builds["ubsan-ignored"] = (None, ubsan + ["-fsanitize-ignorelist=" + program.ignorelist])
        builds["recover-ignored"] = ("align-guard<recover;ignorelist=%s>" % program.ignorelist, ag)
        builds["abort-ignored"] = ("align-guard<abort;ignorelist=%s>" % program.ignorelist, ag)

    env = dict(os.environ)
    for var in ("ALIGNGUARD_PIPELINE", "ALIGNGUARD_OPTIONS", "UBSAN_OPTIONS"):
        env.pop(var, None)
    runs, log, problems = collections.OrderedDict(), [], []
    for name, (pipeline, cmd) in builds.items():
        exe = "%s.%s" % (stem, name)
        cmd = cmd + [program.path]
        if pipeline is not None:
            # -x LANG applies to every input after it: the runtime is none.
            cmd += ["-x", "none", tools.rt]
            if pipeline_override is not None:
                pipeline = pipeline_override
        cmd += ["-o", exe]
        build_env = dict(env)
        prefix = ""
        if pipeline is not None:
            build_env["ALIGNGUARD_PIPELINE"] = pipeline
            prefix = "ALIGNGUARD_PIPELINE=%s " % shlex.quote(pipeline)
        log.append("  %s build: %s%s" % (name, prefix, " ".join(shlex.quote(c) for c in cmd)))
        built = subprocess.run(cmd, env=build_env, capture_output=True, text=True, timeout=300)
        if built.returncode != 0:
            problems.append("%s: the build fails (exit %d)" % (name, built.returncode))
            log.append(indent(built.stdout + built.stderr))
            continue
        try:
            ran = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=60,
                                 errors="replace")
            rc, out = ran.returncode, ran.stdout + ran.stderr
        except subprocess.TimeoutExpired:
            rc, out = None, "(timed out after 60 s)"
        runs[name] = (rc, out)
        log.append("  %s run: exit %s\n%s" % (name, describe_status(rc), indent(out)))
    if problems:
        summary = {name: "build failed" for name in builds}
        for name, (rc, out) in runs.items():
            parse = parse_ubsan if name.startswith("ubsan") else parse_alignguard
            summary[name] = show(parse(out)[0])
        return problems, summary, log
    found, summary = compare(program.expected, runs)
    return found, summary, log


def indent(text):
    text = text.rstrip("\n")
    if not text:
        return "    (no output)"
    return "\n".join("    | " + line for line in text.splitlines())


def main_compare(args):
    programs = sorted(os.path.join(args.dir, f) for f in os.listdir(args.dir)
                      if f.endswith(".c"))
    programs = [Program(p) for p in programs
                if not args.only or fnmatch.fnmatch(os.path.basename(p), args.only)]
    if not programs:
        raise SystemExit("ubsan-parity: no programs in %s" % args.dir)
    tools = Tools(args.clang, args.plugin, args.rt)
    work_dir = args.work_dir or tempfile.mkdtemp(prefix="ubsan-parity.")
    os.makedirs(work_dir, exist_ok=True)
    cases = [(p, lang, opt) for p in programs for lang in p.langs for opt in OPT_LEVELS]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_case, tools, p, lang, opt, work_dir) for p, lang, opt in cases]
        results = [f.result() for f in futures]

    columns = ("case", "ubsan", "recover", "abort", "ignorelist (ubsan/recover/abort)", "result")
    rows = []
    for (p, lang, opt), (problems, summary, _) in zip(cases, results):
        ignored = ""
        if p.ignorelist:
            ignored = "/".join(summary.get(n, "?") for n in
                               ("ubsan-ignored", "recover-ignored", "abort-ignored"))
        rows.append(("%s %s %s" % (p.name, lang, opt), summary.get("ubsan", "?"),
                     summary.get("recover", "?"), summary.get("abort", "?"), ignored,
                     "DISAGREE" if problems else "agree"))
    widths = [max(len(r[i]) for r in rows + [columns]) for i in range(len(columns))]
    for row in [columns] + rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())

    failed = [(c, r) for c, r in zip(cases, results) if r[0]]
    for (p, lang, opt), (problems, _, log) in failed:
        print("\n=== %s %s %s: disagreement" % (p.name, lang, opt))
        for problem in problems:
            print("  - " + problem)
        print("\n".join(log))
    print()
    if failed:
        by_program = collections.OrderedDict()
        for (p, lang, opt), _ in failed:
            by_program.setdefault(p.name, []).append("%s %s" % (lang, opt))
        print("ubsan-parity: %d programs, %d cases, %d disagree:"
              % (len(programs), len(cases), len(failed)))
        for name, which in by_program.items():
            print("  %s: %s" % (name, ", ".join(which)))
        return 1
    print("ubsan-parity: %d programs, %d cases, all agree" % (len(programs), len(cases)))
    return 0


# --- Self-test ----------------------------------------------------------------

def self_test(args):
    ok = True
    expected = [Report(32768, 1, 1)]
    ub = ("t.c:3:32: runtime error: assumption of 32768 byte alignment (with offset of 1 byte)"
          " for pointer of type 'char *' failed\n"
          "0x7f0000008001: note: offset address is 1 aligned, misalignment offset is 1 bytes\n")
    ag = ("alignguard: main: p + 2 = 0x7f0000008002 - 1 is not 32768-byte aligned"
          " (1 bytes past a boundary) at t.c:3:5\n")
    ag_new = ("alignguard: main: p + 2 = 0x7f0000008002 - 1 is 1-byte aligned, not"
              " 32768-byte aligned (1 bytes past a boundary) at t.c:3:5, promised at t.c:3\n")
    good = {"ubsan": (0, ub), "recover": (0, ag), "abort": (SIGABRT_STATUS, ag)}
    problems, _ = compare(expected, good)
    if problems:
        print("self-test: the consistent case is rejected: %s" % problems)
        return 2
    print("self-test: the consistent case agrees")
    for variant in ({"recover": (0, ag_new), "abort": (SIGABRT_STATUS, ag_new)},
                    {"ubsan": (0, ub.replace("failed\n", "failed\nt.c:1:22: note: alignment"
                                             " assumption was specified here\n"))},
                    {"ubsan": (0, "ubsan: alignment-assumption by 0x55d45ad01eea\n")},
                    {"ubsan-ignored": (0, ""), "recover-ignored": (0, ""),
                     "abort-ignored": (0, "")}):
        problems, _ = compare(expected, dict(good, **variant))
        if problems:
            print("self-test: a consistent variant is rejected: %s" % problems)
            return 2
    print("self-test: the consistent variants agree (richer report line, UBSan's note on"
          " the promise, minimal runtime, ignorelist)")

    broken = [
        ("wrong alignment", {"recover": (0, ag.replace("not 32768", "not 16384"))}),
        ("wrong offset", {"recover": (0, ag.replace("8002 - 1", "8003 - 2"))}),
        ("wrong misalignment", {"recover": (0, ag.replace("8002 - 1", "8003 - 1")
                                            .replace("(1 bytes", "(2 bytes"))}),
        ("negative offset", {"recover": (0, ag.replace("8002 - 1", "8000 + 1"))}),
        ("missed report", {"recover": (0, "")}),
        ("extra report", {"recover": (0, ag + ag.replace("8002 - 1", "8001 - 0"))}),
        ("site reported twice in recover", {"recover": (0, ag + ag)}),
        ("recover does not finish", {"recover": (SIGABRT_STATUS, ag)}),
        ("abort does not abort", {"abort": (0, ag)}),
        ("abort exits 1, not 134", {"abort": (1, ag)}),
        ("abort reports something else",
         {"abort": (SIGABRT_STATUS, ag.replace("not 32768", "not 64"))}),
        ("abort without report", {"abort": (SIGABRT_STATUS, "")}),
        ("report inconsistent with its address", {"recover": (0, ag.replace("0x7f0000008002",
                                                                            "0x7f0000008004"))}),
        ("unreadable report line", {"recover": (0, ag + "alignguard: main: something else\n")}),
        ("ubsan differs from the expectation",
         {"ubsan": (0, ub.replace("(with offset of 1 byte)", "(with offset of 2 bytes)"))}),
        ("ignorelist not honoured", {"ubsan-ignored": (0, ""), "recover-ignored": (0, ag),
                                     "abort-ignored": (0, "")}),
        ("ignorelist build aborts", {"ubsan-ignored": (0, ""), "recover-ignored": (0, ""),
                                     "abort-ignored": (SIGABRT_STATUS, ag)}),
        ("report where ubsan is silent", "silent"),
    ]
    for what, variant in broken:
        if variant == "silent":
            problems, _ = compare([], {"ubsan": (0, ""), "recover": (0, ""),
                                       "abort": (SIGABRT_STATUS, ag)})
        else:
            problems, _ = compare(expected, dict(good, **variant))
        if problems:
            print("self-test: detected (%s): %s" % (what, problems[0]))
        else:
            print("self-test: NOT detected (%s)" % what)
            ok = False

    if args.clang:
        # A real build whose AlignGuard pipeline checks nothing must disagree.
        program = Program(os.path.join(args.dir, "builtin-two-params.c"))
        work_dir = args.work_dir or tempfile.mkdtemp(prefix="ubsan-parity-self.")
        os.makedirs(work_dir, exist_ok=True)
        problems, _, _ = run_case(Tools(args.clang, args.plugin, args.rt), program, "c", "-O0",
                                  work_dir, pipeline_override="")
        if problems:
            print("self-test: detected (real build, AlignGuard checking nothing): %s" % problems[0])
        else:
            print("self-test: NOT detected (real build, AlignGuard checking nothing)")
            ok = False
    if ok:
        print("ubsan-parity: self-test: every fabricated disagreement was caught")
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clang")
    parser.add_argument("--plugin")
    parser.add_argument("--rt")
    parser.add_argument("--work-dir", help="where binaries go (default: a new temporary folder)")
    parser.add_argument("--jobs", type=int, default=2, help="cases built at once (default 2)")
    parser.add_argument("--only", help="only programs whose file name matches this glob")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("dir", nargs="?")
    args = parser.parse_args()
    if args.self_test:
        if args.clang and not (args.plugin and args.rt and args.dir):
            parser.error("--self-test with --clang needs --plugin, --rt and DIR")
        return self_test(args)
    if not (args.clang and args.plugin and args.rt and args.dir):
        parser.error("--clang, --plugin, --rt and DIR are required")
    return main_compare(args)


if __name__ == "__main__":
    sys.exit(main())
