/* The frame writer. The per-polygon arrays are gathered and compressed into small buffers; the
 * per-vertex arrays (points, velocity, connectivity) are generated, compressed and written a batch
 * of blocks at a time, so that a frame needs 0.5 MB per thread whatever its size. The file is
 * written atomically (a .tmp file, synced, then renamed). Layout of a frame, one Piece:
 *   FieldData  TIME (simulated time, so ParaView shows it instead of the frame index)
 *   CellData   per polygon, in polygon order
 *   PointData  velocity of every vertex
 *   Points     x y z of every polygon's vertices in polygon order (gaps skipped); z = (phase+1)/2
 *   Polys      connectivity (0..N-1 in that order) and offsets
 * ASCII numbers are printed with %.17g (exact round trip, C locale). Binary data are appended raw
 * after the XML, each array zlib-compressed in blocks of 32 KiB behind VTK's header of UInt64s
 * (number of blocks, block size, size of the last partial block or 0, compressed block sizes).
 * Nothing depends on the wall clock, so the same state always gives the same bytes. */
#define _POSIX_C_SOURCE 200809L
#include "vtp.h"
#include "atomic.h"
#include "geometry.h"
#include "params.h"   /* (a cell type's ka, for the pressure) */
#include "text.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <zlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* a growable byte buffer; `bad` keeps the first failure (out of memory) */
typedef struct { char *p; size_t n, cap; int bad; } Buf;

static void put(Buf *b, const void *data, size_t n)
{
    if (b->bad) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->n + n) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) { b->bad = ENOMEM; return; }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void putf(Buf *b, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) { b->bad = EINVAL; return; }
    if ((size_t)n < sizeof small) { put(b, small, (size_t)n); return; }
    char *big = malloc((size_t)n + 1);
    if (!big) { b->bad = ENOMEM; return; }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    put(b, big, (size_t)n);
    free(big);
}

/* XML forbids "--" inside a comment, and bytes that are not UTF-8 or are control characters
 * other than tab and newline: those are written as "\xHH", as in messages (text.h) */
static void put_comment(Buf *b, const char *s)
{
    putf(b, "<!-- ");
    for (const unsigned char *c = (const unsigned char *)s; *c; ) {
        int n = text_char_length(c, 1);
        if (n == 0) {   /* not UTF-8, a control byte or a backslash: "\xE9" */
            putf(b, "\\x%02X", *c++);
            continue;
        }
        if (c[0] == '-' && c > (const unsigned char *)s && c[-1] == '-') put(b, " ", 1);
        put(b, (const char *)c, (size_t)n);
        c += n;
    }
    putf(b, " -->\n");
}

/* An attribute's value between its quotes: XML's markup characters as entities, so that a name
 * such as a<"b">&c reads back as itself; tab, newline and carriage return as character
 * references (a parser would read them as spaces); other control bytes and bytes that are not
 * UTF-8, which XML cannot hold at all, and backslashes as "\xHH", as put_comment does */
static void put_attr(Buf *b, const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; ) {
        const char *ent = *c == '&'  ? "&amp;"
                        : *c == '<'  ? "&lt;"
                        : *c == '>'  ? "&gt;"
                        : *c == '"'  ? "&quot;"
                        : *c == '\'' ? "&apos;"
                        : *c == '\t' ? "&#9;"
                        : *c == '\n' ? "&#10;"
                        : *c == '\r' ? "&#13;" : NULL;
        int n = ent ? 1 : text_char_length(c, 0);
        if (ent) putf(b, "%s", ent);
        else if (n == 0) putf(b, "\\x%02X", *c), n = 1;
        else put(b, (const char *)c, (size_t)n);
        c += n;
    }
}

/* the VTK types of the arrays, and the C type of each (vtk_<type>) */
enum { Float64, Int64, Int32, UInt8 };
static const char *const type_name[] = { "Float64", "Int64", "Int32", "UInt8" };
static const size_t type_size[] = { 8, 8, 4, 1 };
typedef double vtk_Float64;
typedef int64_t vtk_Int64;
typedef int32_t vtk_Int32;
typedef uint8_t vtk_UInt8;

