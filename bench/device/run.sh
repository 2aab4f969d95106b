#!/usr/bin/env bash
# bench/device/run.sh - runs a bundle made by bench/device/bundle.sh, on the
# machine it was made for, from the directory holding .devcarry/:
#   bash .devcarry/run.sh
# Writes to $OUT (default /tmp/devout): cpu.txt, corr.txt (the differential
# programs' summaries), exec.txt (the test runs' output), results.txt (bench
# rows in bench/run's format), log.txt. The differential programs and test
# runs need AMX-INT8/BF16 and run in parallel on every core; the bench rows
# run one process at a time on one core (rows measured side by side on
# these virtual CPUs differed by 2x), then the threaded rows.
# $X (the carried loader and its library path) holds several words.
# shellcheck disable=SC2086
set -u
D=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
O=${OUT:-/tmp/devout}
L=$(mktemp -d) B=$(mktemp -d)
mkdir -p "$O"
tar xJf "$D/lib.tar.xz" -C "$L"
tar xJf "$D/bin.tar.xz" -C "$B"
X="$L/ld-linux-x86-64.so.2 --library-path $L"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 DNNL_VERBOSE=0
{ lscpu; nproc; uptime; } >"$O/cpu.txt"
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
has() { [[ $flags == *" $1 "* ]]; }
amx=0
has amx_tile && has amx_int8 && has amx_bf16 && amx=1
echo "amx=$amx" | tee "$O/log.txt"
t0=$(date +%s)

# 1. Correctness, where the CPU has AMX.
if ((amx)); then
  run_program() { # one differential program: its summary and failures
    local out rc
    out=$(timeout 300 $X "$1" 2>&1)
    rc=$?
    echo "=== $(basename "$1") rc=$rc"
    grep -E '^(FAIL case|ORACLE-ERROR|[0-9]+ (cases|programs), )' <<<"$out" |
      head -20
    [ $rc = 0 ] || tail -5 <<<"$out"
  }
  export -f run_program
  export X
  mkdir -p "$B/corrout"
  # shellcheck disable=SC2016
  find "$B/corr" -type f -print0 | OMP_NUM_THREADS=3 xargs -0 -P "$(nproc)" \
    -I{} bash -c 'run_program {} >'"$B"'/corrout/$(basename {}).txt 2>&1'
  cat "$B"/corrout/*.txt >"$O/corr.txt"
  while IFS='|' read -r name env args; do
    echo "=== $name [$env] [$args]"
    # shellcheck disable=SC2086
    env $env $X "$B/exec/$name" $args 2>&1
    echo "=== rc=$?"
  done <"$B/exec.list" >"$O/exec.txt"
  echo "correctness done in $(($(date +%s) - t0)) s" | tee -a "$O/log.txt"
fi

# 2. Speed: each row the best of three processes.
best() { # best CMD...: the run with the highest last value (and its info)
  local b="" bl="" out line
  for _ in 1 2 3; do
    out=$(cd "$B" && timeout 120 $X "$@" 2>/dev/null) || continue
    line=$(tail -1 <<<"$out")
    [[ ${line##* } =~ ^[0-9.]+$ ]] || continue
    if [ -z "$b" ] || awk "BEGIN { exit !(${line##* } > ${b##* }) }"; then
      b=$line bl=$out
    fi
  done
  [ -n "$b" ] && grep '^info' <<<"$bl"
  echo "${b:-FAILED $*}"
}
R=$O/results.txt
{
  echo "info cpu-flags$flags"
  $X "$B/peak"
  $X "$B/anchors" openblas-core
} >"$R" 2>&1
core=$(($(nproc) > 3 ? 3 : 0))
while IFS='|' read -r label cmd; do
  read -r class cmd <<<"$cmd"
  if [ "$class" = amx ] && ((!amx)); then
    echo "skip $label" >>"$R"
    continue
  fi
  # shellcheck disable=SC2086
  taskset -c $core bash -c "$(declare -f best); X='$X' B='$B'; best $B/$cmd" \
    >>"$R" 2>&1
done <"$B/bench.list"
while IFS='|' read -r threads cmd; do
  read -r class cmd <<<"$cmd"
  [ "$class" = amx ] && ((!amx)) && continue
  # shellcheck disable=SC2086
  line=$(OMP_NUM_THREADS=$threads best $B/$cmd | tail -1)
  read -r who rest <<<"$line"
  [[ $who == tlx* ]] || who=$who-omp$threads
  echo "$who $rest" >>"$R"
done <"$B/omp.list"
echo "all done in $(($(date +%s) - t0)) s" | tee -a "$O/log.txt"
