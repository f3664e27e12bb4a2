/* The program under faults: an unstable time step, a full disk, bad inputs. Each case checks the
 * exit status, the message, and that nothing written before the fault is lost. */
#define _POSIX_C_SOURCE 200809L
#include "fixtures.h"
#include "harness.h"
#include "options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <math.h>

static int vtk_ok(const char *file)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_vtp.py %s > /dev/null 2>&1", file);
    return fx_sh(cmd);
}

/* dt far too large: a warning at start with the suggested dt, then exit 3 naming the polygon and
 * the time; frame 0 and its checkpoint are intact and no later frame exists. */
void test_faults_blow_up_stops_cleanly(void)
{
    char dir[] = "/tmp/ph_test_blowup_XXXXXX", cmd[1024], path[600];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "./tests/polyhoop_unstable -q -n 10 -s 100 -o %s/run > %s/out 2> %s/err", dir, dir, dir);
    ENSURE(fx_sh(cmd) == 3);
    snprintf(cmd, sizeof cmd, "grep -q 'warning: dt = 0.01 exceeds the stability limit .* Suggested: dt <= ' %s/err && "
             "grep -q 'numerical blow-up at t = .*: polygon 0 (id 0) has a vertex moving farther than h' %s/err && "
             "grep -q 'frames up to 0 are intact' %s/err && [ -f %s/run/checkpoint.bin ] && [ ! -f %s/run/frame000001.vtp ]",
             dir, dir, dir, dir, dir);
    ENSURE_MSG(fx_sh(cmd) == 0, "messages or files not as expected (%s)", dir);
    snprintf(path, sizeof path, "%s/run/frame000000.vtp", dir);
    int st = vtk_ok(path);
    ENSURE_MSG(st == 0 || st == 77 || st == 127, "the last good frame is not readable");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* A 48 KiB file system fills up during the run: exit 4 with "No space left on device", every
 * frame already there is complete, and no .tmp is left. */
void test_faults_disk_full(void)
{
    char dir[] = "/tmp/ph_test_full_XXXXXX", cmd[2048];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mount -t tmpfs -o size=48k tmpfs %s 2> /dev/null", dir);
    if (fx_sh(cmd) != 0) {
        snprintf(cmd, sizeof cmd, "rmdir %s", dir);
        fx_sh(cmd);
        SKIP("cannot mount a small tmpfs here (needs root with CAP_SYS_ADMIN)");
    }
    snprintf(cmd, sizeof cmd, "./polyhoop -q -n 100 -s 200 --checkpoint-every 0 -o %s > /dev/null 2> %s.err", dir, dir);
    int st = fx_sh(cmd);
    snprintf(cmd, sizeof cmd, "grep -q 'No space left on device' %s.err && ls %s | grep -q frame000003.vtp && ! ls %s | grep -q tmp", dir, dir, dir);
    int files_ok = fx_sh(cmd) == 0, frames_ok = 1;
    for (int k = 0; k < 100 && files_ok; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/frame%06d.vtp", dir, k);
        FILE *f = fopen(path, "r");
        if (!f) break;
        fclose(f);
        int v = vtk_ok(path);
        frames_ok &= v == 0 || v == 77 || v == 127;
    }
    snprintf(cmd, sizeof cmd, "umount %s && rmdir %s && rm -f %s.err", dir, dir, dir);
    fx_sh(cmd);
    ENSURE_MSG(st == 4, "exit status %d, expected 4", st);
    ENSURE_MSG(files_ok, "no 'No space left' message, too few frames, or a .tmp left");
    ENSURE_MSG(frames_ok, "a frame written before the disk filled is not readable");
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ENSURE(f);
    fputs(text, f);
    fclose(f);
}

/* Polygons that share area or boundary: a warning by default naming both (index and line of the
 * file) and the shared area; with --strict-input an error, exit 2 and nothing written. Crossing
 * squares, identical squares, squares sharing an edge, a square inside a square of the same
 * phase; a square inside one of the other phase and squares h apart pass even --strict-input. */
