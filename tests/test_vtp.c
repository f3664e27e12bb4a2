/* Tests of the frame writer (src/vtp.c): VTK's own reader accepts the file (scripts/check_vtp.py,
 * skipped without python3-vtk9), numbers round-trip exactly, gap slots are skipped, and a failed
 * write leaves neither the frame nor its .tmp behind. The ensemble is filled by hand, with an
 * unused slot between the two polygons, so these tests need neither ensemble.c nor a gap-free
 * layout. Each test works in its own mkdtemp directory and removes it when it passes. */
#define _POSIX_C_SOURCE 200809L
#include "fixtures.h"
#include "harness.h"
#include "geometry.h"
#include "vtp.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <omp.h>

/* Two squares: unit square at (0.1, 0.2), phase +1 (decimals that are not exact in binary);
 * side-2 square at (2, 0), phase -1, rigid. Slot 4 is a gap whose value must not appear. */
typedef struct {
    double x[9], y[9], vx[9], vy[9], A0[2], birth[2];
    int64_t id[2], parent[2];
    int start[2], count[2], neighbors[2], gen[2], type[2];
    signed char phase[2];
    unsigned char rigid[2], attracted[2];
    Ensemble e;
    char dir[64], path[96], tmp[100];
} Fixture;

static void fixture(Fixture *f)
{
    static const double x[9] = { 0.1, 1.1, 1.1, 0.1, 99, 2, 4, 4, 2 };
    static const double y[9] = { 0.2, 0.2, 1.2, 1.2, 99, 0, 0, 2, 2 };
    memset(f, 0, sizeof *f);
    memcpy(f->x, x, sizeof x);
    memcpy(f->y, y, sizeof y);
    f->start[0] = 0, f->count[0] = 4, f->phase[0] = 1, f->neighbors[0] = 1;
    f->start[1] = 5, f->count[1] = 4, f->phase[1] = -1, f->neighbors[1] = 1, f->rigid[1] = 1;
    for (int i = 0; i < 9; i++) { f->vx[i] = 0.5 * i - 1; f->vy[i] = 0.1 / (i + 1); }
    f->A0[0] = 0.9; f->A0[1] = 4.2; f->birth[0] = 0.05; f->birth[1] = 0;
    f->id[0] = 7; f->id[1] = 12; f->parent[0] = 3; f->parent[1] = -1; f->gen[0] = 2; f->gen[1] = 0;
    f->e = (Ensemble){ .x = f->x, .y = f->y, .vx = f->vx, .vy = f->vy, .start = f->start, .count = f->count,
                       .phase = f->phase, .rigid = f->rigid, .A0 = f->A0, .birth = f->birth, .id = f->id,
                       .parent = f->parent, .gen = f->gen, .attracted = f->attracted, .type = f->type, .np = 2, .nv_used = 9, .gaps = 1, .t = 0.25 };
    strcpy(f->dir, "/tmp/ph_test_vtp_XXXXXX");
    ENSURE(mkdtemp(f->dir) != NULL);
    snprintf(f->path, sizeof f->path, "%s/frame000000.vtp", f->dir);
    snprintf(f->tmp, sizeof f->tmp, "%s.tmp", f->path);
}

static void cleanup(const Fixture *f)
{
    remove(f->path);
    remove(f->tmp);
    ENSURE(rmdir(f->dir) == 0);
}

static int exists(const char *path) { struct stat st; return lstat(path, &st) == 0; }

/* Reads a whole (small) file into a NUL-terminated malloc'd buffer. */
static char *slurp(const char *path)
{
    enum { CAP = 1 << 16 };
    char *s = malloc(CAP);
    FILE *f = fopen(path, "rb");
    ENSURE(s && f);
    size_t n = fread(s, 1, CAP - 1, f);
    fclose(f);
    ENSURE(n < CAP - 1);
    s[n] = 0;
    return s;
}

