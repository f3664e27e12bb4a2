#!/usr/bin/env bash
# scripts/sweep.slurm without Slurm: its syntax, and under SWEEP_DRY_RUN=1 the sbatch commands
# it would submit: a build job, arrays after it (afterok) split at the cluster's MaxArraySize, a
# cleanup job that cancels the arrays if the build fails (afternotok), a summary after every
# array (afterany); each with its own resources and log name (%A_%a only for the arrays).
source "$(dirname "$0")/lib.sh"

need_python3() { command -v python3 > /dev/null || skip "python3 is not on PATH"; }

# fake_slurm [MAX]: a folder for PATH with an scontrol that reports MaxArraySize MAX, or that
# fails (no MAX); and an sbatch and scancel that fail the test if anything calls them
fake_slurm() {
    mkdir -p "$D/bin"
    if [ -n "${1:-}" ]; then
        printf '#!/bin/sh\necho "Configuration data as of 2026-01-01T00:00:00"\necho "MaxArraySize            = %s"\necho "MaxJobCount             = 10000"\n' "$1" > "$D/bin/scontrol"
    else
        printf '#!/bin/sh\necho "slurm_load_ctl_conf error: Unable to contact slurm controller" >&2\nexit 1\n' > "$D/bin/scontrol"
    fi
    printf '#!/bin/sh\ntouch "%s/called"\nexit 1\n' "$D" > "$D/bin/sbatch"
    cp "$D/bin/sbatch" "$D/bin/scancel"
    chmod +x "$D/bin/"*
}

# dry CMD...: scripts/sweep.slurm under SWEEP_DRY_RUN=1 with the fake Slurm first on PATH
dry() { PATH="$D/bin:$PATH" SWEEP_DRY_RUN=1 scripts/sweep.slurm "$@"; }

# line N: line N of $D/out (the Nth sbatch command)
line() { sed -n "${1}p" "$D/out"; }

# contains TEXT WORD...: fails unless TEXT holds every WORD
contains() {
    local text=$1 w
    shift
    for w in "$@"; do
        [[ "$text" == *"$w"* ]] || fail "lacks '$w': $text"
    done
}

test_sweep_slurm_syntax_and_help() {
    bash -n scripts/sweep.slurm || fail "bash -n scripts/sweep.slurm"
    scripts/sweep.slurm --help > "$D/help"
    has "$D/help" "shared by all nodes" "MaxArraySize" "SWEEP_DRY_RUN"
    lacks "$D/help" "4294967294"
    has scripts/sweep.slurm "module load" "BUILD_SBATCH=(" "RUN_SBATCH=(" "SUMMARY_SBATCH=("
    lacks scripts/sweep.slurm "#SBATCH --output=slurm-%x-%A_%a"
}

# one array (4 runs, MaxArraySize not readable: 1000): four sbatch commands and their dependencies
test_sweep_slurm_dry_run_dependencies() {
    need_python3
    fake_slurm
    dry submit params/foam.h --name test_sweep_slurm --set gamma=1e2,1e3 --seeds 1,2 --out "$D/o" -- -n 2 > "$D/out" 2> "$D/err"
    [ "$(grep -c '^sbatch ' "$D/out")" = 4 ] || fail "not 4 sbatch commands: $(cat "$D/out")"
    local build array cleanup summary
    build=$(line 1) array=$(line 2) cleanup=$(line 3) summary=$(line 4)
    contains "$build" "--job-name=polyhoop-sweep-build" "--output=slurm-%x-%j.out" "scripts/sweep.slurm build params/foam.h" \
        "--set gamma=1e2,1e3 --seeds 1,2 --out $D/o -- -n 2"
    contains "$array" "--dependency=afterok:JOB1" "--array=0-3" "--output=slurm-%x-%A_%a.out" \
        "scripts/sweep.slurm run --offset=0 params/foam.h"
    contains "$cleanup" "--dependency=afternotok:JOB1" "--output=slurm-%x-%j.out" "scripts/sweep.slurm cancel JOB2"
    contains "$summary" "--dependency=afterany:JOB2" "--output=slurm-%x-%j.out" "scripts/sweep.slurm summary params/foam.h"
    # %A_%a (4294967294 outside an array) in the array's log name only
    [ "$(grep -c '%A_%a' "$D/out")" = 1 ] || fail "%A_%a outside the array job"
    # the resources of build, array and summary differ (RUN_SBATCH, BUILD_SBATCH, SUMMARY_SBATCH)
    local t1 t2 t4
    t1=$(grep -o -- '--time=[^ ]*' <<< "$build") t2=$(grep -o -- '--time=[^ ]*' <<< "$array") t4=$(grep -o -- '--time=[^ ]*' <<< "$summary")
    [ -n "$t1" ] && [ "$t1" != "$t2" ] && [ "$t2" != "$t4" ] || fail "the jobs share their resources: $t1 $t2 $t4"
    has "$D/out" "sweep.slurm: 4 runs in 1 array of at most 1000 tasks"
    [ ! -e "$D/called" ] || fail "a dry run called sbatch or scancel"
    [ ! -e "$D/o" ] && [ ! -e build/sweep/test_sweep_slurm ] || fail "a dry run built or ran something"
}

