#!/usr/bin/env python3
"""Renders a polyhoop run with ParaView: one picture of a time step, or a movie of all of them.

Opens the run's frames.pvd (or the frame*.vtp series when there is none), flattens the frames onto
the x-y plane, fills the polygons (Extract Surface + Triangulate, so non-convex cells render
filled), outlines each cell, colours the cells by one array, looks at the plane from +z with a
parallel camera fitted to the data, and shows a colour bar and the simulated time.

Flattening: the frames store each polygon's phase (+1 or -1) as the z of its points, so seen from
+z a phase -1 drop nested inside a phase +1 drop lies below it and is hidden. Here z is replaced
by a tiny layer offset that grows as the polygon's area shrinks: smaller polygons lie above larger
ones, so an inner drop is always drawn over the drop around it. The phase stays a cell array
(--color phase).

Colours: sequential arrays (area, age, id, ...) get a sequential map (Viridis); pressure, which
changes sign, gets a diverging map (Cool to Warm) centred on zero when its range holds both signs.
--cmap picks any ParaView preset instead.

Output: by default into the run's own folder (RUN/<array>_frame<N>.png; --movie and --pngs
without a value: RUN/<array>.avi and RUN/<array>_pngs/); --out, --movie FILE and --pngs DIR
write where they say. N, in --frame N, the picture's name and --pngs' frame.NNNNNN.png, is the
number of the frame's file frameN.vtp, also where some frames are missing.

Run with ParaView's Python, pvbatch or pvpython (Debian: apt-get install -y paraview
python3-paraview xvfb). Debian's build renders through X only, so without a display run it under
Xvfb, and give Xvfb -noreset: Xvfb otherwise resets itself whenever its last client disconnects,
and ParaView, which connects more than once, now and then aborts with "bad X server connection"
(SIGABRT). xvfb-run's -s replaces its default screen, so name the screen too:
    xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" pvbatch scripts/paraview_view.py RUN
A build with EGL or OSMesa can use pvbatch --force-offscreen-rendering instead. Examples (each
after the xvfb-run ... pvbatch part):
    scripts/paraview_view.py outputs                         # last frame -> outputs/area_frameN.png
    scripts/paraview_view.py outputs --color phase --frame 0 --out start.png
    scripts/paraview_view.py outputs/frames.pvd --time 12.5 --size 1600x1200
    scripts/paraview_view.py outputs --movie                 # outputs/area.avi
    scripts/paraview_view.py outputs --pngs DIR              # one PNG per time step
"""
import argparse
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

XVFB = 'xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" pvbatch scripts/paraview_view.py'
INSTALL = "apt-get install -y paraview python3-paraview xvfb"
SEQUENTIAL, DIVERGING = "Viridis (matplotlib)", "Cool to Warm"
SIGNED = ("pressure",)  # arrays whose sign matters: a diverging map centred on zero

# The layer filter, run by ParaView for every time step (a Programmable Filter's script): z of
# every polygon's points = LAYER * extent * (rank of the polygon by decreasing area).
LAYER = 1e-5
LAYER_SCRIPT = """
import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
inp, out = self.GetPolyDataInput(), self.GetPolyDataOutput()
out.ShallowCopy(inp)
n = inp.GetNumberOfPoints()
if n:
    xyz = vtk_to_numpy(inp.GetPoints().GetData()).astype(np.float64)
    xyz[:, 2] = 0.0
    polys = inp.GetPolys()
    offsets = vtk_to_numpy(polys.GetOffsetsArray()).astype(np.int64)
    conn = vtk_to_numpy(polys.GetConnectivityArray()).astype(np.int64)
    nc = len(offsets) - 1
    if nc > 0:
        cell = np.repeat(np.arange(nc), np.diff(offsets))
        a = inp.GetCellData().GetArray("area")
        if a is not None and a.GetNumberOfTuples() == nc:
            area = np.abs(vtk_to_numpy(a).astype(np.float64))
        else:  # shoelace: sum over edges of x_i y_(i+1) - x_(i+1) y_i
            nxt = np.arange(len(conn)) + 1
            nxt[offsets[1:] - 1] = offsets[:-1]
            x, y = xyz[conn, 0], xyz[conn, 1]
            area = np.abs(np.bincount(cell, x * y[nxt] - x[nxt] * y, minlength=nc)) / 2
        rank = np.empty(nc)
        rank[np.argsort(-area, kind="stable")] = np.arange(nc)
        ext = float(np.max([np.ptp(xyz[:, 0]), np.ptp(xyz[:, 1]), 1e-12]))  # (min, max,
        # abs, ... are numpy_interface's functions in a Programmable Filter's script: use np's)
        xyz[conn, 2] = (%r * ext) * rank[cell]
    pts = vtkPoints()
    pts.SetData(numpy_to_vtk(np.ascontiguousarray(xyz), deep=1))
    out.SetPoints(pts)
""" % LAYER


