#!/usr/bin/env python3
"""Parameter sweeps: one program for the base header, runs for each set of values and seed, a summary.

    scripts/sweep.py params/foam.h --set gamma=1e2,1e3 --set kh=0,25 --seeds 1,2 -- -n 20

builds one program, for the base header, in build/sweep/NAME/ with the Makefile's rules (make
B=... PARAMS=...). Then it runs every combination of the values (here 4) with every seed (here 8
runs), at most J at a time, each with the combination's values as the program's --set NAME=VALUE,
-j THREADS and --seed S on the same input, into OUT/VARIANT-seedS/ (OUT: outputs/sweep-NAME/),
where result.json keeps the parameters, the input, the command, its exit status, wall time, the
final polygon and vertex counts (from the program's closing line, or the last frame that the
run wrote when it stopped early; none for a run refused at start, whatever frames an earlier run
left in the folder), the last row of the observables.csv that it wrote and, for a failed run or
build, its first error line (the program's first "polyhoop: ..." line that is not a warning nor
the notice of a signal; else the signal that killed it, "killed by signal 11 (SIGSEGV)", or its
exit status), and stdout.txt and stderr.txt what it printed. A run that fails (values that the
program refuses too: a range or a rule of the parameters, exit status 2) is reported as failed,
and the others go on; if the build fails, every run is reported as "build failed". While the
runs go, a line on stderr counts the runs done, failed, running and to start, and the time: on a
terminal one line updated in place, elsewhere with --progress one line per run started or
ended. At the end OUT/summary.csv and OUT/summary.txt hold one row per run (summary.csv also the
last row of its observables.csv, the columns named obs_frame, obs_time, ..., and last the first
error line of each failed run, which summary.txt has below its table); the exit status is 0 when
every run succeeded, 1 otherwise, and 2 for bad arguments (one line on stderr).
Ctrl-C (SIGINT; also SIGTERM, SIGHUP) stops the sweep: each running run gets one SIGINT (it
finishes its step, writes its checkpoint and stops: "interrupted"), no other starts ("not run"),
and the summary of what ran is written; exit status 128 + the signal (130 for Ctrl-C). The same
command with --resume goes on: the finished runs (ok or failed) are kept as they are, each
interrupted one continues from its checkpoint (polyhoop --restart DIR: the same frames as a run
never interrupted), and those that never started or finished start; the arguments must be those
the sweep started with (OUT/sweep.json). Options after -- go to every run (frames, steps,
pictures, ...); those that contradict the sweep's own are refused: -o and --restart (every run
has a folder of its own), --overwrite, --seed and -j (the sweep gives them: --seeds, --threads),
--set of a swept parameter and -n or -s with Nf or Ns swept (the run would not use the value
that the summary records), -h and an input file (--input).

The input of every run is --input FILE, or else the one the base header's showcase uses
(params/NAME.h of scripts/showcase.sh's list, inputs/foam.off for params/foam.h; a generated
one is made by scripts/showcase.sh NAME --input-only, with its velocities file if it has one), or
else the one its comment documents ("Input: FILE.off"), looked up along its #include chain,
or else the program's default (inputs/ensemble.off, one cell). More than one seed on a
deterministic variant (D, v0, Dr, k_div, k_death, alpha_CV, Amax_CV and att_n all 0, and no
division: Amax_mu INFINITY, read from the header chain; a cell that divides is cut along a random
direction when it has no distinct short axis) gives a warning: its runs would be identical but
for their seed.

On a cluster, scripts/sweep.slurm runs the same sweep as a Slurm job array through three modes:
--build (the program and the input), --task K (run K of --list alone; builds the program if it is
missing or out of date) and --summarise (the summary of whatever runs have finished). NAME is the
base header's name unless --name says otherwise."""
import argparse
import concurrent.futures
import csv
import fcntl
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


SEED_MAX = 2147483647   # the program's --seed takes 0 to INT_MAX
NUMBER = r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?"


def known_parameters():
    """The parameters of src/params.h (its PARAMS_LIST lines X(type, name, ...)): name -> type."""
    with open(os.path.join(ROOT, "src", "params.h")) as f:
        return dict((n, t) for t, n in re.findall(r"X\(\s*(\w+)\s*,\s*(\w+)\s*,", f.read()))


def number(text):
    """The value of a parameter's text as a float (INFINITY too), or None when it is not a plain
    number (an expression, a macro)."""
    t = text.strip()
    while t.startswith("(") and t.endswith(")"):
        t = t[1:-1].strip()
    if re.fullmatch(r"[-+]?INFINITY", t):
        return float(t.replace("INFINITY", "inf"))
    return float(t) if re.fullmatch(NUMBER, t) else None


def parse_set(text, known):
    """'gamma=1e2,1e3' (or 'P_gamma=...') -> ('gamma', ['1e2', '1e3']): numbers (integers for the
    int parameters; INFINITY too for the others), no value twice."""
    name, sep, values = text.partition("=")
    name = name.strip()
    if name.startswith("P_"):
        name = name[2:]
    vals = [v.strip() for v in values.split(",")]
    if not sep or not name or not all(vals):
        raise ValueError("--set %r: expected NAME=V1,V2,..." % text)
    if name not in known:
        raise ValueError("--set %r: no parameter %r in src/params.h" % (text, name))
    integer = known[name] == "int"
    for v in vals:
        if integer and not re.fullmatch(r"[-+]?\d+", v):
            raise ValueError("--set %r: %s is an integer parameter; %r is not an integer" % (text, name, v))
        if not integer and number(v) is None:
            raise ValueError("--set %r: %r is not a number (such as 1e-4, 0.5, 25 or INFINITY)" % (text, v))
    for i, v in enumerate(vals):
        for w in vals[:i]:
            if number(v) == number(w):
                raise ValueError("--set %r: %s (two runs would share one folder or be the same run)" % (
                    text, "%s is given twice" % v if v == w else "%s and %s are the same value" % (w, v)))
    return name, vals