/* An array of the frame. Its bytes are those at `data`, or, for the per-vertex arrays (vertex =
 * 1, 2 or 3: points, velocity, connectivity), generated in polygon order from the Ensemble at
 * `data`. */
typedef struct {
    const char *name;
    int type, ncomp;
    size_t count;
    const void *data;
    int vertex;
    int omit;   /* 1: not written (the cell array type of a one-type build) */
} Array;

/* Reads the next bytes of an array into out (at most room): whole tuples for generated arrays.
 * The cursor (polygon p, slot i, bytes done) starts at zero. */
typedef struct { const Array *a; int p, i; size_t done; } Cursor;

static size_t cursor_read(Cursor *c, unsigned char *out, size_t room)
{
    const Array *a = c->a;
    size_t n = 0, total = a->count * (size_t)a->ncomp * type_size[a->type];
    if (!a->vertex) {
        n = total - c->done < room ? total - c->done : room;
        memcpy(out, (const unsigned char *)a->data + c->done, n);
        c->done += n;
        return n;
    }
    const Ensemble *e = a->data;
    size_t tuple = (size_t)a->ncomp * type_size[a->type];
    while (n + tuple <= room && c->p < e->np) {
        if (c->i >= e->start[c->p] + e->count[c->p]) {
            if (++c->p < e->np) c->i = e->start[c->p];
            continue;
        }
        int i = c->i++;
        if (a->vertex == 3) { int64_t k = (int64_t)(c->done / tuple); memcpy(out + n, &k, 8); }
        else {
            double v[3] = { e->x[i], e->y[i], (e->phase[c->p] + 1) / 2.0 };
            if (a->vertex == 2) { v[0] = e->vx[i]; v[1] = e->vy[i]; v[2] = 0; }
            memcpy(out + n, v, 24);
        }
        n += tuple;
        c->done += tuple;
    }
    return n;
}

static Cursor cursor_start(const Array *a)
{
    Cursor c = { a, 0, 0, 0 };
    const Ensemble *e = a->data;
    if (a->vertex && e->np > 0) c.i = e->start[0];
    return c;
}

static void put_ascii(Buf *b, const Array *a)
{
    unsigned char chunk[4080];   /* a multiple of every tuple size (1, 4, 8, 24 bytes) */
    size_t n, k = 0, size = type_size[a->type];
    Cursor c = cursor_start(a);
    while ((n = cursor_read(&c, chunk, sizeof chunk)) > 0)
        for (size_t o = 0; o < n; o += size, k++) {
            const char *sep = (k + 1) % (size_t)a->ncomp ? " " : "\n";
            double d; int64_t l; int32_t w;
            switch (a->type) {
            case Float64: memcpy(&d, chunk + o, 8); putf(b, "%.17g%s", d, sep); break;
            case Int64: memcpy(&l, chunk + o, 8); putf(b, "%lld%s", (long long)l, sep); break;
            case Int32: memcpy(&w, chunk + o, 4); putf(b, "%d%s", w, sep); break;
            default: putf(b, "%d%s", chunk[o], sep); break;
            }
        }
}

/* VTK's zlib layout (see the file comment), in blocks of BLOCK bytes; level 1, whose files are
 * within 1 % of level 6's here. Each thread keeps one deflate stream for the whole frame, reset
 * per block (cheaper than setting one up per small array). A batch of blocks of a per-vertex
 * array, BATCH per thread (8 at least), is generated, then compressed in parallel, then written,
 * so that a frame needs 0.5 MB per thread (and each thread's stream, 0.3 MB) whatever its size. */
enum { BLOCK = 32768, BATCH = 4 };

static size_t array_bytes(const Array *a)
{
    return a->count * (size_t)a->ncomp * type_size[a->type];
}

