#!/usr/bin/env bash
# bench/device/bundle.sh - builds, on this machine, everything needed to
# check and time TLX's native AMX code on another x86-64 machine that has
# no LLVM (a lent machine whose host CPU has AMX): a bundle directory with
#   bin.tar.xz  the programs, built by tlx-cc the way users build them
#               (-O2 -march=$BUNDLE_MARCH, default sapphirerapids):
#               bench rows - GEMMs, convolution layers, reductions, 8
#               threads - (bench/tlx_*.c and bench/anchors.c, with
#               bench.list / omp.list saying how to run them), the
#               generated differential programs for target=amx (recorded,
#               not run, by test/Differential/run.py), and the native RUN
#               lines of the AMX tests and samples (exec.list);
#   lib.tar.xz  the loader, glibc, libstdc++, OpenMP, oneDNN and OpenBLAS
#               of this machine, so the programs run on any Linux;
#   run.sh      what to run there (bench/device/run.sh).
# Then, with the bundle in the working tree's ignored .devcarry/:
#   there:  bash .devcarry/run.sh        (writes $OUT/*.txt)
#   here:   python3 bench/device/check.py DIR   (judges the outputs)
# BUNDLE_QUICK=1 builds fewer differential programs.

# $cc, $rt, $amx and $plain hold several words on purpose.
# shellcheck disable=SC2086
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${TLX_BUILD_DIR:-$root/build}
out=${1:-$root/.devcarry}
march=-march=${BUNDLE_MARCH:-sapphirerapids}
llvm=/usr/lib/llvm-19/bin
tlxcc=$build/bin/tlx-cc
cc="$llvm/clang -fplugin=$build/lib/libtlx.so -I$root/headers"
rt="$build/lib/libtlxrt.a -lm"
stage=$(mktemp -d)
B=$stage/bin
mkdir -p "$B/corr" "$B/exec" "$stage/lib" "$out"
trap 'rm -rf "$stage"' EXIT

tlx_exe() { # tlx_exe NAME SOURCE ARGS...: a bench program through tlx-cc
  local name=$1 src=$2
  shift 2
  "$tlxcc" -w -I"$root/bench" "$@" "$src" -o "$B/$name"
}
row() { echo "$1|$2" >>"$B/bench.list"; } # row LABEL "CLASS CMD"