def parse_seeds(text):
    """'1,2,3' -> [1, 2, 3]: integers 0 to SEED_MAX, none twice."""
    seeds = []
    for part in text.split(","):
        if not re.fullmatch(r"\s*\+?\d+\s*", part) or int(part) > SEED_MAX:
            raise ValueError("--seeds %r: seeds are integers 0 to %d, comma-separated (such as 1,2,3)" % (text, SEED_MAX))
        if int(part) in seeds:
            raise ValueError("--seeds %r: seed %d given twice (two runs would share one folder)" % (text, int(part)))
        seeds.append(int(part))
    return seeds


def include_path(name, here):
    """Where #include "name" in a header of folder `here` is found: that folder, then the
    repository root and src/ (the Makefile's -iquote . -Isrc)."""
    for d in (here, ROOT, os.path.join(ROOT, "src")):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return None


def header_macros(path, macros=None, depth=0, files=None):
    """The P_ macros that a parameter header defines, following its #include "..." lines as the
    compiler does (#undef removes one): name without P_ -> the value's text. The headers read,
    this one first, are appended to `files`, each with its text. ValueError when a header cannot
    be read, is not text or includes one that cannot be found."""
    macros = {} if macros is None else macros
    if depth > 16:
        raise ValueError("%s: #include nested more than 16 deep" % path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ValueError("cannot read %s: %s" % (path, e.strerror or e))
    if b"\0" in data:
        raise ValueError("%s is not a parameter header (not text)" % path)
    text = data.decode("utf-8", "replace")
    if files is not None:
        files.append((path, text))
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text).replace("\\\n", " ")
    for line in text.splitlines():
        m = re.match(r"\s*#\s*include\s*\"([^\"]+)\"", line)
        if m:
            inc = include_path(m.group(1), os.path.dirname(path))
            if inc is None:
                raise ValueError("%s: cannot find the header it includes, \"%s\"" % (path, m.group(1)))
            header_macros(inc, macros, depth + 1, files)
            continue
        m = re.match(r"\s*#\s*define\s+P_(\w+)\s+(.*?)\s*$", line)
        if m:
            macros[m.group(1)] = m.group(2)
            continue
        m = re.match(r"\s*#\s*undef\s+P_(\w+)", line)
        if m:
            macros.pop(m.group(1), None)
    return macros


# Parameters that make a run depend on its seed when they are not 0: noise and activity, random
# division and death, spread growth rates and division areas, polygons drawn to feel the attractor.
# A run depends on it too when its cells can divide, at a finite Amax_mu: a cell without a
# distinct short axis (a round one, such as the default input's) is cut along a direction drawn
# at random (docs/model.md 5). v0 and Amax_mu may be given per cell type (P_TYPE_v0, P_TYPE_Amax_mu).
STOCHASTIC = ("D", "v0", "Dr", "k_div", "k_death", "alpha_CV", "Amax_CV", "att_n")


def showcase_inputs():
    """The inputs of scripts/showcase.sh's case list: showcase name -> its input=... text."""
    try:
        with open(os.path.join(ROOT, "scripts", "showcase.sh")) as f:
            return dict(re.findall(r"^\s*(\w+)\)\s+input=([^\s;]+);", f.read(), re.M))
    except OSError:
        return {}


def default_input(files):
    """The input that the first header of the chain `files` (the base, then what it includes)
    that has one names: a showcase's (params/NAME.h of scripts/showcase.sh's list) or the one
    its comment documents ("Input: FILE.off"). Returns (path or None, showcase name or None,
    where it comes from); a showcase's input generated into its build folder is made by
    scripts/showcase.sh NAME --input-only (Sweep.prepare)."""
    shows = showcase_inputs()
    params = os.path.realpath(os.path.join(ROOT, "params"))
    for path, text in files:
        name = os.path.splitext(os.path.basename(path))[0]
        if os.path.realpath(os.path.dirname(path)) == params and name in shows:
            given = shows[name]
            if given.startswith("$build/"):
                return None, name, "showcase %s (generated)" % name
            return os.path.join(ROOT, given), None, "showcase %s" % name
        m = re.search(r"Input:[\s*]*([^\s*]+\.off)\b", text)
        if m:
            given = m.group(1)
            for d in (ROOT, os.path.dirname(os.path.abspath(path))):
                if os.path.isfile(os.path.join(d, given)):
                    return os.path.join(d, given), None, "documented in %s" % path
            return os.path.join(ROOT, given), None, "documented in %s" % path
    return None, None, "the program's default"


# polyhoop's options that take the next word as their value (src/options.c)
VALUED = ("-o", "-n", "-s", "-j", "--seed", "--velocities", "--set", "--checkpoint-every", "--max-cells", "--max-time",
          "--max-vertices", "--restart", "--png-color", "--png-size", "--png-view", "--png-range", "--png-field")


