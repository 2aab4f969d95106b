#!/usr/bin/env python3
"""bench/amx_mca.py - evidence of AMX kernel quality without AMX hardware.

Compiles bench/amx_kernels.c (1024^3 int8 and bf16 GEMMs written with
tlx.h) through tlx-cc -O2 -march=sapphirerapids, and for every AMX kernel
function (tlx.amx.gemm*) reports:

  - ldtilecfg per kernel, and in its k loop (the innermost loop holding the
    tdp* instructions): instructions, tdp*, tileloadd, accumulator traffic
    (tilestored, or a tileloadd into an accumulator tile), stack spills;
  - llvm-mca-19 -mcpu=sapphirerapids on that loop: cycles per iteration
    and the block reciprocal throughput with the tdp* instructions left out
    (the cost of everything else: tile loads, address arithmetic, branch);
  - the tile-load bound: 1 KiB per tileloadd at two 64-byte loads per
    cycle (8 cycles each), since llvm-mca does not model tileloadd;
  - the tdp* bound: Intel's throughput of one tile product per 16 cycles.

A kernel bound by tdp* has the other costs below the tdp* bound. (LLVM
19's Sapphire Rapids model has no AMX entries: it gives tdp* the default
100-cycle latency, so its cycles per iteration follow the accumulator
chains, not the hardware; see docs/amx.md.)

    python3 bench/amx_mca.py [--build DIR] [--markdown]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TDP_CYCLES = 16  # one 16x16x64-byte tile product per 16 cycles
# A full tile load moves 1 KiB; at two 64-byte L1 loads per cycle that is
# 8 cycles (llvm-mca's model does not know tileloadd either).
TILELOAD_CYCLES = 8

TDP = re.compile(r"^\s*tdp\w+\s")
LABEL = re.compile(r"^(\.LBB\w+):")
BRANCH = re.compile(r"^\s*j\w+\s+(\.LBB\w+)")
FUNC = re.compile(r"^([\w.]+):\s*(#.*)?$")


def functions(asm):
    """(name, lines) of every function in the assembly text."""
    name, body = None, []
    for line in asm.splitlines():
        m = FUNC.match(line)
        if m and not line.startswith(".L"):
            if name:
                yield name, body
            name, body = m.group(1), []
        elif name:
            if re.match(r"^\.Lfunc_end", line):
                yield name, body
                name, body = None, []
            else:
                body.append(line)


def instructions(lines):
    return [l.strip() for l in lines
            if l.strip() and not l.strip().startswith((".", "#"))
            and not LABEL.match(l.strip())]


def k_loop(body):
    """The innermost loop holding tdp*: lines from a label to the branch
    back to it, the shortest such range containing a tdp*."""
    best = None
    labels = {}
    for i, line in enumerate(body):
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = i
        b = BRANCH.match(line)
        if b and b.group(1) in labels:
            start = labels[b.group(1)]
            loop = body[start:i + 1]
            if any(TDP.match(l) for l in loop) and (
                    best is None or len(loop) < len(best)):
                best = loop
    return best


def accumulator_tiles(loop):
    """Tiles written by tdp* (the accumulators)."""
    acc = set()
    for l in loop:
        if TDP.match(l):
            acc.add(l.split(",")[-1].strip())
    return acc


def mca(lines, skip_tdp=False):
    text = "\n".join(l for l in instructions(lines)
                     if not (skip_tdp and TDP.match(l)))
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text + "\n")
        path = f.name
    try:
        out = subprocess.run(
            ["llvm-mca-19", "-mcpu=sapphirerapids", "-iterations=200", path],
            capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    cycles = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))
    rthroughput = float(re.search(r"Block RThroughput:\s+([\d.]+)",
                                  out).group(1))
    return cycles / 200.0, rthroughput


def analyse(build):
    src = os.path.join(HERE, "amx_kernels.c")
    cc = os.path.join(build, "bin", "tlx-cc")
    asm = subprocess.run(
        [cc, "-O2", "-march=sapphirerapids", "-S", src, "-o", "-"],
        capture_output=True, text=True, check=True).stdout
    rows = []
    for name, body in functions(asm):
        if not name.startswith("tlx.amx.gemm"):
            continue
        loop = k_loop(body)
        if loop is None:
            continue
        ins = instructions(loop)
        acc = accumulator_tiles(loop)
        tdp = [l for l in ins if TDP.match(l)]
        loads = [l for l in ins if l.startswith("tileloadd")]
        acc_traffic = [l for l in ins if l.startswith("tilestored") or (
            l.startswith("tileloadd") and l.split(",")[-1].strip() in acc)]
        spills = [l for l in ins if "(%rsp)" in l or "(%rbp)" in l]
        cycles, rest = mca(loop, skip_tdp=True)
        full_cycles, _ = mca(loop)
        rows.append({
            "kernel": name, "tdp": tdp[0].split()[0],
            "ldtilecfg": sum(1 for l in body if "ldtilecfg" in l),
            "instructions": len(ins), "tdp_count": len(tdp),
            "tileloadd": len(loads), "acc_traffic": len(acc_traffic),
            "spills": len(spills), "mca_cycles": full_cycles,
            "rest": rest, "load_bound": TILELOAD_CYCLES * len(loads),
            "bound": TDP_CYCLES * len(tdp)})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    args = ap.parse_args()
    rows = analyse(os.path.abspath(args.build))
    if not rows:
        print("amx_mca: no AMX k loop found", file=sys.stderr)
        return 1
    print("| kernel | tdp | ldtilecfg | k-loop instructions | tdp* | tileloadd "
          "| accumulator loads/stores | spills | llvm-mca cycles/iter "
          "| non-tdp cycles/iter (mca) | tile-load bound | tdp* bound "
          "| bound by |")
    print("|---" * 13 + "|")
    for r in rows:
        other = max(r["rest"], r["load_bound"])
        bound_by = "tdp*" if other < r["bound"] else "loads/other work"
        print("| %s | %s | %d | %d | %d | %d | %d | %d | %.0f | %.1f | %d "
              "| %d | %s |"
              % (r["kernel"], r["tdp"], r["ldtilecfg"], r["instructions"],
                 r["tdp_count"], r["tileloadd"], r["acc_traffic"],
                 r["spills"], r["mca_cycles"], r["rest"], r["load_bound"],
                 r["bound"], bound_by))
    bad = [r for r in rows
           if r["ldtilecfg"] != 1 or r["acc_traffic"] or r["spills"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
