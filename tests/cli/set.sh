#!/usr/bin/env bash
# Parameters at run time, --set NAME=VALUE: a run with them writes the frames of a build of a
# header with those values; they are checked as the header is (ranges, rules, names, values) and
# refused with one line and exit 2; the banner and the frames say which were set; a restart goes
# on with them (byte-identical after kill -9) and refuses another value.
source "$(dirname "$0")/lib.sh"

need_python3() { command -v python3 > /dev/null || skip "python3 is not on PATH"; }

# data FRAME: a digest of the frame without its XML comment (which names the header, the
# revision and the parameters set); lines FRAME: the comment's parameter lines "name = value"
data() { python3 -c 'import hashlib, re, sys; print(hashlib.sha256(re.sub(rb"<!--.*?-->", b"", open(sys.argv[1], "rb").read(), count=1, flags=re.S)).hexdigest())' "$1"; }
lines() { sed -n '/<!--/,/-->/p' "$1" | grep -E '^  [A-Za-z_]+ += '; }

# A double and an int (gamma and Nr: the first of 7 hexagonal cells rigid) set on the command line
# of the default build give the frames of a build of a header with those values, byte for byte
# but for the comment, whose parameter lines are the same too; each of the two changes the frames
# (neither is ignored).
test_set_frames_as_header_build() {
    need_python3
    mkdir -p "$D/p"
    printf '#include "%s/params/default.h"\n#undef P_gamma\n#define P_gamma 2e3\n#undef P_Nr\n#define P_Nr 1\n' "$PWD" > "$D/p/set.h"
    make -s B="$D/build" PARAMS="$D/p/set.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    scripts/make_hex.py 7 "$D/hex.off" > /dev/null
    "$D/build/polyhoop" -q -n 3 -s 200 -o "$D/h" "$D/hex.off" > /dev/null
    tests/polyhoop -q -n 3 -s 200 --set gamma=2e3 --set Nr=1 -o "$D/s" "$D/hex.off" > /dev/null
    tests/polyhoop -q -n 3 -s 200 --set gamma=2e3 -o "$D/g" "$D/hex.off" > /dev/null
    tests/polyhoop -q -n 3 -s 200 --set Nr=1 -o "$D/r" "$D/hex.off" > /dev/null
    local f k
    for k in 0 1 2 3; do
        f=frame00000$k.vtp
        [ "$(data "$D/h/$f")" = "$(data "$D/s/$f")" ] || fail "$f: the --set run's data differ from the header build's"
        [ "$(lines "$D/h/$f")" = "$(lines "$D/s/$f")" ] || fail "$f: the parameter lines differ: $(diff <(lines "$D/h/$f") <(lines "$D/s/$f"))"
    done
    [ "$(lines "$D/s/$f" | grep -c .)" -gt 40 ] || fail "the comment has too few parameter lines"
    has "$D/s/$f" "  gamma     = 2000" "  Nr        = 1"
    [ "$(data "$D/g/$f")" != "$(data "$D/s/$f")" ] || fail "Nr = 1 changed nothing"
    [ "$(data "$D/r/$f")" != "$(data "$D/s/$f")" ] || fail "gamma = 2e3 changed nothing"
}

# refused TEXT ARGS...: tests/polyhoop with ARGS exits 2 with one line on stderr holding TEXT, and
# writes nothing
refused() {
    local want=$1
    shift
    status 2 errs "$D/err" tests/polyhoop -q -n 1 -s 10 -o "$D/o" "$@"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "$*: not one line: $(cat "$D/err")"
    has "$D/err" "$want"
    [ ! -e "$D/o" ] || fail "$*: a refused run wrote $D/o"
}