def fail(msg, status=1):
    print(f"paraview_view: {msg}", file=sys.stderr)
    sys.exit(status)


def parse_args():
    p = argparse.ArgumentParser(
        prog="paraview_view.py",
        description="Picture or movie of a polyhoop run (run under pvbatch or pvpython). "
                    "Nested drops are drawn over the drops around them; the picture shows the "
                    "simulated time. Output goes into the run's folder unless a path is given.",
        epilog=f"Headless (Debian's ParaView, needs {INSTALL}): {XVFB} RUN ... "
               "(-noreset keeps Xvfb from resetting between ParaView's X connections; without it "
               "runs now and then abort with 'bad X server connection').")
    p.add_argument("run", help="run folder (holding frames.pvd or frame*.vtp) or a .pvd file")
    p.add_argument("--color", default="area", metavar="ARRAY",
                   help="cell array to colour by (default area; e.g. phase, pressure, id); "
                        "a point array such as velocity is coloured by its magnitude")
    p.add_argument("--cmap", metavar="PRESET",
                   help=f"ParaView colour preset (default: '{SEQUENTIAL}', sequential; "
                        f"'{DIVERGING}' centred on 0 for {', '.join(SIGNED)} when it changes sign)")
    when = p.add_mutually_exclusive_group()
    when.add_argument("--frame", type=int, metavar="N",
                      help="the frame for the picture: the file frameN.vtp (N < 0: the N-th from the end)")
    when.add_argument("--time", type=float, metavar="T",
                      help="simulated time for the picture (the nearest time step is used)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--out", metavar="FILE.png",
                     help="picture file (default: RUN/ARRAY_frameN.png, in the run's folder)")
    out.add_argument("--movie", nargs="?", const="", metavar="FILE.avi",
                     help="movie of all time steps, .avi or .ogv (default file: RUN/ARRAY.avi)")
    out.add_argument("--pngs", nargs="?", const="", metavar="DIR",
                     help="one PNG per time step into DIR (default: RUN/ARRAY_pngs/)")
    p.add_argument("--size", default="1200x900", help="image size WxH in pixels (default 1200x900)")
    p.add_argument("--fps", type=int, default=10, help="movie frame rate (default 10)")
    p.add_argument("--range", type=float, nargs=2, metavar=("MIN", "MAX"),
                   help="fixed colour range (default: the data's, over all steps for a movie)")
    p.add_argument("--view", metavar="X0,Y0,X1,Y1",
                   help="fixed x-y rectangle to show, e.g. --view=-5,-5,5,5 (default: the data's, over all steps for a "
                        "movie); the colour bar takes the right 15%% of the picture")
    p.add_argument("--no-edges", action="store_true", help="do not outline the cells")
    p.add_argument("--no-time", action="store_true", help="do not show the time")
    a = p.parse_args()
    try:
        a.width, a.height = (int(v) for v in a.size.lower().split("x"))
        if a.width < 16 or a.height < 16:
            raise ValueError
    except ValueError:
        p.error(f"--size must look like 1200x900, not {a.size!r}")
    if a.view is not None:
        try:
            x0, y0, x1, y1 = (float(v) for v in a.view.split(","))
            if not (x0 < x1 and y0 < y1):
                raise ValueError
            a.view = [x0, x1, y0, y1]
        except ValueError:
            p.error(f"--view needs X0,Y0,X1,Y1 with X0 < X1 and Y0 < Y1, not {a.view!r}")
    if a.movie and not a.movie.lower().endswith((".avi", ".ogv")):
        p.error("--movie must end in .avi or .ogv (the formats ParaView writes)")
    return a


