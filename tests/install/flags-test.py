#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The flags of alignguard_instrument() and of alignguard-clang are one
language with one implementation (docs/flags.md). Installs BUILD_DIR into a
prefix of its own, then, from the one list tests/install/flags.txt:

  - configures a project (Ninja) with one target per case: its compile
    command (`ninja -t commands`) must be `PREFIX/bin/alignguard-clang
    --alignguard-launch CLANG ...` with the case's flags, in order;
  - runs that command with -###: clang must get the case's pipeline
    (`-mllvm -alignguard-pipeline=...`, and -fplugin= where the wrapper's
    --alignguard-print-plugin-args has it: before LLVM 22);
  - runs PREFIX/bin/alignguard-clang as CC with the same flags and -###:
    the same pipeline (so the wrapper accepts every flag CMake writes);
  - ALIGNGUARD=off under --alignguard-launch drops the flags and the plugin.

And find_package(AlignGuard): one STATUS line naming the plugin and its
major (none with QUIET), and, with gcc or g++ as the project's compiler,
alignguard_instrument() fails with one clean message that names that
compiler, its variable and AlignGuard_LLVM_MAJOR once.

  tests/install/flags-test.py BUILD_DIR WORKDIR CLANG MAJOR
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

build, work, clang, major = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
here = os.path.dirname(os.path.abspath(__file__))
failures = []


def fail(msg):
    failures.append(msg)
    print("flags-test: FAIL: " + msg, file=sys.stderr)


def run(cmd, cwd=None, env=None):
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return proc.returncode, proc.stdout


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALIGNGUARD")}
    env.update(extra)
    return env


def pipeline_of(output):
    """The -alignguard-pipeline= clang's cc1 gets in a -### listing, and
    whether the plugin is loaded early (-fplugin= is cc1's -load)."""
    found = re.findall(r'"-alignguard-pipeline=([^"]*)"', output)
    return (found[0] if len(found) == 1 else None), '"-load"' in output


if os.path.exists(work):
    shutil.rmtree(work)
os.makedirs(work)
prefix = os.path.join(work, "prefix")
rc, out = run(["cmake", "--install", build, "--prefix", prefix])
if rc:
    sys.exit("flags-test: cmake --install failed:\n" + out)
wrapper = os.path.join(prefix, "bin", "alignguard-clang")
plugin = os.path.join(prefix, "lib", "alignguard", "llvm-%d" % major, "AlignGuard.so")
# Whether clang gets -fplugin= too: the wrapper's one answer, asked.
rc, out = run([wrapper, "--alignguard-plugin=" + plugin, "--alignguard-print-plugin-args"],
              env=clean_env())
if rc or "-fpass-plugin=" + plugin not in out.split():
    sys.exit("flags-test: alignguard-clang --alignguard-print-plugin-args failed:\n" + out)
fplugin = "-fplugin=" + plugin in out.split()

cases = []
with open(os.path.join(here, "flags.txt")) as f:
    for line in f:
        if line.strip() and not line.startswith("#"):
            target, args, flags, pipeline = [p.strip() for p in line.split("|")]
            cases.append((target, args, flags.split(), pipeline))

src = os.path.join(work, "src")
bin_ = os.path.join(work, "bin")
os.makedirs(src)
shutil.copy(os.path.join(here, "sample", "kernel.c"), os.path.join(src, "k.c"))
with open(os.path.join(src, "ignorelist.txt"), "w") as f:
    f.write("[alignment]\nfun:k_skip\n")
with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
    f.write("cmake_minimum_required(VERSION 3.20)\nproject(Flags C)\n"
            "find_package(AlignGuard CONFIG REQUIRED)\n"
            "find_package(AlignGuard CONFIG REQUIRED QUIET)\n")
    for target, args, _, _ in cases:
        f.write("add_library(%s OBJECT k.c)\nalignguard_instrument(%s %s)\n"
                % (target, target, args))
rc, out = run(["cmake", "-S", src, "-B", bin_, "-G", "Ninja",
               "-DCMAKE_C_COMPILER=" + clang, "-DCMAKE_PREFIX_PATH=" + prefix,
               "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
               "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"], env=clean_env())
if rc:
    sys.exit("flags-test: configuring the flags project failed:\n" + out)
status = [l for l in out.splitlines() if l.startswith("-- AlignGuard:")]
want = "-- AlignGuard: plugin of LLVM %d: %s" % (major, plugin)
if status != [want]:
    fail("find_package printed %s, not once '%s' (and nothing with QUIET)"
         % (status, want))



