#!/usr/bin/env bash
# The real-data set benchmark on the GPU machine, in one command: `vkalgo-bench realdata` over
# CRoaring's nine real datasets, CRoaring (pyroaring) on one core of the same machine over the
# same data (bench/realdata_croaring.py), then the ratio table with the digest check
# (bench/realdata_table.py). Run from the repository root after scripts/build-devbin.sh, with
# the datasets' .bin.gz files copied into .var/realdata/ (git-ignored; the datasets' folder is
# not in the repository) and the pyroaring wheel in .pywheels/ (bench/gpu_set.sh says how to
# fetch it); carry .gl, .devpack, .pywheels and .var.
#
# Environment:
#   OUT       output folder (default /tmp/out): realdata_vkalgo.txt, realdata_croaring.txt,
#             realdata_table.md
#   DATASETS  comma-separated dataset names (default: all nine)
#   REPS      timed repetitions (default 5)
#   GROUPS    classes timed after the build and serialization (default
#             successive,wide,contains; `vkalgo-bench realdata --groups`)
set -euo pipefail
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
REPS="${REPS:-5}"
GROUPS="${GROUPS:-successive,wide,contains}"
DATASETS="${DATASETS:-census-income,census-income_srt,census1881,census1881_srt,uscensus2000,weather_sept_85,weather_sept_85_srt,wikileaks-noquotes,wikileaks-noquotes_srt}"
if [ -d .pywheels ]; then
  rm -rf /tmp/pyroaring_pkg
  mkdir -p /tmp/pyroaring_pkg
  python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg
  export PYTHONPATH=/tmp/pyroaring_pkg
fi
data=/tmp/realdata
mkdir -p "$data"
for f in .var/realdata/*.bin.gz; do
  gunzip -c "$f" > "$data/$(basename "$f" .gz)"
done
.devbin/vkalgo-bench realdata --data "$data" --datasets "$DATASETS" --reps "$REPS" --groups "$GROUPS" 2>&1 | tee "$OUT/realdata_vkalgo.txt" | grep -v '^RESULT'
# One core, as CRoaring's users run it.
taskset -c 2 python3 bench/realdata_croaring.py "$data" "$REPS" "$DATASETS" "$GROUPS" > "$OUT/realdata_croaring.txt"
python3 bench/realdata_table.py "$OUT/realdata_vkalgo.txt" "$OUT/realdata_croaring.txt" | tee "$OUT/realdata_table.md"
