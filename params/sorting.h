/* Cell sorting by differential adhesion (Steinberg; docs/model.md 11): 120 cells of two types,
 * mixed at random in a rigid box (scripts/make_inputs.py sorting), adhere only to cells of their
 * own type (the adhesion matrix: kh within a type, none between types) and crawl about
 * (self-propulsion v0 along a polarity that turns at random, Dr). Contacts between unlike cells
 * break and those between like cells hold, so the types gather into domains: the share of each
 * cell's neighbours that have its type (observables.csv, homotypic) rises from 1/2 (mixed). */
#include "default.h"
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_Nr
#define P_Nr        4         /* rigid walls */
#undef P_v0
#define P_v0        0.5       /* [L/T]   self-propulsion */
#undef P_Dr
#define P_Dr        1.0       /* [1/T]   rotational diffusion of the polarity */
#undef P_Nf
#define P_Nf        100       /* frames after the initial one (t = 10) */
#undef P_ntypes
#define P_ntypes    2
#define P_TYPE_kh   { { 1e6, 0.0 }, { 0.0, 1e6 } }   /* [1/T^2] adhesion within a type only */