void test_vtp_vtk_reads_frame(void)
{
    Fixture f;
    fixture(&f);
    char err[512] = "";
    ENSURE_MSG(vtp_write(f.path, &f.e, &(VtpOptions){ .ascii = 1, .ka = 1, .neighbors = f.neighbors, .meta = "test -- meta" }, err, sizeof err) == 0,
               "%s", err);
    char cmd[512], line[512] = "";
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_vtp.py %s --expect-points 8 "
             "--expect-polys 2 --arrays area,perimeter,neighbors,phase,rigid --expect-time 0.25",
             f.path);
    FILE *p = popen(cmd, "r");
    ENSURE(p != NULL);
    if (!fgets(line, sizeof line, p)) line[0] = 0;
    int status = pclose(p);
    cleanup(&f);   /* before the checks, so a failure here leaves nothing in /tmp */
    ENSURE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77 || WEXITSTATUS(status) == 127) {
        if (WEXITSTATUS(status) == 127) SKIP("/usr/bin/python3 missing");
        SKIP("python3-vtk9 missing: apt-get install python3-vtk9");
    }
    ENSURE_MSG(WEXITSTATUS(status) == 0, "check_vtp.py exited %d", WEXITSTATUS(status));
    static const char head[] = "points=8 polys=2 arrays=area,perimeter,neighbors,phase,rigid ";
    ENSURE_MSG(strncmp(line, head, sizeof head - 1) == 0, "output: %s", line);
    const char *s = strstr(line, "area_sum=");
    ENSURE(s != NULL);
    double sum = strtod(s + 9, NULL);
    double want = geom_area(f.x, f.y, 4) + geom_area(f.x + 5, f.y + 5, 4);
    ENSURE_CLOSE(sum, 5.0, 1e-12);
    ENSURE_MSG(sum == want, "area_sum %.17g != %.17g: areas did not round-trip", sum, want);
}

/* Every point (x, y, z = (phase+1)/2) reads back bit-identical, in polygon order without the gap;
 * the meta comment holds no "--"; TIME is there. */
void test_vtp_exact_roundtrip(void)
{
    Fixture f;
    fixture(&f);
    char err[512] = "";
    ENSURE_MSG(vtp_write(f.path, &f.e, &(VtpOptions){ .ascii = 1, .ka = 1, .neighbors = NULL, .meta = "a--b---c-" }, err, sizeof err) == 0, "%s", err);
    char *text = slurp(f.path);
    char *c0 = strstr(text, "<!--"), *c1 = strstr(text, "-->");
    ENSURE(c0 && c1 && c0 < c1);
    for (char *q = c0 + 4; q < c1; q++) ENSURE(!(q[0] == '-' && q[1] == '-'));
    ENSURE(strstr(text, "Name=\"TIME\" NumberOfTuples=\"1\" format=\"ascii\">0.25<") != NULL);
    char *s = strstr(text, "<Points>");
    ENSURE(s != NULL);
    s = strchr(strstr(s, "<DataArray"), '>') + 1;
    for (int p = 0; p < 2; p++)
        for (int i = f.start[p]; i < f.start[p] + f.count[p]; i++) {
            char *end;
            ENSURE(strtod(s, &end) == f.x[i] && end > s); s = end;
            ENSURE(strtod(s, &end) == f.y[i] && end > s); s = end;
            ENSURE(strtod(s, &end) == (p == 0 ? 1.0 : 0.0) && end > s); s = end;
        }
    while (*s == ' ' || *s == '\n') s++;
    ENSURE(strncmp(s, "</DataArray>", 12) == 0);
    ENSURE(strstr(text, "<DataArray type=\"Int32\" Name=\"neighbors\" format=\"ascii\">\n0\n0\n"));
    free(text);
    cleanup(&f);
}

void test_vtp_no_tmp_left(void)
{
    Fixture f;
    fixture(&f);
    char err[512] = "";
    for (int k = 0; k < 2; k++) {   /* the second write replaces the first */
        ENSURE_MSG(vtp_write(f.path, &f.e, &(VtpOptions){ .ascii = 1, .ka = 1, .neighbors = f.neighbors, .meta = NULL }, err, sizeof err) == 0, "%s", err);
        ENSURE(exists(f.path));
        ENSURE(!exists(f.tmp));
    }
    cleanup(&f);
}

void test_vtp_missing_dir_fails(void)
{
    Fixture f;
    fixture(&f);
    char path[160], err[512] = "";
    snprintf(path, sizeof path, "%s/no/such/dir/f.vtp", f.dir);
    ENSURE(vtp_write(path, &f.e, &(VtpOptions){ .ascii = 1, .ka = 1, .neighbors = NULL, .meta = NULL }, err, sizeof err) == -1);
    ENSURE_MSG(strncmp(err, path, strlen(path)) == 0 && strstr(err, "No such file"), "%s", err);
    ENSURE(!exists(path));
    cleanup(&f);
}