/* compresses n bytes into out (compressBound(BLOCK) of room); 0 if zlib fails */
static size_t deflate_block(z_stream *z, const unsigned char *in, size_t n, unsigned char *out)
{
    z->next_in = (unsigned char *)in; z->avail_in = (uInt)n;
    z->next_out = out; z->avail_out = (uInt)compressBound(BLOCK);
    if (deflateReset(z) != Z_OK || deflate(z, Z_FINISH) != Z_STREAM_END) return 0;
    return z->total_out;
}

/* appends the compressed array to `app` (the small per-polygon arrays) */
static void put_compressed(Buf *app, z_stream *z, const Array *a)
{
    const size_t size = array_bytes(a);
    uint64_t nb = (size + BLOCK - 1) / BLOCK, *head = calloc(3 + nb, sizeof *head);
    unsigned char *tmp = malloc(compressBound(BLOCK));
    if (!head || !tmp) { free(head); free(tmp); app->bad = ENOMEM; return; }
    head[0] = nb; head[1] = BLOCK; head[2] = size % BLOCK;
    size_t at = app->n;
    put(app, head, (3 + nb) * sizeof *head);   /* the sizes are filled in below */
    for (uint64_t k = 0; k < nb && !app->bad; k++) {
        size_t n = k + 1 < nb || !head[2] ? BLOCK : head[2];
        head[3 + k] = deflate_block(z, (const unsigned char *)a->data + k * BLOCK, n, tmp);
        if (!head[3 + k]) app->bad = ENOMEM;
        put(app, tmp, head[3 + k]);
    }
    /* (little-endian hosts only: checked in vtp_write) */
    if (!app->bad) memcpy(app->p + at, head, (3 + nb) * sizeof *head);
    free(head);
    free(tmp);
}

/* Writes a per-vertex array to f, compressed, generating it batch by batch; zs has a stream per
 * thread. Returns the bytes written, or 0 with *bad set (an errno). */
static size_t stream_compressed(FILE *f, z_stream *zs, const Array *a, int *bad)
{
    int batch = BATCH;
#ifdef _OPENMP
    batch *= omp_get_max_threads();
#endif
    batch = batch < 8 ? 8 : batch;
    const size_t size = array_bytes(a), bound = compressBound(BLOCK),
                 room = (size_t)batch * BLOCK + 24;
    uint64_t nb = (size + BLOCK - 1) / BLOCK, *head = calloc(3 + nb, sizeof *head);
    unsigned char *raw = malloc(room), *packed = malloc((size_t)batch * bound);
    off_t at = ftello(f);
    if (at < 0) { *bad = errno ? errno : EIO; goto done; }
    if (!head || !raw || !packed) { *bad = ENOMEM; goto done; }
    head[0] = nb; head[1] = BLOCK; head[2] = size % BLOCK;
    size_t total = (3 + nb) * sizeof *head, have = 0;
    if (fwrite(head, 1, total, f) != total) {   /* (the sizes are filled in below) */
        *bad = errno ? errno : EIO;
        goto done;
    }
    Cursor c = cursor_start(a);
    for (uint64_t k0 = 0; k0 < nb; k0 += (uint64_t)batch) {
        int kn = nb - k0 < (uint64_t)batch ? (int)(nb - k0) : batch, fails = 0;
        size_t need =
            size - k0 * BLOCK < (size_t)kn * BLOCK ? size - k0 * BLOCK : (size_t)kn * BLOCK;
        while (have < need) {
            size_t got = cursor_read(&c, raw + have, room - have);
            if (!got) break;
            have += got;
        }
        if (have < need) { *bad = EIO; goto done; }   /* (shorter than its count: a bug) */
        #pragma omp parallel for schedule(dynamic, 1) reduction(+ : fails)
        for (int j = 0; j < kn; j++) {
            int t = 0;
#ifdef _OPENMP
            t = omp_get_thread_num();
#endif
            size_t n = (size_t)(j + 1) * BLOCK <= need ? BLOCK : need - (size_t)j * BLOCK;
            head[3 + k0 + (uint64_t)j] =
                deflate_block(&zs[t], raw + (size_t)j * BLOCK, n, packed + (size_t)j * bound);
            fails += !head[3 + k0 + (uint64_t)j];
        }
        if (fails) { *bad = ENOMEM; goto done; }
        for (int j = 0; j < kn; j++) {
            size_t n = head[3 + k0 + (uint64_t)j];
            if (fwrite(packed + (size_t)j * bound, 1, n, f) != n) {
                *bad = errno ? errno : EIO;
                goto done;
            }
            total += n;
        }
        memmove(raw, raw + need, have - need);
        have -= need;
    }
    if (fseeko(f, at, SEEK_SET) != 0 ||
        fwrite(head, 1, (3 + nb) * sizeof *head, f) != (3 + nb) * sizeof *head ||
        fseeko(f, 0, SEEK_END) != 0)
        *bad = errno ? errno : EIO;
    else { free(head); free(raw); free(packed); return total; }
done:
    free(head); free(raw); free(packed);
    return 0;
}