# more runs than MaxArraySize: arrays of at most MaxArraySize tasks with offsets, all after the
# build, all cancelled if it fails, all waited for by the summary
test_sweep_slurm_dry_run_chunks() {
    need_python3
    fake_slurm 3
    dry submit params/default.h --set dt=1e-4,2e-4 --seeds 1,2,3,4 -- -n 2 > "$D/out" 2> /dev/null
    [ "$(grep -c '^sbatch ' "$D/out")" = 6 ] || fail "not 6 sbatch commands: $(cat "$D/out")"
    contains "$(line 2)" "--dependency=afterok:JOB1" "--array=0-2" "run --offset=0 "
    contains "$(line 3)" "--dependency=afterok:JOB1" "--array=0-2" "run --offset=3 "
    contains "$(line 4)" "--dependency=afterok:JOB1" "--array=0-1" "run --offset=6 "
    contains "$(line 5)" "--dependency=afternotok:JOB1" "cancel JOB2 JOB3 JOB4"
    contains "$(line 6)" "--dependency=afterany:JOB2:JOB3:JOB4" "summary params/default.h"
    has "$D/out" "8 runs in 3 arrays of at most 3 tasks"
    # scontrol unreadable: 1000 a chunk; 1001 runs in two arrays
    fake_slurm
    dry submit params/default.h --seeds "$(seq -s, 0 1000)" > "$D/out" 2> /dev/null
    contains "$(line 2)" "--array=0-999" "run --offset=0 "
    contains "$(line 3)" "--array=0-0" "run --offset=1000 "
    has "$D/out" "1001 runs in 2 arrays of at most 1000 tasks"
}

# an array task runs run OFFSET + SLURM_ARRAY_TASK_ID with the task's cores as threads; bad
# arguments stop the submission before any sbatch
test_sweep_slurm_tasks_and_refusals() {
    need_python3
    fake_slurm
    local got
    got=$(SLURM_ARRAY_TASK_ID=2 SLURM_CPUS_PER_TASK=4 dry run --offset=3 params/foam.h -- -n 2)
    [ "$got" = "scripts/sweep.py --task 5 --threads 4 params/foam.h -- -n 2" ] || fail "run: $got"
    got=$(SLURM_ARRAY_TASK_ID=0 dry run params/foam.h)
    [ "$got" = "scripts/sweep.py --task 0 --threads 1 params/foam.h" ] || fail "run without --offset: $got"
    status 2 errs "$D/err" env SLURM_ARRAY_TASK_ID=0 PATH="$D/bin:$PATH" SWEEP_DRY_RUN=1 scripts/sweep.slurm run --offset=x params/foam.h
    got=$(dry cancel 11 12 2> /dev/null)
    [ "$got" = "scancel 11 12" ] || fail "cancel: $got"
    status 2 errs "$D/err" dry submit params/foam.h --seeds -1
    [ "$(wc -l < "$D/err")" = 1 ] || fail "not one line: $(cat "$D/err")"
    status 2 errs "$D/err" dry nosuch
    [ ! -e "$D/called" ] || fail "sbatch or scancel called"
}

