import ScenarioEngine

/// A bound on the entries the journal's filters scan.
///
/// A `filter-entries` reads every stored entry it can reach, so its cost grows with the entries posted
/// before it (about 3 µs each on this project's reference machine), where the engine's general bound
/// weighs each occurrence alike (`work: 30`). This check counts, for every filter, the entries posted
/// before it by any actor (an upper bound on what one account's filter can reach), one unit of work per
/// `entriesPerUnit` of them, and refuses a scenario whose filters scan more than
/// `ScenarioSchema.maximumOccurrences` units: about ten minutes of filtering at most, the same bound as
/// every other kind of work (400,000 entries and 15,000 filters once planned five hours).
enum JournalFilterWork {
    /// Stored entries one filter scans in the time of one unit of work (0.6 ms at 3 µs an entry).
    static let entriesPerUnit = 200.0

    /// The check, for the actions `filter` (scans) and `post` (stores its `entries:` per occurrence).
    static func check(filter: String = "filter-entries", post: String = "post-entries") -> ScenarioCheck {
        { @Sendable s in
            let posts = s.actors.flatMap(\.actions).filter { $0.kind == post }
            var scanned = 0.0
            var busiest: (action: ActionSpec, entries: Double)?
            for actor in s.actors {
                for action in actor.actions where action.kind == filter {
                    // The general bound refuses a longer schedule before its filters could be counted here.
                    guard action.occurrenceCount(duration: s.duration) <= Double(ScenarioSchema.maximumOccurrences)
                    else { continue }
                    var entries = 0.0
                    for t in action.offsets(duration: s.duration) {
                        entries += posts.reduce(0) { $0 + postedEntries($1, by: t, duration: s.duration) }
                    }
                    scanned += entries
                    if entries > (busiest?.entries ?? -1) { busiest = (action, entries) }
                }
            }
            let units = scanned / entriesPerUnit
            guard let busiest, units > Double(ScenarioSchema.maximumOccurrences) else { return [] }
            return [
                ScenarioProblem(
                    at: busiest.action.parameters,
                    "the scenario's '\(filter)' actions scan \(Int(min(scanned, 1e15))) stored entries in all (each "
                        + "reads every entry posted before it), \(Int(min(units, 1e15))) units of work at one per "
                        + "\(Int(entriesPerUnit)) entries; the most is \(ScenarioSchema.maximumOccurrences); filter "
                        + "less often, or post fewer entries before filtering")
            ]
        }
    }

    /// Entries the `post` action has stored by offset `t` (seconds): its occurrences at or before `t`
    /// times its `entries:`.
    static func postedEntries(_ post: ActionSpec, by t: Double, duration: Double) -> Double {
        guard t >= post.at else { return 0 }
        let perOccurrence = post.parameters["entries"]?.double ?? 1
        var bounded = post
        bounded.until = min(post.until ?? duration, t)
        return bounded.occurrenceCount(duration: duration) * perOccurrence
    }
}