void test_faults_overlapping_input(void)
{
    static const struct { const char *name, *off, *msg; } bad[] = {
        { "cross", "OFF\n8 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0.5 0\n1.5 0.5 0\n1.5 1.5 0\n0.5 1.5 0\n4 0 1 2 3\n4 4 5 6 7\n",
          "polygons 0 (line 11) and 1 (line 12) overlap on 25% of the smaller one's area (their edges cross)" },
        { "stacked", "OFF\n# a square, half of it, the square again\n4 3 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n3 0 1 2\n4 1 2 3 0\n",
          "polygons 0 (line 8) and 1 (line 9) overlap on 100% of the smaller one's area (their edges coincide or touch: "
          "hoops keep a distance h, and the contact force of coinciding edges has no direction); 3 such pairs in all" },
        { "edge", "OFF\n6 2 0\n0 0 0\n1 0 0\n2 0 0\n2 1 0\n1 1 0\n0 1 0\n4 0 1 4 5\n4 1 2 3 4\n",
          "polygons 0 (line 9) and 1 (line 10) touch, sharing 0% of the smaller one's area (their edges coincide or touch" },
        { "nested", "OFF\n8 2 0\n0 0 1\n4 0 1\n4 4 1\n0 4 1\n1 1 1\n2 1 1\n2 2 1\n1 2 1\n4 0 1 2 3\n4 4 5 6 7\n",
          "polygon 1 (line 12) lies inside polygon 0 (line 11) of the same phase (+1), covering 6.25% of polygon 0's area: only a drop of the other phase" },
    };
    char dir[] = "/tmp/ph_test_overlap_XXXXXX", path[600], cmd[2000];
    ENSURE(mkdtemp(dir));
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(path, sizeof path, "%s/%s.off", dir, bad[k].name);
        write_text(path, bad[k].off);
        snprintf(cmd, sizeof cmd, "./polyhoop -q -n 0 -o %s/a%zu %s 2> %s/err && grep -qF \"%s.off: warning: %s\" %s/err && "
                 "grep -q -- '--strict-input rejects this' %s/err && [ -f %s/a%zu/frame000000.vtp ]",
                 dir, k, path, dir, bad[k].name, bad[k].msg, dir, dir, dir, k);
        ENSURE_MSG(fx_sh(cmd) == 0, "%s: no warning naming the pair (%s)", bad[k].name, dir);
        snprintf(cmd, sizeof cmd, "./polyhoop -q -n 0 --strict-input -o %s/b%zu %s 2> %s/err; [ $? = 2 ] && "
                 "grep -qF \"%s.off: error: %s\" %s/err && [ ! -e %s/b%zu ]", dir, k, path, dir, bad[k].name, bad[k].msg, dir, dir, k);
        ENSURE_MSG(fx_sh(cmd) == 0, "%s: not refused with --strict-input (%s)", bad[k].name, dir);
    }
    static const char *const good[] = {
        "OFF\n8 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n1.01 0 0\n2 0 0\n2 1 0\n1.01 1 0\n4 0 1 2 3\n4 4 5 6 7\n",   /* h apart */
        "OFF\n8 2 0\n0 0 1\n4 0 1\n4 4 1\n0 4 1\n1 1 0\n2 1 0\n2 2 0\n1 2 0\n4 0 1 2 3\n4 4 5 6 7\n",         /* a drop in a drop */
    };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        snprintf(path, sizeof path, "%s/good%zu.off", dir, k);
        write_text(path, good[k]);
        snprintf(cmd, sizeof cmd, "./polyhoop -q -n 0 --strict-input -o %s/c%zu %s 2> %s/err && ! grep -q 'warning\\|error' %s/err",
                 dir, k, path, dir, dir);
        ENSURE_MSG(fx_sh(cmd) == 0, "good input %zu refused or warned about (%s)", k, dir);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* a polygon with one vertex at (1e9, 1e9) would be refined into ~1e10 vertices: rejected */
