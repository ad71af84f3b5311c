#!/usr/bin/env bash
# Times the same dice-sum workloads with fairdice and with icepool (Python)
# and prints a table: workload, fairdice time, icepool time, ratio, and
# whether both tools agree on a checksum (so the comparison is of equal work).
#
# icepool is installed with pip into a throwaway virtualenv in a temporary
# folder, removed on exit. Each icepool workload runs in a fresh process under
# a time limit; one that runs out is reported as "did not finish".
#
# Environment (all optional):
#   WORKLOADS        space-separated NdK or NdK%M (default below)
#   ICEPOOL_TIMEOUT  seconds per icepool workload (default 120)
#   ICEPOOL_SPEC     pip requirement (default "icepool")
#   FAIRDICE_RUNS    runs per fairdice workload, best is kept (default 5)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
workloads="${WORKLOADS:-10d6 100d20 1000d6 1000d6%10 1000d20 3000d6 10000d6}"
timeout_seconds="${ICEPOOL_TIMEOUT:-120}"
icepool_spec="${ICEPOOL_SPEC:-icepool}"
fairdice_runs="${FAIRDICE_RUNS:-5}"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

echo "== installing $icepool_spec into a virtualenv in $scratch" >&2
python3 -m venv "$scratch/venv"
"$scratch/venv/bin/pip" install --quiet --disable-pip-version-check "$icepool_spec" >&2

echo "== timing fairdice (release)" >&2
# shellcheck disable=SC2086 # workloads are meant to split into arguments
(cd "$here/.." && cargo run --quiet --release --example engine_timing -- \
    --runs "$fairdice_runs" $workloads) | tee "$scratch/fairdice.txt" >&2

echo "== timing icepool (one fresh process per workload, ${timeout_seconds} s limit)" >&2
: >"$scratch/icepool.txt"
for workload in $workloads; do
    status=0
    timeout --kill-after=5 "$timeout_seconds" \
        "$scratch/venv/bin/python" "$here/icepool_workloads.py" run "$workload" \
        >"$scratch/one.txt" 2>"$scratch/one.err" || status=$?
    case "$status" in
    0) cat "$scratch/one.txt" ;;
    124 | 137) echo "workload=$workload status=timeout" ;;
    *)
        tail -n 3 "$scratch/one.err" >&2
        echo "workload=$workload status=exit-$status"
        ;;
    esac | tee -a "$scratch/icepool.txt" >&2
done

echo >&2
python3 "$here/icepool_workloads.py" table \
    "$scratch/fairdice.txt" "$scratch/icepool.txt" "$timeout_seconds"
