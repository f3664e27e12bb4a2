#!/usr/bin/env python3
"""Checks one frame written by src/vtp.c with VTK's own reader (Debian: python3-vtk9).

Usage: check_vtp.py FILE.vtp [--expect-points N] [--expect-polys N] [--arrays a,b,c]
                             [--expect-time T]
Exit 0 and one line "points=N polys=M arrays=a,b,c area_sum=S" when VTK reads the file without
error and every expectation holds; exit 1 with the reason on stderr otherwise; exit 77 (the
automake "skipped" code) when vtk cannot be imported. The tests run it with /usr/bin/python3,
Debian's Python, where python3-vtk9 (or python3-paraview, which brings its own vtk) installs it.
"""
import argparse
import sys
import xml.etree.ElementTree as ET

vtk = None  # imported after the arguments are parsed, so that -h works without VTK


def fail(msg):
    print(f"check_vtp: {msg}", file=sys.stderr)
    sys.exit(1)


def check_value_counts(path, npts, npolys, nconn):
    """VTK's ascii reader silently ignores surplus values in a DataArray: count them here.
    (Files with raw appended binary data are not XML text; VTK checks their sizes itself.)"""
    with open(path, "rb") as f:
        if b"<AppendedData" in f.read():
            return
    tuples = {"CellData": npolys, "PointData": npts, "Points": npts,
              "connectivity": nconn, "offsets": npolys}
    for parent in ET.parse(path).getroot().iter():
        for arr in parent.findall("DataArray"):
            key = arr.get("Name") if parent.tag == "Polys" else parent.tag
            if key not in tuples or arr.get("format") != "ascii":
                continue
            want = tuples[key] * int(arr.get("NumberOfComponents", "1"))
            got = len((arr.text or "").split())
            if got != want:
                fail(f"{path}: {parent.tag} array '{arr.get('Name', '')}' has {got} values, "
                     f"expected {want}")


def main():
    ap = argparse.ArgumentParser(description="check a polyhoop .vtp frame with VTK's reader")
    ap.add_argument("file")
    ap.add_argument("--expect-points", type=int)
    ap.add_argument("--expect-polys", type=int)
    ap.add_argument("--arrays", default="", help="comma-separated cell arrays that must exist")
    ap.add_argument("--expect-time", type=float, help="value of the FieldData array TIME")
    ap.add_argument("--dump", help="write every value VTK read (points, polygons, all arrays) to this file")
    args = ap.parse_args()
    global vtk
    try:
        import vtk
    except ImportError:
        print("vtk not available to %s: apt-get install -y python3-vtk9 (or python3-paraview)"
              % sys.executable, file=sys.stderr)
        sys.exit(77)

    # VTK reports errors through events and its output window, not exceptions: collect the
    # reader's error messages and the window's text (the XML parser's), and print neither.
    vtk.vtkLogger.SetStderrVerbosity(vtk.vtkLogger.VERBOSITY_OFF)
    log = vtk.vtkStringOutputWindow()
    vtk.vtkOutputWindow.SetInstance(log)
    errors = []

    @vtk.calldata_type(vtk.VTK_STRING)
    def on_error(obj, event, msg):
        errors.append(msg.strip().splitlines()[-1])  # drop the "ERROR: In file, line" line

    reader = vtk.vtkXMLPolyDataReader()
    reader.AddObserver("ErrorEvent", on_error)
    if not reader.CanReadFile(args.file):
        fail(f"{args.file}: not a readable VTK XML PolyData file")
    reader.SetFileName(args.file)
    reader.Update()
    errors += [l.strip() for l in log.GetOutput().splitlines()
               if "rror" in l and not l.startswith("ERROR: In")]
    if errors or reader.GetErrorCode() != 0:
        fail(f"{args.file}: VTK reader failed: " + (" | ".join(errors) or "unknown error"))
    data = reader.GetOutput()
    npts, npolys = data.GetNumberOfPoints(), data.GetNumberOfPolys()
    check_value_counts(args.file, npts, npolys, data.GetPolys().GetNumberOfConnectivityIds())
    if args.expect_points is not None and npts != args.expect_points:
        fail(f"{args.file}: {npts} points, expected {args.expect_points}")
    if args.expect_polys is not None and npolys != args.expect_polys:
        fail(f"{args.file}: {npolys} polys, expected {args.expect_polys}")
    if data.GetNumberOfCells() != npolys:
        fail(f"{args.file}: {data.GetNumberOfCells()} cells but {npolys} polys")

    names = [a for a in args.arrays.split(",") if a]
    cd = data.GetCellData()
    for name in names:
        arr = cd.GetArray(name)
        if arr is None:
            fail(f"{args.file}: cell array '{name}' missing")
        if arr.GetNumberOfTuples() != npolys or arr.GetNumberOfComponents() != 1:
            fail(f"{args.file}: cell array '{name}' has {arr.GetNumberOfTuples()} x "
                 f"{arr.GetNumberOfComponents()} values, expected {npolys} x 1")

    if args.expect_time is not None:
        t = data.GetFieldData().GetArray("TIME")
        if t is None or t.GetNumberOfTuples() != 1 or t.GetValue(0) != args.expect_time:
            fail(f"{args.file}: FieldData TIME is "
                 f"{'missing' if t is None else t.GetValue(0)}, expected {args.expect_time!r}")

    if args.dump:
        with open(args.dump, "w") as out:
            pts = data.GetPoints()
            out.write("points %r\n" % [pts.GetPoint(k) for k in range(npts)])
            ids = vtk.vtkIdList()
            polys = data.GetPolys()
            polys.InitTraversal()
            while polys.GetNextCell(ids):
                out.write("poly %r\n" % [ids.GetId(k) for k in range(ids.GetNumberOfIds())])
            for kind, fd in (("cell", cd), ("point", data.GetPointData()), ("field", data.GetFieldData())):
                for a in range(fd.GetNumberOfArrays()):
                    arr = fd.GetArray(a)     # numeric: exact values (repr of each double)
                    vals = [arr.GetComponent(t, c) for t in range(arr.GetNumberOfTuples())
                            for c in range(arr.GetNumberOfComponents())]
                    out.write("%s %s %s %r\n" % (kind, arr.GetName(), arr.GetDataTypeAsString(), vals))

    area = cd.GetArray("area")
    area_sum = sum(area.GetValue(k) for k in range(area.GetNumberOfTuples())) if area else 0.0
    print(f"points={npts} polys={npolys} arrays={','.join(names)} area_sum={area_sum!r}")


if __name__ == "__main__":
    main()
