import AccountStore
import ScenarioEngine

/// A bound on the password hashing a scenario plans.
///
/// Each sign-up or login derives a key with PBKDF2 at no fewer than 600,000 iterations, which takes
/// a sizeable fraction of a second on one core, so the engine's general bound on occurrences
/// (`ScenarioSchema.maximumOccurrences`) would let a scenario run for days. The loader refuses a
/// scenario whose occurrences of such actions, times the iterations of each, exceed
/// `maximumIterations`: 1,000 derivations at the production minimum, a few minutes on this project's
/// reference machine (`fieldtest-bench actions` projects it per action kind).
enum KeyDerivationWork {
    /// The most PBKDF2 iterations, summed over every derivation, one scenario case may plan.
    static let maximumIterations = 1_000 * Double(PasswordHashingParameters.productionMinimumIterations)

    /// A check that bounds the derivations of the actions `kinds` (each derives one key per occurrence)
    /// at the iterations of the parameter `parameter` (the production minimum when absent or not swept).
    static func check(kinds: Set<String>, iterationsParameter parameter: String? = nil) -> ScenarioCheck {
        { @Sendable s in
            let swept = parameter.map { s.sweepValues[$0]?.compactMap(\.double) ?? [] } ?? []
            let given = parameter.flatMap { s.parameters?[$0]?.double }
            let iterations =
                (swept + [given].compactMap { $0 }).max()
                ?? Double(PasswordHashingParameters.productionMinimumIterations)
            var derivations = 0.0
            var busiest: (action: ActionSpec, count: Double)?
            for actor in s.actors {
                for action in actor.actions where kinds.contains(action.kind) {
                    let count = action.occurrenceCount(duration: s.duration)
                    derivations += count
                    if count > (busiest?.count ?? -1) { busiest = (action, count) }
                }
            }
            guard let busiest, derivations * iterations > maximumIterations else { return [] }
            let allowed = Int(maximumIterations / iterations)
            let what = kinds.sorted().joined(separator: "', '")
            return [
                ScenarioProblem(
                    at: busiest.action.parameters,
                    "the scenario plans \(Int(min(derivations, 1e15))) '\(what)' actions at \(Int(iterations)) PBKDF2 iterations each; each derives a key with a slow KDF, so the most is \(allowed); use a longer 'every', a 'count' or 'until'"
                )
            ]
        }
    }
}