# 1. Bench rows, in the order they are timed (TLX next to its reference).
# CLASS: any (runs anywhere), amx (needs AMX-INT8/BF16 and $march).
bench_rows() {
  $llvm/clang -O2 -w -I"$root/bench" "$root/bench/anchors.c" -o "$B/anchors" \
    -ldnnl -lopenblas -lm
  $llvm/clang -O2 "$root/bench/peak.c" -o "$B/peak"
  local types=(f32 s8s8s32 u8s8s32 bf16) t s m n k e ref
  local sizes=("64 64 64" "256 256 256" "512 512 512" "1024 1024 1024"
    "2048 2048 2048" "1024 1024 64" "64 1024 1024")
  for t in 0 1 2 3; do
    ref=onednn
    ((t == 1 || t == 2)) && ref=onednn-matmul
    for s in "${sizes[@]}"; do
      read -r m n k <<<"$s"
      e=${types[$t]}_${m}_${n}_${k}
      tlx_exe "tlx_$e" "$root/bench/tlx_matmul.c" -DBT=$t -DGM="$m" -DGN="$n" \
        -DGK="$k" -O2 "$march"
      row "tlx ${types[$t]} $s" "amx tlx_$e"
      row "$ref ${types[$t]} $s" "any anchors $ref ${types[$t]} $s"
      ((t == 2)) && continue
      tlx_exe "rt_$e" "$root/bench/tlx_matmul.c" -DBT=$t -DGM="$m" -DGN="$n" \
        -DGK="$k" -O2 "$march" -DRTSIZE=1 -DNAME='"tlx-rtsize"'
      row "tlx-rtsize ${types[$t]} $s" "amx rt_$e"
    done
  done
  # Convolution layers (bench/run's four), both layouts: TLX, oneDNN given
  # the layer's layout, oneDNN in its blocked layouts.
  local layers=("-DCONV_C=64 -DCONV_O=64 -DCONV_H=56 -DCONV_R=3"
    "-DCONV_C=256 -DCONV_O=64 -DCONV_H=56 -DCONV_R=1"
    "-DCONV_C=128 -DCONV_O=128 -DCONV_H=28 -DCONV_R=3"
    "-DCONV_C=3 -DCONV_O=64 -DCONV_H=224 -DCONV_R=7 -DCONV_S=2") i nhwc c
  for i in 0 1 2 3; do
    for nhwc in 0 1; do
      c=conv${i}_$nhwc
      tlx_exe "$c" "$root/bench/tlx_convolution.c" ${layers[$i]} \
        -DCONV_NHWC=$nhwc -O2 "$march"
      row "tlx conv layer$i nhwc=$nhwc" "amx $c"
      $llvm/clang -O2 -w -I"$root/bench" ${layers[$i]} -DCONV_NHWC=$nhwc \
        "$root/bench/anchors.c" -o "$B/anchors_$c" -ldnnl -lopenblas -lm
      row "onednn conv layer$i nhwc=$nhwc" "any anchors_$c onednn conv"
      row "onednn-blocked conv layer$i nhwc=$nhwc" \
        "any anchors_$c onednn conv blocked"
    done
  done
  local kinds=(rowmax colsum max) kind
  for kind in 0 1 2; do
    tlx_exe "reduce$kind" "$root/bench/tlx_reduce.c" -DKIND=$kind -O2 "$march"
    row "tlx reduce-${kinds[$kind]}" "amx reduce$kind"
    $llvm/clang "$march" -w -O3 -ffast-math -DPLAIN_C -DKIND=$kind \
      -DNAME='"cloop"' "$root/bench/tlx_reduce.c" -o "$B/cloop$kind" -lm
    row "cloop reduce-${kinds[$kind]}" "amx cloop$kind"
  done
  # Threads: 8 of them, the same programs with -fopenmp.
  for t in 0 1 3; do
    s="2048 2048 2048" e=${types[$t]}_2048
    tlx_exe "omp_$e" "$root/bench/tlx_matmul.c" -DBT=$t -DGM=2048 -DGN=2048 \
      -DGK=2048 -O2 "$march" -fopenmp -DNAME='"tlx-omp8"'
    echo "8|amx omp_$e" >>"$B/omp.list"
    ref=onednn
    ((t == 1)) && ref=onednn-matmul
    echo "8|any anchors $ref ${types[$t]} $s" >>"$B/omp.list"
  done
}

# 2. Differential programs for target=amx, recorded by run.py's run prefix.
record_diff() { # record_diff TAG run.py-ARGS...
  local tag=$1
  shift
  RECORD_DIR=$B/corr RECORD_TAG=$tag python3 "$root/test/Differential/run.py" \
    --cc "$cc" --rt "$rt" --workdir "$stage/$tag" --jobs 2 \
    --run-prefix "$root/bench/device/record.sh" "$@" >"$stage/$tag.log" 2>&1 ||
    { echo "bundle: run.py $tag:"; tail -5 "$stage/$tag.log"; }
}
diff_programs() {
  local f='-Wno-deprecated-non-prototype -Wno-psabi -fplugin-arg-tlx-target=amx'
  local n=400 p=200
  [ -n "${BUNDLE_QUICK:-}" ] && n=100 p=50
  local mma='matmul!f16,umma,smma,usmma,summa'
  record_diff gen --cflags="$f" --opt O0,O2 --ops "$mma" --amx-shapes \
    --seed 2 --cases $n --batch 50
  record_diff genoff --cflags="$f -fplugin-arg-tlx-optimize-kernels=off" \
    --opt O0 --ops "$mma" --amx-shapes --seed 21 --cases $n --batch 50
  record_diff omp --cflags="$f -fopenmp -mllvm -tlx-threads-min-work=0" \
    --opt O0,O2 --ops "$mma" --amx-shapes --amx-max-n 260 --seed 9 \
    --cases 100 --batch 50
  record_diff progs --generator progs --cflags="$f -fno-crash-diagnostics" \
    --opt O0,O2 --seed 4 --cases $p --batch 25 \
    --gen-args="--disable @$root/test/Differential/progs-disabled.txt"
}

