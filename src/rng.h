/* Random numbers: a counter-based stream. Draw k of seed s is splitmix64(s, k) (Steele, Lea &
 * Flood 2014), so the state is just (seed, number of draws): it is saved trivially and the same
 * seed gives the same numbers whatever the thread count (draws happen only in serial code). */
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

#endif