/* the XML of an array: with its numbers (ascii), or pointing at its compressed bytes at `offset`
 * of the appended data */
static void put_array(Buf *b, size_t offset, const Array *a, int ascii)
{
    putf(b, "        <DataArray type=\"%s\" Name=\"", type_name[a->type]);
    put_attr(b, a->name);
    putf(b, "\"");
    if (a->ncomp > 1) putf(b, " NumberOfComponents=\"%d\"", a->ncomp);
    if (!strcmp(a->name, "TIME"))   /* (field data: no piece gives its size) */
        putf(b, " NumberOfTuples=\"1\"");
    if (ascii) {
        putf(b, " format=\"ascii\">\n");
        put_ascii(b, a);
        putf(b, "        </DataArray>\n");
    } else {
        putf(b, " format=\"appended\" offset=\"%zu\"/>\n", offset);
    }
}

static int fail(char *err, size_t errlen, const char *path, const char *why, int errnum)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s (%s)", TEXT_ESC(path), why, strerror(errnum));
    errno = errnum;   /* (for the caller's exit status: ENOMEM is out of memory, not output) */
    return -1;
}

#define NAME(name, type, value) #name,
const char *const vtp_cell_arrays[VTP_CELL_ARRAYS] = { VTP_CELL_ARRAY_LIST(NAME) };
#undef NAME

const char *vtp_cell_array_list(void)
{
#define NAME(name, type, value) ", " #name
    return &(VTP_CELL_ARRAY_LIST(NAME))[2];   /* (without the first ", ") */
#undef NAME
}

/* the index of each cell array in VTP_CELL_ARRAY_LIST, and its VTK type */
#define INDEX(name, type, value) CELL_##name,
enum { VTP_CELL_ARRAY_LIST(INDEX) };
#undef INDEX
#define TYPE(name, type, value) type,
static const int cell_type[VTP_CELL_ARRAYS] = { VTP_CELL_ARRAY_LIST(TYPE) };
#undef TYPE

int vtp_cell_array_integer(const char *name)
{
    for (int k = 0; k < VTP_CELL_ARRAYS; k++)
        if (!strcmp(name, vtp_cell_arrays[k])) return cell_type[k] != Float64;
    return 0;
}

/* Stores every cell array of polygon p at its slot p of col[k], in its own type: converted once,
 * from the list's expression to the array's type, as in the file. */
static void cell_store(const Ensemble *e, const VtpOptions *opt, int p, void *const *col)
{
    const double *x = e->x + e->start[p], *y = e->y + e->start[p];
    int n = e->count[p];
#define STORE(name, type, value) ((vtk_##type *)col[CELL_##name])[p] = (vtk_##type)(value);
    VTP_CELL_ARRAY_LIST(STORE)
#undef STORE
}

/* cell array k of polygon p, as a double */
static double cell_value(const Ensemble *e, const VtpOptions *opt, int p, int k)
{
    const double *x = e->x + e->start[p], *y = e->y + e->start[p];
    int n = e->count[p];
    switch (k) {
#define CASE(name, type, value) case CELL_##name: return (double)(vtk_##type)(value);
    VTP_CELL_ARRAY_LIST(CASE)
#undef CASE
    }
    return NAN;
}

