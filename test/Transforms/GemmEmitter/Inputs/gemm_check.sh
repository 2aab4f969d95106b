#!/bin/sh
# gemm_check.sh CLANG OPT PLUGIN RT HEADERS SRC TMP -Ddefines...
# Compiles SRC to IR, lowers tlx_test_gemm with tlx-test-gemm, then runs the
# program optimized (-O2) and unoptimized (-O0).
set -e
clang=$1 opt=$2 plugin=$3 rt=$4 headers=$5 src=$6 tmp=$7
shift 7
"$clang" -O0 -Xclang -disable-O0-optnone -march=native -w -I"$headers" "$@" \
  -S -emit-llvm "$src" -o "$tmp.ll"
"$opt" -load-pass-plugin="$plugin" -passes='tlx-test-gemm,default<O2>' \
  "$tmp.ll" -o "$tmp.o2.bc"
"$clang" -O2 "$tmp.o2.bc" "$rt" -lm -o "$tmp.o2"
"$tmp.o2"
"$opt" -load-pass-plugin="$plugin" -passes='tlx-test-gemm' "$tmp.ll" \
  -o "$tmp.o0.bc"
"$clang" -O0 "$tmp.o0.bc" "$rt" -lm -o "$tmp.o0"
"$tmp.o0"