# The ranges and rules of the header, on the values set (one line naming the parameter, exit 2),
# also those checked against the input (Nr, the box), which name the values set too;
# an unknown name with the closest known one; a name fixed at build time; values that are not
# numbers in full, an int parameter given a non-integer; Nf and Ns as -n and -s check theirs.
test_set_refusals() {
    refused "polyhoop: params/default.h with --set h=0: h must be > 0 and finite" --set h=0
    refused "polyhoop: params/default.h with --set kr=-1: kr must be >= 0 and finite" --set kr=-1
    refused "polyhoop: params/default.h with --set gamma=nan: gamma must be a finite number" --set gamma=nan
    refused "polyhoop: params/default.h with --set dt=inf: dt must be > 0 and finite" --set dt=inf
    refused "polyhoop: params/default.h with --set h=inf: h must be > 0 and finite" --set h=inf
    refused "polyhoop: params/default.h with --set Q=inf: Q must be >= 0 and finite" --set Q=inf
    refused "polyhoop: params/default.h with --set g=-inf: g must be a finite number" --set g=-inf
    refused "with --set h=1e+308: the contact reach h + sh + ss must be at most 100 lmax" --set h=1e308
    refused "with --set box_x0=nan: box_x0 must be a number (-inf or inf: no wall)" --set box_x0=nan
    refused "polyhoop: params/default.h with --set lmin=0.2: lmax must be > 2 lmin" --set lmin=0.2
    refused "polyhoop: params/default.h with --set theta=2 --set att_k=1: theta must be in [0, 1]" --set att_k=1 --set theta=2
    refused "with --set att_k=1: an attractor (att_k != 0) needs att_n > 0 polygons to pull" --set att_k=1
    refused "polyhoop: params/default.h with --set Nr=5: Nr = 5 rigid polygons requested but the input has only 1" --set Nr=5
    refused "outside the box [-1, 1] x [5, 6] of params/default.h with --set box_x0=-1 --set box_y0=5 --set box_x1=1 --set box_y1=6 " \
        --set box_x0=-1 --set box_x1=1 --set box_y0=5 --set box_y1=6
    refused "polyhoop: --set gama=3e3: no parameter 'gama'; did you mean gamma?" --set gama=3e3
    refused "polyhoop: --set P_lmn=1: no parameter 'lmn'; did you mean lmin?" --set P_lmn=1
    refused "polyhoop: --set NS=1: P_NS is fixed at build time: change it in params/default.h" --set NS=1
    refused "polyhoop: --set P_ntypes=2: P_ntypes is fixed at build time" --set P_ntypes=2
    refused "polyhoop: --set TYPE_ka=1: P_TYPE_ka is fixed at build time" --set TYPE_ka=1
    refused "polyhoop: --set chem_every=2: P_chem_every is fixed at build time" --set chem_every=2
    refused "polyhoop: --set gamma=abc: gamma needs a number (such as 1e3, -0.5 or INFINITY), not 'abc'" --set gamma=abc
    refused "polyhoop: --set gamma=1e: gamma needs a number" --set gamma=1e
    refused "polyhoop: --set gamma=: gamma needs a number" --set gamma=
    refused "polyhoop: --set gamma=1,2: gamma needs a number" --set gamma=1,2
    refused "polyhoop: --set gamma=1e400: gamma = 1e400 is beyond the range of a double" --set gamma=1e400
    refused "polyhoop: --set gamma: expected NAME=VALUE" --set gamma
    refused "polyhoop: --set Nr=1.5: Nr is an integer parameter, and '1.5' is not an integer" --set Nr=1.5
    refused "polyhoop: --set att_n=2e3: att_n is an integer parameter" --set att_n=2e3
    refused "polyhoop: option --set Ns needs an integer >= 1, got '0'" --set Ns=0
    refused "polyhoop: option --set Nf needs an integer >= 0, got '1.5'" --set Nf=1.5
    status 2 errs "$D/err" tests/polyhoop -q -o "$D/o" --set
    has "$D/err" "option --set needs a value"
    # box_k without walls: accepted, with a warning that it acts on nothing (before: not a word)
    tests/polyhoop -q -n 0 --set box_k=5 -o "$D/k" 2> "$D/err" > /dev/null || fail "--set box_k=5 was refused"
    has "$D/err" "polyhoop: warning: --set box_k=5 has no effect: params/default.h has no box walls"
    tests/polyhoop -q -n 0 --set box_k=5 --set box_x0=-3 -o "$D/kw" 2> "$D/err" > /dev/null || fail "walls and box_k were refused"
    lacks "$D/err" "warning"
}


