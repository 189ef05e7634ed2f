/// How fast the emulated user walks, with the gait parameters that follow from it.
///
/// Sources: cadences ≈1.5 / 1.8 / 2.1 steps/s (90 / 108 / 126 steps/min) lie in the adult range reported by
/// Tudor-Locke et al., "Walking cadence (steps/min) and intensity in 21–40 year olds: CADENCE-adults",
/// IJBNPA 16:8 (2019), where ≈100 steps/min marks moderate walking. Speeds 0.9 / 1.3 / 1.7 m/s bracket the
/// comfortable gait speed of ≈1.3–1.4 m/s (Bohannon, Age and Ageing 26:15, 1997). Vertical trunk acceleration
/// grows with speed (Zijlstra & Hof, Gait & Posture 18(2):1, 2003); the first-harmonic amplitudes below
/// (1.2 / 2.0 / 3.0 m/s²) are chosen in the range such studies report for the lower trunk.
public enum WalkingPace: String, Sendable, Codable, CaseIterable {
    /// Not walking: no steps, only sensor noise and gravity.
    case standing
    /// Slow walk, ≈1.5 steps/s.
    case slow
    /// Normal walk, ≈1.8 steps/s.
    case normal
    /// Fast walk, ≈2.1 steps/s.
    case fast

    /// Mean step frequency, steps per second (Hz); 0 when standing.
    public var cadenceHz: Double {
        switch self {
        case .standing: 0
        case .slow: 1.5
        case .normal: 1.8
        case .fast: 2.1
        }
    }

    /// Mean walking speed, metres per second; 0 when standing.
    public var speedMetresPerSecond: Double {
        switch self {
        case .standing: 0
        case .slow: 0.9
        case .normal: 1.3
        case .fast: 1.7
        }
    }

    /// Mean step length, metres (speed / cadence); 0 when standing.
    public var stepLengthMetres: Double {
        cadenceHz > 0 ? speedMetresPerSecond / cadenceHz : 0
    }

    /// Amplitude of the first harmonic (step frequency) of vertical body acceleration, m/s².
    public var verticalAmplitude: Double {
        switch self {
        case .standing: 0
        case .slow: 1.2
        case .normal: 2.0
        case .fast: 3.0
        }
    }
}
