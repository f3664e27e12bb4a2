#!/usr/bin/env python3
"""Renders a polyhoop run with ParaView: one picture of a time step, or a movie of all of them.

Opens the run's frames.pvd (or the frame*.vtp series when there is none), fills the polygons
(Extract Surface + Triangulate, so non-convex cells render filled), outlines each cell, colours
the cells by one array, looks at the x-y plane from +z with a parallel camera fitted to the data,
and shows a colour bar titled with the array name.

Run with ParaView's Python, pvbatch or pvpython (Debian: apt-get install paraview
python3-paraview). Debian's build renders through X only, so headless wrap it in xvfb-run
(apt-get install xvfb); a build with EGL or OSMesa can use pvbatch --force-offscreen-rendering.
Examples:
    xvfb-run -a pvbatch scripts/paraview_view.py outputs             # last frame -> picture.png
    ... scripts/paraview_view.py outputs --color phase --frame 0 --out start.png
    ... scripts/paraview_view.py outputs/frames.pvd --time 12.5 --size 1600x1200
    ... scripts/paraview_view.py outputs --movie run.avi      (or --pngs DIR for PNG frames)
"""
import argparse
import glob
import os
import sys

from paraview.simple import (ColorBy, CreateView, ExtractSurface, GetAnimationScene,
                             GetColorTransferFunction, GetScalarBar, OpenDataFile, Render,
                             SaveAnimation, SaveScreenshot, Show, Triangulate)


def fail(msg):
    print(f"paraview_view: {msg}", file=sys.stderr)
    sys.exit(1)


def parse_args():
    p = argparse.ArgumentParser(
        prog="paraview_view.py",
        description="Picture or movie of a polyhoop run (run under pvbatch or pvpython).",
        epilog="Headless (Debian's ParaView): xvfb-run -a pvbatch scripts/paraview_view.py RUN ...")
    p.add_argument("run", help="run folder (holding frames.pvd or frame*.vtp) or a .pvd file")
    p.add_argument("--color", default="area", metavar="ARRAY",
                   help="cell array to colour by (default area; e.g. phase, pressure, id); "
                        "a point array such as velocity is coloured by its magnitude")
    when = p.add_mutually_exclusive_group()
    when.add_argument("--frame", type=int, metavar="N",
                      help="time step index for the picture (negative counts from the end)")
    when.add_argument("--time", type=float, metavar="T",
                      help="simulated time for the picture (the nearest time step is used)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--out", default="picture.png", help="picture file (default picture.png)")
    out.add_argument("--movie", metavar="FILE.avi", help="movie of all time steps (.avi or .ogv)")
    out.add_argument("--pngs", metavar="DIR", help="one PNG per time step into DIR")
    p.add_argument("--size", default="1200x900", help="image size WxH in pixels (default 1200x900)")
    p.add_argument("--fps", type=int, default=10, help="movie frame rate (default 10)")
    p.add_argument("--range", type=float, nargs=2, metavar=("MIN", "MAX"),
                   help="fixed colour range (default: the data's, over all steps for a movie)")
    p.add_argument("--no-edges", action="store_true", help="do not outline the cells")
    a = p.parse_args()
    try:
        a.width, a.height = (int(v) for v in a.size.lower().split("x"))
    except ValueError:
        p.error(f"--size must look like 1200x900, not {a.size!r}")
    if a.movie and not a.movie.lower().endswith((".avi", ".ogv")):
        p.error("--movie must end in .avi or .ogv (the formats ParaView writes)")
    return a


def open_run(path):
    """The reader for a .pvd file, a folder's .pvd, or a folder's frame*.vtp series."""
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


