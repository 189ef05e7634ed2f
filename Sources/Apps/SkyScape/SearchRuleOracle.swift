import FieldtestData
import SkyScoring

/// The truth behind SKY-F1's search checks, built once per place list: every place name folded
/// (accents and case, as the spec's FAV1 rule reads), grouped by first character, and the largest
/// population of each exact folded name. A check then costs one bucket scan instead of folding
/// all ~55,000 names on every search, so a check is about as cheap as the search it checks.
///
/// It is a brute-force scan over a bucket, not the app's sorted index, so it stays an independent
/// expectation: it shares only the folding rule with the app.
struct SearchRuleOracle: Sendable {
    private var byFirstCharacter: [Character: [String]] = [:]
    private var topPopulation: [String: Int] = [:]

    init(places: [Place]) {
        for place in places {
            let folded = CitySearch.fold(place.name)
            guard let first = folded.first else { continue }
            byFirstCharacter[first, default: []].append(folded)
            topPopulation[folded] = max(topPopulation[folded] ?? Int.min, place.population)
        }
    }

    /// Whether some place's folded name starts with `folded` (a folded, non-empty query).
    func anyName(startingWith folded: String) -> Bool {
        guard let first = folded.first else { return false }
        return byFirstCharacter[first]?.contains { $0.hasPrefix(folded) } ?? false
    }

    /// The largest population among places whose folded name is exactly `folded`, if any.
    func topPopulation(named folded: String) -> Int? { topPopulation[folded] }
}
