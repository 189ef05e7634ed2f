#!/usr/bin/env bash
# Runs the README's Slurm recipe (deploy/slurm/submit.sh: the array job sweep.sbatch, then the merge
# job merge.sbatch) on a real one-node Slurm cluster on this machine and checks that the merged shards
# equal a single-machine run of the same sweep.
#
#   1. installs Debian's slurm-wlm and munge when they are missing (apt-get; needs root);
#   2. starts munged, slurmctld and slurmd as root, configured from slurm.conf.in, with their
#      key, sockets, state, spool, PID and log files in a temporary folder;
#   3. submits both jobs with submit.sh unchanged, from a folder laid out like the checkout (only
#      PATH is given), and waits for every array task and the merge job, at most SLURM_TEST_TIMEOUT
#      seconds; every task and the merge job must complete with exit code 0;
#   4. checks that merge names the cases of a shard left out (and writes nothing), runs the same
#      sweep on this machine with --jobs 2 and compares the merge job's run folder results/merged/
#      with it: metrics.csv row for row (run_id and latency measurements aside), the same cases in
#      run.json, the same metric and latency keys, items.csv, events.csv and traces.geojson byte for
#      byte (the accuracy figures' inputs), the same calls in every latency histogram; then checks
#      that 'fieldtest report' of the merged folder succeeds and draws the figures the one-machine
#      run's report draws;
#   5. on exit, whatever happened: cancels the job if it still runs, stops the daemons it started
#      by their PIDs (SIGTERM, then SIGKILL after 10 s) and removes the temporary folder.
#
# Usage (root): make test-slurm, or deploy/slurm/test-cluster.sh after 'make release'.
# Environment: FIELDTEST      the fieldtest binary (default .build/release/fieldtest of this checkout)
#              SLURM_TEST_TIMEOUT  seconds the array job may take (default 240)
#              SLURM_TEST_PORTS    slurmctld and slurmd ports, "CTLD,SLURMD" (default 16817,16818)
#              SLURM_TEST_KEEP=1   keep the temporary folder (logs, shards) for inspection
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
fieldtest=${FIELDTEST:-$repo/.build/release/fieldtest}
scenario=Scenarios/sweeps/skyscape-lincoln-sweep.yaml   # the file sweep.sbatch runs
name=skyscape-lincoln-sweep                             # its scenario name
shards=8                                                # its array size
timeout=${SLURM_TEST_TIMEOUT:-240}
ports=${SLURM_TEST_PORTS:-16817,16818}
started=$SECONDS

say() { printf '[test-slurm %3ds] %s\n' $((SECONDS - started)) "$*" >&2; }
die() { say "FAILED: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root: the test installs packages and runs munged, slurmctld and slurmd as root"
[ -x "$fieldtest" ] || die "no fieldtest binary at $fieldtest; run 'make release' first (or set FIELDTEST)"
[ "$(basename "$fieldtest")" = fieldtest ] || die "FIELDTEST must name a file called fieldtest: sweep.sbatch finds it on PATH"
grep -q "fieldtest run $scenario " "$here/sweep.sbatch" || die "sweep.sbatch does not run $scenario; keep the two in step"
grep -q "^#SBATCH --array=0-$((shards - 1))$" "$here/sweep.sbatch" || die "sweep.sbatch is not an array of $shards tasks"

dir=
pids=()        # daemons started here, in start order
names=()       # their names, for messages
job=
policy_made=

alive() {      # a running process (a zombie awaiting its parent's wait is not)
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ $state != Z* ]]
}

