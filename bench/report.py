#!/usr/bin/env python3
"""report.py RESULTS PERFORMANCE_MD PLOT_DAT NOTES_MD

Turns bench/run's result lines ("who type m n k gflops", "who conv desc
gflops", "peak TYPE RATE INSTRUCTION...", "info KEY VALUE...") into the
tables printed on stdout and docs/performance.md, and the data file
bench/plot.gp draws. Every rate is shown with its % of the core's peak for
its type (bench/peak.c)."""
import datetime
import os
import platform
import subprocess
import sys

# TLX: tlx.h programs built by tlx-cc -O2 -march=native, -O2, -O0
# -march=native, and -O2 -march=native with the AMX target.
# tlx-rtsize: the -O2 -march=native build with the sizes read at run time
# (bench/tlx_matmul.c -DRTSIZE=1); tlx-amx-rtsize: the same with the AMX
# target.
TLX_COLS = ["tlx", "tlx-nomarch", "tlx-O0", "tlx-amx", "tlx-rtsize",
            "tlx-amx-rtsize"]
ONEDNN_COLS = ["onednn", "onednn-matmul"]
COLS = TLX_COLS + ONEDNN_COLS + ["openblas", "naive"]
CONV_COLS = ["tlx", "tlx-nomarch", "tlx-O0", "tlx-marker", "onednn",
             "onednn-blocked"]
# The dense layer (bench/tlx_dense.c): its own table.
DENSE_COLS = ["tlx-dense", "tlx-dense-unfused", "onednn-dense"]
# Threads (bench/run step 5): TLX built with -fopenmp on one thread and on
# every core, oneDNN and OpenBLAS on every core: their own table.
THREAD_COLS = ["tlx-omp1", "tlx-omp", "onednn-omp", "openblas-omp"]
# Reductions (bench/tlx_reduce.c): TLX -O2 and -O0, and the loop a C user
# writes (clang -O3 -ffast-math); rows "who reduce-KIND R C 0 GB/s".
REDUCE_COLS = ["tlx", "tlx-O0", "cloop"]
TARGET_REDUCE = 0.90
# Skinny products and the transformer decode step (issue 50; rows "who
# gemv-ORIENT-TYPE D N S GB/s", "who transformer[-gbs]-TYPE DIM LAYERS
# STEPS TOK/S|GB/s"): TLX against the faster of the plain C loop (clang
# -O3 -ffast-math) and OpenBLAS, on one thread and on every core (-omp).
STREAM_KINDS = ("reduce-", "gemv-", "transformer")
SKINNY_COLS = ["tlx", "tlx-rtsize", "tlx-O0", "cloop", "openblas",
               "tlx-omp", "cloop-omp", "openblas-omp"]
TRANSFORMER_COLS = ["tlx", "twin", "tlx-omp", "twin-omp"]
TARGET_SKINNY = 1.0
TARGET_BANDWIDTH = 0.90
# Target of every GEMM row, one thread or several, and of the dense layer:
# TLX / oneDNN (issue 23: 0.95 at every size).
TARGET_GEMM = 0.95
# Convolutions (issue 23): NCHW data against oneDNN given NCHW, channels-
# last data against oneDNN in its own blocked layouts (its best).
TARGET_CONV_NCHW, TARGET_CONV_NHWC = 1.0, 0.95
# The CPU features that decide which kernels run, in the report's order.
FEATURES = ["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw",
            "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16",
            "avx_vnni", "amx_tile", "amx_int8", "amx_bf16", "amx_fp16"]
# Which peak a row's type is measured against.
PEAK_OF = {"f32": "f32", "s8s8s32": "int8", "u8s8s32": "int8",
           "bf16": "bf16", "conv": "f32"}


