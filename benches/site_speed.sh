#!/usr/bin/env bash
# Site build speed on the synthetic corpus of ../shared/bench/gen_corpus.py:
# fairdice, and mdBook and Hugo when they are installed, each built RUNS times
# into a fresh folder; prints the best wall time, CPU time and peak memory
# (/usr/bin/time -v), and each tool's time as a multiple of fairdice's.
#
# Usage: benches/site_speed.sh [PAGES=1000] [RUNS=5]
# Target (issue 5): 1000 pages in under 0.3 s and 100 MB on 2 cores.
set -euo pipefail

PAGES=${1:-1000}
RUNS=${2:-5}
REPO=$(cd "$(dirname "$0")/.." && pwd)
GEN=${GEN_CORPUS:-$REPO/../shared/bench/gen_corpus.py}
LAYOUTS=$(dirname "$GEN")/mk_layouts.py
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

[ -f "$GEN" ] || { echo "no corpus generator at $GEN (set GEN_CORPUS)" >&2; exit 1; }
python3 "$GEN" "$PAGES" "$WORK/corpus" >/dev/null
cp -r "$REPO/templates" "$WORK/corpus/templates"
(cd "$REPO" && cargo build --release --quiet)
FAIRDICE=${CARGO_TARGET_DIR:-$REPO/target}/release/fairdice

# measure NAME DIR COMMAND...: best of RUNS; "{out}" in COMMAND is a fresh folder.
measure() {
  local name=$1 dir=$2
  shift 2
  local best="" line
  for run in $(seq "$RUNS"); do
    local out="$WORK/out-$name-$run"
    local args=("${@//\{out\}/$out}")
    (cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "${args[@]}" >/dev/null 2>&1)
    line=$(cat "$WORK/time")
    if [ -z "$best" ] || awk -v a="$line" -v b="$best" 'BEGIN{split(a,x," ");split(b,y," ");exit !(x[1]<y[1])}'; then
      best=$line
    fi
    rm -rf "$out"
  done
  echo "$name $best" >>"$WORK/results"
}

measure fairdice "$WORK/corpus" "$FAIRDICE" build --out "{out}"
if command -v mdbook >/dev/null || command -v hugo >/dev/null; then
  python3 "$LAYOUTS" "$WORK/corpus" >/dev/null
fi
if command -v mdbook >/dev/null; then
  measure mdbook "$WORK/corpus/mdbook" mdbook build -d "{out}"
fi
if command -v hugo >/dev/null; then
  measure hugo "$WORK/corpus/hugo" hugo --quiet -d "{out}"
fi

echo "$PAGES pages, best of $RUNS runs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
awk 'NR==1{base=$2} {printf "%-9s %6.2f s wall  %5.2f s cpu  %6.1f MB peak  %5.1fx fairdice\n", $1, $2, $3+$4, $5/1024, $2/base}' "$WORK/results"