int vtp_cell_values(const Ensemble *e, const VtpOptions *opt, const char *name, double *out)
{
    for (int k = 0; k < VTP_CELL_ARRAYS; k++)
        if (!strcmp(name, vtp_cell_arrays[k])) {
            for (int p = 0; p < e->np; p++) out[p] = cell_value(e, opt, p, k);
            return 0;
        }
    for (int k = 0; k < e->nvar; k++)   /* (a cell variable) */
        if (opt->var_name[k] && !strcmp(name, opt->var_name[k])) {
            for (int p = 0; p < e->np; p++) out[p] = e->var[(size_t)p * e->nvar + k];
            return 0;
        }
    return -1;
}

/* the arrays of a frame, in file order: TIME, the cell arrays, the cells' variables (as many as
 * the ensemble has), velocity, points, connectivity, offsets */
enum { CELLS = 1, VARS = CELLS + VTP_CELL_ARRAYS, VELOCITY = VARS + ENSEMBLE_MAX_VARS, POINTS,
       CONNECTIVITY, OFFSETS, NA };

/* The XML of a frame: with the numbers inline (ascii: at[] unused), or up to the start of the
 * appended data, the arrays at offsets at[] of it. */
static void put_xml(Buf *b, const Array *arr, const size_t *at, const char *meta, int ascii)
{
    putf(b, "<?xml version=\"1.0\"?>\n");
    if (meta) put_comment(b, meta);
    putf(b, "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
            "header_type=\"UInt64\"%s>\n"
            "  <PolyData>\n    <FieldData>\n",
         ascii ? "" : " compressor=\"vtkZLibDataCompressor\"");
    if (ascii)
        putf(b, "        <DataArray type=\"Float64\" Name=\"TIME\" NumberOfTuples=\"1\" "
                "format=\"ascii\">%.17g</DataArray>\n",
             *(const double *)arr[0].data);
    else put_array(b, at[0], &arr[0], 0);
    putf(b, "    </FieldData>\n    <Piece NumberOfPoints=\"%zu\" NumberOfPolys=\"%zu\">\n",
         arr[POINTS].count, arr[OFFSETS].count);
    putf(b, "      <CellData Scalars=\"area\">\n");
    for (int a = CELLS; a < VELOCITY; a++) if (!arr[a].omit) put_array(b, at[a], &arr[a], ascii);
    putf(b, "      </CellData>\n      <PointData Vectors=\"velocity\">\n");
    put_array(b, at[VELOCITY], &arr[VELOCITY], ascii);
    putf(b, "      </PointData>\n      <Points>\n");
    put_array(b, at[POINTS], &arr[POINTS], ascii);
    putf(b, "      </Points>\n      <Polys>\n");
    put_array(b, at[CONNECTIVITY], &arr[CONNECTIVITY], ascii);
    put_array(b, at[OFFSETS], &arr[OFFSETS], ascii);
    putf(b, "      </Polys>\n    </Piece>\n  </PolyData>\n");
    if (!ascii) putf(b, "  <AppendedData encoding=\"raw\">\n   _");
}

