#!/usr/bin/env bash
# The turing and nutrient showcases (docs/model.md 11.1 and 11.2) against their analyses: the
# Turing pattern's dominant wavelength against the fastest growing mode of the linear stability
# analysis, its growth, the cells' types reading it, and its frames the same at 1 and 2 threads;
# the nutrient-limited colony's rim growing faster than its core, and the nutrient at its centre
# against the penetration length sqrt(D/q). The field frames (.vti) are read here without VTK or
# numpy, as src/vtp.c writes them.
source "$(dirname "$0")/lib.sh"

# vti_reader: writes $D/vti.py, whose read(path) gives (nx, ny, x0, y0, dx, comment, arrays by name)
# of a field frame: zlib-compressed appended data (each array a UInt64 header: block count, block
# size, last block's size, then each block's compressed size, then the blocks) or --ascii text
vti_reader() {
    cat > "$D/vti.py" <<'PY'
import re, struct, zlib
def read(path):
    data = open(path, "rb").read()
    cut = data.find(b"<AppendedData")
    text = (data if cut < 0 else data[:cut]).decode("latin-1")
    ext = [int(v) for v in re.search(r'WholeExtent="([^"]*)"', text).group(1).split()]
    x0, y0, _ = [float(v) for v in re.search(r'Origin="([^"]*)"', text).group(1).split()]
    dx = float(re.search(r'Spacing="([^"]*)"', text).group(1).split()[0])
    nx, ny = ext[1] + 1, ext[3] + 1
    arrays = {}
    if cut >= 0:
        base = data.index(b"_", cut) + 1
        for m in re.finditer(r'<DataArray type="Float64" Name="([^"]*)"[^>]*offset="(\d+)"', text):
            at = base + int(m.group(2))
            nb = struct.unpack_from("<Q", data, at)[0]
            sizes = struct.unpack_from("<%dQ" % nb, data, at + 24)
            pos, raw = at + 24 + 8 * nb, b""
            for s in sizes:
                raw += zlib.decompress(data[pos:pos + s])
                pos += s
            arrays[m.group(1)] = struct.unpack("<%dd" % (len(raw) // 8), raw)
    else:
        for m in re.finditer(r'<DataArray type="Float64" Name="([^"]*)"[^>]*>([^<]*)<', text):
            arrays[m.group(1)] = [float(v) for v in m.group(2).split()]
    comment = re.search(r"<!--(.*?)-->", text, re.S)
    return nx, ny, x0, y0, dx, comment.group(1) if comment else "", arrays
PY
}

# The dominant wavelength of the activator u at t = 0.8 (the spots saturated by about t = 0.6)
# is within 15 % of 2 pi / k* of the linear stability analysis (params/turing.h: 1.496 for a =
# 0.1, b = 0.9, gamma = 120, and Du, Dv read from the frame), computed here from the closed form.
# The spectrum: the field's zero-flux modes cos(pi n i / (nx - 1)) cos(pi m j / (ny - 1)) (the
# discrete cosine transform, by direct sums), their power averaged over rings of |(n, m)| in steps
# of 1 (k = pi |(n, m)| / L), and the wavenumber of the peak ring refined as the mean of the rings
# within 25 % of it, weighted by their power. Also: the standard deviation of u grew from the 1 %
# perturbation's at least 40 times, and the cells read the pattern (u at the centroids of type-1
# cells above u* = 1 on average, at those of type-0 cells below it).
test_chem_turing_wavelength() {
    command -v python3 > /dev/null || skip "needs python3"
    scripts/showcase.sh turing --out "$D/run" -- -j 1 -q -n 8 --png-size 100x100 > "$D/log" 2>&1 || fail "the showcase failed: $(tail -n 3 "$D/log")"
    vti_reader
    python3 - "$D" <<'PY' || fail "the pattern is not the one the analysis predicts"
import math, sys
d = sys.argv[1]
sys.path[:0] = [d, "scripts"]
import vti, polyhoop_read as pr
nx, ny, x0, y0, dx, comment, a0 = vti.read(d + "/run/frame000000.vti")
nx, ny, x0, y0, dx, comment, a = vti.read(d + "/run/frame000008.vti")
u, L = a["u"], (nx - 1) * dx
# the analysis (docs/model.md 11.1) with the header's constants and the frame's diffusivities
A_, B_, G = 0.1, 0.9, 120.0
import re
Du = float(re.search(r"species 0 \(u\): D_in = (\S+),", comment).group(1))
Dv = float(re.search(r"species 1 \(v\): D_in = (\S+),", comment).group(1))
fu, fv, gu, gv = G * (B_ - A_) / (A_ + B_), G * (A_ + B_) ** 2, -2 * G * B_ / (A_ + B_), -G * (A_ + B_) ** 2
tr, det, A = fu + gv, fu * gv - fv * gu, Dv * fu + Du * gv
assert tr < 0 < det and A > 0 and A * A > 4 * Du * Dv * det, "no Turing instability"
S = A * (Du + Dv) - 2 * Du * Dv * tr
lam = (S - math.sqrt(S * S - (Dv - Du) ** 2 * (A * A - 4 * Du * Dv * det))) / (Dv - Du) ** 2
kstar = math.sqrt((A - (Du + Dv) * lam) / (2 * Du * Dv))
# the spectrum of u up to |(n, m)| = 40 (k = 10.5, beyond the band's 5.85)
N = 40
mean = sum(u) / len(u)
w = lambda i, n: 0.5 if i in (0, n - 1) else 1.0
cx = [[math.cos(math.pi * n * i / (nx - 1)) * w(i, nx) for i in range(nx)] for n in range(N + 1)]
cy = [[math.cos(math.pi * m * j / (ny - 1)) * w(j, ny) for j in range(ny)] for m in range(N + 1)]
rows = [[sum(c * (v - mean) for c, v in zip(cx[n], u[j * nx:(j + 1) * nx])) for n in range(N + 1)] for j in range(ny)]
ring, count = {}, {}
for n in range(N + 1):
    col = [rows[j][n] for j in range(ny)]
    for m in range(N + 1):
        b = int(round(math.hypot(n, m)))
        if b == 0 or b > N:
            continue
        ring[b] = ring.get(b, 0) + sum(c * v for c, v in zip(cy[m], col)) ** 2
        count[b] = count.get(b, 0) + 1
power = {b: ring[b] / count[b] for b in ring}
peak = max(power, key=power.get)
near = [b for b in power if abs(b - peak) <= 0.25 * peak]
k = math.pi / L * sum(power[b] * b for b in near) / sum(power[b] for b in near)
wave, wave_star = 2 * math.pi / k, 2 * math.pi / kstar
sd = lambda v: math.sqrt(sum((x - sum(v) / len(v)) ** 2 for x in v) / len(v))
growth = sd(u) / sd(a0["u"])
print("  dominant wavelength %.3f (peak ring %d), 2 pi / k* = %.3f (%+.1f %%); lambda* = %.2f; sd of u grew %.0f times"
      % (wave, peak, wave_star, 100 * (wave / wave_star - 1), lam, growth), file=sys.stderr)
# the cells' types against u at their centroids
f = pr.Run(d + "/run").frame(-1)
at = {0: [], 1: []}
for p in range(f.npolys):
    xs, ys = f.x[f.offsets[p]:f.offsets[p + 1]], f.y[f.offsets[p]:f.offsets[p + 1]]
    i, j = int(round((sum(xs) / len(xs) - x0) / dx)), int(round((sum(ys) / len(ys) - y0) / dx))
    at[f.cells["type"][p]].append(u[j * nx + i])
share = len(at[1]) / f.npolys
m0, m1 = sum(at[0]) / len(at[0]), sum(at[1]) / len(at[1])
print("  %d of %d cells type 1; mean u at their centroids %.3f, at the others' %.3f" % (len(at[1]), f.npolys, m1, m0), file=sys.stderr)
sys.exit(not (abs(wave / wave_star - 1) < 0.15 and growth > 40 and 0.2 < share < 0.6 and m1 > 1 > m0))
PY
}

# The turing showcase's frames, cells (.vtp) and fields (.vti), are byte-identical at 1 and 2 threads.
test_chem_turing_same_at_1_and_2_threads() {
    B=build/showcase/turing
    make -s --no-print-directory B=$B PARAMS=params/turing.h $B/polyhoop > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    input=$(scripts/showcase.sh turing --input-only) || fail "no input"
    OMP_NUM_THREADS=1 "$B/polyhoop" -j 1 -q -n 2 -s 100 -o "$D/one" "$input" > /dev/null 2>&1 || fail "the run on 1 thread failed"
    OMP_NUM_THREADS=2 "$B/polyhoop" -j 2 -q -n 2 -s 100 -o "$D/two" "$input" > /dev/null 2>&1 || fail "the run on 2 threads failed"
    for k in 000000 000001 000002; do
        for f in vtp vti; do
            cmp -s "$D/one/frame$k.$f" "$D/two/frame$k.$f" || fail "frame$k.$f differs between 1 and 2 threads"
        done
    done
    grep -q 'Name="type"' "$D/one/frame000002.vtp" || fail "the frames have no cell array type"
}

# A colony grown from one cell at t = 8 (28 cells, about 9 penetration lengths l = sqrt(D/q) = 1
# across): the growth rate of its rim cells (centroid within l of the rim, R the radius of a disc
# of the cells' area about their centre) is more than 2.5 times that of its core cells (deeper
# than 2 l), measured by the growth of each cell's target area between t = 7.9 and 8 (cells
# that did not divide); the nutrient at the centre is below 5 % of the boundary's value; and its
# ratio to the nutrient on the circle of radius R is within a factor 1.5 of the disc's
# c(0) / c(R) = 1 / I0(R / l) (docs/model.md 11.2).
test_chem_nutrient_rim_grows() {
    command -v python3 > /dev/null || skip "needs python3"
    scripts/showcase.sh nutrient --out "$D/run" -- -j 1 -q -n 80 --png-size 100x100 > "$D/log" 2>&1 || fail "the showcase failed: $(tail -n 3 "$D/log")"
    vti_reader
    python3 - "$D" <<'PY' || fail "the colony's growth is not limited as the analysis says"
import math, sys
d = sys.argv[1]
sys.path[:0] = [d, "scripts"]
import vti, polyhoop_read as pr
ell = 1.0   # sqrt(D / q) = sqrt(16 / 16)
run = pr.Run(d + "/run")
a, b = run.frame(79), run.frame(80)
def cells(f):
    out = {}
    for p in range(f.npolys):
        xs, ys = f.x[f.offsets[p]:f.offsets[p + 1]], f.y[f.offsets[p]:f.offsets[p + 1]]
        out[f.cells["id"][p]] = (sum(xs) / len(xs), sum(ys) / len(ys), f.cells["area"][p], f.cells["target_area"][p])
    return out
ca, cb = cells(a), cells(b)
area = sum(v[2] for v in cb.values())
R = math.sqrt(area / math.pi)
mx, my = sum(v[0] * v[2] for v in cb.values()) / area, sum(v[1] * v[2] for v in cb.values()) / area
rim, core = [], []
for i, (x, y, _, A0) in cb.items():
    if i in ca:
        depth, rate = R - math.hypot(x - mx, y - my), (A0 - ca[i][3]) / (b.time - a.time)
        if depth < ell:
            rim.append(rate)
        elif depth > 2 * ell:
            core.append(rate)
nx, ny, x0, y0, dx, _, arr = vti.read(d + "/run/frame000080.vti")
c = arr["nutrient"]
centre = c[int(round((my - y0) / dx)) * nx + int(round((mx - x0) / dx))]
circle = [c[j * nx + i] for j in range(ny) for i in range(nx) if abs(math.hypot(x0 + i * dx - mx, y0 + j * dx - my) - R) < dx / 2]
cR = sum(circle) / len(circle)
I0 = sum((R / ell / 2) ** (2 * m) / math.factorial(m) ** 2 for m in range(80))
vr, vc = sum(rim) / len(rim), sum(core) / len(core)
print("  t = %g: %d cells, R = %.2f l; growth rate of %d rim cells %.3f, of %d core cells %.3f (%.1f times); nutrient at the "
      "centre %.4f, at R %.3f: ratio %.4f, 1 / I0(R / l) = %.4f" % (b.time, b.npolys, R / ell, len(rim), vr, len(core), vc, vr / vc,
      centre, cR, centre / cR, 1 / I0), file=sys.stderr)
sys.exit(not (R >= 4 * ell and len(rim) >= 5 and len(core) >= 5 and vr > 2.5 * vc and centre < 0.05
              and 1 / 1.5 < centre / cR * I0 < 1.5))
PY
}

run_file "$@"