# 3. The native RUN lines of the AMX tests and samples: NAME|ENV|ARGS,
# judged by check.py against the test's FileCheck lines.
exec_tests() {
  local t=$root/test/AMX E=$B/exec
  local amx="$cc -std=c11 -w -fplugin-arg-tlx-target=amx"
  local plain="$llvm/clang -I$root/headers -O2 -mamx-tile -mamx-int8 -mamx-bf16"
  $amx -O2 "$root/samples/amx_bf16_mlp.c" $rt -o $E/amx_bf16_mlp
  $amx -O2 "$root/samples/amx_int8_gemm.c" $rt -o $E/amx_int8_gemm
  $amx -O0 "$root/samples/amx_int8_gemm.c" $rt -o $E/amx_int8_gemm-O0
  $amx -O2 $t/runtime-sizes.c $rt -o $E/runtime-sizes-O2
  $amx -O0 $t/runtime-sizes.c $rt -o $E/runtime-sizes-O0
  $amx -O0 -fplugin-arg-tlx-optimize-kernels=off $t/runtime-sizes.c $rt \
    -o $E/runtime-sizes-O0-off
  $amx -O0 $t/o0-bf16-calls.c $rt -o $E/o0-bf16-calls
  $amx -O0 -fplugin-arg-tlx-optimize-kernels=off $t/o0-bf16-calls.c $rt \
    -o $E/o0-bf16-calls-off
  $plain $t/hw-differential.c -o $E/hw-differential $rt
  local n
  for n in tile1024i-api tile1024i-loop register-intrinsics; do
    $plain -DNATIVE $t/$n.c -o $E/$n $rt
  done
  $llvm/clang -I"$root/headers" -std=c11 -O2 $t/require-products.c \
    -o $E/require-products $rt
  $plain $t/native-no-amx.c -o $E/native-no-amx $rt
  {
    for n in amx_bf16_mlp amx_int8_gemm amx_int8_gemm-O0 runtime-sizes-O2 \
      runtime-sizes-O0 runtime-sizes-O0-off o0-bf16-calls o0-bf16-calls-off \
      hw-differential tile1024i-api tile1024i-loop register-intrinsics \
      native-no-amx; do
      echo "$n||"
    done
    echo "native-no-amx|TLX_AMX_FORCE_UNSUPPORTED=1|"
    echo "require-products||3"
    echo "require-products||4"
    echo "require-products|TLX_AMX_FORCE_UNSUPPORTED=1|1"
  } >"$B/exec.list"
  # The GEMM emitter's AMX checks (Transforms/GemmEmitter/amx-exec.test).
  local src=$root/test/Transforms/GemmEmitter/Inputs/gemm_check.c i=0 defs
  while read -r defs; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    $llvm/clang -O0 -Xclang -disable-O0-optnone -w -I"$root/headers" $defs \
      -S -emit-llvm "$src" -o "$stage/gc.ll"
    $llvm/opt -load-pass-plugin="$build/lib/libtlx.so" \
      -passes='tlx-test-gemm,default<O2>' "$stage/gc.ll" -o "$stage/gc.bc"
    $llvm/clang -O2 "$stage/gc.bc" $rt -o "$E/gemmcheck$i-O2"
    # shellcheck disable=SC2086
    $llvm/clang -O0 -w -I"$root/headers" $defs -S -emit-llvm "$src" \
      -o "$stage/gc.ll"
    $llvm/opt -load-pass-plugin="$build/lib/libtlx.so" -passes=tlx-test-gemm \
      "$stage/gc.ll" -o "$stage/gc.bc"
    $llvm/clang -O0 "$stage/gc.bc" $rt -o "$E/gemmcheck$i-O0"
    printf 'gemmcheck%s-O2||\ngemmcheck%s-O0||\n' $i $i >>"$B/exec.list"
  done < <(sed -n 's/^# RUN: %gemm_check \(.*\) | FileCheck.*/\1/p' \
    "$root/test/Transforms/GemmEmitter/amx-exec.test")
}

# 4. The libraries the programs load, this machine's.
libraries() {
  local f
  for f in /lib64/ld-linux-x86-64.so.2 "$build/lib/libtlxrt.so" \
    $(ldd "$B/anchors" "$B"/omp_* | awk '$3 ~ /^\// { print $3 }' | sort -u); do
    cp -L "$f" "$stage/lib/"
  done
}

bench_rows
diff_programs
exec_tests
libraries
tar cf - -C "$B" . | xz -T2 -4 >"$out/bin.tar.xz"
tar cf - -C "$stage/lib" . | xz -T2 -6 >"$out/lib.tar.xz"
cp "$root/bench/device/run.sh" "$out/run.sh"
echo "bundle: $(find "$B/corr" -type f | wc -l) differential programs," \
  "$(wc -l <"$B/exec.list") test runs, $(wc -l <"$B/bench.list") bench rows" \
  "in $out ($(du -sh "$out" | cut -f1))"
