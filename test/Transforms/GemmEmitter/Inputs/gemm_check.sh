#!/bin/sh
# gemm_check.sh CLANG OPT PLUGIN RT HEADERS SRC TMP MARCH -Ddefines...
# Builds SRC twice, the way users build: optimized (clang -O0 IR without
# optnone, tlx-test-gemm, the -O2 pipeline, -O2 codegen) and unoptimized
# (clang -O0 IR with optnone, tlx-test-gemm, -O0 codegen); runs both.
set -e
clang=$1 opt=$2 plugin=$3 rt=$4 headers=$5 src=$6 tmp=$7 march=$8
shift 8
"$clang" -O0 -Xclang -disable-O0-optnone "$march" -w -I"$headers" "$@" \
  -S -emit-llvm "$src" -o "$tmp.ll"
"$opt" -load-pass-plugin="$plugin" -passes='tlx-test-gemm,default<O2>' \
  "$tmp.ll" -o "$tmp.o2.bc"
"$clang" -O2 "$tmp.o2.bc" "$rt" -lm -o "$tmp.o2"
"$tmp.o2"
"$clang" -O0 "$march" -w -I"$headers" "$@" -S -emit-llvm "$src" \
  -o "$tmp.o0.ll"
"$opt" -load-pass-plugin="$plugin" -passes='tlx-test-gemm' "$tmp.o0.ll" \
  -o "$tmp.o0.bc"
"$clang" -O0 "$tmp.o0.bc" "$rt" -lm -o "$tmp.o0"
"$tmp.o0"
