#!/usr/bin/env python3
"""Reads a polyhoop run's output without VTK: its frames (VTK XML PolyData as src/vtp.c writes
them, zlib-compressed binary or --ascii), frames.pvd and its logs, events.csv and observables.csv.

    import sys; sys.path.insert(0, "scripts")
    import polyhoop_read as pr
    run = pr.Run("outputs")                  # the frames of frames.pvd
    run.times, run.numbers                   # [0.0, 0.1, ...], [0, 1, ...] (of frame000000.vtp, ...)
    f = run.frame(-1)                        # the last frame (a Frame); run.frame(4): frame000004.vtp
    f.time, f.x, f.y, f.offsets              # polygon p: f.x[f.offsets[p]:f.offsets[p + 1]]
    f.cells["area"], list(f.cells)           # every cell array by name (id, parent, area, ...)
    f.points_data["velocity"]                # point arrays ((vertices, 3) for vectors)
    f.params["dt"]                           # the parameters in the frame's leading comment
    obs = run.observables()                  # observables.csv: column name -> array
    ev = run.events()                        # events.csv
    pr.cells_dataframe(f)                    # the cell arrays as a pandas DataFrame (with pandas)

Arrays are numpy arrays when numpy can be imported, else Python lists (so that the scripts that
use this module run on the standard library alone); POLYHOOP_READ_NO_NUMPY=1 asks for lists.
Anything that cannot be read raises ReadError (a ValueError) with a one-line message.

A frame's number is the one in its file's name, frameNNNNNN.vtp (the program's frame count),
also where some frames are missing (deleted, or a run restarted after frames were removed):
run.frame(K) with K >= 0 is the file frameK.vtp, with K < 0 the K-th frame from the end of those
there are.

As a program it prints what a run holds, or one frame's cells or vertices as CSV:
    scripts/polyhoop_read.py DIR                   one line per frame: number, time, polygons,
                                                   vertices, unreadable (empty, or why not)
    scripts/polyhoop_read.py DIR --frame K         the cells of frameK.vtp (K < 0: the K-th from the end)
    scripts/polyhoop_read.py FILE.vtp [--points]   a frame's cells, or its vertices
The listing reads every frame whole: one that cannot be read (truncated, not a frame, listed in
frames.pvd but missing) has no counts and the reason in its last column, one line on stderr names
those frames, and the listing goes on with the others (exit status 0). Exit status 2, with one
line on stderr, when the folder, every frame of it, or the frame asked for (--frame K, a
FILE.vtp; the last frame when none is named) cannot be read.

Format: the arrays are appended raw after the XML, each one a UInt64 header (block count, block
size, size of the last partial block, then the compressed size of each block) and its blocks,
each zlib-compressed; or, uncompressed, a UInt64 byte count and the bytes; or ascii text in the
XML (--ascii runs). The XML is read by ElementTree: the part before <AppendedData> closed by
</VTKFile>, or the whole file."""
import argparse
import csv
import io
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

np = None
if os.environ.get("POLYHOOP_READ_NO_NUMPY", "") in ("", "0"):
    try:
        import numpy as np
    except ImportError:
        np = None

# VTK type -> (struct code, numpy dtype)
TYPES = {"Float64": ("d", "f8"), "Float32": ("f", "f4"), "Int64": ("q", "i8"), "Int32": ("i", "i4"),
         "Int16": ("h", "i2"), "Int8": ("b", "i1"), "UInt64": ("Q", "u8"), "UInt32": ("I", "u4"),
         "UInt16": ("H", "u2"), "UInt8": ("B", "u1")}


class ReadError(ValueError):
    """A file that cannot be read or is not what polyhoop writes (the message is one line; reason:
    the same without the file's name)."""

    def __init__(self, message, reason=None):
        ValueError.__init__(self, message)
        self.reason = reason or message


def tolist(a):
    """An array of this module (numpy or list) as a Python list."""
    return a.tolist() if hasattr(a, "tolist") else list(a)


def is_vector(a):
    """Whether an array of this module holds vectors (a point array with components)."""
    return getattr(a, "ndim", 1) == 2 or (len(a) > 0 and isinstance(a[0], tuple))


def _read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ReadError("cannot read %s: %s" % (path, e.strerror or e), "cannot read it: %s" % (e.strerror or e))


def _numbers(values, typ):
    """A list of numbers (ascii text's words) as this module's array of VTK type typ."""
    if np is not None:
        return np.array(values, dtype=TYPES[typ][1])
    return values


