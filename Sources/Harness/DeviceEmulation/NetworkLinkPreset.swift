import Foundation

/// Bandwidth, delay, jitter and loss of one emulated network link.
///
/// Presets follow the two tools developers use to throttle phones:
/// - Apple's Network Link Conditioner (Xcode "Additional Tools"), whose profiles give per-direction bandwidth,
///   one-way delay and packet loss: `edge` 240 / 200 kbit/s and 400 ms, `3g` 780 / 330 kbit/s and 100 ms,
///   `lte` 50 / 10 Mbit/s and 50 ms, `wifi` 40 / 33 Mbit/s and 1 ms, `very-bad-network` 1 Mbit/s both ways,
///   10 % loss (its delay is taken as 100 ms each way, per the project's issue), and `100%-loss`.
/// - The Android emulator's `-netspeed` / `-netdelay` tables (android/android-constants.c in the emulator's
///   QEMU tree, and its `-help-netspeed` text): `gsm` 14.4 / 14.4 kbit/s with 150–550 ms delay,
///   `hsdpa` 13 980 / 5 760 kbit/s (down / up) with no added delay.
/// The tools apply fixed delays; this model adds a log-normal jitter on top (`jitterMedianSeconds`,
/// `jitterSigma`), in line with the heavy right tail of measured mobile RTTs. For `gsm` the emulator's
/// 150–550 ms range becomes a 150 ms base plus jitter with a 200 ms median.
public struct NetworkLinkPreset: Sendable, Equatable, Codable {
    /// Preset name as written in scenario files (e.g. "3g").
    public var name: String
    /// Downlink (to the phone) bandwidth, kilobits per second (1 kbit = 1000 bit); `infinity` for no limit.
    public var downlinkKilobitsPerSecond: Double
    /// Uplink (from the phone) bandwidth, kilobits per second; `infinity` for no limit.
    public var uplinkKilobitsPerSecond: Double
    /// Fixed one-way delay towards the phone, seconds.
    public var downlinkDelaySeconds: Double
    /// Fixed one-way delay from the phone, seconds.
    public var uplinkDelaySeconds: Double
    /// Median of the log-normal jitter added to each round trip, seconds (0 for none).
    public var jitterMedianSeconds: Double
    /// Shape σ of the log-normal jitter (dimensionless; 0 makes the jitter its median exactly).
    public var jitterSigma: Double
    /// Probability that one message (the request, or the response) is lost, in [0, 1].
    public var lossProbability: Double

    /// Creates a preset; bandwidths in kbit/s, delays and jitter median in seconds, loss as a probability.
    public init(
        name: String,
        downlinkKilobitsPerSecond: Double,
        uplinkKilobitsPerSecond: Double,
        downlinkDelaySeconds: Double,
        uplinkDelaySeconds: Double,
        jitterMedianSeconds: Double,
        jitterSigma: Double,
        lossProbability: Double
    ) {
        self.name = name
        self.downlinkKilobitsPerSecond = downlinkKilobitsPerSecond
        self.uplinkKilobitsPerSecond = uplinkKilobitsPerSecond
        self.downlinkDelaySeconds = downlinkDelaySeconds
        self.uplinkDelaySeconds = uplinkDelaySeconds
        self.jitterMedianSeconds = jitterMedianSeconds
        self.jitterSigma = jitterSigma
        self.lossProbability = lossProbability
    }

    /// Fixed round-trip delay (uplink + downlink delay), seconds, without jitter or transfer time.
    public var baseRoundTripSeconds: Double { downlinkDelaySeconds + uplinkDelaySeconds }

    /// Checks that every field is in range; throws `.invalidParameter` naming the field otherwise.
    public func validate() throws(DeviceEmulationError) {
        try DeviceEmulationError.requirePositive(
            downlinkKilobitsPerSecond.isInfinite ? 1 : downlinkKilobitsPerSecond,
            "\(name) downlinkKilobitsPerSecond")
        try DeviceEmulationError.requirePositive(
            uplinkKilobitsPerSecond.isInfinite ? 1 : uplinkKilobitsPerSecond,
            "\(name) uplinkKilobitsPerSecond")
        try DeviceEmulationError.requireNonNegative(downlinkDelaySeconds, "\(name) downlinkDelaySeconds")
        try DeviceEmulationError.requireNonNegative(uplinkDelaySeconds, "\(name) uplinkDelaySeconds")
        try DeviceEmulationError.requireNonNegative(jitterMedianSeconds, "\(name) jitterMedianSeconds")
        try DeviceEmulationError.requireNonNegative(jitterSigma, "\(name) jitterSigma")
        try DeviceEmulationError.requireProbability(lossProbability, "\(name) lossProbability")
    }

