#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""AlignGuard's fuzzer: generated modules (generate.py: llvm-stress with
injected promises of every kind, and template functions) and, with
--corpus, real compilers' IR, through every action and option combination.

  fuzz.py --llvm 14 --plugin build-14/AlignGuard.so --seeds 1-1000 --out DIR
          [--corpus tests/lit/corpus/Inputs] [--jobs N] [--reduce]

Each generated module runs under three pipelines (seed i takes the
combinations 3i, 3i+1, 3i+2 of CONFIGS, so 1,000 seeds run each about 45
times, and the optimiser checks after the one of index i mod 3: each
combination about 15 times); each real module under all of them (or,
--corpus-configs actions, every action alone and with every option that
adds checks), every check after each. The checks:
  verify      align-guard<P>,verify fails (the verifier, or any error)
  crash       opt crashes or is killed running align-guard<P>
  idempotent  align-guard<P> on its own output changes the module
  o2          default<O2>,verify fails on the output, and not on the input
  clang       the plugin's clang pipeline (ALIGNGUARD_PIPELINE=align-guard<P>
              with default<O2>) fails, and default<O2> alone on the input not
Each module's audit (JSON, all findings, with the pipeline's plan) must
satisfy tests/tools/audit-json.py's contract, and the driver's SARIF log of
it the OASIS errata01 schema (validate-sarif.py); kinds `audit`, `sarif`.
A failure of LLVM's own passes that the uninstrumented input shows too is
counted as `llvm` and not as ours.

Every failure is kept in DIR/failures/KIND-SEED-N/: input.ll, run.sh (the
failing command, runnable alone: it exits 0 when the failure shows), the
output; with --reduce, reduced.ll from llvm-reduce with run.sh as its
interestingness test. The summary line counts modules, runs and failures
by kind; the exit status is 1 when any failure of ours was found.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import generate  # noqa: E402

ACTIONS = ["abort", "trap", "recover", "return=-1", "fallback"]
# Every option, alone and combined; with the actions, CONFIGS.
OPTION_SETS = [
    "", "accesses", "loads", "type-alignment", "deferred", "accesses-only",
    "accesses;loads;type-alignment", "accesses;deferred",
    "deferred;loads;type-alignment", "entry=autogen*;entry=ag_*",
    "exclude=default_function*;accesses", "ignorelist=@IGNORELIST@",
    "accesses;ignorelist=@IGNORELIST@;entry=ag_*", "no-rerun",
    "no-rerun;accesses;deferred",
    # An AMDGPU module reports from the device (its other GPU triples and
    # host ones do not change).
    "device-libs-after;accesses;loads",
]
CONFIGS = [";".join(x for x in (a, o) if x)
           for o in OPTION_SETS for a in ACTIONS
           if "no-rerun" not in o or a == "recover"]
IGNORELIST = """# fuzz.py: suppress some template functions
[alignment]
fun:ag_ret
fun:ag_loop*
src:*seed-1*
"""
TIMEOUT = 120


class Env:
    def __init__(self, args):
        bindir = "/usr/lib/llvm-%d/bin" % args.llvm
        self.opt = os.path.abspath(args.opt) if args.opt else os.path.join(bindir, "opt")
        self.stress = os.path.join(bindir, "llvm-stress")
        self.reduce_tool = os.path.join(bindir, "llvm-reduce")
        self.plugin = os.path.abspath(args.plugin)
        self.opaque = args.llvm >= 15
        self.out = os.path.abspath(args.out)
        self.ignorelist = os.path.join(self.out, "ignorelist.txt")
        self.reduce = args.reduce
        self.audit = not args.no_audit
        self.deadline = time.time() + 60 * args.minutes if args.minutes else None

    def load(self):
        return ["-load-pass-plugin=" + self.plugin]


def run(cmd, env=None, stdin=None):
    """(exit status, stdout, stderr); a timeout is status -9."""
    e = dict(os.environ, **(env or {}))
    try:
        p = subprocess.run(cmd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=TIMEOUT, input=stdin)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -9, "", "timed out after %d s" % TIMEOUT


def body(text):
    """The module without its ModuleID line (it names the file) and the
    blocks' `; preds =` comments (their order is the use lists', which
    reading the text back changes)."""
    return "\n".join(re.sub(r"\s*; preds = .*$", "", l) for l in text.splitlines()
                     if not l.startswith("; ModuleID"))


