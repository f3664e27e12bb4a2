/* Random numbers: a counter-based stream. Draw k of seed s is splitmix64(s, k) (Steele, Lea &
 * Flood 2014), so the state is just (seed, number of draws): it is saved trivially and the same
 * seed gives the same numbers whatever the thread count (draws happen only in serial code).
 * The noise of parallel code instead draws keyed numbers: a function of (seed, step, polygon
 * id, index, purpose) alone, so no state, no order and no thread count can change them. */
#ifndef PH_RNG_H
#define PH_RNG_H
#include <math.h>
#include <stdint.h>

static inline uint64_t rng_u64(uint64_t seed, uint64_t *draws)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ull * ++*draws;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* uniform in (0, 1) */
static inline double rng_uniform(uint64_t seed, uint64_t *draws)
{
    return ((double)(rng_u64(seed, draws) >> 11) + 0.5) * 0x1.0p-53;
}

/* standard normal (Box-Muller, one value per two draws) */
static inline double rng_normal(uint64_t seed, uint64_t *draws)
{
    double u = rng_uniform(seed, draws), v = rng_uniform(seed, draws);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* lognormal with the given mean and coefficient of variation; cv = 0 gives the mean exactly */
static inline double rng_lognormal(uint64_t seed, uint64_t *draws, double mean, double cv)
{
    if (cv == 0) return mean;
    double s2 = log1p(cv * cv);
    return mean * exp(sqrt(s2) * rng_normal(seed, draws) - 0.5 * s2);
}

/* the finaliser of splitmix64: a bijection of 64-bit words that mixes every bit into every bit */
static inline uint64_t rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* what a keyed number is for: one stream each */
enum { RNG_VERTEX_NOISE = 1, RNG_POLARITY = 2, RNG_POLARITY0 = 3, RNG_DIVISION = 4, RNG_DEATH = 5,
       RNG_CELL = 6 };

/* The keyed word of (seed, step, polygon id, index k, purpose), and a uniform in (0, 1) from it. */
static inline uint64_t rng_keyed(uint64_t seed, int64_t step, int64_t id, int k, int purpose)
{
    uint64_t z = rng_mix(seed + 0x9e3779b97f4a7c15ull);
    z = rng_mix(z ^ (uint64_t)step);
    z = rng_mix(z ^ (uint64_t)id);
    return rng_mix(z ^ ((uint64_t)(uint32_t)k << 8 | (uint64_t)purpose));
}
static inline double rng_keyed_uniform(uint64_t seed, int64_t step, int64_t id, int k, int purpose)
{
    return ((double)(rng_keyed(seed, step, id, k, purpose) >> 11) + 0.5) * 0x1.0p-53;
}

/* Two independent standard normals keyed as above (Box-Muller on two keyed uniforms). */
static inline void rng_keyed_normals(uint64_t seed, int64_t step, int64_t id, int k, int purpose,
                                     double *a, double *b)
{
    uint64_t z = rng_keyed(seed, step, id, k, purpose), w = rng_mix(z + 0x9e3779b97f4a7c15ull);
    double u = ((double)(z >> 11) + 0.5) * 0x1.0p-53, v = ((double)(w >> 11) + 0.5) * 0x1.0p-53,
           r = sqrt(-2 * log(u));
    *a = r * cos(6.283185307179586 * v);
    *b = r * sin(6.283185307179586 * v);
}

#endif
