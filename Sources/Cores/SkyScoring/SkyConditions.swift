/// Weather relevant to sky colour at one instant or averaged over a window.
///
/// Every field is optional: sources carry different subsets (NOAA LCD has cloud layers,
/// TMY files total/opaque cloud, the Beijing file PM2.5). Percentages are 0…100.
public struct SkyConditions: Sendable, Equatable {
    /// Low cloud (bases below ≈2 km), % of sky.
    public var cloudLowPct: Double?
    /// Mid cloud (≈2–6 km), % of sky.
    public var cloudMidPct: Double?
    /// High cloud (above ≈6 km), % of sky.
    public var cloudHighPct: Double?
    /// Total cloud, % of sky (used only when the layers are unknown).
    public var cloudTotalPct: Double?
    /// Relative humidity, %.
    public var humidityPct: Double?
    /// Probability of precipitation, %.
    public var precipProbabilityPct: Double?
    /// Horizontal visibility, km.
    public var visibilityKm: Double?
    /// PM2.5 concentration, µg/m³.
    public var pm25: Double?

    /// Creates conditions; omitted fields are unknown.
    public init(
        cloudLowPct: Double? = nil, cloudMidPct: Double? = nil, cloudHighPct: Double? = nil,
        cloudTotalPct: Double? = nil, humidityPct: Double? = nil, precipProbabilityPct: Double? = nil,
        visibilityKm: Double? = nil, pm25: Double? = nil
    ) {
        self.cloudLowPct = cloudLowPct
        self.cloudMidPct = cloudMidPct
        self.cloudHighPct = cloudHighPct
        self.cloudTotalPct = cloudTotalPct
        self.humidityPct = humidityPct
        self.precipProbabilityPct = precipProbabilityPct
        self.visibilityKm = visibilityKm
        self.pm25 = pm25
    }

    /// Key paths of every field, in a fixed order (used for windowing and interpolation).
    public static var fields: [WritableKeyPath<SkyConditions, Double?>] {
        [
            \.cloudLowPct, \.cloudMidPct, \.cloudHighPct, \.cloudTotalPct, \.humidityPct, \.precipProbabilityPct,
            \.visibilityKm, \.pm25,
        ]
    }
}

/// Weather at a UTC instant.
public struct SkySample: Sendable, Equatable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var timeUTC: Double
    /// The conditions then.
    public var conditions: SkyConditions

    /// Creates a sample.
    public init(timeUTC: Double, conditions: SkyConditions) {
        self.timeUTC = timeUTC
        self.conditions = conditions
    }
}