int vtp_write(const char *path, const Ensemble *e, const VtpOptions *opt, char *err, size_t errlen)
{
    const uint16_t one = 1;
    if (!opt->ascii && *(const uint8_t *)&one != 1)
        return fail(err, errlen, path, "binary output needs a little-endian host; use --ascii",
                    ENOTSUP);
    size_t np = (size_t)e->np, nv = 0;
    for (int p = 0; p < e->np; p++) nv += (size_t)e->count[p];
    /* gather the cell arrays (one buffer, each array aligned to 8 bytes) and the offsets; the
     * per-vertex arrays are generated while they are written */
    size_t at_col[VTP_CELL_ARRAYS + 1] = { 0 };
    for (int k = 0; k < VTP_CELL_ARRAYS; k++)
        at_col[k + 1] = at_col[k] + (np * type_size[cell_type[k]] + 7) / 8 * 8;
    const size_t nvar = (size_t)e->nvar;
    unsigned char *cells = malloc(at_col[VTP_CELL_ARRAYS] + (np + 1) * sizeof(int64_t) +
                                  np * nvar * sizeof(double));
    if (!cells) return fail(err, errlen, path, "out of memory", ENOMEM);
    void *col[VTP_CELL_ARRAYS];
    for (int k = 0; k < VTP_CELL_ARRAYS; k++) col[k] = cells + at_col[k];
    int64_t *offs = (int64_t *)(void *)(cells + at_col[VTP_CELL_ARRAYS]);
    double *vars = (double *)(void *)(offs + np + 1);   /* (variable by variable) */
    for (size_t p = 0; p < np; p++)
        for (size_t k = 0; k < nvar; k++) vars[k * np + p] = e->var[p * nvar + k];
    size_t k = 0;
    for (int p = 0; p < e->np; p++) {
        cell_store(e, opt, p, col);
        k += (size_t)e->count[p];
        offs[p] = (int64_t)k;
    }
    double t = e->t;
    /* every array in file order */
    Array arr[NA] = {
        [0] = { "TIME", Float64, 1, 1, &t, 0, 0 },
        [VELOCITY] = { "velocity", Float64, 3, nv, e, 2, 0 },
        [POINTS] = { "points", Float64, 3, nv, e, 1, 0 },
        [CONNECTIVITY] = { "connectivity", Int64, 1, nv, e, 3, 0 },
        [OFFSETS] = { "offsets", Int64, 1, np, offs, 0, 0 },
    };
    for (int c = 0; c < VTP_CELL_ARRAYS; c++)
        arr[CELLS + c] = (Array){ vtp_cell_arrays[c], cell_type[c], 1, np, col[c], 0, 0 };
    arr[CELLS + CELL_type].omit = !opt->types;
    for (int k = 0; k < ENSEMBLE_MAX_VARS; k++)
        arr[VARS + k] = (size_t)k < nvar ? (Array){ opt->var_name[k], Float64, 1, np, vars + k * np, 0, 0 }
                                         : (Array){ "", Float64, 1, 0, NULL, 0, 1 };
    if (opt->ascii) {   /* (the whole file in memory: ascii is for small cases and debugging) */
        Buf b = { 0 };
        size_t unused[NA] = { 0 };
        put_xml(&b, arr, unused, opt->meta, 1);
        const char *tail = "</VTKFile>\n";
        const void *part[2] = { b.p, tail };
        size_t size[2] = { b.n, strlen(tail) };
        free(cells);
        int r = b.bad ? fail(err, errlen, path, "cannot assemble the frame", b.bad)
                      : atomic_write(path, part, size, 2, 1, err, errlen);
        free(b.p);
        return r;
    }
    /* Binary. The per-polygon arrays are compressed first, each into its own buffer, in
     * parallel. The file starts with room for the XML with the largest offsets; then come the
     * appended arrays in order, the per-vertex ones compressed and written batch by batch; then
     * the XML with the true offsets goes at the start, padded with spaces to that room. The bytes
     * do not depend on the number of threads. */
    int nt = 1, bad = 0;
#ifdef _OPENMP
    nt = omp_get_max_threads();
#endif
    z_stream *zs = calloc((size_t)nt, sizeof *zs);
    Buf app[NA], x = { 0 };
    memset(app, 0, sizeof app);
    size_t at[NA] = { 0 }, most[NA];
    for (int t = 0; t < nt && zs; t++) bad |= deflateInit(&zs[t], 1) != Z_OK;
    if (!zs || bad) bad = ENOMEM;
    else {
        #pragma omp parallel for schedule(dynamic, 1)
        for (int a = 0; a < NA; a++) {
            int t = 0;
#ifdef _OPENMP
            t = omp_get_thread_num();
#endif
            if (!arr[a].vertex && !arr[a].omit) put_compressed(&app[a], &zs[t], &arr[a]);
        }
        for (int a = 0; a < NA; a++) if (app[a].bad && !bad) bad = app[a].bad;
    }
    free(cells);
    for (int a = 0; a < NA; a++) most[a] = SIZE_MAX;
    put_xml(&x, arr, most, opt->meta, 0);
    size_t room = x.n;
    FILE *f = bad || x.bad ? NULL : atomic_open(path, err, errlen);
    int r = -1;
    if (f) {
        if (fseeko(f, (off_t)room, SEEK_SET) != 0) bad = errno ? errno : EIO;
        size_t done = 0;
        for (int a = 0; a < NA && !bad; a++) {
            at[a] = done;
            if (arr[a].omit) continue;
            if (arr[a].vertex) done += stream_compressed(f, zs, &arr[a], &bad);
            else if (fwrite(app[a].p, 1, app[a].n, f) != app[a].n) bad = errno ? errno : EIO;
            else done += app[a].n;
        }
        const char *tail = "\n  </AppendedData>\n</VTKFile>\n";
        if (!bad && fputs(tail, f) == EOF) bad = errno ? errno : EIO;
        x.n = 0;
        put_xml(&x, arr, at, opt->meta, 0);
        if (x.bad && !bad) bad = x.bad;
        if (!bad) {
            /* (put_xml ends with the opener; the room is never smaller: the offsets only
             * shrink) */
            const char *opener = "  <AppendedData encoding=\"raw\">\n   _";
            char *open = x.p + x.n - strlen(opener);
            size_t pad = room - x.n, tl = x.n - (size_t)(open - x.p);
            if (fseeko(f, 0, SEEK_SET) != 0 ||
                fwrite(x.p, 1, (size_t)(open - x.p), f) != (size_t)(open - x.p))
                bad = errno ? errno : EIO;
            for (size_t k = 0; k < pad && !bad; k++)
                if (fputc(k + 1 < pad ? ' ' : '\n', f) == EOF) bad = errno ? errno : EIO;
            if (!bad && fwrite(open, 1, tl, f) != tl) bad = errno ? errno : EIO;
        }
        r = atomic_close(f, path, bad, 1, err, errlen);
    } else if (bad || x.bad)
        r = fail(err, errlen, path, "cannot assemble the frame", bad ? bad : x.bad);
    for (int t = 0; t < nt && zs; t++) deflateEnd(&zs[t]);
    free(zs);
    free(x.p);
    for (int a = 0; a < NA; a++) free(app[a].p);
    return r;
}

