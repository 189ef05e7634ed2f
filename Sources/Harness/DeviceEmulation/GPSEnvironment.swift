import Foundation

/// Error, outlier and dropout parameters of phone GPS in one kind of surroundings.
///
/// Horizontal error is modelled per axis (east, north) as a first-order Gauss–Markov process with standard
/// deviation σ and correlation time τ, so the radial error at any instant is Rayleigh distributed with
/// median 1.1774 σ and 95th percentile 2.4477 σ. Values and sources:
/// - `openSky`: median 5 m (σ 4.25 m). GPS-enabled smartphones are "typically accurate to within a 4.9 m
///   radius under open sky" (gps.gov, citing van Diggelen & Enge, ION GNSS+ 2015); the signal-in-space error
///   itself is smaller (FAA William J. Hughes Technical Center, GPS SPS Performance Analysis Reports: 95 %
///   horizontal errors of a few metres), so the phone's antenna and multipath dominate.
/// - `urban`: median 10 m (σ 8.5 m), within the 7–13 m urban medians measured for assisted, high-sensitivity
///   phone GPS by Zandbergen & Barbeau, J. Navigation 64(3):381–399 (2011).
/// - `indoor`: median 25 m (σ 21 m), unavailable 60 % of the time in outages of about a minute; the same study
///   found indoor fixes degraded to tens of metres and frequently absent.
/// Outliers (multipath, wrong fixes) replace the error by a distance drawn uniformly in the outlier range in a
/// uniformly random direction. Correlation time τ = 30 s follows the tens-of-seconds to minutes correlation
/// of GPS position errors reported in GNSS textbooks (e.g. Groves, "Principles of GNSS, Inertial, and
/// Multisensor Integrated Navigation Systems", 2nd ed., 2013, §9.4). The outlier and outage rates are
/// modelling assumptions of this project, stated here so they can be changed.
public struct GPSEnvironment: Sendable, Equatable, Codable {
    /// Name used in scenario files ("open-sky", "urban", "indoor").
    public var name: String
    /// Per-axis standard deviation of horizontal error, metres.
    public var errorSigmaMetres: Double
    /// Correlation time of the error, seconds (> 0).
    public var correlationTimeSeconds: Double
    /// Probability that a fix is an outlier, in [0, 1].
    public var outlierProbability: Double
    /// Smallest outlier error, metres.
    public var outlierMinimumMetres: Double
    /// Largest outlier error, metres.
    public var outlierMaximumMetres: Double
    /// Long-run fraction of time without a fix, in [0, 1).
    public var unavailableFraction: Double
    /// Mean duration of an outage, seconds (> 0).
    public var meanOutageSeconds: Double

    /// Creates an environment; distances in metres, times in seconds, probabilities in [0, 1].
    public init(
        name: String,
        errorSigmaMetres: Double,
        correlationTimeSeconds: Double,
        outlierProbability: Double,
        outlierMinimumMetres: Double,
        outlierMaximumMetres: Double,
        unavailableFraction: Double,
        meanOutageSeconds: Double
    ) {
        self.name = name
        self.errorSigmaMetres = errorSigmaMetres
        self.correlationTimeSeconds = correlationTimeSeconds
        self.outlierProbability = outlierProbability
        self.outlierMinimumMetres = outlierMinimumMetres
        self.outlierMaximumMetres = outlierMaximumMetres
        self.unavailableFraction = unavailableFraction
        self.meanOutageSeconds = meanOutageSeconds
    }

    /// Median radial error of the non-outlier fixes, metres (Rayleigh: σ √(2 ln 2)).
    public var medianErrorMetres: Double { errorSigmaMetres * (2 * log(2.0)).squareRoot() }

    /// The accuracy a phone reports (Android `Location.getAccuracy`: radius of 68 % confidence), metres:
    /// σ √(−2 ln 0.32) for a Rayleigh radial error.
    public var reportedAccuracyMetres: Double { errorSigmaMetres * (-2 * log(0.32)).squareRoot() }

    /// Checks every field; throws `.invalidParameter` naming the field.
    public func validate() throws(DeviceEmulationError) {
        try DeviceEmulationError.requireNonNegative(errorSigmaMetres, "\(name) errorSigmaMetres")
        try DeviceEmulationError.requirePositive(correlationTimeSeconds, "\(name) correlationTimeSeconds")
        try DeviceEmulationError.requireProbability(outlierProbability, "\(name) outlierProbability")
        try DeviceEmulationError.requireNonNegative(outlierMinimumMetres, "\(name) outlierMinimumMetres")
        guard outlierMaximumMetres.isFinite, outlierMaximumMetres >= outlierMinimumMetres else {
            throw .invalidParameter(
                name: "\(name) outlierMaximumMetres", value: outlierMaximumMetres,
                expected: "a finite distance >= outlierMinimumMetres")
        }
        guard unavailableFraction.isFinite, unavailableFraction >= 0, unavailableFraction < 1 else {
            throw .invalidParameter(
                name: "\(name) unavailableFraction", value: unavailableFraction, expected: "a fraction in [0, 1)")
        }
        try DeviceEmulationError.requirePositive(meanOutageSeconds, "\(name) meanOutageSeconds")
    }

    /// Open sky: median error 5 m, 0.2 % outliers of 30–100 m, 1 % of time unavailable (5 s outages).
    public static let openSky = GPSEnvironment(
        name: "open-sky", errorSigmaMetres: 4.25, correlationTimeSeconds: 30,
        outlierProbability: 0.002, outlierMinimumMetres: 30, outlierMaximumMetres: 100,
        unavailableFraction: 0.01, meanOutageSeconds: 5)

    /// Urban canyon: median error 10 m, 2 % outliers of 30–150 m, 5 % unavailable (10 s outages).
    public static let urban = GPSEnvironment(
        name: "urban", errorSigmaMetres: 8.5, correlationTimeSeconds: 30,
        outlierProbability: 0.02, outlierMinimumMetres: 30, outlierMaximumMetres: 150,
        unavailableFraction: 0.05, meanOutageSeconds: 10)

    /// Indoors: median error 25 m, 5 % outliers of 50–200 m, 60 % unavailable (60 s outages).
    public static let indoor = GPSEnvironment(
        name: "indoor", errorSigmaMetres: 21, correlationTimeSeconds: 30,
        outlierProbability: 0.05, outlierMinimumMetres: 50, outlierMaximumMetres: 200,
        unavailableFraction: 0.60, meanOutageSeconds: 60)

    /// All built-in environments.
    public static let all: [GPSEnvironment] = [.openSky, .urban, .indoor]

    /// The built-in environment called `name` (case-insensitive); throws `.unknownEnvironment` otherwise.
    public static func named(_ name: String) throws(DeviceEmulationError) -> GPSEnvironment {
        guard let environment = all.first(where: { $0.name == name.lowercased() }) else {
            throw .unknownEnvironment(name: name, known: all.map(\.name))
        }
        return environment
    }
}
