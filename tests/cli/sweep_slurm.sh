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

run_file "$@"