static const char PVD_END[] = "  </Collection>\n</VTKFile>\n";
#define PVD_ENTRY "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"frame%06d.%s\"/>\n"
static const char *const PVD_NAME[] = { [VTP_FRAMES] = "frames.pvd", [VTP_FIELDS] = "fields.pvd" };
static const char *const PVD_EXT[] = { [VTP_FRAMES] = "vtp", [VTP_FIELDS] = "vti" };

int vtp_write_collection(const char *dir, int which, int n, const int *frame, const double *t,
                         char *err, size_t errlen)
{
    Buf b = { 0 };
    putf(&b, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n"
             "  <Collection>\n");
    for (int k = 0; k < n; k++) putf(&b, PVD_ENTRY, t[k], frame ? frame[k] : k, PVD_EXT[which]);
    putf(&b, "%s", PVD_END);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, PVD_NAME[which]);
    /* atomic, but not synced: an index of the frames, rebuilt from them by every frame and
     * restart, whose fsync would cost more than the frames' compression */
    const void *part = b.p;
    int r = b.bad ? fail(err, errlen, path, "out of memory", b.bad)
                  : atomic_write(path, &part, &b.n, 1, 0, err, errlen);
    free(b.p);
    return r;
}

int vtp_append_collection(const char *dir, int which, int k, double t, char *err, size_t errlen)
{
    char path[4200], end[sizeof PVD_END];
    const long n = (long)sizeof PVD_END - 1;
    snprintf(path, sizeof path, "%s/%s", dir, PVD_NAME[which]);
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "r+") : NULL;
    if (!f) {
        int e = errno;
        if (fd >= 0) close(fd);
        return fail(err, errlen, path, "cannot open the collection", e);
    }
    /* the file must end as this program ends it: then the entry goes over that ending */
    int ok = fseek(f, -n, SEEK_END) == 0 && fread(end, 1, (size_t)n, f) == (size_t)n &&
             !memcmp(end, PVD_END, (size_t)n) && fseek(f, -n, SEEK_END) == 0 &&
             fprintf(f, PVD_ENTRY "%s", t, k, PVD_EXT[which], PVD_END) > 0;
    int e = ok ? 0 : errno ? errno : EIO;
    if (fclose(f) != 0 && ok) { ok = 0; e = errno ? errno : EIO; }
    return ok ? 0 : fail(err, errlen, path, "cannot add the frame to the collection", e);
}

