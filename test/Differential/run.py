#!/usr/bin/env python3
"""Differential test driver: generate, compile, run, compare, reproduce.

Generates batches of random cases with gen.py (--batch cases per C file),
compiles every file with the TLX compiler at the requested -O levels, runs
it and collects failures. A failing case is regenerated alone as a
standalone C program (written under --workdir) and its exact command lines
are printed, so it can be reproduced without lit:

  run.py --cc "clang-19 -fplugin=build/lib/libtlx.so -Iheaders" \
         --rt "build/lib/libtlxrt.a -lm" --opt O0,O2 --seed 1 --cases 500

With --generator progs the cases are progs.py's multi-op programs (their
reference is in the program itself); --gen-args passes progs.py's flags
(--no-merges, --disable escape-late, ...), and reproducers repeat them.

Environment: TLX_DIFF_SEED overrides --seed; TLX_DIFF_CASES overrides
--cases, the total over all --shard slices (run more cases locally);
TLX_DIFF_OPS overrides --ops (a comma list, "all", or @file);
TLX_PROGS_ARGS overrides --gen-args (progs only); TLX_TEST_CPU=<-march
level> (as lit's masked mode, test/lit.cfg.py) is --cpu's default.
Exit status 0 when every case matched the oracle.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import progs  # noqa: E402

# The last line a generated program prints when it ran to the end.
SUMMARY_RE = re.compile(r"^\d+ (cases|programs), \d+ failed")


def read_ops_file(path):
    ops = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                ops.append(line)
    return ops


def sh(cmd, timeout):
    # A session of its own, so that a timeout ends the whole command (the
    # shell's children too: clang's cc1, the program).
    p = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, _ = p.communicate()
        out = out.decode("utf-8", "replace") if out else ""
        return 124, out + "\n[timed out after %ds]" % timeout


def run_env():
    """Environment a reproducer's run line needs (lit's masked mode)."""
    if os.environ.get("TLX_AMX_FORCE_UNSUPPORTED"):
        return "TLX_AMX_FORCE_UNSUPPORTED=1 "
    return ""


def crash_site(out):
    """Where a crashing compiler was: the TLX pass and the first TLX frame."""
    passes = re.findall(r'Running pass "(tlx::[^"]*)"', out)
    frames = re.findall(r"^ *#\d+ 0x[0-9a-f]+ (.*?tlx::[\w:~<>]*)",
                        out.replace("(anonymous namespace)::", ""), re.M)
    site = []
    if passes:
        site.append("in " + passes[-1])
    if frames:
        site.append("at " + frames[0].strip())
    return ", ".join(site)


def first_error(out):
    """The most telling line of a failed compile or run."""
    if "Stack dump" in out:
        return "compiler crash " + crash_site(out)
    lines = out.splitlines()
    for key in ("ERROR: AddressSanitizer", "SUMMARY: AddressSanitizer",
                "undefined reference", "error:", "Assertion", "LLVM ERROR",
                "Segmentation fault", "signal", "Running pass \"tlx",
                "timed out"):
        for ln in lines:
            if key in ln and "linker command failed" not in ln and \
                    "frontend command failed" not in ln:
                return ln.strip()
    return lines[-1].strip() if lines else "(no output)"


def classify(kind, text):
    """A failure category for summaries (--json)."""
    if kind == "compile":
        if "compiler crash" in text or "Assertion" in text or \
                "LLVM ERROR" in text:
            return "compiler-crash"
        if "timed out" in text:
            return "compile-timeout"
        return "compile-error"
    if "AddressSanitizer" in text:
        m = re.search(r"AddressSanitizer: ([\w-]+)", text)
        return "asan-" + (m.group(1) if m else "error")
    if "timed out" in text:
        return "run-timeout"
    if kind == "run":
        return "run-crash"
    return "mismatch"


class Runner:
    def __init__(self, args, ops):
        self.a = args
        self.ops = ops
        self.ops_arg = ",".join(ops)
        self.progs = args.generator == "progs"
        if self.progs and ops == progs.OPS:
            self.ops_arg = "all"
        if self.progs:
            self.gen_argv = shlex.split(args.gen_args)
            self.feats, _, self.max_ops = progs.parse_gen_args(self.gen_argv)
        self.records = []
        os.makedirs(args.workdir, exist_ok=True)

    def gen_cmd(self, out, case=None, first=None, count=None):
        if self.progs:
            cmd = "python3 %s --seed %d --ops %s" % (
                shlex.quote(os.path.join(HERE, "progs.py")), self.a.seed,
                shlex.quote(self.ops_arg))
            if self.gen_argv:
                cmd += " " + " ".join(shlex.quote(x) for x in self.gen_argv)
            if case is not None:
                return cmd + " --case %d -o %s" % (case, shlex.quote(out))
            return cmd + " --first %d --count %d -o %s" % (
                first, count, shlex.quote(out))
        cmd = "python3 %s --seed %d --ops %s" % (
            shlex.quote(os.path.join(HERE, "gen.py")), self.a.seed,
            shlex.quote(self.ops_arg))
        if self.a.no_small_vectors:
            cmd += " --no-small-vectors"
        if self.a.amx_shapes:
            cmd += " --amx-shapes --amx-max-n %d" % self.a.amx_max_n
        if case is not None:
            cmd += " --case %d" % case
        else:
            cmd += " --first %d --count %d" % (first, count)
        return cmd + " -o " + shlex.quote(out)

    def cc_cmd(self, src, exe, opt):
        return "%s -std=c11 -%s %s %s %s -o %s" % (
            self.a.cc, opt, self.a.cflags, shlex.quote(src), self.a.rt,
            shlex.quote(exe))

    def write(self, path, indices):
        with open(path, "w") as f:
            if self.progs:
                f.write(progs.generate(self.a.seed, indices, self.feats,
                                       self.ops, self.max_ops,
                                       " ".join(self.gen_argv)))
                return
            f.write(gen.generate(self.a.seed, indices, self.ops,
                                 self.a.no_small_vectors, self.a.amx_shapes,
                                 self.a.amx_max_n))

    def describe(self, idx):
        if self.progs:
            return progs.describe(self.a.seed, idx, self.feats, self.ops,
                                  self.max_ops)
        gen.NO_SMALL_VECTORS = self.a.no_small_vectors
        gen.AMX_SHAPES = self.a.amx_shapes
        gen.AMX_MAX_N = self.a.amx_max_n
        return gen.Case(self.a.seed, idx, self.ops).desc

    def reproducer(self, idx, opt, why, kind="mismatch"):
        base = os.path.join(self.a.workdir, "repro-s%d-c%d" % (self.a.seed,
                                                               idx))
        src, exe = base + "-" + opt + ".c", base + "-" + opt
        self.write(src, [idx])
        desc = self.describe(idx)
        self.records.append({
            "seed": self.a.seed, "case": idx, "opt": opt,
            "cflags": self.a.cflags, "category": classify(kind, why),
            "detail": why, "desc": desc, "regenerate": self.gen_cmd(
                src, case=idx), "compile": self.cc_cmd(src, exe, opt)})
        return ("  case %d at -%s (%s): %s\n"
                "    reproducer: %s\n"
                "    regenerate: %s\n"
                "    compile:    %s\n"
                "    run:        %s\n" %
                (idx, opt, desc, why, src, self.gen_cmd(src, case=idx),
                 self.cc_cmd(src, exe, opt), run_env() + self.run_cmd(
                     exe, self.a.retry_prefix or None)))

    def run_cmd(self, exe, prefix=None):
        """The shell command that runs the program \p exe (through
        --run-prefix, or \p prefix)."""
        prefix = self.a.run_prefix if prefix is None else prefix
        return (prefix + " " if prefix else "") + shlex.quote(exe)

    def run_program(self, exe):
        """Runs the program; one that fails runs again through
        --retry-prefix where there is one, and that run counts."""
        rc, out = sh(self.run_cmd(exe), self.a.run_timeout)
        retry = self.a.retry_prefix
        if retry and retry != self.a.run_prefix and (
                rc != 0 or "FAIL case " in out or "ORACLE-ERROR" in out):
            rc, out = sh(self.run_cmd(exe, retry), self.a.run_timeout)
        return rc, out

    def run_batch(self, first, count, opt):
        """Returns (cases, failed case indices, report text)."""
        idx = list(range(first, first + count))
        base = os.path.join(self.a.workdir, "batch-s%d-%d-%d" %
                            (self.a.seed, first, count))
        src, exe = base + ".c", base + "-" + opt
        t0 = time.time()
        rc, out = sh(self.cc_cmd(src, exe, opt), self.a.compile_timeout)
        tc = time.time() - t0
        if rc != 0:
            # Find the cases the compiler rejects or crashes on.
            report = ["compile failed for %s at -%s (rc %d): %s" %
                      (src, opt, rc, first_error(out))]
            if count == 1:  # nothing to bisect
                report.append(self.reproducer(
                    first, opt, "compile error: " + first_error(out),
                    "compile"))
                return count, idx, "\n".join(report)
            bad = []
            for i in idx:
                one = os.path.join(self.a.workdir, "one-s%d-c%d-%s.c" %
                                   (self.a.seed, i, opt))
                self.write(one, [i])
                r1, o1 = sh(self.cc_cmd(one, one[:-2] + "-" + opt, opt),
                            self.a.compile_timeout)
                if r1 != 0:
                    bad.append(i)
                    report.append(self.reproducer(
                        i, opt, "compile error: " + first_error(o1),
                        "compile"))
            if not bad:
                # Only the programs together fail: the batch file is the
                # reproducer (and the failure is recorded, not just counted).
                report.append("    no case fails alone; reproducer: %s\n"
                              "    compile:    %s" %
                              (src, self.cc_cmd(src, exe, opt)))
                self.records.append({
                    "seed": self.a.seed, "case": first, "cases": idx,
                    "opt": opt, "cflags": self.a.cflags,
                    "category": "batch-compile", "detail": first_error(out),
                    "batch": src})
            return count, bad or idx, "\n".join(report)
        rc, out = self.run_program(exe)
        bad = []
        report = []
        fails = {}
        for line in out.splitlines():
            if line.startswith("FAIL case ") or line.startswith(
                    "ORACLE-ERROR"):
                if line.startswith("FAIL case "):
                    i = int(line.split()[2])
                else:  # ORACLE-ERROR case_17:...
                    i = int(line.split()[1].split("_")[1].split(":")[0])
                fails.setdefault(i, []).append(line)
        for i, lines in fails.items():
            bad.append(i)
            report.append(self.reproducer(i, opt, "\n      ".join(lines)))
        finished = any(SUMMARY_RE.match(ln) for ln in out.splitlines())
        if rc != 0 and (not bad or not finished):
            report.append("%s exited with %d before its summary line "
                          "(crash?):\n%s\n  batch source: %s\n  compile: %s" %
                          (exe, rc, "\n".join(out.splitlines()[-10:]), src,
                           self.cc_cmd(src, exe, opt)))
            # Find the crashing case by running the cases one at a time.
            for i in idx:
                if i in fails:
                    continue
                if count == 1:  # nothing to bisect
                    bad.append(i)
                    report.append(self.reproducer(
                        i, opt, "exit %d: %s" % (rc, first_error(out)),
                        "run"))
                    break
                one = os.path.join(self.a.workdir, "one-s%d-c%d-%s.c" %
                                   (self.a.seed, i, opt))
                self.write(one, [i])
                e1 = one[:-2] + "-" + opt
                r1, o1 = sh(self.cc_cmd(one, e1, opt), self.a.compile_timeout)
                kind = "compile"
                if r1 == 0:
                    r1, o1 = self.run_program(e1)
                    kind = "run"
                if r1 != 0:
                    bad.append(i)
                    fl = [ln for ln in o1.splitlines()
                          if ln.startswith("FAIL case ")]
                    if fl and "AddressSanitizer" not in o1:
                        why, kind = "\n      ".join(fl), "mismatch"
                    else:
                        why = "exit %d: %s" % (r1, first_error(o1))
                    report.append(self.reproducer(i, opt, why, kind))
            bad = bad or idx
        if self.a.verbose:
            print("  %s -%s: compile %.1fs, %d cases, %d failed" %
                  (os.path.basename(src), opt, tc, count, len(bad)))
        return count, bad, "\n".join(report)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True,
                    help="compiler command (with the plugin and -I)")
    ap.add_argument("--rt", default="", help="link arguments (runtime)")
    ap.add_argument("--cflags", default="")
    ap.add_argument("--opt", default="O0,O2")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--shard", default="0/1",
                    help="K/N: run the K-th of N equal slices of the cases "
                    "(lit runs the slices in parallel)")
    ap.add_argument("--ops", default=None,
                    help="comma-separated ops, or @file (default: "
                    "ops-enabled.txt)")
    ap.add_argument("--workdir", default="diff-work")
    ap.add_argument("--no-half-types", action="store_true",
                    help="draw no __bf16 or _Float16 tensors (for targets "
                    "whose C has neither: powerpc64le)")
    ap.add_argument("--no-small-vectors", action="store_true",
                    help="gen.py --no-small-vectors (see docs/testing.md)")
    ap.add_argument("--amx-shapes", action="store_true",
                    help="gen.py --amx-shapes: AMX types, larger GEMMs")
    ap.add_argument("--amx-max-n", type=int, default=100)
    ap.add_argument("--generator", choices=["gen", "progs"], default="gen",
                    help="gen.py (one op per case, libtlxrt oracle) or "
                    "progs.py (multi-op programs with their own reference)")
    ap.add_argument("--gen-args", default="",
                    help="progs.py flags, e.g. '--no-merges --disable "
                    "escape-late'")
    ap.add_argument("--json", help="write the failures to this JSON file")
    ap.add_argument("--cpu", default=os.environ.get("TLX_TEST_CPU", ""),
                    help="masked mode outside lit: compile with -march=CPU "
                    "(unless --cc has a -march) and run with "
                    "TLX_AMX_FORCE_UNSUPPORTED=1, as lit does for "
                    "TLX_TEST_CPU=CPU")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--compile-timeout", type=int, default=300)
    ap.add_argument("--run-timeout", type=int, default=60)
    ap.add_argument("--run-prefix", default="",
                    help="runs each program through this command (e.g. "
                    "'qemu-aarch64 -cpu max' for a cross --cc)")
    ap.add_argument("--retry-prefix", default="",
                    help="runs a program that fails through --run-prefix "
                    "again through this command, and judges that run: a "
                    "faithful but slower emulator mode (test/lit.cfg.py: "
                    "qemu-ppc64le on hosts where it folds xxsel wrongly)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    if os.environ.get("TLX_DIFF_SEED"):
        a.seed = int(os.environ["TLX_DIFF_SEED"])
    if os.environ.get("TLX_DIFF_CASES"):
        a.cases = int(os.environ["TLX_DIFF_CASES"])
    elif os.environ.get("TLX_DIFF_SCALE"):
        # The first part of every sweep (.ci/run's second and third runs
        # of the suite draw a tenth of each sweep's cases).
        a.cases = max(1, round(a.cases * float(os.environ["TLX_DIFF_SCALE"])))
    if a.cpu and a.cpu != "native":
        if "-march=" not in a.cc:
            a.cc += " -march=" + a.cpu
        os.environ["TLX_AMX_FORCE_UNSUPPORTED"] = "1"
    if a.generator == "progs":
        if os.environ.get("TLX_PROGS_ARGS") is not None:
            a.gen_args = os.environ["TLX_PROGS_ARGS"]
        if a.no_half_types:
            a.gen_args += " --no-bf16"
        ops_spec = os.environ.get("TLX_DIFF_OPS") or a.ops or "all"
    else:
        ops_spec = os.environ.get("TLX_DIFF_OPS") or a.ops or \
            "@" + os.path.join(HERE, "ops-enabled.txt")
    parse = progs.parse_ops if a.generator == "progs" else gen.parse_ops
    if ops_spec.startswith("@"):
        ops = read_ops_file(ops_spec[1:])
    else:
        ops = parse(ops_spec)
    if not ops:
        print("run.py: no ops enabled; nothing to test")
        return 0
    if a.no_half_types and a.generator == "gen":
        ops = [op + "!bf16!f16" for op in ops]
    ops = parse(",".join(ops))
    k, n = (int(x) for x in a.shard.split("/"))
    lo = a.first + a.cases * k // n
    hi = a.first + a.cases * (k + 1) // n
    a.first, a.cases = lo, hi - lo
    r = Runner(a, ops)
    opts = [o.strip() for o in a.opt.split(",") if o.strip()]
    jobs = []
    for first in range(a.first, a.first + a.cases, a.batch):
        n = min(a.batch, a.first + a.cases - first)
        for opt in opts:
            jobs.append((first, n, opt))
    # Write every batch before compiling (the -O levels share the sources).
    for first, n, opt in jobs:
        if opt == opts[0]:
            r.write(os.path.join(a.workdir, "batch-s%d-%d-%d.c" %
                                 (a.seed, first, n)),
                    list(range(first, first + n)))
    t0 = time.time()
    total = 0
    failed = []
    reports = []
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        for (first, n, opt), (cnt, bad, rep) in zip(
                jobs, ex.map(lambda j: r.run_batch(*j), jobs)):
            total += cnt
            failed.extend((i, opt) for i in bad)
            if rep:
                reports.append(rep)
    dt = time.time() - t0
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"seed": a.seed, "first": a.first, "cases": a.cases,
                       "opts": opts, "cflags": a.cflags,
                       "gen_args": a.gen_args, "runs": total,
                       "failures": r.records}, f, indent=1)
    print("tlx-diff: %sseed %d, %d cases x %s = %d runs, ops: %s" %
          ("progs %s, " % (a.gen_args or "(all features)")
           if a.generator == "progs" else "", a.seed, a.cases,
           "/".join(opts), total, ",".join(ops)))
    if failed:
        print("\n".join(reports))
        print("tlx-diff: FAILED %d of %d (%.1fs)" % (len(failed), total, dt))
        return 1
    print("tlx-diff: all %d passed (%.1fs)" % (total, dt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
