import Foundation

/// Weidmann's speed–density relation for pedestrian flow (the "Kladek formula" as fitted by
/// U. Weidmann, *Transporttechnik der Fussgänger*, Schriftenreihe des IVT Nr. 90, ETH Zürich, 1993):
///
///     v(ρ) = v₀ · [1 − exp(−γ · (1/ρ − 1/ρ_max))]
///
/// with γ = 1.913 persons/m² and jam density ρ_max = 5.4 persons/m² (v₀ = 1.34 m/s in Weidmann's fit;
/// here v₀ is the profile's free speed, so only the relative factor is used). Densities are
/// persons per square metre of walkable area. O(1).
public enum WeidmannSpeed {
    /// Shape constant γ in persons per square metre.
    public static let gamma = 1.913
    /// Jam density ρ_max in persons per square metre.
    public static let jamDensity = 5.4
    /// The smallest speed factor used, so that a jammed edge stays traversable (slowly) rather than infinite.
    public static let minimumFactor = 0.05

    /// Speed as a fraction of free speed at density `personsPerSquareMetre` (1 at zero density,
    /// `minimumFactor` at or beyond jam density).
    public static func factor(density personsPerSquareMetre: Double) -> Double {
        guard personsPerSquareMetre > 0 else { return 1 }
        guard personsPerSquareMetre < jamDensity else { return minimumFactor }
        let f = 1 - exp(-gamma * (1 / personsPerSquareMetre - 1 / jamDensity))
        return max(minimumFactor, min(1, f))
    }

    /// Travel-time multiplier (≥ 1) at the given density: 1 / `factor`.
    public static func slowdown(density personsPerSquareMetre: Double) -> Double {
        1 / factor(density: personsPerSquareMetre)
    }

    /// Per-edge slowdowns for per-edge densities (persons/m²). O(E).
    public static func slowdowns(densities: [Double]) -> [Double] {
        densities.map { slowdown(density: $0) }
    }
}
