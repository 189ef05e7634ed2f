/// Game difficulty as a function of the city's mood (MIC-55, Func_55).
///
/// The spec's only statement of direction is the miCity Racer rule "the happier the
/// city, the more points you can score" (micity-srs.txt, "Game - miCity Racer"), so a
/// happier city makes the game easier and pays more:
///
/// - `difficulty = 1.5 − 0.5 · p`, from 2 (every tweet in the window negative, p = −1)
///   to 1 (every tweet positive, p = +1): the factor by which the game scales its
///   traffic density on top of the wave progression of Func_57;
/// - `pointsMultiplier = 1.5 + 0.5 · p`, from 1 to 2;
///
/// where `p` is the window's net polarity (positive − negative) / total, clamped to
/// [−1, 1] (NaN counts as 0, a neutral city). `difficulty` is strictly decreasing
/// and `pointsMultiplier` strictly increasing in `p`. O(1).
public enum GameDifficulty {
    /// Difficulty factor in [1, 2] for a net polarity in [−1, 1] (clamped).
    public static func difficulty(netPolarity: Double) -> Double {
        1.5 - 0.5 * clamp(netPolarity)
    }

    /// Points multiplier in [1, 2] for a net polarity in [−1, 1] (clamped).
    public static func pointsMultiplier(netPolarity: Double) -> Double {
        1.5 + 0.5 * clamp(netPolarity)
    }

    /// Difficulty for a mood reading.
    public static func difficulty(for reading: MoodReading) -> Double {
        difficulty(netPolarity: reading.netPolarity)
    }

    static func clamp(_ p: Double) -> Double {
        p.isNaN ? 0 : max(-1, min(1, p))
    }
}
