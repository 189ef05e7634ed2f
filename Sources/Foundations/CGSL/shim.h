#ifndef FIELDTEST_CGSL_SHIM_H
#define FIELDTEST_CGSL_SHIM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_interp.h>
#include <gsl/gsl_spline.h>
#include <gsl/gsl_vector.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_blas.h>

/* Swift 6 strict concurrency rejects GSL's global type pointers, so they are
   reached through these accessors. */
static inline const gsl_rng_type *fieldtest_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_interp_type *fieldtest_interp_linear(void) { return gsl_interp_linear; }
static inline const gsl_interp_type *fieldtest_interp_cspline(void) { return gsl_interp_cspline; }
static inline const gsl_interp_type *fieldtest_interp_steffen(void) { return gsl_interp_steffen; }

/* Element access without touching the struct layouts from Swift. */
static inline double fieldtest_vector_get(const gsl_vector *v, size_t i) { return gsl_vector_get(v, i); }
static inline void fieldtest_vector_set(gsl_vector *v, size_t i, double x) { gsl_vector_set(v, i, x); }
static inline size_t fieldtest_vector_size(const gsl_vector *v) { return v->size; }
static inline void fieldtest_matrix_set(gsl_matrix *m, size_t i, size_t j, double x) { gsl_matrix_set(m, i, j, x); }

/* Bootstrap resampling of n equally weighted items: counts[i] becomes how often item i is drawn in n
   uniform draws with replacement (gsl_rng_uniform_int). In C because it runs 2,000 times per interval. */
static inline void fieldtest_resample_counts(const gsl_rng *r, size_t n, unsigned int *counts) {
    for (size_t i = 0; i < n; i++) counts[i] = 0;
    for (size_t i = 0; i < n; i++) counts[gsl_rng_uniform_int(r, n)]++;
}

#endif