void test_faults_stray_vertex_rejected(void)
{
    char dir[] = "/tmp/ph_test_stray_XXXXXX", path[600], cmd[1400];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/stray.off", dir);
    write_text(path, "OFF\n4 1 0\n0 0 0\n1 0 0\n1e9 1e9 0\n0 1 0\n4 0 1 2 3\n");
    snprintf(cmd, sizeof cmd, "./polyhoop -q -n 1 -o %s/a %s 2> %s/err", dir, path, dir);
    ENSURE(fx_sh(cmd) == 2);
    snprintf(cmd, sizeof cmd, "grep -q 'would turn its 4 vertices into about .*, more than the bound of .* (wrong units, or a stray vertex?)' %s/err", dir);
    ENSURE(fx_sh(cmd) == 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* A small polygon far away (at 1e9, 1e9) beside the default cell: the contact grid must not grow
 * with the bounding box. Peak memory stays that of a small run (measured by /usr/bin/time). */
void test_faults_escaped_polygon_bounded_memory(void)
{
    char dir[] = "/tmp/ph_test_escaped_XXXXXX", path[600], cmd[1400];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/far.off", dir);
    FILE *f = fopen(path, "w");
    ENSURE(f);
    fprintf(f, "OFF\n43 2 0\n");
    for (int k = 0; k < 40; k++) fprintf(f, "%.17g %.17g 0\n", cos(2 * 3.141592653589793 * k / 40), sin(2 * 3.141592653589793 * k / 40));
    fprintf(f, "1e9 1e9 0\n1000000000.1 1e9 0\n1e9 1000000000.1 0\n40");
    for (int k = 0; k < 40; k++) fprintf(f, " %d", k);
    fprintf(f, "\n3 40 41 42\n");
    fclose(f);
    if (fx_sh("[ -x /usr/bin/time ]") != 0) SKIP("no /usr/bin/time: apt-get install time");
    snprintf(cmd, sizeof cmd, "/usr/bin/time -f %%M -o %s/rss ./polyhoop -q -n 5 -s 200 -o %s/a %s > /dev/null 2>&1", dir, dir, path);
    ENSURE(fx_sh(cmd) == 0);
    snprintf(path, sizeof path, "%s/rss", dir);
    f = fopen(path, "r");
    long kb = -1;
    char line[256];
    while (f && fgets(line, sizeof line, f)) sscanf(line, "%ld", &kb);   /* the last line holds it */
    fclose(f);
    long limit = getenv("ASAN_OPTIONS") ? 100000 : 40000;   /* (AddressSanitizer's quarantine keeps freed memory) */
    ENSURE_MSG(kb > 0 && kb < limit, "peak resident memory %ld KiB, more than %ld", kb, limit);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* a file that is one endless line: rejected after 16 MiB, memory bounded */
void test_faults_endless_line(void)
{
    char dir[] = "/tmp/ph_test_line_XXXXXX", cmd[1400];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "head -c 40000000 /dev/zero | tr '\\\\0' '7' > %s/long.off && "
             "/usr/bin/time -f %%M -o %s/rss ./polyhoop -q -n 0 -o %s/a %s/long.off 2> %s/err; echo $? > %s/st",
             dir, dir, dir, dir, dir, dir);
    fx_sh(cmd);
    snprintf(cmd, sizeof cmd, "grep -q 2 %s/st && grep -q 'long.off:1: line longer than 16 MiB' %s/err && [ $(tail -n 1 %s/rss) -lt 60000 ]",
             dir, dir, dir);
    ENSURE_MSG(fx_sh(cmd) == 0, "see %s", dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* One run per folder: while a run holds the folder, a second run and a restart of it exit 2
 * naming the lock, and the first run's frames all read in VTK. A new run refuses a folder with
 * another run's frames unless --overwrite (which removes them all, so no old frame survives
 * beside the new ones); --restart continues it. */
void test_faults_one_run_per_folder(void)
{
    char dir[] = "/tmp/ph_test_lock_XXXXXX", cmd[2048];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "D=%s\n"
             "./polyhoop -q -j 1 -n 40 -s 200 -o $D/a > /dev/null 2>&1 & P=$!\n"
             "while [ ! -f $D/a/frame000001.vtp ]; do kill -0 $P 2> /dev/null || exit 10; sleep 0.05; done\n"
             "./polyhoop -q -n 2 -s 10 -o $D/a > /dev/null 2> $D/err2; s2=$?\n"
             "./polyhoop -q -n 50 --restart $D/a > /dev/null 2> $D/err3; s3=$?\n"
             "wait $P || exit 11\n"
             "[ $s2 = 2 ] && [ $s3 = 2 ] || exit 12\n"
             "grep -q 'output folder .* is in use by another run' $D/err2 && grep -q 'in use by another run' $D/err3 || exit 13\n"
             "[ $(ls $D/a | grep -c 'frame.*vtp$') = 41 ] || exit 14\n"
             "./polyhoop -q -n 1 -s 10 -o $D/a > /dev/null 2> $D/err4; [ $? = 2 ] || exit 15\n"
             "grep -q 'holds another run.*--restart.*--overwrite' $D/err4 || exit 16\n"
             "./polyhoop -q -n 1 -s 10 --overwrite -o $D/a > /dev/null 2>&1 || exit 17\n"
             "[ \"$(ls $D/a | grep -v '^\\.' | tr '\\n' ' ')\" = 'checkpoint.bin events.csv frame000000.vtp frame000001.vtp frames.pvd observables.csv ' ] || exit 18\n"
             "./polyhoop -q -n 2 --restart $D/a > /dev/null 2>&1 && [ -f $D/a/frame000002.vtp ] || exit 19\n",
             dir);
    int st = fx_sh(cmd);
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
    for (int k = 0; k <= 2; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/a/frame%06d.vtp", dir, k);
        st = vtk_ok(path);
        ENSURE_MSG(st == 0 || st == 77 || st == 127, "%s is not readable", path);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* Absurd thread counts: -j above 4 per core exits 2 with a message; OMP_NUM_THREADS above it is
 * capped with a warning and the run goes on. */
void test_faults_thread_count_bounded(void)
{
    char dir[] = "/tmp/ph_test_threads_XXXXXX", cmd[1024];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "./polyhoop -q -j 100000 -n 0 -o %s/a > /dev/null 2> %s/err; [ $? = 2 ] && "
             "grep -q -- '-j 100000: at most .* threads' %s/err", dir, dir, dir);
    ENSURE_MSG(fx_sh(cmd) == 0, "-j 100000 not refused (%s)", dir);
    snprintf(cmd, sizeof cmd, "OMP_NUM_THREADS=1000000 ./polyhoop -q -n 1 -s 10 -o %s/b > /dev/null 2> %s/err && "
             "grep -q 'warning: OMP_NUM_THREADS asks for 1000000 threads; using' %s/err && [ -f %s/b/frame000001.vtp ]",
             dir, dir, dir, dir);
    ENSURE_MSG(fx_sh(cmd) == 0, "OMP_NUM_THREADS=1000000 not capped (%s)", dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* Without -j or OMP_NUM_THREADS the thread count follows the vertex count: one thread below
 * 2 VERTICES_PER_THREAD vertices, one more per VERTICES_PER_THREAD, at most the free cores; -j
 * and OMP_NUM_THREADS fix it. The banner says which. */
void test_faults_automatic_threads(void)
{
    Options o = { .free_cores = 4 };
    ENSURE(options_threads(&o, 40) == 1);
    ENSURE(options_threads(&o, 2 * VERTICES_PER_THREAD - 1) == 1);
    ENSURE(options_threads(&o, 2 * VERTICES_PER_THREAD) == 2);
    ENSURE(options_threads(&o, 1000000) == 4);
    o.threads = 3;
    ENSURE(options_threads(&o, 40) == 3 && options_threads(&o, 1000000) == 3);

    char dir[] = "/tmp/ph_test_autothreads_XXXXXX", cmd[1024], line[512];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "python3 scripts/make_hex.py 512 %s/hex.off > /dev/null", dir);   /* 24,576 vertices */
    ENSURE(fx_sh(cmd) == 0);
    const char *runs[4] = { "env -u OMP_NUM_THREADS ./polyhoop -n 0", "env -u OMP_NUM_THREADS ./polyhoop -n 0 %s/hex.off",
                            "env -u OMP_NUM_THREADS ./polyhoop -n 0 -j 2", "OMP_NUM_THREADS=2 ./polyhoop -n 0 %s/hex.off" };
    for (int k = 0; k < 4; k++) {
        char run[256];
        snprintf(run, sizeof run, runs[k], dir);
        snprintf(cmd, sizeof cmd, "%s --overwrite -o %s/out | head -1", run, dir);
        FILE *f = popen(cmd, "r");
        ENSURE(f);
        line[0] = 0;
        ENSURE(fgets(line, sizeof line, f) != NULL);
        pclose(f);
        const char *at = strstr(line, ".h, ");
        int now = 0, cap = 0;
        ENSURE_MSG(at && sscanf(at + 4, "%d thread", &now) == 1, "no thread count in the banner: %s", line);
        if (k < 2) {
            ENSURE_MSG(strstr(line, "now: automatic, one per 2000 vertices up to ") != NULL, "%s", line);
            ENSURE(sscanf(strstr(line, "up to ") + 6, "%d", &cap) == 1 && cap >= 1);
            int want = k == 0 ? 1 : 24576 / VERTICES_PER_THREAD < cap ? 24576 / VERTICES_PER_THREAD : cap;
            ENSURE_MSG(now == want, "%d threads for %s, expected %d: %s", now, run, want, line);
        } else {
            ENSURE_MSG(now == 2 && !strstr(line, "automatic"), "%s: %s", run, line);
        }
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* A picture size that overflows an int is refused, not read modulo 2^32; a run whose standard
 * output cannot be written (a full disk) says so and exits 4 instead of 0. */
void test_faults_png_size_overflow_and_stdout_full(void)
{
    char dir[] = "/tmp/ph_test_stdout_XXXXXX", cmd[1024];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "./polyhoop -q -n 0 --png-size 4294968096x800 -o %s/a 2> %s/err; [ $? = 2 ] && "
             "grep -q -- '--png-size needs WxH' %s/err", dir, dir, dir);
    ENSURE_MSG(fx_sh(cmd) == 0, "--png-size 4294968096x800 accepted (%s)", dir);
    snprintf(cmd, sizeof cmd, "[ -w /dev/full ] || exit 77; ./polyhoop -n 1 -s 10 -o %s/b > /dev/full 2> %s/err; [ $? = 4 ] && "
             "grep -q 'cannot write to standard output' %s/err && [ -f %s/b/frame000001.vtp ]", dir, dir, dir, dir);
    int st = fx_sh(cmd);
    if (st == 77) SKIP("no /dev/full here");
    ENSURE_MSG(st == 0, "a failed write to stdout was not reported (%s)", dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* Options a restart would ignore (an input, -o, --seed) and a second input file are refused with
 * status 2 and named, instead of silently dropped. */
void test_faults_restart_and_input_clashes(void)
{
    char dir[64];
    int st = fx_script("clash",
             "./polyhoop -q -n 1 -s 10 -o $D/a > /dev/null 2>&1 || exit 10\n"
             "./polyhoop -q --restart $D/a inputs/ensemble.off 2> $D/e1; [ $? = 2 ] && grep -q 'inputs/ensemble.off cannot be combined with --restart' $D/e1 || exit 11\n"
             "./polyhoop -q --restart $D/a -o $D/b 2> $D/e2; [ $? = 2 ] && grep -q -- '-o cannot be combined with --restart' $D/e2 || exit 12\n"
             "./polyhoop -q --seed 3 --restart $D/a 2> $D/e3; [ $? = 2 ] && grep -q -- '--seed cannot be combined' $D/e3 || exit 13\n"
             "./polyhoop -q -n 0 -o $D/c inputs/ensemble.off inputs/emulsion.off 2> $D/e4; [ $? = 2 ] && "
             "grep -q \"two input files, 'inputs/ensemble.off' and 'inputs/emulsion.off'\" $D/e4 || exit 14\n"
             "[ ! -e $D/b ] && [ ! -e $D/c ] || exit 15\n", dir, sizeof dir);
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
}

/* SIGINT or SIGTERM while the run is still setting up (here: reading an input that arrives
 * slowly through a pipe) ends it within a second, with status 128 + signal and a message, and
 * no file half written. */
void test_faults_signal_during_setup(void)
{
    char dir[64];
    int st = fx_script("setupsig",
             "mkfifo $D/in.off || exit 10\n"
             "for sig in INT TERM; do\n"
             "  ./polyhoop -q -n 1 -o $D/out $D/in.off 2> $D/err & pid=$!\n"
             "  exec 3> $D/in.off; printf 'OFF\\n4 1 0\\n0 0 0\\n' >&3; sleep 0.3\n"
             "  kill -$sig $pid\n"
             "  for k in 1 2 3 4 5 6 7 8 9 10; do kill -0 $pid 2> /dev/null || break; sleep 0.1; done\n"
             "  kill -0 $pid 2> /dev/null && { kill -9 $pid; exit 11; }\n"
             "  wait $pid; rc=$?; exec 3>&-\n"
             "  want=130; [ $sig = TERM ] && want=143; [ $rc = $want ] || exit 12\n"
             "  grep -q \"stopped by SIG$sig while setting up (before the first step)\" $D/err || exit 13\n"
             "  [ -z \"$(ls $D/out 2> /dev/null | grep -v lock)\" ] || exit 14\n"
             "done\n", dir, sizeof dir);
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
}

/* -n 2147483647 starts at once: nothing is sized by the frame count (the frames' time table
 * grows with the frames written), so five frames of it peak at a few MB. */
void test_faults_huge_frame_count_bounded_memory(void)
{
    char dir[64];
    int st = fx_script("hugen",
             "./polyhoop -q -n 2147483647 -s 1 --max-time 0.0005 -o $D/a > $D/log || exit 10\n"
             "[ -f $D/a/frame000005.vtp ] && [ ! -f $D/a/frame000006.vtp ] || exit 11\n"
             "mb=$(sed -n 's/^memory: peak \\([0-9.]*\\) MB resident.*/\\1/p' $D/log)\n"
             "[ -n \"$mb\" ] && awk -v m=\"$mb\" 'BEGIN { exit !(m < 64) }' || exit 12\n", dir, sizeof dir);
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
}

/* An input that would remodel into an absurd number of vertices (a 38-byte triangle with an edge
 * of 10^6: bisected into 2^23 pieces of at most lmax, 1.68 x 10^7 vertices in all, about 5 GB) is refused before anything is allocated for them,
 * with the figures, at a peak below 200 MB (2.4 MB measured; more under AddressSanitizer);
 * --max-vertices raises the bound. */
void test_faults_input_work_bounded(void)
{
    char dir[64];
    int st = fx_script("bigwork",
             "printf 'OFF\\n3 1 0\\n0 0 0\\n1e6 0 0\\n0 1 0\\n3 0 1 2\\n' > $D/long.off\n"
             "[ -x /usr/bin/time ] || exit 77\n"
             "/usr/bin/time -f %M -o $D/rss ./polyhoop -q -n 1 -o $D/a $D/long.off > /dev/null 2> $D/err; [ $? = 2 ] || exit 10\n"
             "[ $(tail -n 1 $D/rss) -lt 200000 ] || exit 16\n"
             "grep -q 'would turn its 3 vertices into about 1.68e+07 (about 5.03 GB), more than the bound of 1e+06 .*--max-vertices N raises it' $D/err || exit 11\n"
             "[ ! -e $D/a/frame000000.vtp ] || exit 12\n"
             "./polyhoop -q -n 1 --max-vertices 5e6 -o $D/b $D/long.off > /dev/null 2> $D/err; [ $? = 2 ] && grep -q 'bound of 5e+06 set by --max-vertices' $D/err || exit 13\n"
             "./polyhoop -q -n 0 --max-vertices 2e7 -o $D/c $D/long.off > /dev/null || exit 14\n"
             "./polyhoop -q -n 0 --max-vertices 0.5 -o $D/d 2> /dev/null; [ $? = 2 ] || exit 15\n", dir, sizeof dir);
    if (st == 77) SKIP("no /usr/bin/time: apt-get install time");
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
}

/* A copy of the program in another folder, run without an input, finds the default input in the
 * repository it was built in and names it, by its absolute path, in the banner. */
void test_faults_copied_binary_finds_input(void)
{
    char dir[64];
    int st = fx_script("copy",
             "cp polyhoop $D/ph && here=$(pwd) && cd $D || exit 10\n"
             "./ph -n 0 -o out > log 2> err || exit 11\n"
             "r=$(sed -n 's/^input \\(\\/.*\\)\\/inputs\\/ensemble.off: 1 polygons.*/\\1/p' log) && [ -n \"$r\" ] || exit 12\n"
             "cmp -s $r/inputs/ensemble.off $here/inputs/ensemble.off || exit 13\n", dir, sizeof dir);
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
}

/* A restart continues with the run's own frame format, --check, checkpoint interval and picture
 * options (kept in its checkpoint) when they are not given again; given again with the same
 * value they are accepted, with another value refused (exit 2, nothing written); -n applies. */
void test_faults_restart_keeps_options(void)
{
    char dir[64];
    int st = fx_script("keep",
             "./polyhoop -q -n 6 -s 10 --ascii --check --checkpoint-every 2 --png-color id --png-size 64x64 --max-time 0.002 "
             "-o $D/a > /dev/null || exit 10\n"
             "[ -f $D/a/frame000002.png ] && [ ! -f $D/a/frame000003.vtp ] || exit 11\n"
             "./polyhoop -q --restart $D/a --max-time 0.004 > /dev/null || exit 12\n"
             "grep -q 'format=\"ascii\"' $D/a/frame000004.vtp && [ -f $D/a/frame000004.png ] && [ ! -f $D/a/frame000005.vtp ] || exit 13\n"
             "./polyhoop -q --restart $D/a -n 5 --png-size 64x64 --ascii > /dev/null || exit 14\n"
             "[ -f $D/a/frame000005.png ] && [ ! -f $D/a/frame000006.vtp ] || exit 15\n"
             "./polyhoop -q --restart $D/a -n 7 --png-size 65x64 2> $D/e1; [ $? = 2 ] && "
             "grep -q -- '--png-size cannot change on --restart: the run in .* continues with its own options "
             "(--checkpoint-every 2 --ascii --check --png-color id --png-size 64x64)' $D/e1 || exit 16\n"
             "./polyhoop -q --restart $D/a -n 7 --checkpoint-every 1 2> $D/e2; [ $? = 2 ] || exit 17\n"
             "[ ! -f $D/a/frame000006.vtp ] || exit 18\n", dir, sizeof dir);
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
}

/* With noise, activity and random division and death (tests/params_noise.h), frames, logs and
 * checkpoints are the same at 1 and 2 threads, and a run killed with SIGKILL and restarted from
 * its last checkpoint ends with the same files, byte for byte, as the run never killed. (The
 * two-thread runs wait passively: on a busy machine, spinning threads of so small a run would
 * take minutes; the waiting changes nothing in the results.) */
void test_faults_noise_kill_and_restart(void)
{
    char dir[64];
    int st = fx_script("noisekill",
             "./tests/polyhoop_noise -q -j 1 -n 12 -s 1000 -o $D/a > /dev/null || exit 10\n"
             "grep -q ',division,' $D/a/events.csv || exit 11\n"
             "OMP_WAIT_POLICY=passive ./tests/polyhoop_noise -q -j 2 -n 12 -s 1000 -o $D/b > /dev/null || exit 12\n"
             "./tests/polyhoop_noise -q -j 1 -n 12 -s 1000 -o $D/c > /dev/null & pid=$!\n"
             "for k in $(seq 200); do [ -f $D/c/frame000006.vtp ] && break; sleep 0.05; done\n"
             "kill -KILL $pid; wait $pid\n"
             "[ ! -f $D/c/frame000012.vtp ] || exit 13\n"
             "OMP_WAIT_POLICY=passive ./tests/polyhoop_noise -q -j 2 --restart $D/c > /dev/null || exit 14\n"
             "for f in $D/a/*; do cmp -s $f $D/b/${f##*/} && cmp -s $f $D/c/${f##*/} || { echo ${f##*/}; exit 15; }; done\n",
             dir, sizeof dir);
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
}

/* Text from outside reaches the terminal escaped: an input whose name holds ESC and other control
 * bytes is named with \x1B, \x07, ... in the banner and in every message, from the reader
 * (clockwise polygon, bad content), the input check and the option parser, and no raw ESC is
 * written; OFF content with an ESC byte is quoted the same way. */
void test_faults_escaped_names(void)
{
    char dir[64];
    int st = fx_script("escape",
             "E=$(printf '\\033') B=$(printf '\\007') && N=\"$D/in${E}]0;pwned${B}.off\" || exit 10\n"
             "printf 'OFF\\n3 1 0\\n0 0 0\\n0 1 0\\n1 0 0\\n3 0 1 2\\n' > \"$N\" || exit 11\n"
             "./polyhoop -n 0 -o $D/a \"$N\" > $D/out 2> $D/err || exit 12\n"
             "grep -q 'in\\\\x1B\\]0;pwned\\\\x07.off:6: warning: polygon 0 is clockwise' $D/err || exit 13\n"
             "grep -q 'input .*in\\\\x1B\\]0;pwned\\\\x07.off: 1 polygons' $D/out || exit 14\n"
             "! grep -q \"$E\" $D/out $D/err && ! grep -q \"$B\" $D/out $D/err || exit 15\n"
             "printf 'OFF\\n3 1 0\\n0 0 0\\n1 0 0\\n0 1 \\033[2J\\n3 0 1 2\\n' > \"$N\" || exit 16\n"
             "./polyhoop -q -n 0 -o $D/b \"$N\" 2> $D/err; [ $? = 2 ] || exit 17\n"
             "grep -q \"pwned\\\\\\\\x07.off:5: expected a number for z of vertex 2, found '\\\\\\\\x1B\\[2J'\" $D/err || exit 18\n"
             "./polyhoop -q -n \"1${E}[31m\" -o $D/c 2> $D/err; [ $? = 2 ] && grep -q \"got '1\\\\\\\\x1B\\[31m'\" $D/err || exit 19\n"
             "./polyhoop -q -n 0 -o \"$D/d${E}\" \"$D/none${E}.off\" 2> $D/err; [ $? = 2 ] && grep -q 'none\\\\x1B.off:0: cannot open' $D/err || exit 20\n"
             "! grep -q \"$E\" $D/err && [ ! -e $D/b ] && [ ! -e $D/c ] || exit 21\n", dir, sizeof dir);
    ENSURE_MSG(st == 0, "step %d of the script failed (%s)", st, dir);
}

/* Every usage error, whichever option it concerns, exits 2 with a message and writes nothing. */
void test_faults_usage_errors_exit_2(void)
{
    static const char *const bad[] = { "-o", "--restart", "-n", "-n -1", "-s 0", "-j", "-j 0", "--seed -1", "--seed x",
        "--checkpoint-every", "--checkpoint-every -1", "--max-cells 0", "--max-time -1", "--max-time nan", "--png-color",
        "--png-color bogus", "--png-size", "--png-size 0x0", "--png-size 10x", "--png-view 1,1,0,0", "--png-view 0,0,1",
        "--png-range 2,1", "--png-range 0,inf", "-x", "--strict", "inputs/ensemble.off inputs/foam.off",
        "--restart /nonexistent", "--restart /nonexistent --seed 2" };
    char dir[] = "/tmp/ph_test_usage_XXXXXX", args[512], log[96], cmd[256];
    ENSURE(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/log", dir);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(args, sizeof args, "-q -n 0 -o %s/out %s", dir, bad[k]);
        int st = fx_run(args, log);
        ENSURE_MSG(st == 2, "polyhoop %s: exit status %d, expected 2", bad[k], st);
        snprintf(cmd, sizeof cmd, "grep -q '^polyhoop: ' %s && [ ! -e %s/out ]", log, dir);
        ENSURE_MSG(fx_sh(cmd) == 0, "polyhoop %s: no message, or output written", bad[k]);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}