def run_folder(path):
    return path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))


def open_run(path):
    """The reader for a .pvd file, a folder's .pvd, or a folder's frame*.vtp series."""
    from paraview.simple import OpenDataFile
    if os.path.isdir(path):
        pvds = sorted(glob.glob(os.path.join(path, "*.pvd")))
        pvd = os.path.join(path, "frames.pvd")
        if os.path.exists(pvd) or pvds:
            path = pvd if os.path.exists(pvd) else pvds[0]
        else:
            vtps = sorted(glob.glob(os.path.join(path, "frame*.vtp")))
            if not vtps:
                fail(f"{path} holds no .pvd file and no frame*.vtp files")
            return path, OpenDataFile(vtps)
    if not os.path.exists(path):
        fail(f"{path} does not exist")
    reader = OpenDataFile(path)
    if reader is None:
        fail(f"ParaView cannot read {path}")
    return path, reader


def time_steps(reader):
    reader.UpdatePipelineInformation()
    t = reader.TimestepValues
    return list(t) if hasattr(t, "__len__") else [t]  # one step comes back as a bare number


def frame_number(name):
    """The number N of a frame file frameN.vtp (None for another name)."""
    m = re.fullmatch(r"frame(\d+)\.vtp", os.path.basename(name))
    return int(m.group(1)) if m else None


def frame_numbers(path, times):
    """The frame number of each time step: the N of its file frameN.vtp, from the .pvd's entries
    (the file of the time step nearest each time) or the folder's frame*.vtp series; the time
    steps' positions 0, 1, ... where files have other names or do not match the steps."""
    files = []
    if os.path.isdir(path):
        files = [(None, f) for f in sorted(glob.glob(os.path.join(path, "frame*.vtp")))]
    else:
        try:
            files = [(float(d.get("timestep")), d.get("file") or "") for d in ET.parse(path).getroot().iter("DataSet")]
        except (ET.ParseError, OSError, TypeError, ValueError):
            files = []
    numbers = [frame_number(f) for _, f in files]
    if len(files) != len(times) or None in numbers or len(set(numbers)) != len(numbers):
        return list(range(len(times)))
    if files[0][0] is None:
        return numbers
    by_time = sorted(zip((t for t, _ in files), numbers))
    return [min(by_time, key=lambda e: abs(e[0] - t))[1] for t in times]


def choose_time(a, times, numbers):
    """The time step of --time (the nearest) or --frame N (the frame numbered N, the file
    frameN.vtp; N < 0: the N-th from the end), else the last."""
    if not times:
        return None
    if a.time is not None:
        return min(times, key=lambda t: abs(t - a.time))
    if a.frame is not None and a.frame >= 0:
        if a.frame not in numbers:
            fail(f"--frame {a.frame}: no such frame; the run has {len(times)} frames "
                 f"({', '.join(str(n) for n in numbers[:20])}{', ...' if len(numbers) > 20 else ''})")
        return times[numbers.index(a.frame)]
    i = -1 if a.frame is None else a.frame
    if not -len(times) <= i < len(times):
        fail(f"--frame {a.frame} is out of range: the run has {len(times)} frames to count back")
    return times[i]


def range_and_bounds(src, assoc, name, times):
    """Colour range and x-y bounds of src over the given times (all of them for a movie)."""
    lo = hi = None
    box = [float("inf"), float("-inf")] * 2
    for t in times or [None]:
        src.UpdatePipeline(t)
        arrays = src.CellData if assoc == "CELLS" else src.PointData
        r = arrays[name].GetRange(-1)  # -1: magnitude for vectors
        lo, hi = (r[0], r[1]) if lo is None else (min(lo, r[0]), max(hi, r[1]))
        b = src.GetDataInformation().GetBounds()
        box = [min(box[0], b[0]), max(box[1], b[1]), min(box[2], b[2]), max(box[3], b[3])]
    return (lo, hi), box


