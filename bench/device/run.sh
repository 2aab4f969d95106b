#!/usr/bin/env bash
# bench/device/run.sh - runs a bundle made by bench/device/bundle.sh, on the
# machine it was made for, from the directory holding .devcarry/:
#   bash .devcarry/run.sh
# Writes to $OUT (default /tmp/devout): cpu.txt, corr.txt (the differential
# programs' summaries), exec.txt (the test runs' output), results.txt (bench
# rows in bench/run's format: each row's best round), medians.txt (each
# row's median round), rounds.txt (every measurement), log.txt. The
# differential programs and test runs need AMX-INT8/BF16 and run in
# parallel on every core; the bench rows run one process at a time on one
# core (rows measured side by side on these virtual CPUs differed by 2x),
# in $ROUNDS rounds (default 5), then the threaded rows.
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

# 2. Speed, in rounds: each round runs every row once, in a new random
# order, so that the virtual CPU's slow and fast spells (2x apart between
# consecutive processes) fall on every row alike; a row's value is its best
# round (results.txt) and its median (medians.txt). The single-thread rows
# run on one core, the threaded rows after them.
ROUNDS=${ROUNDS:-5}
R=$O/results.txt
{
  echo "info cpu-flags$flags"
  $X "$B/peak"
  $X "$B/anchors" openblas-core
} >"$R" 2>&1
core=$(($(nproc) > 3 ? 3 : 0))
rows() { # rows: "THREADS|LABEL|CMD" for every row this CPU can run
  while IFS='|' read -r label cmd; do
    read -r class cmd <<<"$cmd"
    [ "$class" = amx ] && ((!amx)) && continue
    echo "1|$label|$cmd"
  done <"$B/bench.list"
  while IFS='|' read -r threads cmd; do
    read -r class cmd <<<"$cmd"
    [ "$class" = amx ] && ((!amx)) && continue
    echo "$threads|omp$threads $cmd|$cmd"
  done <"$B/omp.list"
}
rows >"$B/rows"
for round in $(seq "$ROUNDS"); do
  cut -d'|' -f1 "$B/rows" | sort -nu | while read -r threads; do
    grep "^$threads|" "$B/rows" | shuf | while IFS='|' read -r _ label cmd; do
      pin=""
      ((threads == 1)) && pin="taskset -c $core"
      # shellcheck disable=SC2086
      line=$(cd "$B" && OMP_NUM_THREADS=$threads timeout 120 $pin $X \
        $B/$cmd 2>/dev/null | tail -1)
      [[ ${line##* } =~ ^[0-9.]+$ ]] || line="FAILED $cmd"
      ((threads > 1)) && [[ $line != tlx* ]] && line="${line/ /-omp$threads }"
      echo "$round|$label|$line"
    done
  done
done >"$O/rounds.txt"
# The best and the median round of each row, in bench.list's order.
summarize() { # summarize best|median
  awk -F'|' -v how="$1" '
    NR == FNR { order[++n] = $2; next }
    { v = $3; sub(/.* /, "", v); line[$2] = $3
      if ($3 ~ /^FAILED/) { failed[$2] = $3; next }
      vals[$2] = vals[$2] " " v
      if (!($2 in best) || v + 0 > best[$2] + 0) { best[$2] = v; bl[$2] = $3 } }
    END { for (i = 1; i <= n; i++) { k = order[i]
      if (!(k in best)) { print (k in failed ? failed[k] : "FAILED " k); continue }
      if (how == "best") { print bl[k]; continue }
      c = split(substr(vals[k], 2), a, " ")
      for (x = 1; x <= c; x++) for (y = x + 1; y <= c; y++)
        if (a[y] + 0 < a[x] + 0) { t = a[x]; a[x] = a[y]; a[y] = t }
      m = c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
      l = bl[k]; sub(/[^ ]*$/, "", l); print l m } }' "$B/rows" "$O/rounds.txt"
}
summarize best >>"$R"
summarize median >"$O/medians.txt"
echo "all done in $(($(date +%s) - t0)) s" | tee -a "$O/log.txt"