def polyhoop_words(extra):
    """The options for every run as polyhoop reads them: [(option, its value or None)], and the
    input files (the words that are neither an option nor an option's value, and every word
    after a --)."""
    opts, inputs, k = [], [], 0
    while k < len(extra):
        w = extra[k]
        if w == "--":
            inputs += extra[k + 1:]
            break
        if not w.startswith("-") or w == "-":
            inputs.append(w)
        elif w in VALUED:
            opts.append((w, extra[k + 1] if k + 1 < len(extra) else None))
            k += 1
        else:
            opts.append((w, None))
        k += 1
    return opts, inputs


def polyhoop_inputs(extra):
    """The input files among the options for every run."""
    return polyhoop_words(extra)[1]


def contradiction(extra, swept):
    """Why an option for every run contradicts the sweep's own, or None: one that would make the
    runs share a folder (-o, --restart), give them another seed, threads or value of a swept
    parameter than the sweep records (--seed, -j, --set NAME=V of a swept NAME, -n or -s of a swept
    Nf or Ns), or that the sweep gives itself (--overwrite, the input)."""
    opts, inputs = polyhoop_words(extra)
    if inputs:
        return "give the input with --input FILE, not after -- (%s)" % " ".join(inputs)
    recorded = "summary.csv would record values that the runs did not use"
    for o, v in opts:
        given = o if v is None else "%s %s" % (o, v)
        if o == "-o":
            return ("%s after --: every run writes into a folder of its own, OUT/VARIANT-seedS (OUT: --out); "
                    "with -o they would all write into one" % given)
        if o == "--restart":
            return ("%s after --: every run would continue the run in one folder; an interrupted sweep goes on "
                    "with --resume" % given)
        if o == "--overwrite":
            return ("--overwrite after --: the sweep gives it itself, to each run that it starts anew "
                    "(--resume keeps the finished runs)")
        if o == "--seed":
            return "%s after --: each run gets its seed from --seeds; %s" % (given, recorded)
        if o == "-j":
            return "%s after --: the threads of each run are --threads N (the sweep gives -j itself)" % given
        if o in ("-h", "--help"):
            return "%s after --: every run would print polyhoop's help instead of running" % o
        name = {"-n": "Nf", "-s": "Ns"}.get(o)
        if o == "--set" and v is not None:
            name = v.partition("=")[0].strip()
            name = name[2:] if name.startswith("P_") else name
        if name in swept:
            return "%s after --: %s is swept (--set %s=...); %s" % (given, name, name, recorded)
    return None


