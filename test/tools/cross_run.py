#!/usr/bin/env python3
"""Builds execution tests written for x86-64 for another target and runs
them under qemu: each file at each -O level through `--cc` (tlx-cc
--target=aarch64-linux-gnu, powerpc64le-linux-gnu, riscv64-linux-gnu),
run by `--qemu`, its output checked by FileCheck against the file's own
CHECK lines. Files that REQUIRE an x86 CPU feature (cpu-*, amx-*) test
x86 code and are skipped, and so are files whose RUN lines build them with
other sources (%S/Inputs/*.c) and, with --no-half-types, files that spell
__bf16 or _Float16 (clang has neither in C for powerpc64le).
Prints one line per failure and exits non-zero if there was any.

--qemu-retry names a second, slower emulator command that a program which
fails under --qemu runs again under, and is judged by: qemu-ppc64le
translates PowerPC faithfully only one instruction per block on hosts
where its optimizer folds xxsel wrongly (test/lit.cfg.py), ~5x slower, so
programs run in the fast mode first.

A `CROSS-OPT: O2` line in a file keeps only those of --opt's levels for
it (a program that runs for a minute under qemu; natively every level)."""
import argparse
import os
import re
import shlex
import subprocess
import sys
import time


def has_line(path, pattern):
    """Whether a line of the file matches the regular expression."""
    with open(path, errors="replace") as f:
        return any(re.search(pattern, line) for line in f)


def needs_x86(path):
    """Whether the test REQUIREs an x86 CPU feature."""
    return has_line(path, r"REQUIRES:.*\b(cpu-|amx-)")


def needs_other_sources(path):
    """Whether the test's RUN lines build it with other sources (Inputs/):
    this script builds each file alone."""
    return has_line(path, r"RUN:.*%S/Inputs/\S+\.c\b")


def uses_half_types(path):
    """Whether the test spells a half-precision C type."""
    with open(path, errors="replace") as f:
        return re.search(r"\b(__bf16|_Float16)\b", f.read()) is not None


def emulated_levels(path, levels):
    """The -O levels a file runs at under emulation: a `CROSS-OPT: O2`
    line keeps those of `levels` it names (a program whose work takes a
    minute under qemu, run at every level natively)."""
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"CROSS-OPT:\s*(\S+)", line)
            if m:
                named = m.group(1).split(",")
                return [level for level in levels if level in named]
    return levels


def skip_reason(path, no_half_types):
    """Why this script does not build the file, or None."""
    if needs_x86(path):
        return "x86 only"
    if needs_other_sources(path):
        return "built with other sources"
    if no_half_types and uses_half_types(path):
        return "half-precision C types"
    return None


def run_and_check(qemu, exe, checks, filecheck, timeout):
    """Runs the program under qemu and checks its output; returns None if
    it passed, else (its exit status, the ends of its and FileCheck's
    output)."""
    run = subprocess.run(shlex.split(qemu) + [exe], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True,
                         timeout=timeout)
    check = subprocess.run([filecheck, checks], input=run.stdout,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
    if run.returncode or check.returncode:
        return run.returncode, run.stdout[-2000:] + check.stdout[-2000:]
    return None


def build_and_run(args, path, checks, level):
    """Builds one file at one -O level and runs it; returns whether it
    passed, printing what went wrong and how long each step took."""
    name = os.path.splitext(os.path.basename(path))[0]
    exe = os.path.join(args.workdir, "%s-%s" % (name, level))
    build = shlex.split(args.cc) + [
        "-std=c11", "-w", "-pthread", "-" + level, path, "-o", exe]
    started = time.monotonic()
    r = subprocess.run(build, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True,
                       timeout=args.timeout)
    if r.returncode:
        print("FAIL (compile) %s -%s:\n%s" % (path, level, r.stdout))
        return False
    built = time.monotonic()
    failed = run_and_check(args.qemu, exe, checks, args.filecheck,
                           args.timeout)
    if failed and args.qemu_retry and args.qemu_retry != args.qemu:
        failed = run_and_check(args.qemu_retry, exe, checks, args.filecheck,
                               args.timeout)
        if not failed:
            print("%s -%s: passed under %s only" % (name, level,
                                                    args.qemu_retry))
    print("%s -%s: built in %.1f s, ran in %.1f s" %
          (name, level, built - started, time.monotonic() - built))
    if failed:
        print("FAIL (run, exit %d) %s -%s:\n%s" % (failed[0], path, level,
                                                   failed[1]))
    return not failed


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--qemu-retry", default="",
                    help="run a program that fails under --qemu again "
                    "under this command, and judge that run")
    ap.add_argument("--filecheck", required=True)
    ap.add_argument("--opt", default="O0,O2")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--no-half-types", action="store_true",
                    help="skip files that use __bf16 or _Float16")
    ap.add_argument("files", nargs="+",
                    help="SOURCE, or SOURCE=CHECKFILE when the CHECK lines "
                    "are elsewhere (a sample and its test/Samples/*.test)")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    failures = 0
    levels = args.opt.split(",")
    for spec in args.files:
        path, _, checks = spec.partition("=")
        why = skip_reason(path, args.no_half_types)
        if why:
            print("skipped (%s): %s" % (why, path))
            continue
        for level in emulated_levels(path, levels):
            if not build_and_run(args, path, checks or path, level):
                failures += 1
    print("%d files x %d levels, %d failed" %
          (len(args.files), len(levels), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