def crashed(status):
    return status < 0 or status > 128


class Module:
    """One input's checks; returns [(kind, config, detail, script, files)]."""

    def __init__(self, env, name, path):
        self.env, self.name, self.path = env, name, path
        self.failures, self.runs, self.llvm = [], 0, 0
        self._o2_input = None

    def fail(self, kind, config, detail, script, files=None):
        self.failures.append((kind, config, detail, script, files or {}))

    def opt(self, args, env=None, stdin=None):
        self.runs += 1
        return run([self.env.opt] + args, env=env, stdin=stdin)

    def o2_input_ok(self):
        """Whether default<O2>,verify passes on the uninstrumented input."""
        if self._o2_input is None:
            st, _, _ = self.opt(["-passes=default<O2>,verify", "-disable-output",
                                 self.path], env={"ALIGNGUARD_PIPELINE": ""})
            self._o2_input = st == 0
        return self._o2_input

    def check(self, config, optimise=True):
        config = config.replace("@IGNORELIST@", self.env.ignorelist)
        pipe = "align-guard<%s>,verify" % config
        load = self.env.load()
        st, out, err = self.opt(load + ["-passes=" + pipe, "-S", self.path])
        cmd = [self.env.opt] + load + ["-passes=" + pipe, "-S"]
        if crashed(st) and "Broken module found" not in err:
            return self.fail("crash", config, err, crash_script(cmd, err))
        if st:
            return self.fail("verify", config, err, error_script(cmd, err))
        st2, out2, err2 = self.opt(load + ["-passes=" + pipe, "-S"], stdin=out)
        if st2 or body(out2) != body(out):
            detail = err2 if st2 else diff(out, out2)
            return self.fail("idempotent", config, detail,
                             twice_script(cmd), {"once.ll": out, "twice.ll": out2})
        if not optimise:
            return None
        o2 = [self.env.opt, "-passes=default<O2>,verify", "-disable-output"]
        st3, _, err3 = self.opt(o2[1:], stdin=out)
        if st3:
            if self.o2_input_ok():
                self.fail("o2", config, err3, after_script(cmd, o2, err3))
            else:
                self.llvm += 1
        clang = {"ALIGNGUARD_PIPELINE": "align-guard<%s>" % config}
        st4, _, err4 = self.opt(load + ["-passes=default<O2>,verify", "-disable-output",
                                        self.path], env=clang)
        if st4:
            if self.o2_input_ok():
                self.fail("clang", config, err4, env_script(
                    clang, [self.env.opt] + load + ["-passes=default<O2>,verify",
                                                    "-disable-output"], err4))
            else:
                self.llvm += 1

    def check_audit(self, config):
        """The audit's JSON contract and the driver's SARIF schema."""
        config = config.replace("@IGNORELIST@", self.env.ignorelist)
        plan = ";".join(o for o in config.split(";")
                        if o not in ("deferred", "accesses-only", "no-rerun"))
        st, out, err = self.opt(self.env.load() + [
            "-passes=align-guard-audit<json;all;plan;%s>" % plan,
            "-disable-output", self.path])
        if crashed(st):
            # The audit runs LLVM's inliner pipeline on a copy (InlinedCopy.h):
            # where default<O2> crashes on the input too, the crash is LLVM's.
            if not self.o2_input_ok():
                self.llvm += 1
                return None
            cmd = [self.env.opt] + self.env.load() + [
                "-passes=align-guard-audit<json;all;plan;%s>" % plan, "-disable-output"]
            return self.fail("crash", "audit " + plan, err, crash_script(cmd, err))
        st, _, err = run([sys.executable, os.path.join(REPO, "tests/tools/audit-json.py")],
                         stdin=out)
        if st:
            self.fail("audit", plan, err + out[:4000], "exit 1  # see output\n",
                      {"audit.json": out})
        driver = [os.path.join(REPO, "scripts/alignguard"), "--plugin", self.env.plugin,
                  "audit", "--sarif", "--all", self.path]
        self.runs += 1
        st, sarif, err = run(driver)
        if st not in (0, 3):  # 3: unchecked promises, which fuzz modules have
            return self.fail("sarif", "driver", err, "exit 1  # driver failed\n")
        try:
            errors = [describe_sarif_error(e) for e in
                      sarif_validator().iter_errors(json.loads(sarif))]
        except ValueError as e:
            errors = ["not JSON: %s" % e]
        if errors:
            self.fail("sarif", "driver", "\n".join(errors), "exit 1  # see output\n",
                      {"log.sarif": sarif})


