#!/usr/bin/env python3
"""Builds execution tests written for x86-64 for another target and runs
them under qemu: each file at each -O level through `--cc` (tlx-cc
--target=aarch64-linux-gnu, powerpc64le-linux-gnu, riscv64-linux-gnu),
run by `--qemu`, its output checked by FileCheck against the file's own
CHECK lines. Files that REQUIRE an x86 CPU feature (cpu-*, amx-*) test
x86 code and are skipped, and so are files whose RUN lines build them with
other sources (%S/Inputs/*.c) and, with --no-half-types, files that spell
__bf16 or _Float16 (clang has neither in C for powerpc64le).
Prints one line per failure and exits non-zero if there was any."""
import argparse
import os
import re
import shlex
import subprocess
import sys


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


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--qemu", required=True)
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
    for spec in args.files:
        path, _, checks = spec.partition("=")
        checks = checks or path
        if needs_x86(path):
            print("skipped (x86 only): %s" % path)
            continue
        if needs_other_sources(path):
            print("skipped (built with other sources): %s" % path)
            continue
        if args.no_half_types and uses_half_types(path):
            print("skipped (half-precision C types): %s" % path)
            continue
        name = os.path.splitext(os.path.basename(path))[0]
        for level in args.opt.split(","):
            exe = os.path.join(args.workdir, "%s-%s" % (name, level))
            build = shlex.split(args.cc) + [
                "-std=c11", "-w", "-pthread", "-" + level, path, "-o", exe]
            r = subprocess.run(build, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=args.timeout)
            if r.returncode:
                print("FAIL (compile) %s -%s:\n%s" % (path, level, r.stdout))
                failures += 1
                continue
            run = subprocess.run(shlex.split(args.qemu) + [exe],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT,
                                 universal_newlines=True,
                                 timeout=args.timeout)
            check = subprocess.run([args.filecheck, checks],
                                   input=run.stdout, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT,
                                   universal_newlines=True)
            if run.returncode or check.returncode:
                print("FAIL (run, exit %d) %s -%s:\n%s%s" %
                      (run.returncode, path, level, run.stdout[-2000:],
                       check.stdout[-2000:]))
                failures += 1
    print("%d files x %d levels, %d failed" %
          (len(args.files), len(args.opt.split(",")), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
