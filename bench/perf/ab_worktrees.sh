#!/usr/bin/env bash
# Alternated A/B of two checkouts on one machine (docs/performance.md, "against main" sections).
#
#   bench/perf/ab_worktrees.sh BASE_DIR NEW_DIR ROUNDS OUTDIR [writes|all] [LOCOMO_DIR]
#
# Each round runs, in turn on BASE_DIR then NEW_DIR (each a checkout with its own .venv and
# embedded PostgreSQL), the two-client write benchmark and, with "all", the LoCoMo ingest
# and recall on LoCoMo's questions (the recall database, bench_lat, is built by the first
# run and kept). Outputs go to OUTDIR/{w,i,r}_{base,new}_ROUND.txt with a log of the load.
# Before the rounds, each checkout runs the write benchmark once, not counted (its output
# goes to OUTDIR/warm_{base,new}.txt): a fresh database's first runs are 10-40 % slower
# (catalogue caches, the bench tenant's first rows, the planner's statistics), which would
# count against whichever side ran first. WARM=0 skips it.
set -euo pipefail
BASE=${1:?base checkout}; NEW=${2:?new checkout}; ROUNDS=${3:-3}; OUT=${4:-/tmp/ab}
WHAT=${5:-all}; LOCOMO=${6:-../shared/data/locomo-dev}
mkdir -p "$OUT"
if [ "${WARM:-1}" != 0 ]; then
  for side in base new; do
    dir=$BASE; [ "$side" = new ] && dir=$NEW
    echo "== warm-up $side (not counted) $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/log"
    (cd "$dir" && OMP_NUM_THREADS=1 .venv/bin/python bench/perf/write_api.py --single 100 \
      --batches 10 --workers 2 > "$OUT/warm_${side}.txt" 2>&1)
  done
fi
for r in $(seq 1 "$ROUNDS"); do
  for side in base new; do
    dir=$BASE; [ "$side" = new ] && dir=$NEW
    cd "$dir"
    locomo=$(cd "$LOCOMO" 2>/dev/null && pwd || echo "$LOCOMO")
    echo "== round $r $side $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/log"
    OMP_NUM_THREADS=1 .venv/bin/python bench/perf/write_api.py --single 300 --batches 20 \
      --workers 2 > "$OUT/w_${side}_$r.txt" 2>&1
    if [ "$WHAT" = all ]; then
      .venv/bin/python bench/perf/write_api.py --ingest "$locomo" --skip-writes \
        --ingest-form turn --ingest-rounds 1 > "$OUT/i_${side}_$r.txt" 2>&1
      OMP_NUM_THREADS=1 ENGRAM_BENCH_DB=bench_lat .venv/bin/python bench/perf/recall_perf.py \
        --keepdb --memories-per-subject 600 --subjects 2 --requests 400 --concurrency 1,4 \
        --omp-threads 1 --questions locomo-dev --questions-dir "$locomo" > "$OUT/r_${side}_$r.txt" 2>&1
    fi
  done
done
echo "done $(date +%T)" | tee -a "$OUT/log"