def parse(path, cols=None):
    """The result lines whose who is in cols, or (None) those of neither
    the dense nor the threads table."""
    rows, order = {}, []
    for line in open(path):
        f = line.split()
        if not f or f[0] in ("info", "peak"):
            continue
        if (f[0] not in cols) if cols else (f[0] in DENSE_COLS + THREAD_COLS):
            continue
        who = f[0]
        if len(f) > 4 and f[1] == "conv":
            # who conv CxHxW RxRxO[/S] [nhwc] value
            key = ("conv", f[2], f[3], "nhwc" if "nhwc" in f[4:-1] else "nchw")
        else:
            key = tuple(f[1:5])
        if key not in rows:
            rows[key] = {}
            order.append(key)
        try:
            rows[key][who] = float(f[-1])
        except ValueError:  # FAILED, or "unsupported" (the library lacks it)
            rows[key][who] = "n/a" if f[-1] == "unsupported" else f[-1]
    return rows, order


def parse_meta(path):
    """info KEY VALUE... lines (a dict) and peak lines ({type: (rate, how)},
    the best rate of each type; AMX peaks under "amx-int8"/"amx-bf16")."""
    info, peaks, notes = {}, {}, []
    for line in open(path):
        f = line.split()
        if len(f) >= 2 and f[0] == "info":
            info[f[1]] = " ".join(f[2:])
        elif len(f) >= 3 and f[0] == "peak":
            try:
                rate = float(f[2])
            except ValueError:
                notes.append(" ".join(f[1:]))
                continue
            if f[1] not in peaks or rate > peaks[f[1]][0]:
                peaks[f[1]] = (rate, " ".join(f[3:]))
    return info, peaks, notes


def machine_peak(peaks, kind):
    """The core's peak for a peak kind (f32, int8, bf16): its widest vector
    instruction's, or AMX's where the CPU has it and it is higher."""
    best = peaks.get(kind, (None,))[0]
    amx = peaks.get("amx-" + kind, (None,))[0]
    if amx and (best is None or amx > best):
        best = amx
    return best


def best(vals, names):
    got = [vals[n] for n in names if isinstance(vals.get(n), float)]
    return max(got) if got else None


def ratio(a, b):
    return "%.2f" % (a / b) if isinstance(a, float) and isinstance(b, float) and b else "-"


def cell(v, peak):
    """"165.8 (73%)": a rate and its % of the peak; FAILED; - (not run)."""
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if not peak:
        return "%.1f" % v
    return "%.1f (%.0f%%)" % (v, 100.0 * v / peak)


def cpuinfo(field):
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith(field):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def cpu_name():
    """The model name, with the vendor's family and model numbers (VMs often
    report a bare "AMD EPYC" or "Intel(R) Xeon(R) Processor")."""
    name = cpuinfo("model name") or platform.processor()
    fam, model = cpuinfo("cpu family"), cpuinfo("model\t")
    if fam and model:
        name += " (%s family %s model %s)" % (cpuinfo("vendor_id"), fam, model)
    return name


def feature_list(info):
    flags = info.get("cpu-flags") or cpuinfo("flags")
    have = set(flags.split())
    return [f for f in FEATURES if f in have]


def gemm_table(rows, order, peaks):
    header = (["type", "M x N x K"] + COLS +
              ["nomarch/native", "O0/O2", "run-time/static sizes",
               "AMX run-time/static sizes", "TLX/oneDNN", "TLX/OpenBLAS",
               "target"])
    table, plot = [], []
    for key in order:
        if key[0] == "conv" or key[0].startswith(STREAM_KINDS):
            continue
        vals = rows[key]
        peak = machine_peak(peaks, PEAK_OF.get(key[0], key[0]))
        size = "x".join(x for x in key[1:] if x)
        cells = [key[0], size] + [cell(vals.get(c), peak) for c in COLS]
        t, o = best(vals, ["tlx", "tlx-amx"]), best(vals, ONEDNN_COLS)
        cells += [ratio(vals.get("tlx-nomarch"), vals.get("tlx")),
                  ratio(vals.get("tlx-O0"), vals.get("tlx")),
                  ratio(vals.get("tlx-rtsize"), vals.get("tlx")),
                  ratio(vals.get("tlx-amx-rtsize"), vals.get("tlx-amx")),
                  ratio(t, o), ratio(vals.get("tlx"), vals.get("openblas"))]
        cells.append(target_cell(t, o, TARGET_GEMM))
        table.append(cells)
        plot.append((key[0] + "-" + size, t or 0, o or 0))
    return header, table, plot


