/// Where the emulated phone is carried, which sets its orientation and how body motion reaches it.
///
/// Orientation is a pitch θ about the walker's lateral axis: θ = 0 is the phone lying flat, screen up, top
/// pointing forward; θ = 90° is upright with the top pointing up. Held in the hand for reading, θ ≈ 30°;
/// upright in a front trouser pocket, θ ≈ 80°, and the thigh swings it at stride frequency (half the step
/// frequency) by about ±20° (thigh angle range ≈40° in walking: Winter, "Biomechanics and Motor Control of
/// Human Movement", 4th ed., 2009). The pocket sees larger linear accelerations than the hand, which damps them.
public enum PhonePlacement: String, Sendable, Codable, CaseIterable {
    /// Held in front of the body, screen up, tilted about 30° towards the face.
    case hand
    /// Upright in a front trouser pocket.
    case pocket

    /// Mean pitch of the phone, radians.
    public var basePitchRadians: Double {
        switch self {
        case .hand: 30.0 * .pi / 180.0
        case .pocket: 80.0 * .pi / 180.0
        }
    }

    /// Amplitude of the pitch oscillation at stride frequency, radians.
    public var pitchSwingRadians: Double {
        switch self {
        case .hand: 3.0 * .pi / 180.0
        case .pocket: 20.0 * .pi / 180.0
        }
    }

    /// Factor applied to the body's linear walking acceleration as seen by the phone (dimensionless).
    public var accelerationFactor: Double {
        switch self {
        case .hand: 0.8
        case .pocket: 1.5
        }
    }
}
