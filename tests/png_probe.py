"""An independent reader for the tests of src/png.c (standard library only).

    png_probe.py FILE [X,Y ...]
    png_probe.py FILE --colours X0,Y0,X1,Y1

Checks the signature, every chunk's CRC, that IHDR comes first and IEND last, and that the image
is 8-bit RGB without interlace; inflates the IDAT data and undoes the row filters (types 0-4).
Prints "W H", then "R G B" for each requested pixel (x to the right, y down from the top), or
with --colours "N R G B" for each colour of the pixels X0 <= x < X1, Y0 <= y < Y1 (N of them),
the most frequent first (ties by colour). Exits with status 1 and a message on stderr if anything is wrong."""
import struct
import sys
import zlib


def fail(msg):
    sys.stderr.write("png_probe: %s\n" % msg)
    sys.exit(1)


def chunks(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("bad signature")
    pos = 8
    while pos < len(data):
        if pos + 12 > len(data):
            fail("truncated chunk at byte %d" % pos)
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if len(body) != n or zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            fail("bad CRC or length in chunk %r" % kind)
        yield kind, body
        pos += 12 + n


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode(path):
    with open(path, "rb") as f:
        found = list(chunks(f.read()))
    if not found or found[0][0] != b"IHDR" or found[-1][0] != b"IEND":
        fail("IHDR must come first and IEND last")
    w, h, depth, ctype, comp, filt, inter = struct.unpack(">IIBBBBB", found[0][1])
    if (depth, ctype, comp, filt, inter) != (8, 2, 0, 0, 0):
        fail("not 8-bit RGB, deflate, no interlace")
    raw = zlib.decompress(b"".join(body for kind, body in found if kind == b"IDAT"))
    stride = 3 * w
    if len(raw) != h * (stride + 1):
        fail("image data has %d bytes, expected %d" % (len(raw), h * (stride + 1)))
    rows, prev = [], bytearray(stride)
    for j in range(h):
        ftype, line = raw[j * (stride + 1)], bytearray(raw[j * (stride + 1) + 1:(j + 1) * (stride + 1)])
        if ftype > 4:
            fail("unknown filter type %d in row %d" % (ftype, j))
        for i in range(stride if ftype else 0):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            pred = (0, a, b, (a + b) // 2, paeth(a, b, c) if ftype == 4 else 0)[ftype]
            line[i] = (line[i] + pred) & 0xFF
        rows.append(line)
        prev = line
    return w, h, rows


def main():
    if len(sys.argv) < 2:
        fail("usage: png_probe.py FILE [X,Y ...]")
    w, h, rows = decode(sys.argv[1])
    print(w, h)
    if len(sys.argv) == 4 and sys.argv[2] == "--colours":
        x0, y0, x1, y1 = (int(v) for v in sys.argv[3].split(","))
        if not (0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h):
            fail("region %s outside the image" % sys.argv[3])
        count = {}
        for y in range(y0, y1):
            for x in range(x0, x1):
                c = tuple(rows[y][3 * x:3 * x + 3])
                count[c] = count.get(c, 0) + 1
        for c, n in sorted(count.items(), key=lambda kv: (-kv[1], kv[0])):
            print(n, *c)
        return
    for arg in sys.argv[2:]:
        x, y = (int(v) for v in arg.split(","))
        if not (0 <= x < w and 0 <= y < h):
            fail("pixel %d,%d outside the image" % (x, y))
        print(*rows[y][3 * x:3 * x + 3])


if __name__ == "__main__":
    main()