def conv_table(rows, order, peaks):
    """Each layer in both layouts: NCHW against oneDNN given NCHW (>= 1.0),
    channels last against oneDNN's blocked layouts (>= 0.95)."""
    header = (["layer", "layout"] + CONV_COLS +
              ["nomarch/native", "O0/O2", "TLX/oneDNN given",
               "TLX/oneDNN blocked", "target"])
    table, plot = [], []
    for key in order:
        if key[0] != "conv":
            continue
        vals = rows[key]
        peak = machine_peak(peaks, "f32")
        cells = ["%s %s" % key[1:3], key[3]] + [cell(vals.get(c), peak)
                                                for c in CONV_COLS]
        t, o, ob = vals.get("tlx"), vals.get("onednn"), vals.get("onednn-blocked")
        cells += [ratio(vals.get("tlx-nomarch"), t), ratio(vals.get("tlx-O0"), t),
                  ratio(t, o), ratio(t, ob)]
        if key[3] == "nhwc":
            cells.append(target_cell(t, ob, TARGET_CONV_NHWC))
        else:
            cells.append(target_cell(t, o, TARGET_CONV_NCHW))
        table.append(cells)
        plot.append(("conv-%s-%s" % (key[1], key[3]),
                     t if isinstance(t, float) else 0,
                     o if isinstance(o, float) else 0))
    return header, table, plot


def reduce_table(rows, order, peaks):
    """The reductions, in GB/s read with the % of the cache's read
    bandwidth (bench/peak.c's read-16MiB), and TLX / the C loop."""
    header = (["reduction (f32)"] + REDUCE_COLS +
              ["O0/O2", "TLX/C loop", "target"])
    bandwidth = peaks.get("read-16MiB", (None,))[0]
    table = []
    for key in order:
        if not key[0].startswith("reduce-"):
            continue
        vals = rows[key]
        t, c = vals.get("tlx"), vals.get("cloop")
        cells = ["%s %sx%s" % (key[0][len("reduce-"):], key[1], key[2])]
        cells += [cell(vals.get(col), bandwidth) for col in REDUCE_COLS]
        cells += [ratio(vals.get("tlx-O0"), t), ratio(t, c)]
        cells.append(target_cell(t, c, TARGET_REDUCE))
        table.append(cells)
    return header, table


def skinny_table(rows, order, peaks):
    """The skinny products in GB/s of W read, with the % of the core's read
    bandwidth for W's size (bench/peak.c: read-16MiB for W in cache, else
    read-512MiB), and TLX against the better of the C loop and OpenBLAS,
    one thread and every core."""
    header = (["product", "D x N x S"] + SKINNY_COLS +
              ["TLX/best", "target", "TLX-omp/best-omp", "target",
               "TLX/bandwidth", "target"])
    table = []
    for key in order:
        if not key[0].startswith("gemv-"):
            continue
        vals = rows[key]
        _, orient, typ = key[0].split("-", 2)
        size = {"f32": 4, "bf16": 2, "f16": 2}.get(typ, 1)
        wbytes = int(key[1]) * int(key[2]) * size
        peak = peaks.get("read-16MiB" if wbytes <= 16 << 20 else "read-512MiB",
                         (None,))[0]
        cells = ["%s %s" % ("W x" if orient == "0" else "x W", typ),
                 "x".join(key[1:4])]
        cells += [cell(vals.get(c), peak) for c in SKINNY_COLS]

        def best(*cols):
            got = [vals.get(c) for c in cols if isinstance(vals.get(c), float)]
            return max(got) if got else None
        for ours, theirs in (("tlx", best("cloop", "openblas")),
                             ("tlx-omp", best("cloop-omp", "openblas-omp"))):
            cells += [ratio(vals.get(ours), theirs),
                      target_cell(vals.get(ours), theirs, TARGET_SKINNY)]
        cells += [ratio(vals.get("tlx"), peak),
                  target_cell(vals.get("tlx"), peak, TARGET_BANDWIDTH)]
        table.append(cells)
    return header, table