def compile_command(target):
    """The command ninja runs to compile the target's k.c (in the build
    directory), as a list (compile_commands.json leaves launchers out)."""
    rc, out = run(["ninja", "-C", bin_, "-t", "commands", target])
    lines = [l for l in out.splitlines() if re.search(r" -c \S*k\.c$", l)]
    return shlex.split(lines[0]) if rc == 0 and len(lines) == 1 else None


for target, args, flags, pipeline in cases:
    failed = len(failures)
    want = pipeline.replace("@SRC@", src).replace("@BIN@", bin_)
    flags = [a.replace("@SRC@", src).replace("@BIN@", bin_) for a in flags]
    cmd = compile_command(target)
    if not cmd:
        fail("%s: no compile command of k.c in `ninja -t commands %s`" % (target, target))
        continue
    if cmd[:2] != [wrapper, "--alignguard-launch"]:
        fail("%s: the compile command does not start with %s --alignguard-launch: %s"
             % (target, wrapper, " ".join(cmd)))
    written = [a for a in cmd[2:] if a.startswith("--alignguard")]
    if written != flags:
        fail("alignguard_instrument(%s %s) wrote %s, not %s" % (target, args, written, flags))
    # The launcher, as ninja runs it.
    rc, out = run(cmd + ["-###"], cwd=bin_, env=clean_env())
    got, early = pipeline_of(out)
    if rc or got != want or early != fplugin:
        fail("%s: the launcher gave the pipeline %s (-fplugin: %s), not %s:\n%s"
             % (target, got, early, want, out))
    # The wrapper as CC, with the flags CMake wrote, for the same object.
    obj = cmd[cmd.index("-o") + 1]
    rc, out = run([wrapper] + flags + ["-O2", "-###", "-c", os.path.join(src, "k.c"),
                                       "-o", obj],
                  cwd=bin_, env=clean_env(ALIGNGUARD_LLVM=str(major)))
    got, early = pipeline_of(out)
    if rc or got != want or early != fplugin:
        fail("%s: alignguard-clang %s gave the pipeline %s (-fplugin: %s), not %s:\n%s"
             % (target, " ".join(flags), got, early, want, out))
    if len(failures) == failed:
        print("flags-test: %s: %s -> %s" % (target, " ".join(flags), want))

# ALIGNGUARD=off: the launcher runs the command without the flags and the
# plugin (plain clang, as the wrapper as CC is).
rc, out = run(compile_command("t_recover") + ["-###"], cwd=bin_,
              env=clean_env(ALIGNGUARD="off"))
if rc or "alignguard" in out.lower():
    fail("ALIGNGUARD=off: the launcher still passes AlignGuard to clang:\n" + out)

# A compiler that is not clang: one clean message, naming that compiler.
for lang, compiler, name, var, source in (
        ("CXX", "g++", "C++", "CMAKE_CXX_COMPILER", "k.cpp"),
        ("C", "gcc", "C", "CMAKE_C_COMPILER", "k.c")):
    path = shutil.which(compiler)
    if not path:
        fail("%s not found: install it (the test configures a project with it)" % compiler)
        continue
    d = os.path.join(work, "not-clang-" + lang)
    os.makedirs(d)
    with open(os.path.join(d, source), "w") as f:
        f.write("int main(void) { return 0; }\n")
    with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.20)\nproject(P %s)\n"
                "find_package(AlignGuard CONFIG REQUIRED)\n"
                "add_executable(k %s)\nalignguard_instrument(k)\n" % (lang, source))
    rc, out = run(["cmake", "-S", d, "-B", os.path.join(d, "b"), "-G", "Ninja",
                   "-D%s=%s" % (var, path), "-DCMAKE_PREFIX_PATH=" + prefix,
                   "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"], env=clean_env())
    error = out[out.find("CMake Error"):] if "CMake Error" in out else ""
    error = " ".join(error.split("Call Stack")[0].split()[1:])
    print("flags-test: %s: %s" % (compiler, error))
    want = re.compile(
        r"^Error at \S+AlignGuardInstrument\.cmake:\d+ \(message\): alignguard_instrument\(k\): "
        r"no AlignGuard plugin: the project's %s compiler %s \(GNU [0-9.]+\) is not "
        r"clang; set %s to /usr/lib/llvm-N/bin/%s, or AlignGuard_LLVM_MAJOR to N "
        r"\(installed in %s: [0-9, ]*%d[0-9, ]*\)$"
        % (re.escape(name), re.escape(path), var,
           re.escape("clang++" if lang == "CXX" else "clang"), re.escape(prefix), major))
    if rc == 0 or not want.match(error):
        fail("configuring with %s: not the one clean message naming it:\n%s" % (compiler, out))

if failures:
    sys.exit("flags-test: %d failure(s)" % len(failures))
print("flags-test: all %d cases agree (LLVM %d)" % (len(cases), major))