/* A full disk: files may not grow beyond 256 bytes, so a flushed write fails (EFBIG); the frame
 * (ascii, or compressed and streamed) is refused with the reason, and nothing is left. */
static void expect_disk_full(int ascii)
{
    Fixture f;
    fixture(&f);
    char err[512] = "";
    fx_file_limit(256);
    int r = vtp_write(f.path, &f.e, &(VtpOptions){ .ascii = ascii, .ka = 1, .neighbors = f.neighbors, .meta = "meta" }, err, sizeof err);
    fx_file_limit(-1);
    ENSURE(r == -1);
    ENSURE_MSG(strncmp(err, f.path, strlen(f.path)) == 0 && strstr(err, "too large"), "%s", err);
    ENSURE(!exists(f.path));
    ENSURE(!exists(f.tmp));
    cleanup(&f);
}

void test_vtp_disk_full_detected(void) { expect_disk_full(1); }

void test_vtp_readonly_dir_fails(void)
{
    if (geteuid() == 0) SKIP("running as root: a read-only directory does not stop root");
    Fixture f;
    fixture(&f);
    ENSURE(chmod(f.dir, 0500) == 0);
    char err[512] = "";
    int r = vtp_write(f.path, &f.e, &(VtpOptions){ .ascii = 1, .ka = 1, .neighbors = NULL, .meta = NULL }, err, sizeof err);
    ENSURE(chmod(f.dir, 0700) == 0);
    ENSURE(r == -1);
    ENSURE_MSG(strncmp(err, f.path, strlen(f.path)) == 0 && strstr(err, "ermission"), "%s", err);
    ENSURE(!exists(f.path) && !exists(f.tmp));
    cleanup(&f);
}


/* The compressed binary frame and the ASCII frame of the same state read back, through VTK's own
 * reader, to the same points, polygons and arrays, value for value; all eleven cell arrays and the
 * point velocities are there. */