def transformer_table(rows, order, peaks):
    """Tokens/s of samples/transformer.c's decode step with TLX's products
    and with its plain-C twin, one thread and every core, and TLX's GB/s of
    weights read against the core's read bandwidth from memory."""
    header = (["transformer", "dim x layers"] + TRANSFORMER_COLS +
              ["TLX/twin", "target", "TLX-omp/twin-omp", "target",
               "TLX GB/s", "of bandwidth", "target"])
    table = []
    bandwidth = peaks.get("read-512MiB", (None,))[0]
    for key in order:
        if not key[0].startswith("transformer-") or "-gbs-" in key[0]:
            continue
        vals = rows[key]
        gbs = rows.get(("transformer-gbs-" + key[0].split("-", 1)[1],) +
                       key[1:], {}).get("tlx")
        cells = [key[0].split("-", 1)[1], "%sx%s" % (key[1], key[2])]
        cells += [cell(vals.get(c), None) for c in TRANSFORMER_COLS]
        for ours, theirs in (("tlx", "twin"), ("tlx-omp", "twin-omp")):
            cells += [ratio(vals.get(ours), vals.get(theirs)),
                      target_cell(vals.get(ours), vals.get(theirs),
                                  TARGET_SKINNY)]
        cells += [cell(gbs, None), ratio(gbs, bandwidth),
                  target_cell(gbs, bandwidth, 0.85)]
        table.append(cells)
    return header, table


def target_cell(ours, theirs, target):
    """"ok (>= T)" or "MISSED (T)" for the ratio ours / theirs; "-" when
    either did not run."""
    if not (isinstance(ours, float) and isinstance(theirs, float)):
        return "-"
    return ("ok (>= %.2f)" if ours / theirs >= target
            else "MISSED (%.2f)") % target


def print_table(header, table):
    widths = [max(len(str(r[i])) for r in [header] + table) for i in range(len(header))]
    for r in [header] + table:
        print("  ".join(str(c).rjust(w) for c, w in zip(r, widths)))


def md_table(f, header, table):
    f.write("| " + " | ".join(header) + " |\n")
    f.write("|" + "---|" * len(header) + "\n")
    for r in table:
        f.write("| " + " | ".join(str(c) for c in r) + " |\n")
    f.write("\n")


def peak_lines(peaks, notes):
    out = []
    for kind, unit in (("f32", "GFLOP/s"), ("int8", "GOP/s"),
                       ("int8-sat", "GOP/s"), ("bf16", "GFLOP/s"),
                       ("amx-int8", "GOP/s"), ("amx-bf16", "GFLOP/s"),
                       ("read-16MiB", "GB/s"), ("read-512MiB", "GB/s")):
        if kind in peaks:
            rate, how = peaks[kind]
            out.append("%s %.1f %s: %s" % (kind, rate, unit, how))
    return out + ["peak " + n for n in notes]