def fit_camera(view, box, aspect):
    """Parallel projection looking down -z at box, with a 5 % margin and the right 15 % of the
    picture kept free for the colour bar. A point (x, y) lands on pixel
    (W/2 + (x - cx) H / (2 scale), H/2 - (y - cy) H / (2 scale)), y counted down from the top."""
    w, h = max(box[1] - box[0], 1e-12), max(box[3] - box[2], 1e-12)
    scale = 0.525 * max(h, w / (0.85 * aspect))  # half the picture's height, in data units
    cx, cy = (box[0] + box[1]) / 2 + 0.15 * scale * aspect, (box[2] + box[3]) / 2
    view.CameraParallelProjection = 1
    view.CameraFocalPoint = [cx, cy, 0]
    view.CameraPosition = [cx, cy, 10 * max(w, h)]
    view.CameraViewUp = [0, 1, 0]
    view.CameraParallelScale = scale
    view.OrientationAxesVisibility = 0


def color_map(a, assoc, rng):
    """The preset and the range: a diverging map centred on zero for signed arrays that change
    sign, a sequential one for everything else."""
    if a.cmap:
        return a.cmap, rng
    if assoc == "CELLS" and a.color in SIGNED and rng[0] < 0 < rng[1] and not a.range:
        m = max(-rng[0], rng[1])
        return DIVERGING, (-m, m)
    return SEQUENTIAL, rng