stop() {       # SIGTERM, then SIGKILL after 10 s, then reap
  local pid=$1 what=$2
  if alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do alive "$pid" || break; sleep 0.2; done
    if alive "$pid"; then say "$what (pid $pid) ignored SIGTERM; sending SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  [ -n "$policy_made" ] && rm -f /usr/sbin/policy-rc.d
  local jobs=${job}${merge_job:+,$merge_job}
  if [ -n "$job" ] && [ -n "$(squeue -h -j "$jobs" 2>/dev/null)" ]; then
    say "cancelling jobs $jobs"
    scancel ${jobs//,/ } 2>/dev/null || true
    for _ in $(seq 30); do [ -z "$(squeue -h -j "$jobs" 2>/dev/null)" ] && break; sleep 1; done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop "${pids[i]}" "${names[i]}"; done
  ((${#pids[@]})) && say "stopped ${names[*]} (pids ${pids[*]})"
  if [ "$status" != 0 ] && [ -n "$dir" ]; then
    for log in "$dir"/log/*.log "$dir"/work/results/slurm-*.out; do
      [ -s "$log" ] && { echo "--- last lines of $log" >&2; tail -n 15 "$log" >&2; }
    done
  fi
  if [ -n "$dir" ]; then
    if [ "${SLURM_TEST_KEEP:-0}" = 1 ]; then say "kept $dir"; else rm -rf "$dir"; fi
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

daemons_alive() {
  for i in "${!pids[@]}"; do alive "${pids[i]}" || die "${names[i]} (pid ${pids[i]}) exited; see its log below"; done
}

wait_for() {   # wait_for WHAT SECONDS COMMAND...: poll until COMMAND succeeds, a daemon dies, or time runs out
  local what=$1 limit=$2 since=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    daemons_alive
    ((SECONDS - since < limit)) || die "$what not ready after ${limit}s"
    sleep 0.5
  done
}

start() {      # start NAME COMMAND...: run a daemon in the foreground of a background job
  local what=$1
  shift
  "$@" > "$dir/log/$what.out" 2>&1 &
  pids+=($!)
  names+=("$what")
  say "started $what (pid $!)"
}

dir=$(mktemp -d /tmp/fieldtest-slurm.XXXXXX)
chmod 755 "$dir"
mkdir -p "$dir"/{state,spool,run,log,munge,work}

# 1. Packages.
need=()
command -v munged >/dev/null || need+=(munge)
for tool in slurmctld slurmd sbatch; do command -v "$tool" >/dev/null || { need+=(slurm-wlm); break; }; done
if ((${#need[@]})); then
  say "installing ${need[*]}"
  # The packages' scripts would start their own daemons; this test starts the ones it needs.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    policy_made=1
  fi
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}") \
    > "$dir/log/apt-get.log" 2>&1 || die "apt-get install ${need[*]} failed"
  [ -n "$policy_made" ] && rm -f /usr/sbin/policy-rc.d && policy_made=
fi

# 2. The cluster.
chmod 700 "$dir/munge"
host=$(hostname -s)
addr=$(getent hosts "$host" | awk '{print $1; exit}')
addr=${addr:-127.0.0.1}
# CPUs, sockets, cores, threads and memory (MB) as slurmd sees this machine.
hardware=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hardware")
memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hardware")
[ -n "$cpus" ] && [ -n "$memory" ] || die "cannot read CPUs and RealMemory from 'slurmd -C': $hardware"
conf=$dir/slurm.conf
sed -e "s|@HOST@|$host|g" -e "s|@ADDR@|$addr|g" -e "s|@HARDWARE@|$hardware|g" -e "s|@DIR@|$dir|g" \
    -e "s|@MUNGE_SOCKET@|$dir/run/munge.socket|g" -e "s|@MEM_PER_CPU@|$((memory / cpus))|g" \
    -e "s|@CTLD_PORT@|${ports%,*}|g" -e "s|@SLURMD_PORT@|${ports#*,}|g" "$here/slurm.conf.in" > "$conf"
! grep -v '^#' "$conf" | grep '@[A-Z_]*@' || die "slurm.conf.in has a field this script does not fill in"
export SLURM_CONF=$conf
say "cluster in $dir: node $host ($addr) $hardware"

dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
start munged munged --foreground --key-file="$dir/munge/munge.key" --socket="$dir/run/munge.socket" \
  --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
wait_for munged 15 test -S "$dir/run/munge.socket"
munge -n -S "$dir/run/munge.socket" | unmunge -S "$dir/run/munge.socket" >/dev/null || die "munge credentials do not round-trip"

start slurmctld slurmctld -D -f "$conf"
wait_for slurmctld 30 bash -c 'scontrol ping | grep -q "is UP"'
start slurmd slurmd -D -f "$conf"
wait_for "node $host" 60 bash -c "[ \"\$(sinfo -h -N -n $host -o %T)\" = idle ]"
say "cluster up: $(sinfo -h -N -o '%N %T cpus=%c memory=%mMB')"

# 3. The array job, as the README shows it: run from a folder laid out like the checkout.
work=$dir/work
ln -s "$repo/Scenarios" "$work/Scenarios"
ln -s "$repo/Datasets" "$work/Datasets"
export PATH="$(dirname "$fieldtest"):$PATH"
job_started=$SECONDS
submitted=$(cd "$work" && "$here/submit.sh")
job=$(sed -n 's/^array job \([0-9]*\), merge job \([0-9]*\).*/\1,\2/p' <<<"$submitted")
[ -n "$job" ] || die "submit.sh said: $submitted"
merge_job=${job#*,}
job=${job%,*}
say "submit.sh: $submitted"
while [ -n "$(squeue -h -j "$job,$merge_job" 2>/dev/null)" ]; do
  daemons_alive
  ((SECONDS - job_started < timeout)) || die "jobs $job, $merge_job still running after ${timeout}s: $(squeue -h -j "$job,$merge_job" -o '%i %T %R' | tr '\n' ' ')"
  sleep 1
done
states=$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]* .*ExitCode=[0-9:]*' | sed 's/ .*ExitCode=/ ExitCode=/' | sort | uniq -c)
tasks=$(scontrol -o show job "$job" | grep -c 'ArrayTaskId=')
say "job $job finished in $((SECONDS - job_started))s: $tasks tasks: $(tr -s ' \n' ' ' <<<"$states")"
[ "$tasks" = "$shards" ] || die "expected $shards array tasks, found $tasks"
[ "$(scontrol -o show job "$job" | grep -c 'JobState=COMPLETED .*ExitCode=0:0')" = "$shards" ] \
  || die "not every array task completed with exit code 0:"$'\n'"$(scontrol -o show job "$job" | grep -o 'ArrayTaskId=[0-9]*\|JobState=[A-Z_]*\|ExitCode=[0-9:]*' | paste - - -)"
merge_state=$(scontrol -o show job "$merge_job" | grep -o 'JobState=[A-Z_]*\|ExitCode=[0-9:]*' | paste -sd ' ')
say "merge job $merge_job: $merge_state"
[ "$merge_state" = "JobState=COMPLETED ExitCode=0:0" ] || die "the merge job did not complete with exit code 0: $merge_state"
job=

# 4. Merge (the README's command), check merge's completeness report, compare with one machine.
cd "$work"
merged=results/merged/$name
[ -s "$merged/metrics.csv" ] && [ -s "$merged/run.json" ] || die "the merge job wrote no run folder $merged"
set +e
partial=$(fieldtest merge results/shard-[0-6]/$name --out partial 2>&1)
partial_status=$?
set -e
[ "$partial_status" = 1 ] && [ ! -e partial ] && grep -q "(shard 7/8)" <<<"$partial" \
  || die "merge without shard 7 should exit 1, write nothing and name shard 7's cases; it exited $partial_status: $partial"
say "merge without shard 7 exits 1 and says: $(grep -o '[0-9]* of [0-9]* cases missing: .*' <<<"$partial")"
local_started=$SECONDS
fieldtest run "$scenario" --jobs 2 --out local --quiet >/dev/null || [ $? = 1 ]
say "single-machine run (--jobs 2) took $((SECONDS - local_started))s"
python3 - "$merged" "local/$name" <<'PY'
import csv, json, os, sys
from collections import Counter
merged_dir, local_dir = sys.argv[1], sys.argv[2]
def rows(folder, name):
    with open(os.path.join(folder, name), newline="") as f:
        return list(csv.DictReader(f))
def raw(folder, name):
    with open(os.path.join(folder, name), "rb") as f:
        return f.read()
problems = []
# metrics.csv: run_id differs by construction; latency rows are measured on the clock, so only
# their identity (case, requirement, metric, unit, threshold) must match, not the value, its
# interval, margin or status.
merged, local = rows(merged_dir, "metrics.csv"), rows(local_dir, "metrics.csv")
measured = {"run_id"}
latency_measured = measured | {"value", "status", "ci_low", "ci_high", "margin"}
if len(merged) != len(local):
    problems.append(f"metrics.csv: {len(merged)} merged rows, {len(local)} single-machine rows")
for line, (m, l) in enumerate(zip(merged, local), start=2):
    skip = latency_measured if l["kind"] == "latency" else measured
    diff = [k for k in l if k not in skip and m.get(k) != l[k]]
    if diff:
        problems.append(f"metrics.csv line {line}: " + ", ".join(f"{k} {m.get(k)!r} != {l[k]!r}" for k in diff))
if len({r["run_id"] for r in merged}) != 1:
    problems.append("metrics.csv: the merged rows carry more than one run_id")
# The cases, in order, in metrics.csv and in run.json.
def cases(rs):
    return list(dict.fromkeys((r["scenario"], r["seed"]) for r in rs))
record, local_record = (json.loads(raw(d, "run.json")) for d in (merged_dir, local_dir))
listed = [(c["label"], str(c["seed"])) for c in record.get("merge", {}).get("cases", [])]
if not (cases(merged) == cases(local) == listed) or record["cases"] != local_record["cases"]:
    problems.append(f"cases differ: merged {cases(merged)}, listed {listed}, single-machine {cases(local)}")
if not record["merge"]["complete"] or len(record["merge"]["shards"]) != 8:
    problems.append(f"run.json merge record: complete {record['merge']['complete']}, {len(record['merge']['shards'])} shards")
for key in ["events", "informational"]:
    if record[key] != local_record[key]:
        problems.append(f"run.json {key}: merged {record[key]}, single-machine {local_record[key]}")
# Metric keys, latency keys and the calls each latency histogram holds.
keys = lambda rs: [(r["scenario"], r["requirement"], r["metric"]) for r in rs]
if keys(merged) != keys(local):
    problems.append("metric keys differ")
def calls(folder):
    c = Counter()
    for r in rows(folder, "latency-histogram.csv"):
        c[(r["case"], r["requirement"], r["metric"])] += int(r["count"])
    return c
if calls(merged_dir) != calls(local_dir):
    problems.append("latency-histogram.csv: the latency series or their call counts differ")
series = lambda folder: {(r["case"], r["requirement"], r["metric"]) for r in rows(folder, "latency.csv")}
if series(merged_dir) != series(local_dir):
    problems.append("latency.csv: the latency series differ")
# What the accuracy figures, events and maps are drawn from: deterministic, so byte for byte.
for name in ["items.csv", "events.csv", "traces.geojson"]:
    if raw(merged_dir, name) != raw(local_dir, name):
        problems.append(f"{name} differs from the single-machine run's")
if problems:
    print("the merged run folder differs from the single-machine run:", *problems[:20], sep="\n  ", file=sys.stderr)
    sys.exit(1)
latency = sum(r["kind"] == "latency" for r in local)
print(f"the merged folder equals the single-machine run: {len(local)} rows of {len(cases(local))} cases "
      f"({latency} latency rows compared by identity), items, events, traces and latency series")
PY
fieldtest report results/merged --output merged.html || die "fieldtest report of the merged folder failed"
fieldtest report local --output local.html || die "fieldtest report of the single-machine run failed"
python3 - merged.html local.html <<'PY'
import re, sys
def figures(path):
    text = open(path, encoding="utf-8").read()
    # Each figure's accessible name, numbers aside (latency values are measured on the clock).
    return [re.sub(r"[0-9][0-9.,]*", "#", a) for a in re.findall(r'aria-label="([^"]*)"', text)]
merged, local = figures(sys.argv[1]), figures(sys.argv[2])
if merged != local:
    print("the merged report draws other figures than the single-machine run's:",
          *[f"{m!r} != {l!r}" for m, l in zip(merged, local) if m != l][:10], f"{len(merged)} vs {len(local)}",
          sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"report of the merged folder: the same {len(merged)} labelled figures and elements as the single-machine run's")
PY
say "passed in $((SECONDS - started))s"