def main():
    results, md_path, dat_path, notes_path = sys.argv[1:5]
    info, peaks, notes = parse_meta(results)
    rows, order = parse(results)
    header, table, plot = gemm_table(rows, order, peaks)
    cheader, ctable, cplot = conv_table(rows, order, peaks)
    features = feature_list(info)
    cores = len([l for l in open("/proc/cpuinfo") if l.startswith("processor")])

    print("CPU: %s (%d cores); features: %s" % (cpu_name(), cores,
                                                 " ".join(features) or "-"))
    print("Peak per core: " + "; ".join(peak_lines(peaks, notes)))
    print("OpenBLAS kernels: %s (OPENBLAS_CORETYPE %s)" % (
        info.get("openblas-core", "?"), info.get("openblas-coretype", "?")))
    print_table(header, table)
    if ctable:
        print()
        print_table(cheader, ctable)
    rheader, rtable = reduce_table(rows, order, peaks)
    if rtable:
        print()
        print_table(rheader, rtable)
    sheader, stable = skinny_table(rows, order, peaks)
    xheader, xtable = transformer_table(rows, order, peaks)
    for h, t in ((sheader, stable), (xheader, xtable)):
        if t:
            print()
            print_table(h, t)
    dheader, dtable = dense_table(results, peaks)
    if dtable:
        print()
        print_table(dheader, dtable)
    theader, ttable = threads_table(results)
    if ttable:
        print()
        print_table(theader, ttable)

    with open(dat_path, "w") as f:
        for label, t, o in plot + cplot:
            f.write('"%s" %.1f %.1f\n' % (label, t, o))

    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    march = info.get("march", "-march=native")
    with open(md_path, "w") as f:
        f.write("# TLX performance\n\n")
        f.write("Generated by `bash bench/run` (bench/report.py); do not edit the "
                "measurements by hand - edit bench/notes.md for the analysis.\n\n")
        f.write("- Machine: %s, %d cores, Linux %s\n" % (cpu_name(), cores,
                                                          platform.release()))
        f.write("- CPU features: %s\n" % (", ".join(features) or "none of AVX2 and later"))
        f.write("- Peak of one core (bench/peak.c, the best of two runs):\n")
        for p in peak_lines(peaks, notes):
            f.write("  - %s\n" % p)
        # When the results were measured (their file's time), not when the
        # report was written: regenerating it with new notes keeps the date.
        measured = datetime.datetime.fromtimestamp(
            os.path.getmtime(results), datetime.timezone.utc)
        f.write("- Date: %s UTC\n" % measured.strftime("%Y-%m-%d %H:%M"))
        f.write("- Command: `bash bench/run` (single thread: OMP_NUM_THREADS=1, "
                "OPENBLAS_NUM_THREADS=1; OpenBLAS kernels: %s, OPENBLAS_CORETYPE "
                "%s)\n" % (info.get("openblas-core", "?"),
                           info.get("openblas-coretype", "?")))
        f.write("- Load when the report was written: `%s` (2 shared cores: other "
                "jobs running at the same time make every number noisy)\n" % load)
        f.write("- GFLOP/s (GOP/s for int8), best of at least 5 runs in each of "
                "five processes - every column of a size (or layer, or "
                "reduction) once per round, in interleaved rounds, so that a "
                "slow spell of the machine falls on all alike -, results "
                "checked against a direct dot product before timing; in "
                "parentheses the % of the core's peak for the type (f32, int8 "
                "or bf16 above; AMX's where the CPU has AMX, for every column).\n")
        f.write("- Every TLX column is bench/tlx_matmul.c (tlx.h: tensor_load, "
                "tensor_matmul, or tensor_usmma with a zero accumulator for "
                "u8s8s32, tensor_typeinfo, tensor_store) built by tlx-cc: "
                "tlx `-O2 %s`; tlx-nomarch `-O2` (no -march: the x86-64 "
                "baseline); tlx-O0 `-O0 %s`; tlx-amx `-O2 %s "
                "-fplugin-arg-tlx-target=amx` (int8/bf16, only where the CPU "
                "has AMX); tlx-rtsize `-O2 %s` with M, N and K read from "
                "volatiles (run-time sizes; not u8s8s32), tlx-amx-rtsize the "
                "same with the AMX target. onednn: dnnl_sgemm / dnnl_gemm_s8s8s32 / "
                "dnnl_gemm_u8s8s32 / bf16 matmul primitive; onednn-matmul: the "
                "int8 matmul primitive (uses AMX where present, the BLAS-style "
                "int8 calls do not); openblas: cblas_sgemm. nomarch/native = "
                "tlx-nomarch / tlx; O0/O2 = tlx-O0 / tlx; run-time/static "
                "sizes = tlx-rtsize / tlx, AMX run-time/static sizes = "
                "tlx-amx-rtsize / tlx-amx; TLX/oneDNN = best of "
                "tlx, tlx-amx / best oneDNN column; TLX/OpenBLAS = tlx / "
                "openblas.\n\n" % (march, march, march, march))
        f.write("![TLX vs oneDNN](performance.png)\n\n")
        md_table(f, header, table)
        if ctable:
            f.write("Convolution layers, f32, batch 1, no padding "
                    "(bench/tlx_convolution.c: one tensor_convolution, built "
                    "by tlx-cc as above; nchw: NCHW data and an OIHW kernel, "
                    "nhwc: channels-last data and an HWIO kernel; tlx-marker: "
                    "bench/tlx_conv.c, nine shifted GEMMs through the emitter's "
                    "test marker - not a user's path; onednn: its convolution "
                    "primitive given the layer's layout, onednn-blocked: in "
                    "the blocked layouts it chooses, data reordered outside "
                    "the timing, as a framework keeps them; each layer's "
                    "columns measured side by side, the best of five "
                    "interleaved rounds of one process each):\n\n")
            md_table(f, cheader, ctable)
        if rtable:
            f.write("Reductions of a 2048x2048 f32 matrix (bench/tlx_reduce.c, "
                    "tlx.h's short form: a row max - window 1x2048 -, column "
                    "sums - window 2048x1 - and a full max), built by tlx-cc "
                    "`-O2 %s` (tlx) and `-O0 %s` (tlx-O0), next to the loop a "
                    "C user writes, built by `clang -O3 %s -ffast-math` "
                    "(cloop). GB/s of the matrix read, best of 60 passes in each "
                    "of five processes - the three columns in interleaved "
                    "rounds -, with "
                    "the %% of the core's read bandwidth from a 16 MiB buffer "
                    "(bench/peak.c, read-16MiB).\n\n" % (march, march, march))
            md_table(f, rheader, rtable)
        if stable:
            f.write("Skinny products (bench/tlx_gemv.c: one short-form "
                    "`tlx_matmul`, W x - a transformer's projections - or "
                    "x W, W row-major and malloc'd), built by tlx-cc `-O2 %s` "
                    "(tlx; tlx-rtsize: the sizes read at run time; tlx-O0), "
                    "the same source as the loop a C user writes (cloop, "
                    "`clang -O3 %s -ffast-math`) and OpenBLAS's sgemv (sgemm "
                    "for S > 1); -omp: built with -fopenmp, on every core. "
                    "GB/s of W read, with the %% of the core's read bandwidth "
                    "for W's size (bench/peak.c: from a 16 MiB buffer when W "
                    "fits, else from 512 MiB).\n\n" % (march, march))
            md_table(f, sheader, stable)
        if xtable:
            f.write("A transformer's decode step (samples/transformer.c: "
                    "sizes from its model file, every product through TLX's "
                    "short form, beside its plain-C twin built by `clang -O3 "
                    "%s -ffast-math`; -omp: both with -fopenmp on every "
                    "core): tokens/s, and TLX's GB/s of weights read against "
                    "the core's read bandwidth from memory (read-512MiB).\n\n"
                    % march)
            md_table(f, xheader, xtable)
        write_compile_table(f, info, march)
        write_dense_table(f, dheader, dtable, march)
        write_threads_table(f, theader, ttable, march,
                            info.get("threads", "?"))
        try:
            f.write(open(notes_path).read())
        except OSError:
            pass