class Sweep:
    def __init__(self, a):
        known = known_parameters()
        self.base = os.path.abspath(a.base)
        if not os.path.isfile(self.base):
            raise ValueError("no base header %s" % a.base)
        self.files = []
        self.macros = header_macros(a.base, files=self.files)
        if not any(n in known for n in self.macros):
            raise ValueError("%s is not a parameter header: it defines no parameter P_NAME of src/params.h" % a.base)
        self.sets = [parse_set(s, known) for s in a.set]
        names = [n for n, _ in self.sets]
        if len(set(names)) != len(names):
            raise ValueError("a parameter is set twice")
        self.seeds = parse_seeds(a.seeds)
        self.name = a.name or os.path.splitext(os.path.basename(a.base))[0]
        if not re.fullmatch(r"[-.\w]+", self.name):
            raise ValueError("--name %r: letters, digits and . - _ only" % self.name)
        self.out = os.path.abspath(a.out or os.path.join(ROOT, "outputs", "sweep-" + self.name))
        self.build_dir = os.path.join("build", "sweep", self.name)
        self.threads = a.threads
        self.extra = a.extra
        why = contradiction(self.extra, names)
        if why:
            raise ValueError(why)
        # the input of every run: --input, else the showcase's or the header's, else none (the program's default)
        self.velocities, self.showcase = None, None
        if a.input is not None:
            self.input, self.input_from = os.path.abspath(a.input), "--input"
            self.check_input()
        else:
            self.input, self.showcase, self.input_from = default_input(self.files)
            if self.input is not None:
                self.check_input()
        # a combination of values is one variant (--set words for the program); with a seed it is one run
        self.combos = [list(zip(names, vals)) for vals in itertools.product(*[v for _, v in self.sets])]
        self.runs = [(c, s) for c in range(len(self.combos)) for s in self.seeds]
        # an interrupted sweep (Ctrl-C): no run starts any more, the running ones get one SIGINT each
        self.lock, self.running, self.stopping = threading.Lock(), set(), False
        self.progress = None   # (a Progress while the runs of main() go)

    def check_input(self):
        for f in (self.input, self.velocities):
            if f is not None and not (os.path.isfile(f) and os.access(f, os.R_OK)):
                raise ValueError("the input %s (%s) is not a readable file" % (f, self.input_from))

    def prepare(self):
        """Makes a showcase's generated input (scripts/showcase.sh NAME --input-only, one process at
        a time) and checks that the input can be read."""
        if self.showcase is not None:
            d = os.path.join(ROOT, "build", "showcase", self.showcase)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, ".input.lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                p = subprocess.run([os.path.join(ROOT, "scripts", "showcase.sh"), self.showcase, "--input-only"],
                                   cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
            lines = p.stdout.split("\n")
            if p.returncode != 0 or not lines[0]:
                raise ValueError("scripts/showcase.sh %s --input-only failed: %s" % (self.showcase, " ".join(p.stdout.split())[-300:]))
            self.input = os.path.join(ROOT, lines[0])
            if len(lines) > 1 and lines[1] and not any(w == "--velocities" for w in self.extra):
                self.velocities = os.path.join(ROOT, lines[1])
        self.check_input()

    def deterministic(self, c):
        """Whether combination c makes runs that do not depend on their seed: every parameter of
        STOCHASTIC 0 and no division (Amax_mu INFINITY), in the header chain with the combination's
        values, each cell type's (P_TYPE_v0, P_TYPE_Amax_mu) where the header gives them; a value
        that is not a plain number counts as not 0 and finite."""
        values = dict(self.macros, **dict(self.combos[c]))

        def each(n):   # the values of parameter n: its cell types' where given, else its own
            if "TYPE_" + n in values:
                return [number(v) for v in values["TYPE_" + n].strip().strip("{}").split(",")]
            return [number(values[n])] if n in values else [None]
        return all(x == 0 for n in STOCHASTIC for x in each(n)) and all(x == float("inf") for x in each("Amax_mu"))

    def seed_warning(self):
        """A warning when several seeds would give identical runs, else None."""
        if len(self.seeds) < 2:
            return None
        same = [c for c in range(len(self.combos)) if self.deterministic(c)]
        if not same:
            return None
        what = os.path.relpath(self.base) if len(same) == len(self.combos) else \
            "variant%s %s of %s" % ("s" if len(same) > 1 else "", ", ".join(self.combo_label(c) for c in same), os.path.relpath(self.base))
        return ("sweep.py: warning: %s is deterministic (%s all 0, Amax_mu INFINITY: no division): the runs of its "
                "%d seeds will be identical except for their seed" % (what, ", ".join(STOCHASTIC), len(self.seeds)))

    def combo_label(self, c):
        return "-".join("%s_%s" % (n, v) for n, v in self.combos[c]) or "base"

    def run_label(self, k):
        c, s = self.runs[k]
        return "%s-seed%d" % (self.combo_label(c), s)

    def header(self):
        """The base header as make's PARAMS: its path from the repository root (as the banner and
        the frames then name it), or else absolute; a path that make cannot take (a space, $, #,
        ...) is #included by a header of one line in the build folder."""
        rel = os.path.relpath(self.base, ROOT)
        path = self.base if rel.startswith("..") else rel
        if re.fullmatch(r"[-\w./+]+", path):
            return path, None
        return os.path.join(self.build_dir, "params.h"), '/* Generated by scripts/sweep.py: the base header. */\n#include "%s"\n' % self.base

    def build(self):
        """Builds the program for the base header (make, serialised by a lock: concurrent array
        tasks build it once); returns (ok, log)."""
        d = os.path.join(ROOT, self.build_dir)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            params, text = self.header()
            if text is not None and not (os.path.exists(os.path.join(ROOT, params)) and open(os.path.join(ROOT, params)).read() == text):
                with open(os.path.join(ROOT, params) + ".tmp", "w") as f:
                    f.write(text)
                os.replace(os.path.join(ROOT, params) + ".tmp", os.path.join(ROOT, params))
            p = subprocess.run(["make", "-s", "--no-print-directory", "B=" + self.build_dir, "PARAMS=" + params,
                                self.build_dir + "/polyhoop"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            with open(os.path.join(d, "build.log"), "w") as f:
                f.write(p.stdout)
            return p.returncode == 0, p.stdout

    def params_of(self, k):
        c, s = self.runs[k]
        return dict(self.combos[c]), s

    def resume_state(self, k):
        """What --resume does with run k, and the result that an earlier run left: "keep" (it
        finished, ok or failed), "restart" (it was interrupted after writing its checkpoint, which
        is still the one it wrote), else "start" (never started, never finished, or its build failed)."""
        d = os.path.join(self.out, self.run_label(k))
        try:
            with open(os.path.join(d, "result.json")) as f:
                r = json.load(f)
        except (OSError, ValueError):
            return "start", None
        if r.get("status") in ("ok", "failed"):
            return "keep", r
        sig = r.get("checkpoint")
        if r.get("status") == "interrupted" and sig and file_sig(os.path.join(d, "checkpoint.bin")) == tuple(sig):
            return "restart", r
        return "start", r

    def command(self, k, restart=False):
        """The command of run k: a new run into its folder, or (restart) polyhoop --restart of its
        folder with the options that a restart takes (the same --set and options for every run,
        but the input, its velocities and --max-vertices, which concern a new run)."""
        c, seed = self.runs[k]
        d = os.path.join(self.out, self.run_label(k))
        prog = os.path.join(ROOT, self.build_dir, "polyhoop")
        if restart:
            cmd = [prog, "-q", "--restart", d, "-j", str(self.threads)]
        else:
            cmd = [prog, "-q", "--overwrite", "-o", d, "--seed", str(seed), "-j", str(self.threads)]
        for n, v in self.combos[c]:   # (the value as the program reads it: a number without parentheses)
            cmd += ["--set", "%s=%s" % (n, re.sub(r"^[(\s]*(.*?)[)\s]*$", r"\1", v))]
        if not restart:
            cmd += self.extra
            if self.velocities is not None:
                cmd += ["--velocities", self.velocities]
            if self.input is not None:
                cmd.append(self.input)
            return cmd
        for o, v in polyhoop_words(self.extra)[0]:
            if o not in ("--velocities", "--max-vertices"):
                cmd += [o] if v is None else [o, v]
        return cmd

    def run(self, k, built, resume=False):
        """Runs run k if its build succeeded; writes and returns its result. With resume, a run
        that finished is kept as it is (its result returned, with "kept": True), and one that was
        interrupted is restarted from its checkpoint."""
        c, seed = self.runs[k]
        d = os.path.join(self.out, self.run_label(k))
        how, earlier = self.resume_state(k) if resume else ("start", None)
        if how == "keep":
            if self.progress is not None:
                self.progress.ended(earlier.get("status"), ran=False)
            return dict(earlier, kept=True)
        os.makedirs(d, exist_ok=True)
        cmd = self.command(k, restart=how == "restart")
        velocities = dict(polyhoop_words(self.extra)[0]).get("--velocities", self.velocities)
        res = {"run": self.run_label(k), "seed": seed, "params": dict(self.combos[c]), "base": self.base,
               "input": self.input, "input_from": self.input_from, "velocities": velocities,
               "command": cmd, "status": "build failed", "exit": None, "wall_s": None,
               "polygons": None, "vertices": None, "observables": None, "error": None}
        if how == "restart":
            res["restarted"] = True
        if built:
            before = frame_files(d)   # (the frames of an earlier run in this folder, which this one may not rewrite)
            obs_before = file_sig(os.path.join(d, "observables.csv"))
            ckpt_before = file_sig(os.path.join(d, "checkpoint.bin"))
            t0 = time.monotonic()
            # (a restart adds to what the run printed before)
            mode = "a" if how == "restart" else "w"
            with open(os.path.join(d, "stdout.txt"), mode) as out, open(os.path.join(d, "stderr.txt"), mode) as err:
                with self.lock:
                    if self.stopping:
                        return None
                    # (from the caller's folder, like its paths; in a session of its own, so that a
                    # Ctrl-C reaches it once, from stop())
                    p = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True)
                    self.running.add(p)
                if self.progress is not None:
                    self.progress.started()
                try:
                    p.wait()
                finally:
                    with self.lock:
                        self.running.discard(p)
            spent = (earlier.get("wall_s") or 0) if how == "restart" else 0   # (before the interruption)
            res["wall_s"] = round(spent + time.monotonic() - t0, 3)
            res["exit"] = p.returncode
            res["status"] = "ok" if p.returncode == 0 else "interrupted" if self.stopping else "failed"
            res["polygons"], res["vertices"] = final_counts(d, before)
            if file_sig(os.path.join(d, "observables.csv")) != obs_before:   # (not an earlier run's)
                res["observables"] = last_observables(os.path.join(d, "observables.csv"))
            # the checkpoint that this run wrote, for --resume (not one that an earlier run left)
            ckpt = file_sig(os.path.join(d, "checkpoint.bin"))
            res["checkpoint"] = ckpt if ckpt != ckpt_before or how == "restart" else None
            if p.returncode != 0:
                res["error"] = run_error(os.path.join(d, "stderr.txt"), p.returncode)
        else:
            why = first_error(os.path.join(ROOT, self.build_dir, "build.log"), "error")
            with open(os.path.join(d, "stderr.txt"), "w") as err:
                err.write("the build failed: see %s/build.log%s\n" % (self.build_dir, ": " + why if why else ""))
            res["error"] = first_error(os.path.join(d, "stderr.txt"))
        with open(os.path.join(d, "result.json.tmp"), "w") as f:
            json.dump(res, f, indent=1)
        os.replace(os.path.join(d, "result.json.tmp"), os.path.join(d, "result.json"))
        if self.progress is not None:
            self.progress.ended(res["status"], ran=built)
        return res

    def spec(self):
        """What makes the sweep: the runs and what every run gets (OUT/sweep.json; --resume
        goes on only with the same)."""
        return {"base": self.base, "set": [[n, v] for n, v in self.sets], "seeds": self.seeds, "input": self.input,
                "velocities": self.velocities, "options": self.extra}

    def start(self):
        """A new sweep in OUT: OUT/sweep.json written, and the result.json that an earlier sweep
        left in the folders of these runs removed (--resume would keep them as this one's)."""
        os.makedirs(self.out, exist_ok=True)
        with open(os.path.join(self.out, "sweep.json.tmp"), "w") as f:
            json.dump(self.spec(), f, indent=1)
        os.replace(os.path.join(self.out, "sweep.json.tmp"), os.path.join(self.out, "sweep.json"))
        for k in range(len(self.runs)):
            try:
                os.remove(os.path.join(self.out, self.run_label(k), "result.json"))
            except FileNotFoundError:
                pass

    def check_resume(self):
        """ValueError unless OUT holds a sweep (OUT/sweep.json) of the same runs and options."""
        path = os.path.join(self.out, "sweep.json")
        try:
            with open(path) as f:
                was = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError("--resume: no sweep to resume in %s (%s: %s; a sweep writes it as it starts)" % (
                self.out, path, getattr(e, "strerror", None) or e))
        now = self.spec()
        what = {"base": "base header", "set": "--set", "seeds": "--seeds", "input": "input", "velocities": "velocities",
                "options": "options after --"}
        for key in now:
            if was.get(key) != now[key]:
                raise ValueError("--resume: the sweep in %s was started with other %s: %s, not %s (resume it with "
                                 "its own arguments)" % (self.out, what[key], json.dumps(was.get(key)), json.dumps(now[key])))

    def stop(self, sig=signal.SIGINT):
        """After a Ctrl-C: no run starts any more, and each running one gets sig (SIGINT: it
        finishes its step, writes its checkpoint and stops)."""
        with self.lock:
            self.stopping = True
            for p in self.running:
                try:
                    p.send_signal(sig)
                except OSError:
                    pass

    def summarise(self, not_run=()):
        """summary.csv and summary.txt from every run's result.json (missing: not run yet; the runs
        of not_run: "not run", whatever an earlier sweep left)."""
        names = [n for n, _ in self.sets]
        header = ["run"] + names + ["seed", "status", "exit", "wall_s", "polygons", "vertices"]
        rows, errors, why, obs = [], [], [], []
        for k in range(len(self.runs)):
            params, seed = self.params_of(k)
            try:
                if k in not_run:
                    r = {"status": "not run"}
                else:
                    with open(os.path.join(self.out, self.run_label(k), "result.json")) as f:
                        r = json.load(f)
            except (OSError, ValueError):
                r = {"status": "missing"}
            rows.append([self.run_label(k)] + [params[n] for n in names] + [seed] +
                        ["" if r.get(x) is None else r[x] for x in ("status", "exit", "wall_s", "polygons", "vertices")])
            why.append(r.get("error") or "")
            obs.append(r.get("observables") or {})
            if r.get("error"):
                errors.append("  %s: %s" % (self.run_label(k), r["error"]))
        # the last row of each run's observables.csv, its columns prefixed obs_ (obs_polygons is
        # not the closing line's polygons); the error last
        columns = []
        for o in obs:
            columns += [c for c in o if c not in columns]
        os.makedirs(self.out, exist_ok=True)
        with open(os.path.join(self.out, "summary.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header + ["obs_" + c for c in columns] + ["error"])
            w.writerows(row + [o.get(c, "") for c in columns] + [e] for row, o, e in zip(rows, obs, why))
        table = [header] + [[str(x) for x in r] for r in rows]
        widths = [max(len(r[i]) for r in table) for i in range(len(header))]
        text = "\n".join("  ".join(x.ljust(wd) for x, wd in zip(r, widths)).rstrip() for r in table)
        ok = sum(1 for r in rows if r[len(names) + 2] == "ok")
        if errors:
            text += "\nthe first error line of each failed run:\n" + "\n".join(errors)
        text += "\n%d of %d runs ok\n" % (ok, len(rows))
        with open(os.path.join(self.out, "summary.txt"), "w") as f:
            f.write(text)
        return text, ok == len(rows)


def first_error(path, word=None):
    """The first line of a run's stderr.txt (or a build.log) that says what went wrong: the first
    that holds `word` if given, else the first that is not a warning, else the first; None when
    there is none."""
    try:
        with open(path, errors="replace") as f:
            lines = [l.strip() for l in f.read(1 << 20).splitlines() if l.strip()]
    except OSError:
        return None
    if word is not None:
        lines = [l for l in lines if word in l]
    for l in lines:
        if "warning:" not in l:
            return l[:500]
    return lines[0][:500] if lines else None


# polyhoop's lines on stderr that are no error: its warnings ("polyhoop: warning: ...", "polyhoop:
# FILE: warning: ...", "FILE:LINE: warning: ...") and what it says when a signal stops it
# ("polyhoop: SIGINT: stopping ...", "polyhoop: stopped by ...")
NOT_AN_ERROR = re.compile(r"(^|: )warning: |^polyhoop: (SIG[A-Z]+: |stopped by )")


def signal_name(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return "signal %d" % n


def run_error(path, status):
    """What made a run end with status `status` (not 0; negative: killed by that signal): the
    first error line of its stderr.txt (polyhoop's "polyhoop: ..."; else the first other line, a
    sanitizer's say), never a warning or a notice of a signal; else the signal that killed it or
    stopped it, or its exit status."""
    try:
        with open(path, errors="replace") as f:
            lines = [l.strip() for l in f.read(1 << 20).splitlines() if l.strip()]
    except OSError:
        lines = []
    errors = [l for l in lines if not NOT_AN_ERROR.search(l)]
    for l in [l for l in errors if l.startswith("polyhoop: ")] + errors:
        return l[:500]
    if status < 0:
        return "killed by signal %d (%s)" % (-status, signal_name(-status))
    notice = [l for l in lines if re.match(r"polyhoop: (SIG[A-Z]+): ", l)]
    if notice and status > 128:
        return "stopped by %s (exit status %d)" % (signal_name(status - 128), status)
    return "exit status %d, %s" % (status, "no error line on stderr" if lines else "nothing on stderr")


def frame_files(d):
    """The frames frameNNNNNN.vtp in folder d: name -> (inode, size, modification time in ns)."""
    found = {}
    try:
        names = os.listdir(d)
    except OSError:
        return found
    for f in names:
        if re.fullmatch(r"frame\d+\.vtp", f):
            try:
                st = os.stat(os.path.join(d, f))
            except OSError:
                continue
            found[f] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return found


def file_sig(path):
    """(inode, size, modification time in ns) of a file, None when there is none: a run wrote it
    when this changed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def last_observables(path):
    """The last row of a run's observables.csv as {column: value text}; None when it has none or
    cannot be read."""
    try:
        with open(path, newline="", errors="replace") as f:
            rows = [r for r in csv.reader(f) if r]
    except (OSError, csv.Error):
        return None
    if len(rows) < 2 or len(rows[-1]) != len(rows[0]):
        return None
    return dict(zip(rows[0], rows[-1]))


def final_counts(d, before):
    """Polygons and vertices at the end of the run just made in folder d: the closing line
    'done: ...; P polygons, V vertices at the end' (or 'stopped ...') of its stdout.txt, or else
    the NumberOfPolys and NumberOfPoints of the last frame that it wrote: one not in `before`
    (frame_files before the run) or changed since. None, None when it wrote neither (a run
    refused at start: the frames of an earlier run in the folder are not its own)."""
    try:   # (the last such line: a run restarted by --resume adds its own to the interrupted one's)
        with open(os.path.join(d, "stdout.txt")) as f:
            m = re.findall(r"(\d+) polygons?, (\d+) vertices at the end", f.read())
        if m:
            return int(m[-1][0]), int(m[-1][1])
    except OSError:
        pass
    frames = sorted((f for f, sig in frame_files(d).items() if before.get(f) != sig), key=lambda f: int(f[5:-4]))
    if frames:
        with open(os.path.join(d, frames[-1]), "rb") as f:
            head = f.read(1 << 16).decode("ascii", "replace")
        m = re.search(r'<Piece NumberOfPoints="(\d+)" NumberOfPolys="(\d+)"', head)
        if m:
            return int(m.group(2)), int(m.group(1))
    return None, None


class Progress:
    """The progress of the runs on stderr: runs done (failed among them), running and still to
    start, and the time since the start. On a terminal one line, updated in place at each change
    and each second (tick); else, if asked (--progress), one line at each change (a run started
    or ended)."""

    def __init__(self, total, inplace):
        self.total, self.inplace = total, inplace
        self.done = self.failed = self.running = 0
        self.t0, self.lock, self.shown = time.monotonic(), threading.Lock(), False

    def text(self):
        t = int(time.monotonic() - self.t0)
        return "sweep.py: %d of %d runs done (%d failed), %d running, %d to start, %d:%02d elapsed" % (
            self.done, self.total, self.failed, self.running, self.total - self.done - self.running, t // 60, t % 60)

    def _show(self, changed=True):   # (with the lock held)
        if self.inplace:
            sys.stderr.write("\r%s\033[K" % self.text())
            self.shown = True
        elif changed:
            sys.stderr.write(self.text() + "\n")
        sys.stderr.flush()

    def started(self):
        with self.lock:
            self.running += 1
            self._show()

    def ended(self, status, ran=True):
        with self.lock:
            self.running -= 1 if ran else 0
            self.done += 1
            self.failed += status != "ok"
            self._show()

    def tick(self):
        with self.lock:
            if self.inplace:
                self._show(False)

    def say(self, line):
        """A line on stdout, above the progress line of a terminal."""
        with self.lock:
            if self.shown:
                sys.stderr.write("\r\033[K")
                sys.stderr.flush()
            print(line, flush=True)
            if self.shown:
                self._show(False)

    def close(self):
        """The last state stays on the terminal's line."""
        with self.lock:
            if self.shown:
                self._show(False)
                sys.stderr.write("\n")
                sys.stderr.flush()
                self.shown = False


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (no usage block) and exit status 2."""
    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.prog, " ".join(str(message).split())))
        sys.exit(2)


def main():
    p = Parser(prog="sweep.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Everything after -- goes to every run of polyhoop. -h writes nothing.")
    p.add_argument("base", metavar="BASE.h", help="the parameter header the variants start from")
    p.add_argument("--set", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="a parameter (gamma or P_gamma) and its values; repeat for more (all combinations)")
    p.add_argument("--seeds", default="1", help="seeds, comma-separated (default %(default)s)")
    p.add_argument("--input", metavar="FILE", help="the input of every run (default: the input of the base header's "
                   "showcase, or the one its comment documents, else the program's default)")
    p.add_argument("--name", help="the sweep's name (default: the base header's)")
    p.add_argument("--out", help="folder of the runs and the summary (default outputs/sweep-NAME)")
    p.add_argument("--threads", type=int, default=1, help="threads per run, passed as -j (default %(default)s)")
    p.add_argument("-j", "--jobs", type=int, help="builds and runs at a time (default: cores / threads)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--list", action="store_true", help="print the runs, K and folder, one a line; build nothing")
    mode.add_argument("--build", action="store_true", help="only build the program (and make the input)")
    mode.add_argument("--task", type=int, metavar="K", help="only run K of --list (0-based; a Slurm array task)")
    mode.add_argument("--summarise", action="store_true", help="only write the summary of the runs found in OUT")
    p.add_argument("--resume", action="store_true", help="go on with the interrupted sweep in OUT (the same arguments): "
                   "finished runs are kept, interrupted ones restart from their checkpoints, the others start")
    p.add_argument("--progress", action="store_true", help="a progress line on stderr at each change also when it is "
                   "not a terminal (on a terminal: one line, updated in place)")
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        argv, extra = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    a = p.parse_args(argv)
    a.extra = extra
    if a.threads < 1 or (a.jobs is not None and a.jobs < 1):
        p.error("--threads and -j must be at least 1")
    if a.resume and (a.list or a.build or a.task is not None or a.summarise):
        p.error("--resume goes on with a whole sweep: not with --list, --build, --task or --summarise")
    try:
        sw = Sweep(a)
    except ValueError as e:
        p.error(str(e))
    jobs = a.jobs or max(1, (os.cpu_count() or 1) // a.threads)
    warning = sw.seed_warning()
    if warning and a.task is None and not a.summarise:
        print(warning, file=sys.stderr, flush=True)
    if not (a.list or a.summarise):
        try:
            sw.prepare()
            if a.resume:
                sw.check_resume()
        except ValueError as e:
            p.error(str(e))

    if a.list:
        for k in range(len(sw.runs)):
            print("%d\t%s" % (k, sw.run_label(k)))
        return 0
    if a.summarise:
        text, all_ok = sw.summarise()
        print(text, end="")
        return 0 if all_ok else 1
    if a.task is not None:
        if not 0 <= a.task < len(sw.runs):
            p.error("--task %d: there are runs 0 to %d" % (a.task, len(sw.runs) - 1))
        ok, log = sw.build()
        r = sw.run(a.task, ok)
        print("%s: %s (exit %s, %s s)" % (r["run"], r["status"], r["exit"], r["wall_s"]))
        return 0 if r["status"] == "ok" else 1

    print("sweep %s: 1 build (%s), %d variant%s, %d runs, %d at a time, %d thread%s each, input %s (%s), into %s" % (
        sw.name, sw.build_dir, len(sw.combos), "s" if len(sw.combos) > 1 else "", len(sw.runs), jobs, a.threads,
        "s" if a.threads > 1 else "", os.path.relpath(sw.input) if sw.input else "inputs/ensemble.off", sw.input_from, sw.out),
        flush=True)
    if a.resume:
        states = [sw.resume_state(k)[0] for k in range(len(sw.runs))]
        print("resuming: %d runs kept (finished), %d restarted (interrupted: from the checkpoint), %d started" % (
            states.count("keep"), states.count("restart"), states.count("start")), flush=True)
    elif not a.build:
        sw.start()
    built, log = sw.build()
    if not built:
        print("the build failed (%s/build.log):\n%s" % (sw.build_dir, log.strip()[-600:]), flush=True)
    if a.build:   # (if the build failed, every run gets its result now: no task will run them)
        if not built:
            for k in range(len(sw.runs)):
                sw.run(k, False)
        return 0 if built else 1

    inplace = sys.stderr.isatty()
    progress = Progress(len(sw.runs), inplace) if inplace or a.progress else None
    sw.progress = progress

    def say(line):
        (progress.say if progress is not None else lambda l: print(l, flush=True))(line)

    def one(k):
        r = sw.run(k, built, a.resume)
        if r is not None and r.get("kept"):
            say("%s: %s (exit %s), kept from before" % (r["run"], r["status"], r["exit"]))
        elif r is not None:
            say("%s: %s (exit %s, %s s)%s" % (r["run"], r["status"], r["exit"], r["wall_s"],
                                               ", restarted from its checkpoint" if r.get("restarted") else ""))
        return r
    # Ctrl-C (SIGINT), SIGTERM or SIGHUP: the running runs stop (each gets one SIGINT: its step,
    # its checkpoint), no other starts, and the summary of what finished; exit status 128 + the signal
    got = [signal.SIGINT]

    def interrupt(signum, frame):
        got[0] = signum
        raise KeyboardInterrupt
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupt)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    futures = [pool.submit(one, k) for k in range(len(sw.runs))]
    try:
        pending = futures
        while pending:   # (the progress line's clock goes on each second)
            pending = concurrent.futures.wait(pending, timeout=1.0)[1]
            if progress is not None:
                progress.tick()
        for f in futures:
            f.result()
        pool.shutdown()
        if progress is not None:
            progress.close()
    except KeyboardInterrupt:
        if progress is not None:   # (what follows is about the interruption)
            sw.progress = None
            progress.close()
        print("\nsweep.py: interrupted: the running runs stop after their step, no other starts", file=sys.stderr, flush=True)
        sw.stop()
        for f in futures:
            f.cancel()
        while True:
            try:
                pool.shutdown()
                break
            except KeyboardInterrupt:   # a second Ctrl-C: they stop at once (as polyhoop does)
                sw.stop()
        not_run = [k for k, f in enumerate(futures) if f.cancelled() or f.exception() is not None or f.result() is None]
        text, _ = sw.summarise(not_run)
        print(text, end="")
        stopped = sum(1 for k, f in enumerate(futures) if k not in not_run and f.result()["status"] == "interrupted")
        print("sweep.py: interrupted: %d of %d runs ran (%d of them stopped early), %d not run" % (
              len(sw.runs) - len(not_run), len(sw.runs), stopped, len(not_run)), file=sys.stderr, flush=True)
        return 128 + got[0]
    text, all_ok = sw.summarise()
    print(text, end="")
    return 0 if all_ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:   # (before the runs: while reading, preparing or building)
        print("\nsweep.py: interrupted before the runs", file=sys.stderr)
        sys.exit(130)
