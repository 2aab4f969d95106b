#!/usr/bin/env python3
"""Line-based reducer (ddmin) for a failing generated program.

Deletes lines of a C file while a predicate still holds, e.g. the same
compiler crash site, or the same FAIL check still failing:

  reduce.py --cc "clang-19 -fplugin=build/lib/libtlx.so -Iheaders" \\
      --rt "build/lib/libtlxrt.a -lm" --opt O2 repro.c -o small.c \\
      --crash                 # keep the crash site of the original
  reduce.py ... --fail "check 7 ("   # keep a FAIL line containing this

Only lines inside the program's function bodies are candidates (the
prelude, typedefs and the main function stay). Standard library only.
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--rt", default="")
    ap.add_argument("--cflags", default="-w -Wno-psabi")
    ap.add_argument("--opt", default="O0")
    ap.add_argument("--crash", action="store_true",
                    help="keep the original compiler crash site")
    ap.add_argument("--fail", help="keep a FAIL line containing this text")
    ap.add_argument("--timeout", type=int, default=120)
    a = ap.parse_args()
    lines = open(a.src).read().split("\n")
    # candidates: lines after the prelude's last helper, outside main
    start = next(i for i, ln in enumerate(lines) if ln.startswith("/* case "))
    end = next(i for i, ln in enumerate(lines) if ln.startswith("int main("))
    fixed_head, cand, fixed_tail = lines[:start], lines[start:end], \
        lines[end:]
    tmpd = tempfile.mkdtemp(prefix="tlx-reduce-")
    src, exe = os.path.join(tmpd, "t.c"), os.path.join(tmpd, "t")
    cc = "%s -std=c11 -%s %s %s %s -o %s" % (a.cc, a.opt, a.cflags,
                                           shlex.quote(src), a.rt,
                                           shlex.quote(exe))
    want = [None]

    def test(keep):
        with open(src, "w") as f:
            f.write("\n".join(fixed_head + keep + fixed_tail))
        rc, out = run.sh(cc, a.timeout)
        if a.crash:
            if "Stack dump" not in out:
                return False
            site = run.first_error(out)
            if want[0] is None:
                want[0] = site
            return site == want[0]
        if rc != 0:
            return False
        rc, out = run.sh(shlex.quote(exe), a.timeout)
        return any(ln.startswith("FAIL") and a.fail in ln
                   for ln in out.splitlines())

    if not test(cand):
        sys.exit("reduce.py: the original does not fail as asked")
    print("reduce.py: target:", want[0] or a.fail)
    n = 2
    while len(cand) >= 2:
        chunk = max(1, len(cand) // n)
        reduced = False
        for i in range(0, len(cand), chunk):
            trial = cand[:i] + cand[i + chunk:]
            if test(trial):
                cand = trial
                n = max(n - 1, 2)
                reduced = True
                print("reduce.py: %d lines" % len(cand))
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(cand), n * 2)
    with open(a.output, "w") as f:
        f.write("\n".join(fixed_head + cand + fixed_tail))
    print("reduce.py: wrote", a.output)


if __name__ == "__main__":
    main()