def dense_table(results, peaks):
    """The dense layer y = relu(alpha (x W) + b) rows, with the ratios the
    fused epilogue is judged by."""
    rows, order = parse(results, DENSE_COLS)
    header = (["type", "batch x out x in"] + DENSE_COLS +
              ["fused/oneDNN", "fused/unfused", "target"])
    table = []
    for key in order:
        vals = rows[key]
        peak = machine_peak(peaks, PEAK_OF.get(key[0], key[0]))
        cells = [key[0], "x".join(key[1:])]
        cells += [cell(vals.get(c), peak) for c in DENSE_COLS]
        fused, unfused, dnn = (vals.get(c) for c in DENSE_COLS)
        cells += [ratio(fused, dnn), ratio(fused, unfused),
                  target_cell(fused, dnn, TARGET_GEMM)]
        table.append(cells)
    return header, table


def write_compile_table(f, info, march):
    """The 12-layer MLP's compile time and text (info compile-mlp-*)."""
    rows = [[share, build, "64", info[key]]
            for share in ("never", "auto", "always")
            for build in ("dispatch", "native")
            for key in ["compile-mlp-%s-%s" % (share, build)] if key in info]
    rows += [["auto", "dispatch", batch, info[key]]
             for batch in ("1", "32", "256")
             for key in ["compile-mlp-auto-dispatch-batch" + batch]
             if key in info]
    if not rows:
        return
    f.write("Compile time and code size (bench/tlx_mlp.c: a 12-layer MLP of "
            "different widths, relu fused, on a batch of 64 rows - or 1, 32, "
            "256; `tlx-cc -O2 -c`, the best of three compiles, with dispatch "
            "- no -march - or `%s`; share-kernels: docs/pipeline.md, "
            "\"Shared kernels\"):\n\n" % march)
    md_table(f, ["share-kernels", "build", "batch", "compile, text, largest "
                 "functions (bytes)"], rows)


