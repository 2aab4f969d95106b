#!/usr/bin/env python3
"""Mutation fuzzing of the TLX passes: "whatever the input, never a crash".

Takes the TLX IR test files, replaces a few integer literals in each with
boundary values (0, -1, 2^31-1, off-by-one, ...), keeps the mutants that
LLVM itself still accepts (opt without the plugin), and runs them through
tlx-verify, the lowering stages one by one and the whole `tlx` pipeline.
Each run must exit 0 (valid) or 1 (diagnosed), with no crash report. A
failing mutant is written to the work directory with the command that
crashed; the choice of mutants depends only on --seed.

    mutate_ir.py --opt opt-19 --plugin build/lib/libtlx.so \
        --inputs test/Transforms --seed 1 --count 50 --workdir /tmp/fuzz
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys

INTEGER = re.compile(r"(?<![%@\w.])(-?\d+)(?![\w.])")
BOUNDARY = ["0", "1", "-1", "2", "3", "7", "64", "1000000", "2147483647",
            "-2147483648"]
PIPELINES = ["tlx-verify",
             "tlx-recognize,tlx-verify,tlx-bufferize,tlx-nd-to-2d,tlx-tile,"
             "tlx-legalize",
             "tlx"]
CRASH_MARKERS = ("Stack dump", "Assertion", "LLVM ERROR", "UNREACHABLE")


def ir_inputs(roots):
    files = []
    for root in roots:
        files += glob.glob(os.path.join(root, "**", "*.ll"), recursive=True)
    return sorted(files)


def mutate(rng, text):
    """The file without its comments, with 1-4 integer literals replaced."""
    body = "\n".join(l for l in text.splitlines()
                     if not l.lstrip().startswith(";"))
    for _ in range(rng.randint(1, 4)):
        spans = list(INTEGER.finditer(body))
        if not spans:
            break
        m = rng.choice(spans)
        value = rng.choice(BOUNDARY + [str(int(m.group(1)) + 1)])
        body = body[:m.start()] + value + body[m.end():]
    return body + "\n"


def run(cmd, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % timeout
    return r.returncode, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opt", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--inputs", action="append", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--timeout", type=int, default=120)
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    files = ir_inputs(a.inputs)
    rng = random.Random(a.seed)
    mutant = os.path.join(a.workdir, "mutant.ll")
    tried = failures = 0
    for i in range(a.count):
        source = rng.choice(files)
        with open(source) as f:
            text = mutate(rng, f.read())
        with open(mutant, "w") as f:
            f.write(text)
        if run([a.opt, "-disable-output", mutant], a.timeout)[0] != 0:
            continue  # LLVM's own parser or verifier rejects it
        tried += 1
        for passes in PIPELINES:
            cmd = [a.opt, "-load-pass-plugin=" + a.plugin,
                   "-passes=" + passes, "-disable-output", mutant]
            code, err = run(cmd, a.timeout)
            if code in (0, 1) and not any(m in err for m in CRASH_MARKERS):
                continue
            failures += 1
            keep = os.path.join(a.workdir, "crash-s%d-%d.ll" % (a.seed, i))
            with open(keep, "w") as f:
                f.write(text)
            print("FAIL mutant %d of %s: exit %s under -passes=%s\n"
                  "  reproducer: %s\n  %s" %
                  (i, os.path.basename(source), code, passes, keep,
                   "\n  ".join(err.strip().splitlines()[:4])))
            break
    print("tlx-mutate: seed %d, %d mutants valid for LLVM, %d crashed" %
          (a.seed, tried, failures))
    return 1 if failures or tried == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