# local_slurm: a one-node Slurm cluster of this machine in $D/slurm (munged, slurmctld and slurmd
# as root on ports of their own, the node declared with 8 CPUs and 16 GB so that the template's
# resources fit), SLURM_CONF exported; stopped when the test ends
local_slurm() {
    [ "$(id -u)" = 0 ] || skip "needs root to start a local Slurm"
    for c in munged slurmctld slurmd sbatch squeue scontrol; do
        command -v "$c" > /dev/null || skip "needs a local Slurm: apt-get install -y slurm-wlm munge"
    done
    local S=$D/slurm host port=$((20000 + RANDOM % 30000))
    host=$(hostname -s)
    mkdir -p "$S/spool" "$S/state"
    head -c 1024 /dev/urandom > "$S/munge.key" && chmod 400 "$S/munge.key"
    munged -f --socket="$S/munge.sock" --key-file="$S/munge.key" --log-file="$S/munge.log" --pid-file="$S/munge.pid" \
        --seed-file="$S/munge.seed" || skip "munged does not start here: $(tail -n 1 "$S/munge.log" 2> /dev/null)"
    cat > "$S/slurm.conf" <<CONF
ClusterName=phtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$S/munge.sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=8 RealMemory=16000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$S/slurm.conf
    trap stop_slurm EXIT
    slurmctld -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" || skip "slurmctld or slurmd does not start here: $(tail -q -n 1 "$S"/*.log 2> /dev/null | tr '\n' ' ')"
    for _ in $(seq 30); do sinfo -h -o %T 2> /dev/null | grep -q idle && return 0; sleep 1; done
    skip "the local Slurm node is not idle after 30 s (this machine cannot host it): $(sinfo -h 2>&1 | head -n 1; tail -q -n 1 "$S"/*.log 2> /dev/null | tr '\n' ' ')"
}

# stop_slurm: the daemons of local_slurm stopped, waiting until they have gone (they write their
# state as they stop)
stop_slurm() {
    local pids
    pids=$(cat "$D/slurm/slurmctld.pid" "$D/slurm/slurmd.pid" "$D/slurm/munge.pid" 2> /dev/null) || true
    [ -n "$pids" ] || return 0
    kill $pids 2> /dev/null || true
    for _ in $(seq 50); do kill -0 $pids 2> /dev/null || return 0; sleep 0.1; done
    kill -9 $pids 2> /dev/null || true
}

# wait_jobs: until no job is queued or running (at most 15 minutes)
wait_jobs() {
    for _ in $(seq 900); do [ -z "$(squeue -h 2> /dev/null)" ] && return 0; sleep 1; done
    fail "jobs still queued after 15 minutes: $(squeue)"
}

# The template under a real Slurm: a sweep of two runs is built by one job, run by a job array of
# two tasks (-j from --cpus-per-task) and summed up by a last job; every job writes its log under
# its name. A build that fails (a base header with lmin above lmax / 2 stops the compiler) makes
# the cleanup job cancel the array, which would otherwise wait forever, and the summary still comes.
test_sweep_slurm_real_cluster() {
    need_python3
    local_slurm
    scripts/sweep.slurm submit params/foam.h --set gamma=1e2,1e3 --seeds 1 --out "$D/ok" -- -n 1 -s 10 > "$D/submit" 2>&1 ||
        fail "submit failed: $(cat "$D/submit")"
    read -r build array summary cleanup < <(sed -n 's/.*jobs \([0-9]*\) (build), \([0-9]*\) (array), \([0-9]*\) (summary), \([0-9]*\) (cleanup.*/\1 \2 \3 \4/p' "$D/submit")
    [ -n "$cleanup" ] || fail "no job ids in: $(cat "$D/submit")"
    wait_jobs
    logs=(slurm-polyhoop-sweep-build-"$build".out slurm-polyhoop-sweep-run-"$array"_0.out slurm-polyhoop-sweep-run-"$array"_1.out
          slurm-polyhoop-sweep-summary-"$summary".out)
    for f in "${logs[@]}"; do [ -f "$f" ] || fail "no log $f"; mv "$f" "$D/"; done
    [ ! -e slurm-polyhoop-sweep-cleanup-"$cleanup".out ] || fail "the cleanup job ran after a good build"
    has "$D/ok/summary.csv" gamma_1e2-seed1 gamma_1e3-seed1
    [ "$(grep -c ',ok,' "$D/ok/summary.csv")" = 2 ] || fail "not 2 runs ok: $(cat "$D/ok/summary.csv")"
    python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["command"]; sys.exit(c[c.index("-j") + 1] != "4")' \
        "$D/ok/gamma_1e2-seed1/result.json" || fail "the task did not run with -j 4 (its --cpus-per-task)"
    [ -s "$D/ok/gamma_1e3-seed1/frame000001.vtp" ] || fail "the run wrote no frame 1"

    printf '#include "%s/params/foam.h"\n#undef P_lmax\n#define P_lmax 0.001\n' "$PWD" > "$D/bad.h"
    scripts/sweep.slurm submit "$D/bad.h" --set gamma=1e3 --seeds 1 --out "$D/bad" -- -n 1 -s 10 > "$D/submit" 2>&1 ||
        fail "submit failed: $(cat "$D/submit")"
    read -r build array summary cleanup < <(sed -n 's/.*jobs \([0-9]*\) (build), \([0-9]*\) (array), \([0-9]*\) (summary), \([0-9]*\) (cleanup.*/\1 \2 \3 \4/p' "$D/submit")
    wait_jobs
    for f in slurm-polyhoop-sweep-*-"$build".out slurm-polyhoop-sweep-*-"$cleanup".out slurm-polyhoop-sweep-*-"$summary".out; do
        [ -f "$f" ] || fail "no log $f"; mv "$f" "$D/"
    done
    has "$D/slurm-polyhoop-sweep-cleanup-$cleanup.out" "the build failed; cancelling the array job(s) $array"
    [ ! -e slurm-polyhoop-sweep-run-"$array"_0.out ] || fail "an array task ran after a failed build"
    has "$D/bad/summary.csv" "gamma_1e3-seed1,1e3,1,build failed"
    has "$D/bad/summary.txt" "lmax must be > 2 lmin"
}

run_file "$@"