def write_dense_table(f, header, table, march):
    if not table:
        return
    f.write("## Dense layer\n\n")
    f.write("y = relu(alpha * (x W) + b) written in C with tlx.h "
            "(bench/tlx_dense.c: f32 with the scale and bias as C vector "
            "operators, alpha = 0.5; int8: s8 x s8 -> s32 with the bias in "
            "the smma accumulator, then relu), built by `tlx-cc -O2 "
            "%s`: tlx-dense with the epilogue fused into the GEMM, "
            "tlx-dense-unfused with `-fplugin-arg-tlx-fuse-epilogues=off`; "
            "onednn-dense: one oneDNN matmul primitive with bias, output "
            "scale and an eltwise relu post-op. GFLOP/s (GOP/s) counting the "
            "GEMM's 2 x batch x out x in, with the %% of the core's peak.\n\n"
            % march)
    md_table(f, header, table)


def threads_table(results):
    """The threaded rows: TLX's speed-up over its own one-thread run and its
    ratio to oneDNN on as many threads."""
    rows, order = parse(results, THREAD_COLS)
    header = (["type", "m n k"] + THREAD_COLS +
              ["speed-up", "TLX/oneDNN", "TLX/OpenBLAS", "target"])
    table = []
    for key in order:
        vals = rows[key]
        one, many, dnn, blas = (vals.get(c) for c in THREAD_COLS)
        table.append([key[0], " ".join(key[1:]).strip()] +
                     [cell(vals.get(c), None) for c in THREAD_COLS] +
                     [ratio(many, one), ratio(many, dnn), ratio(many, blas),
                      target_cell(many, dnn, TARGET_GEMM)])
    return header, table


def write_threads_table(f, header, table, march, threads):
    if not table:
        return
    f.write("## Threads\n\n")
    f.write("The same tlx.h programs (bench/tlx_matmul.c, "
            "bench/tlx_convolution.c) built by `tlx-cc -O2 %s -fopenmp`: "
            "tlx-omp1 run with OMP_NUM_THREADS=1, tlx-omp with "
            "OMP_NUM_THREADS=%s (every core); onednn-omp and openblas-omp "
            "(cblas_sgemm) on %s threads. speed-up = tlx-omp / tlx-omp1; "
            "TLX/oneDNN = tlx-omp / onednn-omp. GFLOP/s (GOP/s for int8), "
            "best of at least 5 runs in each of five processes, a size's columns in "
            "interleaved rounds.\n\n" % (march, threads, threads))
    md_table(f, header, table)


if __name__ == "__main__":
    main()