def _decode(raw, typ, order):
    code, dtype = TYPES[typ]
    size = struct.calcsize(code)
    if len(raw) % size:
        raise ReadError("%d bytes are not a whole number of %s values" % (len(raw), typ))
    if np is not None:
        return np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder(order)).astype(dtype)
    return list(struct.unpack("%s%d%s" % (order, len(raw) // size, code), raw))


def _appended(data, at, typ, compressed, header, order):
    """The values of the appended array that starts at byte `at` of data."""
    hcode = "Q" if header == "UInt64" else "I"
    hsize = struct.calcsize(hcode)
    if at + (3 if compressed else 1) * hsize > len(data):
        raise ReadError("the file ends before an array's data (truncated)")
    if compressed:
        nb, _, _ = struct.unpack_from(order + 3 * hcode, data, at)
        if nb > (len(data) - at) // hsize:
            raise ReadError("a block count of %d" % nb)
        sizes = struct.unpack_from("%s%d%s" % (order, nb, hcode), data, at + 3 * hsize)
        pos, parts = at + (3 + nb) * hsize, []
        for s in sizes:
            if pos + s > len(data):
                raise ReadError("the file ends inside an array's data (truncated)")
            parts.append(zlib.decompress(data[pos:pos + s]))
            pos += s
        raw = b"".join(parts)
    else:
        (n,) = struct.unpack_from(order + hcode, data, at)
        if at + hsize + n > len(data):
            raise ReadError("the file ends inside an array's data (truncated)")
        raw = data[at + hsize:at + hsize + n]
    return _decode(raw, typ, order)


def _comment(head):
    """The frame's leading XML comment: parameters 'name = value' (floats) and lines 'key: value'."""
    params, meta = {}, {}
    m = re.search(r"<!--(.*?)-->", head, re.S)
    if m:
        lines = m.group(1).strip().splitlines()
        if lines:
            meta["version"] = lines[0].strip()
        for line in lines[1:]:
            kv = re.fullmatch(r"\s*(\w+)\s*=\s*(\S+)\s*", line)
            if kv:
                try:
                    params[kv.group(1)] = float(kv.group(2))
                except ValueError:
                    pass
                continue
            kv = re.fullmatch(r"(\w+):\s*(.*?)\s*", line)
            if kv:
                meta[kv.group(1)] = kv.group(2)
    return params, meta


class Frame:
    """One frame: time, x, y (vertex coordinates, polygon after polygon), offsets (polygon p is
    x[offsets[p]:offsets[p + 1]]; npolys + 1 values from 0), cells (cell arrays by name),
    points_data (point arrays by name, in the order of x and y), field (field arrays: TIME),
    connectivity and vtk_offsets (the Polys arrays as written), points (the Points array as
    written, (n, 3) with numpy), params and meta (the leading comment: parameters as floats;
    version, parameters, input, seed), npolys, npoints and path."""

    def __init__(self, path):
        self.path = path
        data = _read_bytes(path)
        try:
            self._parse(data)
        except ReadError as e:
            raise ReadError("%s is not a polyhoop frame: %s" % (path, e), "not a polyhoop frame: %s" % e)
        except (ValueError, KeyError, IndexError, TypeError, struct.error, zlib.error, ET.ParseError) as e:
            why = "%s: %s" % (type(e).__name__, " ".join(str(e).split()))
            raise ReadError("%s is not a polyhoop frame (%s)" % (path, why), "not a polyhoop frame (%s)" % why)

    def _parse(self, data):
        cut = data.find(b"<AppendedData")
        if b"\0" in (data if cut < 0 else data[:cut]):
            raise ReadError("binary data outside <AppendedData>")
        head = (data if cut < 0 else data[:cut]).decode("utf-8")
        self.params, self.meta = _comment(head)
        root = ET.fromstring(head if cut < 0 else head + "</VTKFile>")
        if root.tag != "VTKFile" or root.get("type") != "PolyData":
            raise ReadError("not VTK XML PolyData")
        order = ">" if root.get("byte_order") == "BigEndian" else "<"
        header = root.get("header_type", "UInt32")
        compressed = root.get("compressor") is not None
        if compressed and root.get("compressor") != "vtkZLibDataCompressor":
            raise ReadError("compressor %s (only vtkZLibDataCompressor)" % root.get("compressor"))
        base = None
        if cut >= 0:
            app = re.match(rb'<AppendedData\s+encoding="raw"\s*>\s*_', data[cut:])
            if not app:
                raise ReadError("<AppendedData> is not raw")
            base = cut + app.end()
            # (the arrays' sizes alone miss a file cut between its last block and its closing tags)
            if not data.rstrip().endswith(b"</VTKFile>"):
                raise ReadError("the file ends before </VTKFile> (truncated)")
        piece = root.find("PolyData/Piece")
        if piece is None:
            raise ReadError("no <Piece>")
        self.npoints, self.npolys = int(piece.get("NumberOfPoints")), int(piece.get("NumberOfPolys"))

        def values(arr):
            typ, fmt = arr.get("type"), arr.get("format")
            if typ not in TYPES:
                raise ReadError("array %s of type %s" % (arr.get("Name"), typ))
            if fmt == "ascii":
                conv = float if typ.startswith("Float") else int
                return _numbers([conv(v) for v in (arr.text or "").split()], typ)
            if fmt == "appended" and base is not None:
                return _appended(data, base + int(arr.get("offset")), typ, compressed, header, order)
            raise ReadError("array %s in format %s" % (arr.get("Name"), fmt))

        def group(parent, tuples):
            out = {}
            if parent is None:
                return out
            for arr in parent.findall("DataArray"):
                v, nc = values(arr), int(arr.get("NumberOfComponents", "1"))
                if len(v) != tuples * nc:
                    raise ReadError("array %s has %d values, expected %d" % (arr.get("Name"), len(v), tuples * nc))
                out[arr.get("Name")] = _components(v, nc)
            return out

        self.field = {}
        for arr in root.findall("PolyData/FieldData/DataArray"):
            self.field[arr.get("Name")] = values(arr)
        self.cells = group(piece.find("CellData"), self.npolys)
        point_data = group(piece.find("PointData"), self.npoints)
        pts = group(piece.find("Points"), self.npoints)
        polys = {arr.get("Name"): values(arr) for arr in piece.findall("Polys/DataArray")}
        if len(pts) != 1 or "connectivity" not in polys or "offsets" not in polys:
            raise ReadError("points or polygons missing")
        self.points = next(iter(pts.values()))
        self.connectivity, self.vtk_offsets = polys["connectivity"], polys["offsets"]
        if len(self.vtk_offsets) != self.npolys:
            raise ReadError("%d polygon offsets for %d polygons" % (len(self.vtk_offsets), self.npolys))
        ends = tolist(self.vtk_offsets)
        if any(b < a for a, b in zip([0] + ends, ends)) or (ends and ends[-1] != len(self.connectivity)):
            raise ReadError("the polygon offsets do not step through the connectivity")
        conn = tolist(self.connectivity)
        if conn and not 0 <= min(conn) <= max(conn) < self.npoints:
            raise ReadError("a polygon's vertex index is out of range")
        t = self.field.get("TIME")
        self.time = float(t[0]) if t is not None and len(t) else float("nan")
        # the vertices polygon after polygon (the connectivity's order)
        if np is not None:
            idx = np.asarray(self.connectivity, dtype=np.int64)
            self.x, self.y = self.points[idx, 0], self.points[idx, 1]
            self.offsets = np.concatenate([[0], np.asarray(self.vtk_offsets, dtype=np.int64)])
            self.points_data = {k: v[idx] for k, v in point_data.items()}
        else:
            self.x = [self.points[i][0] for i in conn]
            self.y = [self.points[i][1] for i in conn]
            self.offsets = [0] + ends
            self.points_data = {k: [v[i] for i in conn] for k, v in point_data.items()}

    def polygon(self, p):
        """Polygon p's vertices: (x, y)."""
        a, b = int(self.offsets[p]), int(self.offsets[p + 1])
        return self.x[a:b], self.y[a:b]

    def polygons(self):
        """Every polygon's (x, y)."""
        return [self.polygon(p) for p in range(self.npolys)]

    def __repr__(self):
        return "<Frame %s: t = %g, %d polygons, %d vertices>" % (self.path, self.time, self.npolys, self.npoints)


def _components(v, nc):
    if nc == 1:
        return v
    if np is not None:
        return v.reshape(-1, nc)
    return [tuple(v[k:k + nc]) for k in range(0, len(v), nc)]


def read_frame(path):
    """The Frame of file `path`."""
    return Frame(path)


def read_pvd(path):
    """frames.pvd: [(time, frame file path)], in its order."""
    data = _read_bytes(path)
    try:
        root = ET.fromstring(data)
        out = [(float(d.get("timestep")), os.path.join(os.path.dirname(path), d.get("file")))
               for d in root.iter("DataSet")]
    except (ET.ParseError, TypeError, ValueError) as e:
        raise ReadError("%s is not a frames.pvd collection (%s)" % (path, " ".join(str(e).split())))
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        raise ReadError("%s is not a frames.pvd collection" % path)
    return out


def frame_number(path):
    """The number of a frame file frameNNNNNN.vtp (None for another name)."""
    m = re.fullmatch(r"frame(\d+)\.vtp", os.path.basename(path))
    return int(m.group(1)) if m else None


def frame_files(folder):
    """[(number, path)] of the frame%06d.vtp files in folder, by number."""
    try:
        names = os.listdir(folder)
    except OSError as e:
        raise ReadError("cannot read %s: %s" % (folder, e.strerror or e))
    return sorted((int(n[5:-4]), os.path.join(folder, n)) for n in names if re.fullmatch(r"frame\d+\.vtp", n))


class Run:
    """A run's output folder: times, files and numbers of its frames (from frames.pvd; without
    one, the frame*.vtp files and each one's TIME), frame(k) (k >= 0: the frame numbered k, the
    file framek.vtp; k < 0: the k-th from the end), iteration over the frames, events() and
    observables(). A frame's number is the one in its file's name (its position where a name has
    none)."""

    def __init__(self, folder):
        if not os.path.isdir(folder):
            raise ReadError("%s: no such folder" % folder)
        self.folder = folder
        pvd = os.path.join(folder, "frames.pvd")
        if os.path.exists(pvd):
            entries = read_pvd(pvd)
            self.times, self.files = [t for t, _ in entries], [f for _, f in entries]
        else:   # (an unreadable frame's time is nan: listing the others does not stop at it)
            self.files = [p for _, p in frame_files(folder)]
            self.times = [_time_or_nan(p) for p in self.files]
        if not self.files:
            raise ReadError("%s holds no frames" % folder)
        self.numbers = [frame_number(f) for f in self.files]
        if None in self.numbers or len(set(self.numbers)) != len(self.numbers):
            self.numbers = list(range(len(self.files)))

    def __len__(self):
        return len(self.files)

    def position(self, k):
        """The place in self.files of frame k (k >= 0: the one numbered k; k < 0: from the end)."""
        if k < 0 and k >= -len(self.files):
            return len(self.files) + k
        if k >= 0 and k in self.numbers:
            return self.numbers.index(k)
        raise ReadError("%s: no frame %d (it has %d: %s)" % (self.folder, k, len(self.files), number_ranges(self.numbers)))

    def frame(self, k):
        return read_frame(self.files[self.position(k)])

    def __iter__(self):
        return (read_frame(f) for f in self.files)

    def events(self):
        return read_csv(os.path.join(self.folder, "events.csv"))

    def observables(self):
        return read_csv(os.path.join(self.folder, "observables.csv"))


def _time_or_nan(path):
    try:
        return read_frame(path).time
    except ReadError:
        return float("nan")


def number_ranges(numbers):
    """Frame numbers as text: '0-3, 6, 8-9'."""
    out, v = [], sorted(numbers)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[j + 1] == v[j] + 1:
            j += 1
        out.append("%d" % v[i] if i == j else "%d-%d" % (v[i], v[j]))
        i = j + 1
    return ", ".join(out)


def read_table(path):
    """A CSV log's header and rows (lists of strings, each as long as the header). ReadError when
    it cannot be read or is not CSV text."""
    data = _read_bytes(path)
    if b"\0" in data:
        raise ReadError("%s is not a CSV log (it holds NUL bytes)" % path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReadError("%s is not a CSV log (not UTF-8 text)" % path)
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as e:
        raise ReadError("%s is not a CSV log: %s" % (path, e))
    if not rows:
        raise ReadError("%s is empty" % path)
    for line, r in enumerate(rows[1:], 2):
        if len(r) != len(rows[0]):
            raise ReadError("%s, line %d: %d fields, the header %d" % (path, line, len(r), len(rows[0])))
    return rows[0], rows[1:]


def _column(values, kind):
    if np is not None:
        return np.array(values, dtype={int: np.int64, float: np.float64, str: object}[kind])
    return values


def read_csv(path, numeric=()):
    """A CSV log (events.csv, observables.csv) as a dict: column name -> array, in the header's
    order: integers where every value is one, else floats where every value is a number, else
    strings (events.csv's before and after: ids separated by spaces). The columns named in
    `numeric` must be numbers: ReadError naming the line otherwise."""
    header, rows = read_table(path)
    out = {}
    for k, name in enumerate(header):
        col = [r[k] for r in rows]
        try:
            out[name] = _column([int(v) for v in col], int)
            continue
        except ValueError:
            pass
        try:
            out[name] = _column([float(v) for v in col], float)
        except ValueError:
            if name in numeric:
                line = next(i for i, v in enumerate(col, 2) if not _is_number(v))
                raise ReadError("%s, line %d: %s is %r, not a number" % (path, line, name, col[line - 2]))
            out[name] = _column(col, str)
    for name in numeric:
        if name not in out:
            raise ReadError("%s has no column '%s' (it has: %s)" % (path, name, ", ".join(header)))
    return out


def _is_number(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


def cells_dataframe(frame):
    """The frame's cell arrays as a pandas DataFrame, one row per polygon, with its vertex count
    (column `vertices`) and time; ImportError when pandas is missing."""
    try:
        import pandas
    except ImportError:
        raise ImportError("cells_dataframe needs pandas (pip install pandas, or apt-get install -y python3-pandas)")
    cols = {name: tolist(v) for name, v in frame.cells.items() if not is_vector(v)}
    off = tolist(frame.offsets)
    cols["vertices"] = [b - a for a, b in zip(off, off[1:])]
    df = pandas.DataFrame(cols)
    df.attrs["time"] = frame.time
    return df


def _print_csv(header, rows):
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)


def _cells_csv(f):
    names = [n for n, v in f.cells.items() if not is_vector(v)]
    cols = [tolist(f.cells[n]) for n in names]
    off = tolist(f.offsets)
    _print_csv(["polygon", "vertices"] + names,
               [[p, off[p + 1] - off[p]] + [repr(c[p]) if isinstance(c[p], float) else c[p] for c in cols]
                for p in range(f.npolys)])


def _points_csv(f):
    names = list(f.points_data)
    cols = {n: tolist(f.points_data[n]) for n in names}
    header = ["polygon", "x", "y"]
    for n in names:
        v = cols[n]
        header += ["%s_%d" % (n, c) for c in range(len(v[0]))] if v and isinstance(v[0], (list, tuple)) else [n]
    x, y, off = tolist(f.x), tolist(f.y), tolist(f.offsets)
    rows = []
    for p in range(f.npolys):
        for k in range(off[p], off[p + 1]):
            row = [p, repr(x[k]), repr(y[k])]
            for n in names:
                v = cols[n][k]
                row += [repr(c) for c in v] if isinstance(v, (list, tuple)) else [repr(v)]
            rows.append(row)
    _print_csv(header, rows)


def _list_frames(run):
    """One CSV line per frame of the run: number, time, polygons, vertices, and why it cannot be
    read (each frame is read whole); a frame that cannot be read (truncated, not a frame, listed
    in frames.pvd but missing) has no counts and the reason, and the listing goes on. One line on
    stderr names those frames. ReadError when none can be read."""
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["frame", "time", "polygons", "vertices", "unreadable"])
    bad = []
    for k, t, path in zip(run.numbers, run.times, run.files):
        try:
            f = read_frame(path)
            w.writerow([k, repr(t), f.npolys, f.npoints, ""])
        except ReadError as e:
            why = "missing (listed in frames.pvd)" if not os.path.lexists(path) else e.reason
            w.writerow([k, repr(t), "", "", why])
            bad.append(k)
    sys.stdout.flush()
    if len(bad) == len(run):
        raise ReadError("%s: none of its %d frames can be read (the last column says why)" % (run.folder, len(run)))
    if bad:
        sys.stderr.write("polyhoop_read.py: warning: %d of %d frames cannot be read (%s): see the column unreadable\n" % (
            len(bad), len(run), number_ranges(bad)))


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("polyhoop_read.py: %s\n" % " ".join(str(message).split()))
        sys.exit(2)


def run_quietly_into_a_pipe(main):
    """Runs a script's main(); piped into a reader that stops early (head), it stops with status 1
    and no traceback: the rest of its output is not wanted."""
    try:
        main()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # (no second error at exit's flush)
        sys.exit(1)


def main():
    ap = _Parser(prog="polyhoop_read.py", description=__doc__.split("\n\n")[0],
                 epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", help="a run's output folder, or one frame (.vtp)")
    ap.add_argument("--frame", type=int, metavar="K", help="print the cells (or vertices) of frame K, the file frameK.vtp, "
                    "as CSV (K < 0: the K-th from the end)")
    ap.add_argument("--points", action="store_true", help="print the vertices (polygon, x, y, point arrays) instead")
    a = ap.parse_args()
    try:
        if os.path.isdir(a.path):
            run = Run(a.path)
            if a.frame is None and not a.points:
                _list_frames(run)
                return 0
            f = run.frame(-1 if a.frame is None else a.frame)
        else:
            if a.frame is not None:
                ap.error("--frame goes with a run's folder, not a frame file")
            f = read_frame(a.path)
        (_points_csv if a.points else _cells_csv)(f)
    except ReadError as e:
        ap.error(str(e))
    except BrokenPipeError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
