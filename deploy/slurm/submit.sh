#!/usr/bin/env bash
# Submits the sweep's array job and its merge job (after the array, however its tasks ended), from
# the checkout, and prints the two job IDs. Extra arguments go to both sbatch calls (e.g. --partition).
# Usage: deploy/slurm/submit.sh [SBATCH_OPTION...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p results
array=$(sbatch --parsable "$@" "$here/sweep.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" "$@" "$here/merge.sbatch")
merge=${merge%%;*}
echo "array job $array, merge job $merge (results/merged/: the merged run folder; its exit code is the sweep's verdict)"
