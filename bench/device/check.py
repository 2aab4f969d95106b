#!/usr/bin/env python3
"""bench/device/check.py DIR - judges what bench/device/run.sh wrote to DIR
(fetched from the machine it ran on): each test run of exec.txt against its
test's FileCheck lines (and exit status), each differential program of
corr.txt by its summary line. Prints one line per run and a total; exits 1
if anything failed."""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FILECHECK = "/usr/lib/llvm-19/bin/FileCheck"

# name -> (test file, check prefix, whether it must fail); require-products
# and native-no-amx depend on their arguments and environment (expect()).
CHECKS = {
    "amx_bf16_mlp": ("test/Samples/amx_bf16_mlp-native.test", "CHECK"),
    "amx_int8_gemm": ("test/Samples/amx_int8_gemm-native.test", "CHECK"),
    "amx_int8_gemm-O0": ("test/Samples/amx_int8_gemm-native.test", "CHECK"),
    "runtime-sizes-O2": ("test/AMX/runtime-sizes.c", "CHECK"),
    "runtime-sizes-O0": ("test/AMX/runtime-sizes.c", "CHECK"),
    "runtime-sizes-O0-off": ("test/AMX/runtime-sizes.c", "CHECK"),
    "o0-bf16-calls": ("test/AMX/o0-bf16-calls.c", "CHECK"),
    "o0-bf16-calls-off": ("test/AMX/o0-bf16-calls.c", "CHECK"),
    "hw-differential": ("test/AMX/hw-differential.c", "CHECK"),
    "tile1024i-api": ("test/AMX/tile1024i-api.c", "CHECK"),
    "tile1024i-loop": ("test/AMX/tile1024i-loop.c", "CHECK"),
    "register-intrinsics": ("test/AMX/register-intrinsics.c", "CHECK"),
}


def expect(name, env, args, fp16):
    """(test file, check prefix, must fail) for one run, or None."""
    if name in CHECKS:
        return CHECKS[name] + (False,)
    if name == "native-no-amx":
        forced = "FORCE" in env
        return ("test/AMX/native-no-amx.c", "CHECK" if forced else "HW",
                forced)
    if name == "require-products":
        f = "test/AMX/require-products.c"
        if args == "1":
            return (f, "FORCED", True)
        if args == "3" or fp16:
            return (f, "HW", False)
        return (f, "NOFP16", True)
    return None


def judge_exec(text, fp16):
    bad = 0
    runs = re.findall(r"^=== (\S+) \[([^\]]*)\] \[([^\]]*)\]\n(.*?)"
                      r"^=== rc=(\d+)$", text, re.M | re.S)
    for name, env, args, out, rc in runs:
        if name.startswith("gemmcheck"):
            ok = rc == "0" and "gemm ok" in out
        else:
            want = expect(name, env, args.strip(), fp16)
            if want is None:
                print("?    %s: no expectation" % name)
                continue
            path, prefix, fails = want
            r = subprocess.run([FILECHECK, os.path.join(ROOT, path),
                                "--check-prefix=" + prefix],
                               input=out.encode(), capture_output=True)
            ok = r.returncode == 0 and (rc != "0") == fails
        print("%s %s %s %s" % ("ok  " if ok else "FAIL", name, env, args))
        bad += not ok
    return len(runs), bad


def judge_corr(text, fp16):
    bad = 0
    progs = re.findall(r"^=== (\S+) rc=(\d+)\n(.*?)(?=^===|\Z)", text,
                       re.M | re.S)
    summary = re.compile(r"^\d+ (cases|programs), 0 failed", re.M)
    for name, rc, out in progs:
        if rc == "0" and summary.search(out) and "FAIL case" not in out:
            continue
        if not fp16 and "no AMX-FP16" in out:
            continue  # refused as it should be
        print("FAIL %s rc=%s\n%s" % (name, rc, out.strip()[:600]))
        bad += 1
    return len(progs), bad


def main():
    d = sys.argv[1]
    fp16 = "amx_fp16" in open(os.path.join(d, "cpu.txt")).read()
    n_exec, bad_exec = judge_exec(open(os.path.join(d, "exec.txt")).read(),
                                  fp16)
    n_corr, bad_corr = judge_corr(open(os.path.join(d, "corr.txt")).read(),
                                  fp16)
    print("test runs: %d, failed %d; differential programs: %d, failed %d"
          % (n_exec, bad_exec, n_corr, bad_corr))
    return 1 if bad_exec or bad_corr else 0


if __name__ == "__main__":
    sys.exit(main())