/* ---- fields on a grid: VTK XML ImageData (.vti), and their collection ---- */

int vtp_write_image(const char *path, const VtpImage *im, char *err, size_t errlen)
{
    const uint16_t one = 1;
    if (!im->ascii && *(const uint8_t *)&one != 1)
        return fail(err, errlen, path, "binary output needs a little-endian host; use --ascii",
                    ENOTSUP);
    enum { MOST = 1 + 16 };
    if (im->narrays > MOST - 1) return fail(err, errlen, path, "too many arrays", EINVAL);
    double t = im->t;
    size_t nodes = (size_t)im->nx * im->ny;
    Array arr[MOST];
    int na = 1 + im->narrays;
    arr[0] = (Array){ "TIME", Float64, 1, 1, &t, 0, 0 };
    for (int a = 0; a < im->narrays; a++)
        arr[1 + a] = (Array){ im->names[a], Float64, 1, nodes, im->data[a], 0, 0 };
    Buf app[MOST], x = { 0 };
    memset(app, 0, sizeof app);
    size_t at[MOST] = { 0 };
    int bad = 0;
    if (!im->ascii) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit(&z, 1) != Z_OK) bad = ENOMEM;
        for (int a = 0; a < na && !bad; a++) {
            put_compressed(&app[a], &z, &arr[a]);
            bad = app[a].bad;
            if (a + 1 < na) at[a + 1] = at[a] + app[a].n;
        }
        deflateEnd(&z);
    }
    putf(&x, "<?xml version=\"1.0\"?>\n");
    if (im->meta) put_comment(&x, im->meta);
    putf(&x, "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
             "header_type=\"UInt64\"%s>\n"
             "  <ImageData WholeExtent=\"0 %d 0 %d 0 0\" Origin=\"%.17g %.17g 0\" "
             "Spacing=\"%.17g %.17g 1\">\n    <FieldData>\n",
         im->ascii ? "" : " compressor=\"vtkZLibDataCompressor\"", im->nx - 1, im->ny - 1, im->x0,
         im->y0, im->dx, im->dx);
    put_array(&x, at[0], &arr[0], im->ascii);
    putf(&x, "    </FieldData>\n    <Piece Extent=\"0 %d 0 %d 0 0\">\n      <PointData",
         im->nx - 1, im->ny - 1);
    if (na > 1) {
        putf(&x, " Scalars=\"");
        put_attr(&x, im->names[0]);
        putf(&x, "\"");
    }
    putf(&x, ">\n");
    for (int a = 1; a < na; a++) put_array(&x, at[a], &arr[a], im->ascii);
    putf(&x, "      </PointData>\n    </Piece>\n  </ImageData>\n");
    if (!im->ascii) putf(&x, "  <AppendedData encoding=\"raw\">\n   _");
    const char *tail = im->ascii ? "</VTKFile>\n" : "\n  </AppendedData>\n</VTKFile>\n";
    const void *part[MOST + 2];
    size_t size[MOST + 2];
    int n = 0;
    part[n] = x.p; size[n++] = x.n;
    for (int a = 0; a < na && !im->ascii; a++) { part[n] = app[a].p; size[n++] = app[a].n; }
    part[n] = tail; size[n++] = strlen(tail);
    if (x.bad && !bad) bad = x.bad;
    int r = bad ? fail(err, errlen, path, "cannot assemble the field frame", bad)
                : atomic_write(path, part, size, n, 1, err, errlen);
    free(x.p);
    for (int a = 0; a < na; a++) free(app[a].p);
    return r;
}
