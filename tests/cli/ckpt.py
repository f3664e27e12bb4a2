#!/usr/bin/env python3
"""Where the fields of a checkpoint are, for the shell tests that doctor one: prints shell
assignments (H_STEP=..., P_dt=...) found through the file's own structure (src/checkpoint.h):
the fixed header, whose members are listed here in CHECKPOINT_HEADER_FIELDS' order and whose
size the file states; then the parameter section, a count and per parameter a 16-byte name, a
double and a byte (P_name: the value's place, S_name: the byte's); then the polygons' records
(the file types of ENSEMBLE_POLYGON_STORED, read from src/ensemble.h: R_name) of the size the
file states (R_SIZE), from POLYGONS on; then the vertices' doubles (V_SIZE each, V_name). Exits 1,
saying why, where the file is not laid out so (another version or byte order, or a header that
has changed without this list).
    python3 tests/cli/ckpt.py DIR/checkpoint.bin"""
import re
import struct
import sys

# the fixed header (CHECKPOINT_HEADER_FIELDS): name, struct format (little-endian, no padding)
HEADER = [("magic", "24s"), ("version", "I"), ("order", "I"), ("size", "I"), ("postponed", "I"), ("seed", "Q"),
          ("draws", "Q"), ("step", "q"), ("next_id", "q"), ("divisions", "q"), ("removals", "q"), ("fusions1", "q"),
          ("fusions2", "q"), ("t", "d"), ("frame", "i"), ("np", "i"), ("nv", "i"), ("twists", "i"), ("input", "1024s"),
          ("options", "512s"), ("camera", "40s"), ("deaths", "q"), ("record", "I"), ("vertex", "I")]
FILE_TYPES = {"int8_t": 1, "uint8_t": 1, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8, "double": 8}
VERSION, NAME, PARAM = 11, 16, 16 + 8 + 1


def main(path):
    b = open(path, "rb").read()
    at, out = 0, {}
    for name, fmt in HEADER:
        out["H_" + name.upper()] = at
        at += struct.calcsize("<" + fmt)
    get = lambda name, fmt: struct.unpack_from("<" + fmt, b, out["H_" + name.upper()])[0]
    if len(b) < at + 8 or get("version", "I") != VERSION or get("order", "I") != 0x01020304 or get("size", "I") != at:
        sys.exit(f"{path}: not a little-endian checkpoint of version {VERSION} with a fixed header of {at} bytes")
    n = struct.unpack_from("<I", b, at)[0]
    out["H_PARAMS"] = at
    for k in range(n):
        p = at + 4 + k * PARAM
        name = b[p:p + NAME].rstrip(b"\0").decode()
        out["P_" + name], out["S_" + name] = p + NAME, p + NAME + 8
    out["POLYGONS"] = at + 4 + n * PARAM
    fields = re.search(r"#define ENSEMBLE_POLYGON_STORED\(X\)(.*?)\n#define", open("src/ensemble.h").read(), re.S).group(1)
    r = 0
    for name, file_type in re.findall(r"X\([\w ]+,\s*(\w+)\s*,\s*(\w+)\s*,", fields):
        out["R_" + name] = r
        r += FILE_TYPES[file_type]
    vertex = re.search(r"#define ENSEMBLE_VERTEX_FIELDS\(X\)(.*)", open("src/ensemble.h").read()).group(1)
    names = re.findall(r"X\((\w+)\)", vertex)
    for k, name in enumerate(names):
        out["V_" + name] = 8 * k
    if r != get("record", "I") or 8 * len(names) != get("vertex", "I"):
        sys.exit(f"{path}: its records are not those of src/ensemble.h")
    out["R_SIZE"], out["V_SIZE"] = r, 8 * len(names)
    print(" ".join(f"{k}={v}" for k, v in out.items()))


main(sys.argv[1])
