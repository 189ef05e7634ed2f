import CGSL

/// Draws from continuous and discrete distributions (GSL `gsl_ran_*`).
///
/// All draws consume this stream and are deterministic for a given seed. Each draw is O(1) expected
/// time except `poisson`, which is O(log mean) expected (GSL's gamma/binomial reduction for large means).
extension RandomStream {
    /// A normal deviate with the given mean and standard deviation (same unit as the arguments).
    /// Method: Marsaglia–Tsang ziggurat (`gsl_ran_gaussian_ziggurat`).
    /// A negative `standardDeviation` behaves like its absolute value (the distribution is symmetric).
    public func gaussian(mean: Double = 0, standardDeviation: Double) -> Double {
        mean + gsl_ran_gaussian_ziggurat(generator, standardDeviation)
    }

    /// A log-normal deviate exp(N(mu, sigma²)) (`gsl_ran_lognormal`); `mu` and `sigma` are the mean and
    /// standard deviation of the underlying normal (natural log). Mean of the result: exp(mu + sigma²/2).
    public func logNormal(mu: Double, sigma: Double) -> Double {
        gsl_ran_lognormal(generator, mu, sigma)
    }

    /// A Poisson count with the given mean (`gsl_ran_poisson`).
    /// A mean that is ≤ 0, NaN or infinite returns 0 (no events); means above 2³¹ are clamped to 2³¹
    /// so the result always fits GSL's `unsigned int`.
    public func poisson(mean: Double) -> Int {
        guard mean > 0, mean.isFinite else { return 0 }
        return Int(gsl_ran_poisson(generator, min(mean, 2_147_483_648.0)))
    }

    /// An exponential deviate with the given mean (= 1/rate; e.g. seconds between events)
    /// (`gsl_ran_exponential`).
    public func exponential(mean: Double) -> Double {
        gsl_ran_exponential(generator, mean)
    }

    /// `true` with the given probability (`gsl_ran_bernoulli`: one uniform draw u, `true` when u < p).
    /// Always consumes exactly one draw; probabilities ≤ 0 (or NaN) give `false`, ≥ 1 give `true`.
    public func bernoulli(probability: Double) -> Bool {
        gsl_ran_bernoulli(generator, probability) == 1
    }
}