_VALIDATOR = []


def sarif_validator():
    """validate-sarif.py's validator (the errata01 schema), made once."""
    if not _VALIDATOR:
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "validate_sarif", os.path.join(REPO, "tests/tools/validate-sarif.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _VALIDATOR.append((mod.make_validator(*mod.load_schema()), mod))
    return _VALIDATOR[0][0]


def describe_sarif_error(error):
    return _VALIDATOR[0][1].describe(error)


def diff(a, b):
    import difflib
    return "".join(list(difflib.unified_diff(
        a.splitlines(True), b.splitlines(True), "once", "twice"))[:60])


def q(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def first_error(err):
    """The line a reduction must keep: the verifier's message or the
    crash's first line."""
    for l in err.splitlines():
        l = l.strip()
        if l and not l.startswith(("WARNING", "warning", "Stack dump", "0.", "1.")):
            return l[:200]
    return ""


# The scripts: `run.sh FILE` exits 0 when FILE shows the failure (what
# llvm-reduce's --test wants).
def error_script(cmd, err):
    return ('%s "$1" -o /dev/null 2>&1 | grep -qF -- %s\n'
            % (q(cmd), shlex.quote(first_error(err))))


def crash_script(cmd, err):
    return '%s "$1" -o /dev/null >/dev/null 2>&1\nst=$?\n[ $st -gt 128 ]\n' % q(cmd)


def twice_script(cmd):
    return ('once=$(%s "$1") || exit 1\n'
            'twice=$(printf "%%s\\n" "$once" | %s -) || exit 0\n'
            'norm() { grep -v "^; ModuleID" | sed "s/ *; preds = .*//"; }\n'
            '[ "$(printf "%%s" "$once" | norm)" != "$(printf "%%s" "$twice" | norm)" ]\n'
            % (q(cmd), q(cmd)))


def after_script(cmd, o2, err):
    return ('%s -passes=default\\<O2\\>,verify -disable-output "$1" 2>/dev/null || exit 1\n'
            '%s "$1" 2>/dev/null | %s - 2>&1 | grep -qF -- %s\n'
            % (shlex.quote(o2[0]), q(cmd), q(o2), shlex.quote(first_error(err))))


def env_script(env, cmd, err):
    plain = [cmd[0]] + [c for c in cmd[1:] if not c.startswith("-load-pass-plugin")]
    sets = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in env.items())
    return ('ALIGNGUARD_PIPELINE= %s "$1" 2>/dev/null || exit 1\n'
            '%s %s "$1" 2>&1 | grep -qF -- %s\n'
            % (q(plain), sets, q(cmd), shlex.quote(first_error(err))))


def keep(env, module, failure, index):
    kind, config, detail, script, files = failure
    d = os.path.join(env.out, "failures", "%s-%s-%d" % (kind, module.name, index))
    os.makedirs(d, exist_ok=True)
    with open(module.path) as f:
        text = f.read()
    with open(os.path.join(d, "input.ll"), "w") as f:
        f.write(text)
    with open(os.path.join(d, "run.sh"), "w") as f:
        f.write("#!/bin/sh\n# %s under align-guard<%s>; exits 0 when FILE shows it\n"
                % (kind, config) + script)
    os.chmod(os.path.join(d, "run.sh"), 0o755)
    with open(os.path.join(d, "output.txt"), "w") as f:
        f.write(detail)
    for name, content in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(content)
    if env.reduce and kind in ("verify", "crash", "idempotent", "o2", "clang"):
        st, _, err = run([env.reduce_tool, "--test=" + os.path.join(d, "run.sh"),
                          os.path.join(d, "input.ll"), "-o", os.path.join(d, "reduced.ll")])
        if st:
            with open(os.path.join(d, "reduce.err"), "w") as f:
                f.write(err)
    return d


def one(env, name, path, configs, optimised=None):
    """configs' checks on one module; default<O2> after the configs of
    index `optimised` (all when None)."""
    m = Module(env, name, path)
    for i, c in enumerate(configs):
        m.check(c, optimised is None or i == optimised)
    if env.audit:
        m.check_audit(configs[0])
    return m


def seed_job(env, seed):
    if env.deadline and time.time() > env.deadline:
        return None
    text = generate.module(env.stress, seed, env.opaque)
    path = os.path.join(env.out, "modules", "seed-%d.ll" % seed)
    with open(path, "w") as f:
        f.write(text)
    configs = [CONFIGS[(3 * seed + k) % len(CONFIGS)] for k in range(3)]
    m = one(env, "seed-%d" % seed, path, configs, optimised=seed % 3)
    if not m.failures:
        os.remove(path)
    return m


# The smoke's configurations for real IR: every action, alone and with
# every option that adds checks.
ACTION_CONFIGS = ACTIONS + [a + ";accesses;loads;type-alignment;deferred" for a in ACTIONS]


def corpus_job(env, path, configs):
    """A real compiler's IR under each of configs."""
    name = os.path.splitext(os.path.basename(path))[0]
    return one(env, name, path, configs)


def parse_seeds(text):
    if not text:
        return range(0)
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--llvm", type=int, required=True, help="LLVM major (its opt, llvm-stress)")
    ap.add_argument("--plugin", required=True, help="AlignGuard.so built for that major")
    ap.add_argument("--opt", help="another opt (the self-test's fake one)")
    ap.add_argument("--seeds", default="", help="A-B: the modules to generate (none: only --corpus)")
    ap.add_argument("--corpus", action="append", default=[],
                    help="a directory of real compilers' .ll files (repeatable)")
    ap.add_argument("--corpus-configs", choices=("all", "actions"), default="all",
                    help="real IR under every configuration, or every action alone "
                         "and with every checking option (the smoke's)")
    ap.add_argument("--out", required=True, help="where failures are kept")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--reduce", action="store_true", help="llvm-reduce each failure")
    ap.add_argument("--no-audit", action="store_true", help="skip the audit checks")
    ap.add_argument("--minutes", type=float,
                    help="start no new seed after this long (the summary says how many ran)")
    args = ap.parse_args()
    env = Env(args)
    for tool in (env.opt, env.stress, env.plugin):
        if not os.path.exists(tool):
            sys.exit("fuzz.py: %s: not found" % tool)
    os.makedirs(os.path.join(env.out, "modules"), exist_ok=True)
    with open(env.ignorelist, "w") as f:
        f.write(IGNORELIST)
    corpus = []
    for path in sorted(os.path.join(d, f) for d in args.corpus for f in os.listdir(d)
                       if f.endswith(".ll")):
        st, _, err = run([env.opt, "-disable-output", path])
        if st:  # rustc's IR for an older LLVM, say
            print("fuzz: skipped %s: LLVM %d cannot read it: %s"
                  % (path, args.llvm, first_error(err)), file=sys.stderr)
        else:
            corpus.append(path)
    start = time.time()
    real = CONFIGS if args.corpus_configs == "all" else ACTION_CONFIGS
    jobs = [lambda p=p: corpus_job(env, p, real) for p in corpus]
    jobs += [lambda s=s: seed_job(env, s) for s in parse_seeds(args.seeds)]
    counts, modules, generated, runs, llvm, kept = {}, 0, 0, 0, 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m in pool.map(lambda j: j(), jobs):
            if m is None:  # past --minutes
                continue
            modules += 1
            if m.name.startswith("seed-"):
                generated += 1
            runs += m.runs
            llvm += m.llvm
            for i, f in enumerate(m.failures):
                counts[f[0]] = counts.get(f[0], 0) + 1
                d = keep(env, m, f, i)
                kept.append(d)
                print("fuzz: %s: %s under align-guard<%s>: %s (%s)" % (
                    m.name, f[0], f[1], first_error(f[2]), d), flush=True)
    summary = {"llvm": args.llvm, "modules": modules, "generated": generated,
               "corpus": len(corpus), "configs": len(CONFIGS), "opt_runs": runs,
               "failures": counts, "llvm_own_failures": llvm,
               "seconds": round(time.time() - start)}
    with open(os.path.join(env.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print("fuzz: LLVM %d: %d modules (%d generated, %d real), %d opt runs, "
          "%d configurations: %s; %d failures of LLVM's own passes on the input too; %d s"
          % (args.llvm, modules, summary["generated"], len(corpus), runs, len(CONFIGS),
             ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items())) or "no failures",
             llvm, summary["seconds"]))
    sys.exit(1 if counts else 0)


if __name__ == "__main__":
    main()
