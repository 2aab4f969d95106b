# lit configuration for the TLX test suite (check-tlx).
import os
import lit.formats

config.name = "TLX"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".test"]
config.excludes = ["Inputs", "tools", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tlx_obj_root, "test")

# The LLVM tools of the version TLX is built for (FileCheck, not, count, opt,
# llc) first on PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.join(config.tlx_obj_root, "bin"),
     config.environment.get("PATH", os.environ.get("PATH", ""))])
# LLVM 20+ prints splat vector constants in a short form; test/tools/FileCheck
# reads its input in LLVM 19's form, so one set of CHECK lines serves both.
if int(config.llvm_major) >= 20:
    config.environment["TLX_REAL_FILECHECK"] = os.path.join(
        config.llvm_tools_dir, "FileCheck")
    config.environment["PATH"] = os.pathsep.join(
        [os.path.join(config.tlx_src_root, "test", "tools"),
         config.environment["PATH"]])
for var in ("HOME", "TMPDIR", "TLX_DIFF_CASES", "TLX_DIFF_SCALE",
            "TLX_DIFF_SEED", "TLX_DIFF_OPS", "TLX_PROGS_ARGS", "LD_PRELOAD",
            "ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

plugin = os.path.join(config.tlx_obj_root, "lib", "libtlx.so")
headers = os.path.join(config.tlx_src_root, "headers")
rt_static = os.path.join(config.tlx_obj_root, "lib", "libtlxrt.a")

# %limit_memory <command>: runs it with 1 GB of address space, for a
# compile that must stay small (a tensor-sized vector in instruction
# selection takes gigabytes); no limit when the plugin runs under a
# sanitizer (LD_PRELOAD), which reserves far more address space.
config.substitutions.append(
    ("%limit_memory", "env" if "LD_PRELOAD" in os.environ
     else "prlimit --as=1073741824"))
config.substitutions.append(("%tlx_plugin", plugin))
config.substitutions.append(("%tlx_headers", headers))
config.substitutions.append(("%tlx_src", config.tlx_src_root))
config.substitutions.append(("%tlx_clangxx", config.tlx_clangxx))
config.substitutions.append(("%tlx_clang", config.tlx_clang))
config.substitutions.append(("%llvm_major", config.llvm_major))
config.substitutions.append(
    ("%tlx_version_defines", " ".join(
        "-DCMAKE_VERSION_%s=%s" % (part, value) for part, value in
        zip(("MAJOR", "MINOR", "PATCH"), config.tlx_version.split(".")))))
config.substitutions.append(("%tlx_version", config.tlx_version))

config.substitutions.append(("%tlx_obj", config.tlx_obj_root))
config.substitutions.append(
    ("%clang_tlx", "%s -fplugin=%s -I%s" % (config.tlx_clang, plugin, headers)))
config.substitutions.append(
    ("%clang_plain", "%s -I%s" % (config.tlx_clang, headers)))
config.substitutions.append(
    ("%opt_tlx", "%s -load-pass-plugin=%s" %
     (os.path.join(config.llvm_tools_dir, "opt"), plugin)))
config.substitutions.append(("%tlx_rt", "%s -lm" % rt_static))
config.substitutions.append(
    ("%tlx_cxx", os.path.join(config.tlx_obj_root, "bin", "tlx-c++")))
config.substitutions.append(
    ("%tlx_cc", os.path.join(config.tlx_obj_root, "bin", "tlx-cc")))
config.substitutions.append(
    ("%llc", os.path.join(config.llvm_tools_dir, "llc")))

# Features. valgrind for leak checks. CPU features come from CPUID (the
# kernel's view of it in /proc/cpuinfo) and name what execution tests may
# run natively: cpu-avx2, cpu-avx512f, cpu-avx512-vnni, cpu-avx512-bf16,
# cpu-avx512-vbmi,
# amx-hw (AMX-TILE, INT8, BF16) and amx-fp16-hw.
#
# Masking: TLX_TEST_CPU=<-march level> (or lit --param cpu=...) runs the
# suite as if on that CPU: features are limited to what the level
# guarantees (never AMX), execution tests are compiled with -march=<level>
# (%march_native, and %clang_tlx / %clang_plain get it too) and the runtime
# refuses AMX (TLX_AMX_FORCE_UNSUPPORTED=1) and run-time dispatch any ISA
# level above it (TLX_ISA_LEVEL_MAX). .ci/run runs the suite natively
# and masked to x86-64-v3 (AVX2), so a pass here says nothing depends on
# AVX-512 or AMX being present.
import shutil
# llvm-<major>: the LLVM TLX is built for (tests of version-specific IR).
config.available_features.add("llvm-" + config.llvm_major)
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

# <arch>-cross: programs can be built for a cross target (Debian's cross
# sysroot, lld, and the runtime built for it: lib/<triple>/libtlxrt.a) and
# run under qemu-user. %<arch>_tlx_cc is tlx-cc for that target (it links
# that runtime statically); %<arch>_qemu runs the result.
#   aarch64-cross  (%a64_...)  qemu-aarch64 -cpu max: NEON, SVE, SME
#   ppc64le-cross  (%ppc_...)  qemu-ppc64le -cpu power10: VSX, MMA
#   riscv64-cross  (%rv_...)   qemu-riscv64 -cpu rv64,v=true: RVV
# (Not in the x86 masked runs: masking says nothing about other targets.)
_masked = lit_config.params.get("cpu", os.environ.get("TLX_TEST_CPU", ""))
_has_lld = bool(shutil.which("ld.lld") or os.path.exists(
    os.path.join(config.llvm_tools_dir, "ld.lld")))
_cross_targets = (
    ("aarch64", "a64", "aarch64-linux-gnu", "qemu-aarch64 -cpu max"),
    ("ppc64le", "ppc", "powerpc64le-linux-gnu", "qemu-ppc64le -cpu power10"),
    ("riscv64", "rv", "riscv64-linux-gnu",
     "qemu-riscv64 -cpu rv64,v=true,vlen=128"))
# %cross_opt: the -O levels the cross targets' execution tests build at
# (cross_run.py, Differential/run.py --opt): O0,O2, or TLX_CROSS_OPT (.ci/run
# gives O2 for the second LLVM version, whose qemu runs would otherwise
# double the suite's time on a slow machine; LLVM 19 keeps both levels).
_cross_opt = os.environ.get("TLX_CROSS_OPT", "O0,O2")
config.substitutions.append(("%cross_opt", _cross_opt))
# %cross_programs_opt: the levels of the whole programs under qemu (the
# <arch>-cross-programs tests): TLX_CROSS_PROGRAMS_OPT, else %cross_opt's
# (.ci/run: O2; their -O0 builds run offline, the sweeps keep -O0).
config.substitutions.append(("%cross_programs_opt", os.environ.get(
    "TLX_CROSS_PROGRAMS_OPT", _cross_opt)))
# <arch>-cross-programs: the target's whole-program tests (integration and
# samples under qemu) run too - on every cross target, or those that
# TLX_CROSS_PROGRAMS lists (.ci/run: every target's with LLVM 19, none with
# LLVM 22, "none"; every target's op and program sweeps run with both).
_cross_programs = os.environ.get("TLX_CROSS_PROGRAMS",
                                 "aarch64,ppc64le,riscv64").split(",")
for _arch, _prefix, _triple, _qemu in _cross_targets:
    _feature = _arch + "-cross"
    _rt = os.path.join(config.tlx_obj_root, "lib", _triple, "libtlxrt.a")
    if (_masked in ("", "native") and os.path.exists(_rt) and _has_lld
            and shutil.which(_qemu.split()[0])):
        config.available_features.add(_feature)
        if _arch in _cross_programs:
            config.available_features.add(_feature + "-programs")
    config.substitutions.append(
        ("%%%s_tlx_cc" % _prefix, "%s --target=%s" % (
            os.path.join(config.tlx_obj_root, "bin", "tlx-cc"), _triple)))
    config.substitutions.append(("%%%s_qemu" % _prefix, _qemu))

def _probe_prints_ok(name, cc_args, source, run):
    """Builds test/<source> with tlx-cc and cc_args, runs it with the run
    command (a list) and says whether it printed "ok"."""
    import subprocess
    exe = os.path.join(config.tlx_obj_root, "test", name)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    try:
        subprocess.run(
            [os.path.join(config.tlx_obj_root, "bin", "tlx-cc")] + cc_args +
            ["-o", exe, os.path.join(config.test_source_root, source)],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=120)
        out = subprocess.run(run + [exe], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=60).stdout
        return out.strip() == b"ok"
    except (OSError, subprocess.SubprocessError):
        return False


# QEMU 10.0's TCG optimizer folds PowerPC's xxsel wrongly when its "false"
# operand is an all-ones register made by xxleqv (the result is all ones):
# LLVM emits that pair for a select with a -1 constant. (As we read QEMU's
# optimizer, the select becomes an OR-with-complement of the wrong operands,
# an op its x86 backend has only with AVX-512VL; the probe decides.) Where
# the probe (test/PowerPC/Inputs/xxsel-probe.c) sees it, %ppc_qemu
# translates one instruction at a time, so nothing is folded across
# instructions - about 5x slower. %ppc_qemu_fast (and %ppc9_qemu_fast) is qemu as it is: the
# scripts that run many programs (cross_run.py --qemu-retry, run.py
# --retry-prefix) run each in it first and again under %ppc_qemu only if
# it fails there, and judge that run.
if "ppc64le-cross" in config.available_features and not _probe_prints_ok(
        "xxsel-probe", ["--target=powerpc64le-linux-gnu", "-mcpu=power9",
                        "-O1"], "PowerPC/Inputs/xxsel-probe.c",
        ["qemu-ppc64le", "-cpu", "power9"]):
    lit_config.note("qemu-ppc64le folds xxsel wrongly: running PowerPC "
                    "programs with -one-insn-per-tb")
    config.substitutions.insert(0, (
        "%ppc_qemu", "qemu-ppc64le -one-insn-per-tb -cpu power10"))
    config.substitutions.insert(0, (
        "%ppc9_qemu", "qemu-ppc64le -one-insn-per-tb -cpu power9"))
config.substitutions.append(("%ppc9_qemu", "qemu-ppc64le -cpu power9"))
config.substitutions.insert(
    0, ("%ppc_qemu_fast", "qemu-ppc64le -cpu power10"))
config.substitutions.insert(
    0, ("%ppc9_qemu_fast", "qemu-ppc64le -cpu power9"))

# qemu-sme-imopa: qemu-aarch64 computes SME's 4-way integer outer products
# (SMOPA, UMOPA, ... into 32-bit tiles) as the architecture defines them,
# so int8 GEMMs on SME can run; QEMU 7.2 (Debian 12) gets them wrong,
# the qemu 10 .ci/setup installs from bookworm-backports right
# (test/AArch64/Inputs/sme-imopa-probe.c, built and run here once).
if "aarch64-cross" in config.available_features and _probe_prints_ok(
        "sme-imopa-probe", ["--target=aarch64-linux-gnu", "-O2"],
        "AArch64/Inputs/sme-imopa-probe.c", ["qemu-aarch64", "-cpu", "max"]):
    config.available_features.add("qemu-sme-imopa")

# asan-rt: clang can link -fsanitize=address programs (clang-19's runtime,
# libclang-rt-19-dev on Debian).
import glob
import subprocess
_rdir = ""
try:
    _rdir = subprocess.run([config.tlx_clang, "-print-resource-dir"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True).stdout.strip()
    if glob.glob(os.path.join(_rdir, "lib", "*", "*clang_rt.asan*x86_64*")) \
            or glob.glob(os.path.join(_rdir, "lib", "*", "libclang_rt.asan.a")):
        config.available_features.add("asan-rt")
except OSError:
    pass

# tsan-rt: clang can link -fsanitize=thread programs.
if glob.glob(os.path.join(_rdir, "lib", "*", "*clang_rt.tsan*x86_64*")) \
        or glob.glob(os.path.join(_rdir, "lib", "*", "libclang_rt.tsan.a")):
    config.available_features.add("tsan-rt")

# archer: LLVM's OpenMP tool that tells ThreadSanitizer about libomp's
# synchronization (libomp itself is not instrumented); %archer loads it.
_archer = os.path.join(config.llvm_tools_dir, "..", "lib", "libarcher.so")
if os.path.exists(_archer):
    config.available_features.add("archer")
config.substitutions.append(
    ("%archer", "OMP_TOOL_LIBRARIES=%s" % os.path.realpath(_archer)))

# openmp: clang -fopenmp compiles and links (libomp-<major>-dev), so TLX's
# threaded GEMMs (GemmParallel.cpp) can be built and run.
import tempfile
with tempfile.TemporaryDirectory() as _d:
    _src = os.path.join(_d, "omp.c")
    with open(_src, "w") as f:
        f.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n")
    try:
        if subprocess.run([config.tlx_clang, "-fopenmp", _src, "-o",
                           os.path.join(_d, "omp")],
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            config.available_features.add("openmp")
    except OSError:
        pass

# <arch>-openmp: -fopenmp programs for a cross target link (dynamically:
# the target's libomp.so that .ci/setup puts in /usr/<triple>/lib) and run
# under qemu with -L %<prefix>_sysroot. (No riscv64 libomp in Debian 12.)
for _arch, _prefix, _triple, _qemu in _cross_targets:
    _sysroot = os.path.join("/usr", _triple)
    config.substitutions.append(("%%%s_sysroot" % _prefix, _sysroot))
    if ("openmp" in config.available_features and
            _arch + "-cross" in config.available_features and
            os.path.exists(os.path.join(_sysroot, "lib", "libomp.so"))):
        config.available_features.add(_arch + "-openmp")

# /proc/cpuinfo flag -> lit feature.
cpu_features = {
    "avx2": "cpu-avx2", "avx512f": "cpu-avx512f",
    "avx512_vnni": "cpu-avx512-vnni", "avx512_bf16": "cpu-avx512-bf16",
    "avx512vbmi": "cpu-avx512-vbmi",
    "amx_tile": "amx-hw", "amx_fp16": "amx-fp16-hw",
}
# What each masking level guarantees (flags as /proc/cpuinfo spells them).
cpu_levels = {
    "x86-64": set(), "x86-64-v2": set(), "x86-64-v3": {"avx2"},
    "x86-64-v4": {"avx2", "avx512f"},
}
try:
    with open("/proc/cpuinfo") as f:
        host_flags = set(next((l.split(":", 1)[1].split() for l in f
                               if l.startswith("flags")), []))
except OSError:
    host_flags = set()
# AMX needs all three of tile, int8 and bf16 for the amx-hw feature.
if not {"amx_tile", "amx_int8", "amx_bf16"} <= host_flags:
    host_flags.discard("amx_tile")

test_cpu = lit_config.params.get("cpu", os.environ.get("TLX_TEST_CPU", ""))
if test_cpu and test_cpu != "native":
    if test_cpu not in cpu_levels:
        lit_config.fatal("TLX_TEST_CPU=%s: expected one of %s" %
                         (test_cpu, ", ".join(sorted(cpu_levels))))
    host_flags &= cpu_levels[test_cpu]
    march = "-march=" + test_cpu
    config.environment["TLX_AMX_FORCE_UNSUPPORTED"] = "1"
    # Run-time dispatch (GemmDispatch.cpp) picks no level above the mask.
    config.environment["TLX_ISA_LEVEL_MAX"] = {
        "x86-64-v3": "1", "x86-64-v4": "2"}.get(test_cpu, "0")
    lit_config.note("CPU masked to %s: features %s" %
                    (test_cpu, sorted(host_flags) or "none"))
else:
    march = "-march=native"
for flag, feature in cpu_features.items():
    if flag in host_flags:
        config.available_features.add(feature)
config.tlx_march = march
config.substitutions.insert(0, ("%march_native", march))
if test_cpu and test_cpu != "native":
    # Every compile of an execution test targets the masked level.
    config.substitutions = [
        (k, v + " " + march if k in ("%clang_tlx", "%clang_plain") else v)
        for k, v in config.substitutions]