void test_vtp_compressed_equals_ascii(void)
{
    Fixture f;
    fixture(&f);
    char err[512], cmd[4096], a[128], b[128], da[128], db[128];
    snprintf(a, sizeof a, "%s/a.vtp", f.dir); snprintf(b, sizeof b, "%s/b.vtp", f.dir);
    snprintf(da, sizeof da, "%s/a.txt", f.dir); snprintf(db, sizeof db, "%s/b.txt", f.dir);
    ENSURE_MSG(vtp_write(a, &f.e, &(VtpOptions){ .ascii = 1, .ka = 10, .neighbors = f.neighbors }, err, sizeof err) == 0, "%s", err);
    ENSURE_MSG(vtp_write(b, &f.e, &(VtpOptions){ .ascii = 0, .ka = 10, .neighbors = f.neighbors }, err, sizeof err) == 0, "%s", err);
    const char *arrays = "id,parent,generation,age,area,target_area,perimeter,pressure,neighbors,phase,rigid";
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_vtp.py %s --expect-polys 2 --expect-points 8 --arrays %s "
             "--expect-time 0.25 --dump %s > /dev/null 2>&1", a, arrays, da);
    int st = fx_sh(cmd);
    if (st == 77 || st == 127) { snprintf(cmd, sizeof cmd, "rm -rf %s", f.dir); ENSURE(fx_sh(cmd) == 0); SKIP("python3-vtk9 missing: apt-get install python3-vtk9"); }
    ENSURE_MSG(st == 0, "VTK rejected the ASCII frame");
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_vtp.py %s --expect-polys 2 --expect-points 8 --arrays %s "
             "--expect-time 0.25 --dump %s > /dev/null 2>&1", b, arrays, db);
    ENSURE_MSG(fx_sh(cmd) == 0, "VTK rejected the compressed frame");
    snprintf(cmd, sizeof cmd, "cmp -s %s %s && grep -q 'point velocity double' %s && grep -q 'cell id .* \\[7.0, 12.0\\]' %s && "
             "grep -q 'cell parent .* \\[3.0, -1.0\\]' %s && grep -q 'cell generation .* \\[2.0, 0.0\\]' %s && "
             "grep -q 'cell age .* \\[0.2, 0.25\\]' %s", da, db, da, da, da, da, da);
    ENSURE_MSG(fx_sh(cmd) == 0, "the two frames read back differently (%s, %s)", da, db);
    struct stat sa, sb;
    ENSURE(stat(a, &sa) == 0 && stat(b, &sb) == 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", f.dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* The .pvd collection lists every frame with its time. */
void test_vtp_collection_lists_frames(void)
{
    char dir[] = "/tmp/ph_test_pvd_XXXXXX", err[512], path[128], cmd[256];
    ENSURE(mkdtemp(dir));
    double t[3] = { 0, 0.1, 0.2 };
    ENSURE_MSG(vtp_write_collection(dir, VTP_FRAMES, 3, NULL, t, err, sizeof err) == 0, "%s", err);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *s = slurp(path);
    ENSURE(strstr(s, "type=\"Collection\""));
    ENSURE(strstr(s, "timestep=\"0\" part=\"0\" file=\"frame000000.vtp\""));
    ENSURE(strstr(s, "timestep=\"0.10000000000000001\" part=\"0\" file=\"frame000001.vtp\""));
    ENSURE(strstr(s, "timestep=\"0.20000000000000001\" part=\"0\" file=\"frame000002.vtp\""));
    ENSURE(!strstr(s, "frame000003"));
    free(s);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* A frame large enough that the per-vertex arrays are compressed and written in several batches
 * (100,800 vertices: points and velocity 2.4 MB each, 74 blocks of 32 KiB, batches of 64): VTK
 * reads back the same values from the compressed frame as from the ASCII one, and the compressed
 * bytes are the same at 1 and 2 threads. */
void test_vtp_large_frame_in_batches(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    uint64_t st = 5;
    for (int p = 0; p < 2100; p++) fx_add_ngon(&e, 48, 0.5, (p % 50) * 1.1, (p / 50) * 1.1, 0.01 * p);
    for (int i = 0; i < e.nv_used; i++) { e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1); }
    e.t = 1.5;
    char dir[] = "/tmp/ph_test_vtp_XXXXXX", a[96], b[96], b1[96], da[96], db[96], err[512], cmd[1024];
    ENSURE(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/a.vtp", dir); snprintf(b, sizeof b, "%s/b.vtp", dir); snprintf(b1, sizeof b1, "%s/b1.vtp", dir);
    snprintf(da, sizeof da, "%s/a.txt", dir); snprintf(db, sizeof db, "%s/b.txt", dir);
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    ENSURE_MSG(vtp_write(b1, &e, &(VtpOptions){ .ascii = 0, .ka = 1 }, err, sizeof err) == 0, "%s", err);
    omp_set_num_threads(2);
    ENSURE_MSG(vtp_write(b, &e, &(VtpOptions){ .ascii = 0, .ka = 1 }, err, sizeof err) == 0, "%s", err);
    omp_set_num_threads(threads);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", b, b1);
    ENSURE_MSG(fx_sh(cmd) == 0, "the compressed frame differs between 1 and 2 threads");
    ENSURE_MSG(vtp_write(a, &e, &(VtpOptions){ .ascii = 1, .ka = 1 }, err, sizeof err) == 0, "%s", err);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_vtp.py %s --expect-points 100800 --expect-polys 2100 "
             "--expect-time 1.5 --dump %s > /dev/null 2>&1", a, da);
    int s = fx_sh(cmd);
    if (s == 77 || s == 127) { snprintf(cmd, sizeof cmd, "rm -rf %s", dir); ENSURE(fx_sh(cmd) == 0); ensemble_free(&e); SKIP("python3-vtk9 missing: apt-get install python3-vtk9"); }
    ENSURE_MSG(s == 0, "VTK rejected the ASCII frame");
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_vtp.py %s --expect-points 100800 --expect-polys 2100 "
             "--expect-time 1.5 --dump %s > /dev/null 2>&1 && cmp -s %s %s", b, db, da, db);
    ENSURE_MSG(fx_sh(cmd) == 0, "VTK read the compressed frame differently from the ASCII one (%s)", dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
    ensemble_free(&e);
}

void test_vtp_disk_full_compressed(void) { expect_disk_full(0); }

/* An ensemble with no polygon left (all removed) still gives a frame that VTK reads: empty arrays. */
void test_vtp_empty_frame(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    e.t = 2.0;
    char dir[] = "/tmp/ph_test_vtp_XXXXXX", path[96], err[512], cmd[512];
    ENSURE(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/empty.vtp", dir);
    ENSURE_MSG(vtp_write(path, &e, &(VtpOptions){ .ascii = 0, .ka = 1 }, err, sizeof err) == 0, "%s", err);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_vtp.py %s --expect-points 0 --expect-polys 0 --expect-time 2 > /dev/null 2>&1", path);
    int s = fx_sh(cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
    ensemble_free(&e);
    if (s == 77 || s == 127) SKIP("python3-vtk9 missing: apt-get install python3-vtk9");
    ENSURE_MSG(s == 0, "VTK rejected the empty frame");
}

/* VTP_CELL_ARRAY_LIST and its users agree: the frame's CellData holds exactly the listed arrays,
 * in list order, each with the values vtp_cell_values gives (--png-color's values), and
 * vtp_cell_array_list names them all. */
void test_vtp_cell_arrays_complete(void)
{
    Fixture f;
    fixture(&f);
    const VtpOptions opt = { .ascii = 1, .ka = 3, .neighbors = f.neighbors, .types = 1 };   /* (types: every array) */
    f.type[1] = 1;
    char err[512] = "", list[1024] = "";
    ENSURE_MSG(vtp_write(f.path, &f.e, &opt, err, sizeof err) == 0, "%s", err);
    char *text = slurp(f.path);
    cleanup(&f);
    char *s = strstr(text, "<CellData"), *end = strstr(text, "</CellData>");
    ENSURE(s && end);
    int k = 0;
    for (s = strstr(s, "<DataArray"); s && s < end; s = strstr(s, "<DataArray"), k++) {
        ENSURE_MSG(k < VTP_CELL_ARRAYS, "more cell arrays in the frame than the list's %d", VTP_CELL_ARRAYS);
        char name[64] = "";
        char *at = strstr(s, "Name=\"");
        ENSURE(at && sscanf(at + 6, "%63[^\"]", name) == 1);
        ENSURE_MSG(!strcmp(name, vtp_cell_arrays[k]), "cell array %d is %s in the frame, %s in the list", k, name, vtp_cell_arrays[k]);
        double want[2];
        ENSURE(vtp_cell_values(&f.e, &opt, name, want) == 0);
        s = strchr(s, '>') + 1;
        for (int p = 0; p < 2; p++) {
            char *stop;
            double v = strtod(s, &stop);
            ENSURE_MSG(stop > s && v == want[p], "%s of polygon %d: %.17g in the frame, %.17g from vtp_cell_values", name, p, v, want[p]);
            s = stop;
        }
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", name);
    }
    free(text);
    ENSURE_MSG(k == VTP_CELL_ARRAYS, "%d cell arrays in the frame, %d in the list", k, VTP_CELL_ARRAYS);
    ENSURE_MSG(!strcmp(list, vtp_cell_array_list()), "'%s' vs vtp_cell_array_list() '%s'", list, vtp_cell_array_list());
    double out[2];
    ENSURE(vtp_cell_values(&f.e, &opt, "bogus", out) == -1);
}

/* The cell array pressure is -ka (A - A0) with each polygon's own area stiffness: its cell
 * type's where the types have their own (polygon 1, type 1: ka 1e4), else the header's. */
void test_vtp_pressure_by_type(void)
{
    Fixture f;
    fixture(&f);
    cleanup(&f);
    f.type[1] = 1;
    const double type_ka[2] = { 3, 1e4 }, A[2] = { 1.0, 4.0 };   /* (the fixture's squares) */
    Params types[2] = { params_compiled, params_compiled };
    types[0].ka = type_ka[0], types[1].ka = type_ka[1];
    f.e.type_params = types;
    double got[2];
    ENSURE(vtp_cell_values(&f.e, &(VtpOptions){ .ka = 3 }, "pressure", got) == 0);
    for (int p = 0; p < 2; p++)
        ENSURE_MSG(fabs(got[p] + type_ka[p] * (A[p] - f.A0[p])) <= 1e-12 * type_ka[p], "polygon %d: pressure %.17g, want %.17g", p,
                   got[p], -type_ka[p] * (A[p] - f.A0[p]));
    f.e.type_params = NULL;
    ENSURE(vtp_cell_values(&f.e, &(VtpOptions){ .ka = 3 }, "pressure", got) == 0);
    ENSURE_MSG(fabs(got[1] + 3 * (A[1] - f.A0[1])) <= 1e-12, "without types' own: %.17g", got[1]);
}

/* Adding a frame to the collection gives the same file as writing it whole; a file that does not
 * end as the program left it (cut, or a link planted in its place) is not written into. */
void test_vtp_collection_append(void)
{
    char dir[] = "/tmp/ph_test_pvdadd_XXXXXX", err[512], path[128], cmd[512];
    ENSURE(mkdtemp(dir));
    double t[4] = { 0, 0.1, 0.2, 0.30000000000000004 };
    ENSURE_MSG(vtp_write_collection(dir, VTP_FRAMES, 4, NULL, t, err, sizeof err) == 0, "%s", err);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *whole = slurp(path);
    ENSURE_MSG(vtp_write_collection(dir, VTP_FRAMES, 2, NULL, t, err, sizeof err) == 0, "%s", err);
    for (int k = 2; k < 4; k++) ENSURE_MSG(vtp_append_collection(dir, VTP_FRAMES, k, t[k], err, sizeof err) == 0, "%s", err);
    char *added = slurp(path);
    ENSURE_MSG(!strcmp(whole, added), "appended:\n%s\nwhole:\n%s", added, whole);
    snprintf(cmd, sizeof cmd, "truncate -s -1 %s", path);
    ENSURE(system(cmd) == 0);
    ENSURE(vtp_append_collection(dir, VTP_FRAMES, 4, 0.4, err, sizeof err) == -1 && strstr(err, "cannot add the frame"));
    char *cut = slurp(path);
    ENSURE(strlen(cut) + 1 == strlen(whole) && !strstr(cut, "frame000004"));
    snprintf(cmd, sizeof cmd, "echo keep > %s/target && rm %s && ln -s %s/target %s", dir, path, dir, path);
    ENSURE(system(cmd) == 0);
    ENSURE(vtp_append_collection(dir, VTP_FRAMES, 4, 0.4, err, sizeof err) == -1);
    char *target = NULL;
    snprintf(path, sizeof path, "%s/target", dir);
    target = slurp(path);
    ENSURE(!strcmp(target, "keep\n"));
    free(whole); free(added); free(cut); free(target);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(system(cmd) == 0);
}

/* Names with XML's markup characters (a species named a<"b">&c', the header's text in the
 * comment): the .vti frames, ASCII and binary (up to the appended data, which is raw bytes), and
 * the .vtp frame parse as XML (python3's xml.etree), the arrays' Name and the Scalars attribute
 * read back as the names themselves. */
void test_vtp_names_escaped(void)
{
    Fixture f;
    fixture(&f);
    static const char *const names[2] = { "a<\"b\">&c'", "d e" };
    const double c[4] = { 1, 2, 3, 4 }, *data[2] = { c, c };
    const char *meta = "species 0 (a<\"b\">&c'): D_in = 1";
    char err[512], a[128], b[128], cmd[2048];
    snprintf(a, sizeof a, "%s/a.vti", f.dir);
    snprintf(b, sizeof b, "%s/b.vti", f.dir);
    for (int ascii = 0; ascii < 2; ascii++) {
        VtpImage im = { 2, 2, 2, ascii, 0, 0, 1, 0.5, names, data, meta };
        ENSURE_MSG(vtp_write_image(ascii ? a : b, &im, err, sizeof err) == 0, "%s", err);
    }
    ENSURE_MSG(vtp_write(f.path, &f.e, &(VtpOptions){ .ascii = 1, .ka = 1, .neighbors = f.neighbors, .meta = meta }, err,
                         sizeof err) == 0, "%s", err);
    snprintf(cmd, sizeof cmd, "command -v python3 > /dev/null || exit 77; python3 - %s %s %s <<'PY'\n"
             "import sys, xml.etree.ElementTree as ET\n"
             "want = ['a<\"b\">&c\\'', 'd e']\n"
             "for path in sys.argv[1:3]:\n"
             "    text = open(path, 'rb').read()\n"
             "    cut = text.find(b'<AppendedData')\n"
             "    if cut >= 0: text = text[:cut] + b'</VTKFile>'\n"
             "    root = ET.fromstring(text)\n"
             "    got = [d.get('Name') for d in root.iter('DataArray')][1:]\n"
             "    assert got == want, (path, got)\n"
             "    assert root.find('.//PointData').get('Scalars') == want[0], path\n"
             "ET.parse(sys.argv[3])\n"
             "assert 'species 0 (a<\"b\">&c\\'): D_in = 1' in open(sys.argv[3]).read()\n"
             "PY", a, b, f.path);
    int st = fx_sh(cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", f.dir);
    ENSURE(fx_sh(cmd) == 0);
    if (st == 77 || st == 127) SKIP("needs python3");
    ENSURE_MSG(st == 0, "a frame is not XML, or a name did not read back (python3's message above)");
}