# Values in range that switch a mechanism off or turn it around, or a time step so small that
# nothing moves: the run goes on, with one warning each saying what it means.
test_set_warnings() {
    for a in kr=0 gamma=-500 dt=1e-300; do
        status 0 errs "$D/err" tests/polyhoop -q -n 1 -s 2 -o "$D/o-$a" --set "$a"
        [ "$(grep -c 'warning' "$D/err")" = 1 ] || fail "--set $a: not one warning: $(cat "$D/err")"
    done
    status 0 errs "$D/err" tests/polyhoop -q -n 1 -s 2 -o "$D/kr" --set kr=0
    has "$D/err" "polyhoop: warning: kr = 0: no repulsion between hoops: polygons pass through each other"
    status 0 errs "$D/err" tests/polyhoop -q -n 1 -s 2 -o "$D/g" --set gamma=-500
    has "$D/err" "polyhoop: warning: gamma = -500 < 0: a negative line tension lengthens every hoop"
    status 0 errs "$D/err" tests/polyhoop -q -n 1 -s 2 -o "$D/dt" --set dt=1e-300
    has "$D/err" "polyhoop: warning: dt = 1e-300 is less than a millionth of the stability limit"
    status 0 errs "$D/err" tests/polyhoop -q -n 1 -s 2 -o "$D/plain"
    lacks "$D/err" warning
}
# The banner names the parameters set (their values in the parameter lines, as ever), the frames'
# comment too ("set:", which scripts/polyhoop_read.py reads); a run without --set has neither
# line. --set Nf and Ns are -n and -s: the last given counts, and they are not listed as set.
test_set_banner_and_frames_echo() {
    tests/polyhoop -n 1 -s 10 --set gamma=1500 --set P_att_n=2 --set Nf=3 -n 1 --set Ns=20 -o "$D/a" > "$D/log"
    has "$D/log" "set on the command line (--set), in place of the header's: gamma, att_n" "  gamma     = 1500" \
        "  att_n     = 2" "frames 0..1 of 20 steps" "  Nf        = 1" "  Ns        = 20"
    has "$D/a/frame000001.vtp" "parameters: params/default.h" "set: gamma, att_n" "  gamma     = 1500"
    [ "$(sed -n 3,4p "$D/a/frame000001.vtp")" = "$(printf 'parameters: params/default.h\nset: gamma, att_n')" ] ||
        fail "the comment's lines: $(sed -n 3,5p "$D/a/frame000001.vtp")"
    tests/polyhoop -n 1 -s 10 -o "$D/b" > "$D/log"
    lacks "$D/log" "--set"
    lacks "$D/b/frame000001.vtp" "set:"
    if command -v python3 > /dev/null; then
        [ "$(python3 -c 'import sys; sys.path.insert(0, "scripts"); import polyhoop_read as r; print(r.read_frame(sys.argv[1]).meta["set"])' \
            "$D/a/frame000001.vtp")" = "gamma, att_n" ] || fail "polyhoop_read.py does not read the set line"
    fi
}

# A run with parameters set (noise, activity and random division and death, as
# tests/params_noise.h has them, and gamma), killed with SIGKILL and restarted without --set,
# goes on with them: its files are those of the run never killed, byte for byte, and its banner
# lists them. A restart with another value is refused naming the parameter and both values,
# and so is a --set of one the run did not set; the same value again is taken.
test_set_restart_keeps_sets() {
    local set=(--set D=0.002 --set v0=0.5 --set Dr=1 --set k_div=2 --set k_death=0.2 --set gamma=1500)
    tests/polyhoop -q -j 1 -n 24 -s 1000 "${set[@]}" -o "$D/a" > /dev/null
    has "$D/a/events.csv" ',division,'
    tests/polyhoop -q -j 1 -n 24 -s 1000 "${set[@]}" -o "$D/c" > /dev/null &
    local pid=$! f
    for _ in $(seq 200); do [ -f "$D/c/frame000006.vtp" ] && break; sleep 0.05; done
    kill -KILL $pid || true
    wait $pid 2> /dev/null || true   # (137: killed)
    [ ! -f "$D/c/frame000024.vtp" ] || fail "the run ended before it was killed"
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/c" --set gamma=1000
    has "$D/err" "polyhoop: cannot restart $D/c: --set gamma=1000: the run was started with gamma = 1500"
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/c" --set kb=1
    has "$D/err" "--set kb=1: the run was started with kb = 0"
    tests/polyhoop -j 1 --restart "$D/c" > "$D/log"
    has "$D/log" "set on the command line (--set), in place of the header's: gamma, D, v0, Dr, k_div, k_death" "  gamma     = 1500"
    for f in "$D"/a/*; do
        cmp -s "$f" "$D/c/${f##*/}" || fail "${f##*/} differs after the kill and a restart without --set"
    done
    tests/polyhoop -q -n 25 --restart "$D/c" --set gamma=1500 --set D=0.002 > /dev/null || fail "the run's own values were refused"
    [ -f "$D/c/frame000025.vtp" ] || fail "no frame 25"
}

# A checkpoint of the format before the parameters set were kept (version 9) is refused, saying
# so; a restart of a run without --set refuses one (the header's value is the run's).
test_set_restart_refusals() {
    tests/polyhoop -q -n 1 -s 10 -o "$D/a" > /dev/null
    status 2 errs "$D/err" tests/polyhoop -q -n 2 --restart "$D/a" --set alpha_mu=2
    has "$D/err" "--set alpha_mu=2: the run was started with alpha_mu = 1"
    tests/polyhoop -q -n 2 --restart "$D/a" --set alpha_mu=1 > /dev/null || fail "the run's own value was refused"
    printf '\x09' | dd of="$D/a/checkpoint.bin" bs=1 seek=24 conv=notrunc status=none
    status 2 errs "$D/err" tests/polyhoop -q -n 3 --restart "$D/a"
    has "$D/err" "checkpoint.bin was written by format version 9 (polyhoop before 2026-12-02, when checkpoints came to store the parameters by name); this polyhoop reads version 11: rerun, or restart it with the polyhoop that wrote it"
}

run_file "$@"
