import Foundation
import SkyScoring
import Synchronization

/// Reference sunrise and sunset times for any place and date, from the NREL SPA
/// (`SolarPositionAlgorithm`): the events of appendix A.2, each refined by Newton's method on
/// the full SPA topocentric elevation (without refraction, at sea level) until the Sun's centre
/// is at −0.8333°. A.2 alone interpolates the Sun's coordinates over three days and can miss
/// that crossing by minutes where the Sun meets the horizon at a shallow angle (high
/// latitudes); the refinement makes the reference exact to the algorithm's own accuracy.
/// An A.2 event the Sun never reaches (near a polar day or night) is dropped.
public final class SunReference: Sendable {
    /// Geometric elevation of the Sun's centre at rise and set, degrees.
    public static let horizonDeg = -0.8333

    private struct Key: Hashable {
        var latitude: Double
        var longitude: Double
        var utcDay: Int
    }

    /// Refined events per place and UTC day, so repeated questions cost nothing.
    private let cache = Mutex<[Key: (sunrise: Double?, sunset: Double?)]>([:])

    /// A reference with an empty cache.
    public init() {}

    /// Reference sunrises (or sunsets), Unix seconds, within [start, end), ascending; empty when
    /// the Sun neither rises nor sets then (polar day or night).
    public func events(latitude: Double, longitude: Double, sunrise: Bool, from start: Double, to end: Double)
        -> [Double]
    {
        let firstDay = Int((start / 86_400).rounded(.down)) - 1
        let lastDay = Int((end / 86_400).rounded(.down)) + 1
        var found: [Double] = []
        for day in firstDay...lastDay {
            let events = self.events(latitude: latitude, longitude: longitude, utcDay: day)
            guard let t = sunrise ? events.sunrise : events.sunset, t >= start, t < end else { continue }
            // Two UTC days' estimates can refine to one crossing: keep it once.
            if !found.contains(where: { abs($0 - t) < 60 }) { found.append(t) }
        }
        return found.sorted()
    }

    /// The refined sunrise and sunset of A.2 for one UTC day (days since 1970-01-01).
    public func events(latitude: Double, longitude: Double, utcDay: Int) -> (sunrise: Double?, sunset: Double?) {
        let key = Key(latitude: latitude, longitude: longitude, utcDay: utcDay)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let observer = SolarPositionAlgorithm.Observer(latitude: latitude, longitude: longitude)
        let deltaT = SolarPositionAlgorithm.estimatedDeltaT(unixSeconds: Double(utcDay) * 86_400)
        let a2 = SolarPositionAlgorithm.sunTimes(
            utcDay: utcDay, deltaT: deltaT, observer: observer, horizonDeg: Self.horizonDeg)
        let refined = (
            sunrise: a2.sunrise.flatMap { Self.refine($0, observer: observer, deltaT: deltaT) },
            sunset: a2.sunset.flatMap { Self.refine($0, observer: observer, deltaT: deltaT) }
        )
        cache.withLock { $0[key] = refined }
        return refined
    }

    /// Newton's method on the SPA elevation from `estimate` to the horizon crossing; nil when it
    /// does not converge to within 0.0001° (the Sun's extreme elevation misses the horizon).
    static func refine(
        _ estimate: Double, observer: SolarPositionAlgorithm.Observer, deltaT: Double
    ) -> Double? {
        func f(_ t: Double) -> Double {
            SolarPositionAlgorithm.position(unixSeconds: t, deltaT: deltaT, observer: observer)
                .elevationWithoutRefraction - horizonDeg
        }
        var t = estimate
        for _ in 0..<6 {
            let slope = (f(t + 30) - f(t - 30)) / 60
            guard slope != 0, slope.isFinite else { return nil }
            let step = f(t) / slope
            t -= max(-3600, min(3600, step))  // a flat stretch must not throw it to another day
            if abs(step) < 0.01 { break }
        }
        return abs(f(t)) < 1e-4 ? t : nil
    }
}
