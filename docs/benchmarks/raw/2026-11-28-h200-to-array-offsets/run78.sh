#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r78; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C=clustered,sparse,dense
for round in 1 2; do
  timeout 100 .vx/bench-oldrc set --cases $C --reps 10 > $R/old-$round.txt 2>&1; echo "old $round rc $?"
  timeout 100 .vx/bench-rc set --cases $C --reps 10 > $R/new-$round.txt 2>&1; echo "new $round rc $?"
done
timeout 100 .vx/bench-oldrc set --cases $C --reps 10 --packed > $R/oldpacked.txt 2>&1; echo "oldpacked rc $?"
timeout 100 .vx/bench-rc set --cases $C --reps 10 --packed > $R/newpacked.txt 2>&1; echo "newpacked rc $?"
for f in $R/old-*.txt $R/new-*.txt $R/oldpacked.txt $R/newpacked.txt; do echo "$(basename $f): $(grep -E '^(to_array|cardinality|range_cardinality) ' $f | awk '{print $1, substr($2,1,2), $4}' | tr '\n' ';')"; done