def choose_time(a, times):
    if not times:
        return None
    if a.time is not None:
        return min(times, key=lambda t: abs(t - a.time))
    i = -1 if a.frame is None else a.frame
    if not -len(times) <= i < len(times):
        fail(f"--frame {a.frame} is out of range: the run has {len(times)} time steps "
             f"(0..{len(times) - 1})")
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
    picture kept free for the colour bar."""
    w, h = max(box[1] - box[0], 1e-12), max(box[3] - box[2], 1e-12)
    scale = 0.525 * max(h, w / (0.85 * aspect))  # half the picture's height, in data units
    cx, cy = (box[0] + box[1]) / 2 + 0.15 * scale * aspect, (box[2] + box[3]) / 2
    view.CameraParallelProjection = 1
    view.CameraFocalPoint = [cx, cy, 0]
    view.CameraPosition = [cx, cy, 10 * max(w, h)]
    view.CameraViewUp = [0, 1, 0]
    view.CameraParallelScale = scale
    view.OrientationAxesVisibility = 0


def main():
    a = parse_args()
    path, reader = open_run(a.run)
    times = time_steps(reader)
    t = choose_time(a, times)
    reader.UpdatePipeline(t)

    if a.color in reader.CellData.keys():
        assoc = "CELLS"
    elif a.color in reader.PointData.keys():
        assoc = "POINTS"
    else:
        fail(f"no array '{a.color}' in {path}; cell arrays: {', '.join(reader.CellData.keys())}"
             f"; point arrays: {', '.join(reader.PointData.keys()) or '(none)'}")

    surface = ExtractSurface(Input=reader)
    filled = Triangulate(Input=surface)
    animate = bool(a.movie or a.pngs)
    rng, box = range_and_bounds(filled, assoc, a.color, times if animate else [t])
    if a.range:
        rng = tuple(a.range)
    if rng[1] - rng[0] <= 1e-12 * max(1, abs(rng[0])):  # constant array: centre it in a range
        pad = max(0.5, 0.05 * abs(rng[0]))
        rng = (rng[0] - pad, rng[1] + pad)

    view = CreateView("RenderView")
    view.ViewSize = [a.width, a.height]
    disp = Show(filled, view)
    ColorBy(disp, (assoc, a.color))
    lut = GetColorTransferFunction(a.color)
    lut.AutomaticRescaleRangeMode = "Never"
    lut.RescaleTransferFunction(*rng)
    bar = GetScalarBar(lut, view)
    bar.Title, bar.ComponentTitle = a.color, ("magnitude" if assoc == "POINTS" else "")
    disp.SetScalarBarVisibility(view, True)
    if not a.no_edges:
        edges = Show(surface, view)
        edges.ColorArrayName = ["POINTS", ""]  # solid colour
        edges.Representation = "Wireframe"
        edges.AmbientColor = edges.DiffuseColor = [0, 0, 0]
    Render(view)  # paraview.simple resets the camera on the first render: get that over with
    fit_camera(view, box, a.width / a.height)

    scene = GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    res = [a.width, a.height]
    what = f"coloured by {a.color} in [{rng[0]:g}, {rng[1]:g}]"
    if not animate:
        if t is not None:
            scene.AnimationTime = t
            view.ViewTime = t
        SaveScreenshot(a.out, view, ImageResolution=res)
        step = "" if t is None else f" time {t:g} (step {times.index(t)} of 0..{len(times) - 1})"
        print(f"wrote {a.out}: {a.width}x{a.height},{step} {what}")
    elif a.movie:
        if os.path.exists(a.movie):
            os.remove(a.movie)  # so that the check below sees this run's file, not an old one
        SaveAnimation(a.movie, view, ImageResolution=res, FrameRate=a.fps)
        if not os.path.exists(a.movie):
            fail(f"could not write {a.movie} (this ParaView build may lack that movie format; "
                 "try the other of .avi/.ogv, or --pngs DIR)")
        print(f"wrote {a.movie}: {len(times) or 1} frames at {a.fps} fps, "
              f"{a.width}x{a.height}, {what}")
    else:
        os.makedirs(a.pngs, exist_ok=True)
        SaveAnimation(os.path.join(a.pngs, "frame.png"), view, ImageResolution=res,
                      SuffixFormat=".%06d")
        n = len(glob.glob(os.path.join(a.pngs, "frame.*.png")))
        print(f"wrote {n} PNGs {os.path.join(a.pngs, 'frame.NNNNNN.png')}: "
              f"{a.width}x{a.height}, {what}")


if __name__ == "__main__":
    main()
