# lit configuration for the TLX test suite (check-tlx).
import os
import lit.formats

config.name = "TLX"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tlx_obj_root, "test")

# LLVM 19 tools (FileCheck, not, count, opt, llc) first on PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.join(config.tlx_obj_root, "bin"),
     config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR", "TLX_DIFF_CASES", "TLX_DIFF_SEED", "TLX_DIFF_OPS",
            "LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

plugin = os.path.join(config.tlx_obj_root, "lib", "libtlx.so")
headers = os.path.join(config.tlx_src_root, "headers")
rt_static = os.path.join(config.tlx_obj_root, "lib", "libtlxrt.a")

config.substitutions.append(("%tlx_plugin", plugin))
config.substitutions.append(("%tlx_headers", headers))
config.substitutions.append(("%tlx_src", config.tlx_src_root))
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
    ("%tlx_cc", os.path.join(config.tlx_obj_root, "bin", "tlx-cc")))
config.substitutions.append(
    ("%llc", os.path.join(config.llvm_tools_dir, "llc")))

# Features: valgrind for leak checks, AMX hardware for native AMX runs.
import shutil
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
try:
    with open("/proc/cpuinfo") as f:
        cpu_flags = f.read()
        if "amx_tile" in cpu_flags:
            config.available_features.add("amx-hw")
        if "amx_fp16" in cpu_flags:
            config.available_features.add("amx-fp16-hw")
except OSError:
    pass
