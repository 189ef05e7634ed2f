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
#include <gsl/gsl_multifit_nlinear.h>

/* Swift 6 strict concurrency rejects GSL's global type pointers, so they are
   reached through these accessors. */
static inline const gsl_rng_type *fieldtest_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_interp_type *fieldtest_interp_linear(void) { return gsl_interp_linear; }
static inline const gsl_interp_type *fieldtest_interp_cspline(void) { return gsl_interp_cspline; }
static inline const gsl_interp_type *fieldtest_interp_steffen(void) { return gsl_interp_steffen; }
static inline const gsl_multifit_nlinear_type *fieldtest_nlinear_trust(void) { return gsl_multifit_nlinear_trust; }

#endif