    /// Network Link Conditioner "Edge": 240 kbit/s down, 200 kbit/s up, 400 ms each way.
    public static let edge = NetworkLinkPreset(
        name: "edge", downlinkKilobitsPerSecond: 240, uplinkKilobitsPerSecond: 200,
        downlinkDelaySeconds: 0.400, uplinkDelaySeconds: 0.400,
        jitterMedianSeconds: 0.080, jitterSigma: 0.8, lossProbability: 0)

    /// Network Link Conditioner "3G": 780 kbit/s down, 330 kbit/s up, 100 ms each way.
    public static let threeG = NetworkLinkPreset(
        name: "3g", downlinkKilobitsPerSecond: 780, uplinkKilobitsPerSecond: 330,
        downlinkDelaySeconds: 0.100, uplinkDelaySeconds: 0.100,
        jitterMedianSeconds: 0.030, jitterSigma: 0.8, lossProbability: 0)

    /// Network Link Conditioner "LTE": 50 Mbit/s down, 10 Mbit/s up, 50 ms each way.
    public static let lte = NetworkLinkPreset(
        name: "lte", downlinkKilobitsPerSecond: 50_000, uplinkKilobitsPerSecond: 10_000,
        downlinkDelaySeconds: 0.050, uplinkDelaySeconds: 0.050,
        jitterMedianSeconds: 0.010, jitterSigma: 0.7, lossProbability: 0)

    /// Network Link Conditioner "Wi-Fi": 40 Mbit/s down, 33 Mbit/s up, 1 ms each way.
    public static let wifi = NetworkLinkPreset(
        name: "wifi", downlinkKilobitsPerSecond: 40_000, uplinkKilobitsPerSecond: 33_000,
        downlinkDelaySeconds: 0.001, uplinkDelaySeconds: 0.001,
        jitterMedianSeconds: 0.005, jitterSigma: 0.7, lossProbability: 0)

    /// Network Link Conditioner "Very Bad Network": 1 Mbit/s both ways, 100 ms each way, 10 % loss.
    public static let veryBadNetwork = NetworkLinkPreset(
        name: "very-bad-network", downlinkKilobitsPerSecond: 1_000, uplinkKilobitsPerSecond: 1_000,
        downlinkDelaySeconds: 0.100, uplinkDelaySeconds: 0.100,
        jitterMedianSeconds: 0.050, jitterSigma: 1.0, lossProbability: 0.10)

    /// Network Link Conditioner "100% Loss": every message is lost.
    public static let totalLoss = NetworkLinkPreset(
        name: "100%-loss", downlinkKilobitsPerSecond: 1_000, uplinkKilobitsPerSecond: 1_000,
        downlinkDelaySeconds: 0, uplinkDelaySeconds: 0,
        jitterMedianSeconds: 0, jitterSigma: 0, lossProbability: 1)

    /// Android emulator `-netspeed gsm -netdelay gsm`: 14.4 kbit/s both ways, 150–550 ms.
    public static let gsm = NetworkLinkPreset(
        name: "gsm", downlinkKilobitsPerSecond: 14.4, uplinkKilobitsPerSecond: 14.4,
        downlinkDelaySeconds: 0.075, uplinkDelaySeconds: 0.075,
        jitterMedianSeconds: 0.200, jitterSigma: 0.5, lossProbability: 0)

    /// Android emulator `-netspeed hsdpa`: 13 980 kbit/s down, 5 760 kbit/s up, no added delay.
    public static let hsdpa = NetworkLinkPreset(
        name: "hsdpa", downlinkKilobitsPerSecond: 13_980, uplinkKilobitsPerSecond: 5_760,
        downlinkDelaySeconds: 0, uplinkDelaySeconds: 0,
        jitterMedianSeconds: 0.020, jitterSigma: 0.7, lossProbability: 0)

    /// Android emulator `-netspeed full`: no bandwidth limit, no added delay, no jitter, no loss.
    public static let full = NetworkLinkPreset(
        name: "full", downlinkKilobitsPerSecond: .infinity, uplinkKilobitsPerSecond: .infinity,
        downlinkDelaySeconds: 0, uplinkDelaySeconds: 0,
        jitterMedianSeconds: 0, jitterSigma: 0, lossProbability: 0)

    /// All built-in presets, in the order listed in documentation.
    public static let all: [NetworkLinkPreset] = [
        .edge, .threeG, .lte, .wifi, .veryBadNetwork, .totalLoss, .gsm, .hsdpa, .full,
    ]

    /// The built-in preset called `name` (case-insensitive); throws `.unknownNetworkPreset` listing the names.
    public static func named(_ name: String) throws(DeviceEmulationError) -> NetworkLinkPreset {
        let key = name.lowercased()
        guard let preset = all.first(where: { $0.name == key }) else {
            throw .unknownNetworkPreset(name: name, known: all.map(\.name))
        }
        return preset
    }
}
