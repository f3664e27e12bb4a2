#!/usr/bin/env bash
# The program under faults during a run: a time step far too large, a disk that fills up, memory
# that runs out, a signal while it is still setting up. Each case checks the exit status, the message, and that nothing
# written before the fault is lost or left half written.
source "$(dirname "$0")/lib.sh"

# dt far too large: a warning at start with the suggested dt, then exit 3 naming the polygon and
# the time; frame 0 and its checkpoint are intact and no later frame exists.
test_faults_blow_up_stops_cleanly() {
    status 3 errs "$D/err" ./tests/polyhoop_unstable -q -n 10 -s 100 -o "$D/run"
    matches "$D/err" 'warning: dt = 0.01 exceeds the stability limit .* Suggested: dt <= ' \
        'numerical blow-up at t = .*: polygon 0 (id 0) has a vertex moving farther than h' 'frames up to 0 are intact'
    [ -f "$D/run/checkpoint.bin" ] || fail "no checkpoint of frame 0"
    [ ! -f "$D/run/frame000001.vtp" ] || fail "a frame after the blow-up was written"
    vtk_reads "$D/run/frame000000.vtp"
}

# Removals that leave no movable polygon: every cell shrinks away (a rate of -1e3, which
# crashed the contact list's patch), all cells but a rigid ring are below Amin, or all but one.
# Each run ends with status 0: the first two at the frame after the last removal, with a
# checkpoint, one line saying so and no "continue with"; a restart of it says there is nothing to
# continue. The last one runs to its end.
test_faults_no_movable_polygon_left() {
    python3 scripts/make_hex.py 144 "$D/hex.off" > /dev/null
    python3 scripts/make_tissue.py --wall 144 "$D/wall.off" > /dev/null
    status 0 tests/polyhoop -q -j 1 -n 5 -s 100 --set alpha_mu=-1e3 -o "$D/all" "$D/hex.off" > "$D/log" 2> "$D/err"
    matches "$D/log" '^stopped: no movable polygon left (0 polygons at t = 0.01): 1 frames, 100 steps'
    lacks "$D/log" 'continue with' 'bytes per vertex'
    [ -f "$D/all/frame000001.vtp" ] && [ ! -e "$D/all/frame000002.vtp" ] || fail "not stopped at frame 1: $(ls "$D/all" | tr '\n' ' ')"
    [ -f "$D/all/checkpoint.bin" ] || fail "no checkpoint"
    vtk_reads "$D/all/frame000001.vtp"
    status 0 tests/polyhoop -q --restart "$D/all" > "$D/log2"
    has "$D/log2" "nothing to continue: the run in $D/all stopped with no movable polygon left (0 polygons at t = 0.01)"
    [ ! -e "$D/all/frame000002.vtp" ] || fail "the restart wrote a frame"
    status 0 tests/polyhoop -q -j 1 -n 5 -s 100 --set Nr=1 --set Amax_mu=100 --set Amin=50 -o "$D/rigid" "$D/wall.off" > "$D/log" 2> "$D/err"
    matches "$D/log" '^stopped: no movable polygon left (1 polygon at t = 0.01): 1 frames'
    # all cells but the largest below Amin
    amin=$(python3 -c '
import sys
lines = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
nv, nf = int(lines[1][0]), int(lines[1][1])
xy = [(float(l[0]), float(l[1])) for l in lines[2:2 + nv]]
def area(f):
    idx = [int(k) for k in f[1:1 + int(f[0])]]
    return 0.5 * sum(xy[a][0] * xy[b][1] - xy[b][0] * xy[a][1] for a, b in zip(idx, idx[1:] + idx[:1]))
a = sorted(area(f) for f in lines[3 + nv:2 + nv + nf])   # (the cells: the ring is first)
print(0.5 * (a[-1] + a[-2]))' "$D/wall.off")
    status 0 tests/polyhoop -q -j 1 -n 3 -s 100 --set Nr=1 --set Amax_mu=1000 --set Amin="$amin" -o "$D/one" "$D/wall.off" > "$D/log" 2> "$D/err"
    matches "$D/log" '^done: 3 frames, 300 steps .* 2 polygons, [0-9]* vertices at the end'   # (the ring and one cell)
}

# A 48 KiB file system fills up during the run: exit 4 with "No space left on device", every
# frame already there is complete, and no .tmp is left.
test_faults_disk_full() {
    mkdir "$D/fs"
    mount -t tmpfs -o size=48k tmpfs "$D/fs" 2> /dev/null || skip "cannot mount a small tmpfs here (needs root with CAP_SYS_ADMIN)"
    trap 'umount "$D/fs"' EXIT
    status 4 errs "$D/err" tests/polyhoop -q -n 100 -s 200 --checkpoint-every 0 -o "$D/fs"
    has "$D/err" 'No space left on device'
    [ -f "$D/fs/frame000003.vtp" ] || fail "fewer than 4 frames before the disk filled: $(ls "$D/fs" | tr "\n" " ")"
    ls "$D/fs" > "$D/files"
    lacks "$D/files" tmp
    for f in "$D"/fs/frame*.vtp; do vtk_reads "$f"; done
}

# A picture too large for the memory there is (16384 x 16384 pixels, about 1.5 GB, under a limit
# of 600 MB of address space): exit 1, out of memory, as documented (before: 4, an output
# error), and frame 0's .vtp is whole. (Not under AddressSanitizer, which needs terabytes of
# address space to start.)
test_faults_picture_out_of_memory() {
    [ -z "${ASAN_OPTIONS:-}" ] || skip "AddressSanitizer cannot run under ulimit -v"
    st=0; (ulimit -v 600000 && exec tests/polyhoop -q -j 1 -n 1 -s 10 --png --png-size 16384x16384 -o "$D/run") 2> "$D/err" || st=$?
    [ "$st" = 1 ] || fail "exit status $st, expected 1: $(cat "$D/err")"
    has "$D/err" "cannot draw frame 0: $D/run/frame000000.png: out of memory"
    vtk_reads "$D/run/frame000000.vtp"
    [ ! -e "$D/run/frame000000.png" ] || fail "a picture was written"
}

# SIGINT or SIGTERM while the run is still setting up (here: reading an input that arrives
# slowly through a pipe) ends it within a second, with status 128 + signal and a message, and
# no file half written.
test_faults_signal_during_setup() {
    mkfifo "$D/in.off"
    for sig in INT TERM; do
        tests/polyhoop -q -n 1 -o "$D/out" "$D/in.off" 2> "$D/err" &
        pid=$!
        exec 3> "$D/in.off"
        printf 'OFF\n4 1 0\n0 0 0\n' >&3
        sleep 0.3
        kill -"$sig" $pid
        for k in 1 2 3 4 5 6 7 8 9 10; do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
        if kill -0 $pid 2> /dev/null; then kill -9 $pid; fail "SIG$sig did not end the run within a second"; fi
        st=0
        wait $pid || st=$?
        exec 3>&-
        want=130
        if [ $sig = TERM ]; then want=143; fi
        [ $st = $want ] || fail "stopped by SIG$sig: exit status $st, expected $want"
        has "$D/err" "stopped by SIG$sig while setting up (before the first step)"
        [ -z "$(ls "$D/out" 2> /dev/null | grep -v lock)" ] || fail "SIG$sig left files: $(ls "$D/out")"
    done
}

run_file "$@"