def main():
    a = parse_args()
    if not os.environ.get("DISPLAY"):
        print(f"paraview_view: no DISPLAY; Debian's ParaView needs X: run under {XVFB} ...",
              file=sys.stderr)
    try:
        from paraview.simple import (AnnotateTimeFilter, ColorBy, CreateView, ExtractSurface,
                                     GetAnimationScene, GetColorTransferFunction, GetScalarBar,
                                     ProgrammableFilter, Render, SaveAnimation, SaveScreenshot,
                                     Show, Triangulate)
    except ImportError as e:
        fail(f"ParaView's Python is missing ({e}): {INSTALL}; then run: {XVFB} {a.run}", 77)

    path, reader = open_run(a.run)
    folder = run_folder(path)
    times = time_steps(reader)
    numbers = frame_numbers(path, times)
    t = choose_time(a, times, numbers)
    reader.UpdatePipeline(t)

    if a.color in reader.CellData.keys():
        assoc = "CELLS"
    elif a.color in reader.PointData.keys():
        assoc = "POINTS"
    else:
        fail(f"no array '{a.color}' in {path}; cell arrays: {', '.join(reader.CellData.keys())}"
             f"; point arrays: {', '.join(reader.PointData.keys()) or '(none)'}")

    layered = ProgrammableFilter(Input=reader)
    layered.Script = LAYER_SCRIPT
    layered.CopyArrays = 1
    surface = ExtractSurface(Input=layered)
    filled = Triangulate(Input=surface)
    animate = a.movie is not None or a.pngs is not None
    rng, box = range_and_bounds(filled, assoc, a.color, times if animate else [t])
    info = layered.GetDataInformation()
    if info.GetBounds()[4] < 0 or (info.GetNumberOfCells() > 1 and info.GetBounds()[5] <= 0):
        fail("flattening the frames failed (see ParaView's messages above)")
    if a.view:
        box = a.view
    if a.range:
        rng = tuple(a.range)
    if rng[1] - rng[0] <= 1e-12 * max(1, abs(rng[0])):  # constant array: centre it in a range
        pad = max(0.5, 0.05 * abs(rng[0]))
        rng = (rng[0] - pad, rng[1] + pad)
    preset, rng = color_map(a, assoc, rng)

    view = CreateView("RenderView")
    view.ViewSize = [a.width, a.height]
    disp = Show(filled, view)
    ColorBy(disp, (assoc, a.color))
    lut = GetColorTransferFunction(a.color)
    lut.AutomaticRescaleRangeMode = "Never"
    if not lut.ApplyPreset(preset, True):
        fail(f"no colour preset named '{preset}' in this ParaView")
    lut.RescaleTransferFunction(*rng)
    bar = GetScalarBar(lut, view)
    bar.Title, bar.ComponentTitle = a.color, ("magnitude" if assoc == "POINTS" else "")
    bar.WindowLocation = "Any Location"
    bar.Orientation = "Vertical"
    bar.Position = [0.87, 0.08]
    bar.ScalarBarLength = 0.7
    bar.RangeLabelFormat = bar.LabelFormat = "%-#.3g"
    disp.SetScalarBarVisibility(view, True)
    if not a.no_edges:
        edges = Show(surface, view)
        edges.ColorArrayName = ["POINTS", ""]  # solid colour
        edges.Representation = "Wireframe"
        edges.AmbientColor = edges.DiffuseColor = [0, 0, 0]
    if not a.no_time and times:
        label = AnnotateTimeFilter(Input=reader)
        label.Format = "t = {time:g}"
        shown = Show(label, view)
        shown.WindowLocation = "Upper Right Corner"
        shown.FontSize = max(12, a.height // 40)
    Render(view)  # paraview.simple resets the camera on the first render: get that over with
    fit_camera(view, box, a.width / a.height)

    scene = GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    res = [a.width, a.height]
    what = f"coloured by {a.color} ({preset}) in [{rng[0]:g}, {rng[1]:g}]"
    if not animate:
        number = 0 if t is None else numbers[times.index(t)]
        out = a.out or os.path.join(folder, f"{a.color}_frame{number:06d}.png")
        if t is not None:
            scene.AnimationTime = t
            view.ViewTime = t
        SaveScreenshot(out, view, ImageResolution=res)
        when = "" if t is None else f" time {t:g} (frame {number}, {times.index(t) + 1} of {len(times)})"
        print(f"wrote {out}: {a.width}x{a.height},{when} {what}")
    elif a.movie is not None:
        movie = a.movie or os.path.join(folder, f"{a.color}.avi")
        if os.path.exists(movie):
            os.remove(movie)  # so that the check below sees this run's file, not an old one
        SaveAnimation(movie, view, ImageResolution=res, FrameRate=a.fps)
        if not os.path.exists(movie):
            fail(f"could not write {movie} (this ParaView build may lack that movie format; "
                 "try the other of .avi/.ogv, or --pngs DIR)")
        print(f"wrote {movie}: {len(times) or 1} frames at {a.fps} fps, "
              f"{a.width}x{a.height}, {what}")
    else:
        pngs = a.pngs or os.path.join(folder, f"{a.color}_pngs")
        os.makedirs(pngs, exist_ok=True)
        SaveAnimation(os.path.join(pngs, "frame.png"), view, ImageResolution=res,
                      SuffixFormat=".%06d")
        # ParaView numbers the pictures 0, 1, ...: each takes its frame's number (numbers[k] >= k,
        # so renaming from the last down overwrites none that is still to be renamed)
        for k in reversed(range(len(numbers))):
            src = os.path.join(pngs, f"frame.{k:06d}.png")
            if numbers[k] != k and os.path.exists(src):
                os.replace(src, os.path.join(pngs, f"frame.{numbers[k]:06d}.png"))
        n = len(glob.glob(os.path.join(pngs, "frame.*.png")))
        print(f"wrote {n} PNGs {os.path.join(pngs, 'frame.NNNNNN.png')}: "
              f"{a.width}x{a.height}, {what}")


if __name__ == "__main__":
    # ParaView runs a Programmable Filter's script in the namespace of __main__, after importing
    # numpy helpers there whose names (min, max, abs, ...) then shadow Python's own. Run main()
    # from this file imported as a module, whose namespace the filter does not touch.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.dont_write_bytecode = True  # (no scripts/__pycache__/ left behind)
    import paraview_view
    paraview_view.main()
