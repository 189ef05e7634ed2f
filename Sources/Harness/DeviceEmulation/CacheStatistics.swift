import FieldtestGSL

/// Usage statistics of the offline cache over a run (SKY-R1 reporting: hits, misses, age of data at use,
/// and every use of expired data).
public struct CacheStatistics: Sendable, Equatable, Codable {
    /// Lookups answered with fresh data.
    public var hits: Int
    /// Lookups that found nothing usable: no entry, or an expired entry while online (the app refetches).
    public var misses: Int
    /// Lookups answered with expired data because the phone was offline.
    public var expiredUses: Int
    /// Age of the data at every use (hits and expired uses), seconds, in lookup order.
    public var agesAtUseSeconds: [Double]

    /// Empty statistics.
    public init() {
        hits = 0
        misses = 0
        expiredUses = 0
        agesAtUseSeconds = []
    }

    /// Total lookups.
    public var lookups: Int { hits + misses + expiredUses }

    /// Fraction of lookups answered with fresh data (0 when there were none).
    public var hitRate: Double { lookups > 0 ? Double(hits) / Double(lookups) : 0 }

    /// Largest age of data at use, seconds (0 when nothing was used).
    public var maximumAgeAtUseSeconds: Double { agesAtUseSeconds.max() ?? 0 }

    /// The p-quantile (0…1) of age at use, seconds, by linear interpolation between order statistics
    /// (Hyndman & Fan type 7, GSL's `Quantiles`); `nil` when nothing was used. O(n log n).
    public func ageAtUseQuantile(_ p: Double) -> Double? {
        Quantiles.quantile(sorted: agesAtUseSeconds.sorted(), probability: p)
    }
}
