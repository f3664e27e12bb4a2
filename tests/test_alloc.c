/* Memory allocation: the runner is linked with --wrap for malloc, calloc and realloc (Makefile),
 * so these tests count the calls of our code; steps and divisions allocate only while their
 * buffers grow. */
#include "fixtures.h"
#include "geometry.h"
#include "harness.h"
#include "sim.h"
#include "topology.h"
#include <math.h>
#include <stdlib.h>

/* Every allocation of the modules and tests (not those inside libraries). */
static long allocations;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) { __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED); return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED); return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED); return __real_realloc(p, n); }

/* Steps allocate nothing once their buffers have grown: a growing, remodeling cluster whose
 * contact list is patched every few steps allocates only when a buffer must grow (by half or
 * more: a few dozen times in 600 steps while it grows), not every step. */
void test_alloc_steps_reuse_buffers(void)
{
    Params P = params_compiled;
    P.alpha_mu = 10; P.Amax_mu = INFINITY;   /* growing and remodeling, no divisions */
    static Sim s;
    sim_init(&s, &P, 3);
    uint64_t rng = 7;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) fx_add_moving_ngon(&s.e, 20, 0.9, 1.86 * c + 0.93 * (r % 2), 1.61 * r, 0.1 * c, &rng, 1);
    sim_draw_traits(&s);
    for (int k = 0; k < 300; k++) ENSURE(sim_step(&s) == 0);
    int64_t builds, patches0, patches, reuses;
    contact_counts(&s.contact, &builds, &patches0, &reuses);
    int nv0 = ensemble_vertex_count(&s.e);
    long before = __atomic_load_n(&allocations, __ATOMIC_RELAXED);
    for (int k = 0; k < 600; k++) ENSURE(sim_step(&s) == 0);
    long n = __atomic_load_n(&allocations, __ATOMIC_RELAXED) - before;
    contact_counts(&s.contact, &builds, &patches, &reuses);
    ENSURE_MSG(ensemble_vertex_count(&s.e) > nv0 + 36 && patches - patches0 > 100,
               "the cluster must grow and remodel: %d -> %d vertices, %lld patches", nv0, ensemble_vertex_count(&s.e), (long long)(patches - patches0));
    ENSURE_MSG(n <= 40, "%ld allocations in 600 steps", n);   /* (23 here; 650 when a step allocated) */
    sim_free(&s);
}

/* A division allocates nothing once the ensemble has room and the cut's work space has grown:
 * twenty 40-gons (ellipses 2 x 1, so the cut is clean) divided one after another with one work
 * space grow it once (twenty times when each division allocated its own). */
void test_alloc_divisions_reuse_work_space(void)
{
    Params P = params_compiled;
    Ensemble e;
    ensemble_init(&e, 1);
    for (int p = 0; p < 20; p++) {
        double x[40], y[40];
        for (int k = 0; k < 40; k++) { x[k] = 5.0 * p + 2 * cos(2 * PH_PI * k / 40); y[k] = sin(2 * PH_PI * k / 40); }
        ensemble_add_polygon(&e, 40, x, y, 1, 0);
    }
    ensemble_reserve(&e, 40 * 20, 20);
    TopologyWork w = { 0 };
    int done = 0;
    long before = __atomic_load_n(&allocations, __ATOMIC_RELAXED);
    for (int p = 0; p < 20; p++) done += topology_divide(&e, &P, &w, p) >= 0;
    long n = __atomic_load_n(&allocations, __ATOMIC_RELAXED) - before;
    ENSURE_MSG(done == 20 && e.np == 40, "%d of 20 polygons divided", done);
    ENSURE_MSG(n == 1, "%ld allocations in 20 divisions", n);
    topology_free(&w);
    ensemble_free(&e);
}
