import FieldtestGSL
import Foundation
import MetricReports
import Positioning
import ScenarioEngine

/// The NAV checks that can only be made when the run ends (they compare what the phones and the
/// cores kept over the whole run with an independent recount), and the helpers of those checks.
/// Every other check is recorded into `run.metrics` where it is made.
extension NavUPDriver {
    /// Competition ranks ("1224") of `scores` by score, higher first: 1 + the number of higher scores.
    static func expectedRanks(_ scores: [String: Double]) -> [String: Int] {
        scores.mapValues { s in 1 + scores.values.filter { $0 > s }.count }
    }

    /// Errors of `ranked` against `scores`: each user listed exactly once, with its own score, its
    /// competition rank, in rank order. One check per user.
    static func rankingErrors(_ ranked: [StepGoals.Entry], scores: [String: Double]) -> Int {
        let expected = expectedRanks(scores)
        var errors = 0
        var seen = Set<String>()
        for (k, e) in ranked.enumerated() {
            let duplicate = !seen.insert(e.user).inserted
            let outOfOrder = k > 0 && ranked[k - 1].rank > e.rank
            if duplicate || outOfOrder || scores[e.user] != e.score || expected[e.user] != e.rank { errors += 1 }
        }
        errors += scores.keys.filter { !seen.contains($0) }.count
        return errors
    }

    /// Periods of `stats` whose steps or distance differ from a recount of `events` in
    /// [start, start + period), and steps outside every period.
    static func statisticsErrors(_ stats: StepStatistics, events: [StepEvent], periodSeconds: Double) -> Int {
        var errors = 0
        var covered = 0
        for p in stats.periods {
            let inside = events.filter {
                $0.timeSeconds >= p.startSeconds && $0.timeSeconds < p.startSeconds + periodSeconds
            }
            covered += inside.count
            let metres = inside.reduce(0) { $0 + $1.lengthMetres }
            if inside.count != p.steps || abs(metres - p.distanceMetres) > 1e-9 * max(1, metres) { errors += 1 }
        }
        if covered != events.count { errors += 1 }
        return errors
    }

    /// Records the checks made at the end of the run (NAV-F19, F21, F22, F29, L1).
    func checkAtEnd(_ run: RunContext) {
        let m = run.metrics
        checkReminders(run)
        // NAV-F21: history read back from each phone's cache equals the places actually reached.
        for a in actors where !a.history.isEmpty {
            let key = "navup-history-\(a.name)"
            let stored = (try? devices[a.device]?.cache?.entry(forKey: key))??.payload
            let names = stored.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) } ?? []
            m.check(Metric.historyMismatches, names == a.history)
        }
        // NAV-F22: statistics over time, each user's hourly periods against a recount of their steps.
        if actors.contains(where: \.walked) { m.add(Metric.distanceWalked, 0, samples: 0) }
        for a in actors where !a.steps.isEmpty {
            let stats = StepStatistics(events: a.steps, periodSeconds: 3600)
            m.add(Metric.distanceWalked, stats.totalDistanceMetres, samples: stats.periods.count)
            if !stats.periods.isEmpty {
                m.add(
                    Metric.statisticsPeriodErrors,
                    Double(Self.statisticsErrors(stats, events: a.steps, periodSeconds: 3600)),
                    samples: stats.periods.count)
            }
        }
        // NAV-F29: the core's goal notices (`StepGoals.notices`) against a recount of the detected steps, and
        // the ranking by steps (`StepGoals.rank`) against each user's competition rank.
        for a in actors where !a.goals.isEmpty {
            let notices = StepGoals.notices(goals: a.goals, events: a.steps)
            for g in a.goals {
                let times = a.steps.map(\.timeSeconds).filter { $0 >= g.startSeconds && $0 < g.endSeconds }.sorted()
                let k = Int(g.target.rounded(.up))
                let expected: Double? = k >= 1 && k <= times.count ? times[k - 1] : nil
                let got = notices.filter { $0.goalID == g.id }.map(\.timeSeconds)
                m.check(Metric.goalNoticeErrors, got == (expected.map { [$0] } ?? []))
            }
        }
        if actors.contains(where: { !$0.steps.isEmpty }) {
            var scores: [String: Double] = [:]
            for a in actors { scores[a.name, default: 0] += Double(a.steps.count) }
            let ranked = StepGoals.rank(
                scores.keys.sorted().map { StepGoals.Entry(user: $0, score: scores[$0] ?? 0) }, by: .score)
            m.add(
                Metric.rankingErrors, Double(Self.rankingErrors(ranked, scores: scores)), samples: scores.count)
        }
        // NAV-L1: the positioning core's own evaluation of the estimates and tracks the run collected.
        if let ev = FingerprintEvaluation(estimates: indoorEstimates, truth: indoorTruth) {
            m.expect(Metric.indoorBuildingHitRate, ev.buildingHitRate, samples: ev.count)
            m.expect(Metric.indoorFloorHitRate, ev.floorHitRate, samples: ev.count)
            let errors = ev.errors.sortedMetres
            m.expect(Metric.indoorErrorMean, ev.errors.meanMetres, of: .mean, over: errors)
            m.expect(Metric.indoorErrorP50, ev.errors.medianMetres, of: .quantile(0.5), over: errors)
            m.expect(Metric.indoorErrorP95, ev.errors.p95Metres, of: .quantile(0.95), over: errors)
        }
        if let ev = FingerprintEvaluation(estimates: newPhoneEstimates, truth: newPhoneTruth) {
            m.expect(Metric.indoorNewPhoneBuildingHitRate, ev.buildingHitRate, samples: ev.count)
            m.expect(Metric.indoorNewPhoneFloorHitRate, ev.floorHitRate, samples: ev.count)
            let errors = ev.errors.sortedMetres
            m.expect(Metric.indoorNewPhoneErrorMean, ev.errors.meanMetres, of: .mean, over: errors)
            m.expect(Metric.indoorNewPhoneErrorP95, ev.errors.p95Metres, of: .quantile(0.95), over: errors)
        }
        if let fused = HorizontalErrorSummary(errorsMetres: outdoorFused),
            let gps = HorizontalErrorSummary(errorsMetres: outdoorGPS)
        {
            m.expect(Metric.outdoorFusedErrorP50, fused.medianMetres, samples: fused.count)
            m.expect(
                Metric.outdoorFusedErrorP95, fused.p95Metres, samples: fused.count, threshold: gps.p95Metres)
            m.expect(Metric.outdoorGpsErrorP95, gps.p95Metres, samples: gps.count)
        }
    }
}
