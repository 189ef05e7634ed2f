import FieldtestGSL
import Foundation
import MetricReports
import Positioning
import ScenarioEngine

/// The metric rows of every NAV requirement, from what the run measured.
extension NavUPDriver {
    /// Linear-interpolated quantile (GSL's method) of `values`; 0 when empty.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let s = values.sorted()
        guard let first = s.first else { return 0 }
        let h = q * Double(s.count - 1)
        let lo = Int(h.rounded(.down))
        guard lo + 1 < s.count else { return s[s.count - 1] }
        return lo < 0 ? first : s[lo] + (h - Double(lo)) * (s[lo + 1] - s[lo])
    }

    /// Pearson correlation of the pairs; 0 when undefined.
    static func correlation(_ pairs: [(truth: Double, estimate: Double)]) -> Double {
        let n = Double(pairs.count)
        guard n >= 2 else { return 0 }
        let mx = pairs.reduce(0) { $0 + $1.truth } / n, my = pairs.reduce(0) { $0 + $1.estimate } / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for p in pairs {
            sxy += (p.truth - mx) * (p.estimate - my)
            sxx += (p.truth - mx) * (p.truth - mx)
            syy += (p.estimate - my) * (p.estimate - my)
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }

    func recordMetrics(_ run: RunContext) {
        let m = run.metrics
        // NAV-F2: routing and search keep working offline.
        m.exact("NAV-F2", "offline_failures", failures: offlineFailures, checks: offlineChecks)
        m.value("NAV-F2", "offline_searches", kind: .count, Double(offlineSearches), unit: "count", samples: offlineSearches)
        // NAV-F3
        if searchQueries > 0 {
            m.value("NAV-F3", "top5_hit_rate", kind: .accuracy, Double(searchHits) / Double(searchQueries), unit: "ratio",
                    threshold: 0.95, comparator: .greaterOrEqual, samples: searchQueries)
        }
        // NAV-F4
        if !regretOnline.isEmpty {
            m.value("NAV-F4", "regret_online_p95", kind: .accuracy, Self.quantile(regretOnline, 0.95), unit: "ratio",
                    threshold: 0.10, comparator: .lessOrEqual, samples: regretOnline.count)
            m.value("NAV-F4", "regret_online_mean", kind: .accuracy, regretOnline.reduce(0, +) / Double(regretOnline.count),
                    unit: "ratio", samples: regretOnline.count)
        }
        if !regretOffline.isEmpty {
            m.value("NAV-F4", "regret_offline_p95", kind: .accuracy, Self.quantile(regretOffline, 0.95), unit: "ratio",
                    samples: regretOffline.count)
            m.value("NAV-F4", "regret_offline_mean", kind: .accuracy, regretOffline.reduce(0, +) / Double(regretOffline.count),
                    unit: "ratio", samples: regretOffline.count)
        }
        if !cachedAges.isEmpty {
            m.value("NAV-F4", "cached_congestion_age_max", kind: .accuracy, cachedAges.max() ?? 0, unit: "s", samples: cachedAges.count)
        }
        // NAV-F5
        m.exact("NAV-F5", "expired_events_shown", failures: expiredShown, checks: eventChecks)
        m.exact("NAV-F5", "event_listing_mismatches", failures: listingMismatches, checks: eventChecks)
        m.value("NAV-F5", "pois_listed", kind: .count, Double(poisListed), unit: "count", samples: eventChecks)
        // NAV-F7: agreement of estimated with true density (Pearson r), per edge and per 50 m heat-map cell.
        if !densityPairs.isEmpty {
            m.value("NAV-F7", "edge_density_correlation", kind: .accuracy, Self.correlation(densityPairs), unit: "r",
                    samples: densityPairs.count)
            let mae = densityPairs.reduce(0) { $0 + abs($1.truth - $1.estimate) } / Double(densityPairs.count)
            m.value("NAV-F7", "edge_density_mae", kind: .accuracy, mae, unit: "persons/m2", samples: densityPairs.count)
            m.value("NAV-F7", "heatmap_50m_correlation", kind: .accuracy, Self.correlation(cellPairs), unit: "r",
                    threshold: 0.8, comparator: .greaterOrEqual, samples: cellPairs.count)
        }
        // NAV-F9, NAV-F18
        m.exact("NAV-F9", "invalid_emergency_routes", failures: emergencyFailures, checks: emergencyChecks)
        m.exact("NAV-F9", "alerts_undelivered", failures: alertsUndelivered, checks: alertsSent)
        m.exact("NAV-F18", "wrong_wheelchair_evacuations", failures: wheelchairEvacuationFailures, checks: wheelchairEvacuations)
        // NAV-F15
        m.exact("NAV-F15", "forbidden_edges_used", failures: forbiddenUsed, checks: wheelchairSteps)
        m.value("NAV-F15", "wheelchair_routes", kind: .count, Double(wheelchairRoutes), unit: "count", samples: wheelchairRoutes)
        m.value("NAV-F15", "wheelchair_no_route", kind: .count, Double(wheelchairNoRoute), unit: "count", samples: wheelchairRoutes)
        // NAV-F19
        checkRemindersAndGoals(run)
        m.exact("NAV-F19", "reminder_errors", failures: reminderFailures, checks: reminderChecks)
        m.exact("NAV-F19", "preference_listing_errors", failures: preferenceListingFailures, checks: preferenceListings)
        m.value("NAV-F19", "reminders_fired", kind: .count, Double(reminderLog.count), unit: "count", samples: reminderChecks)
        // NAV-F21: history read back from each phone's cache equals the places actually reached.
        var historyChecks = 0, historyFailures = 0
        for a in actors where !a.history.isEmpty {
            historyChecks += 1
            let key = "navup-history-\(a.name)"
            let stored = (try? devices[a.device]?.cache?.entry(forKey: key))??.payload
            let names = stored.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) } ?? []
            if names != a.history { historyFailures += 1 }
        }
        m.exact("NAV-F21", "history_mismatches", failures: historyFailures, checks: historyChecks)
        // NAV-F22
        if !stepErrors.isEmpty {
            m.value("NAV-F22", "step_count_error_max", kind: .accuracy, stepErrors.max() ?? 0, unit: "ratio",
                    threshold: 0.05, comparator: .lessOrEqual, samples: stepErrors.count)
            let detected = actors.reduce(0) { $0 + $1.walks.reduce(0) { $0 + $1.detected } }
            let truth = actors.reduce(0) { $0 + $1.walks.reduce(0) { $0 + $1.truth } }
            m.value("NAV-F22", "steps_detected_total", kind: .count, Double(detected), unit: "steps", samples: stepErrors.count)
            m.value("NAV-F22", "steps_true_total", kind: .count, Double(truth), unit: "steps", samples: stepErrors.count)
            let stats = StepStatistics(events: actors.flatMap(\.steps), periodSeconds: 3600)
            m.value("NAV-F22", "distance_walked", kind: .accuracy, stats.totalDistanceMetres, unit: "m", samples: stats.periods.count)
            m.exact("NAV-F22", "statistics_step_mismatch", failures: stats.totalSteps == detected ? 0 : 1, checks: 1)
        }
        // NAV-F26
        m.exact("NAV-F26", "write_rights_errors", failures: writeFailures, checks: writeChecks)
        m.value("NAV-F26", "mobile_writes_denied", kind: .count, Double(store.deniedWrites), unit: "count",
                threshold: Double(mobileWrites), comparator: .equal, samples: mobileWrites)
        // NAV-F29: the core's goal notices (`StepGoals.notices`) against a recount of the detected steps, and
        // the ranking by steps (`StepGoals.rank`) against the totals.
        var goalChecks = 0, goalFailures = 0
        for a in actors where !a.goals.isEmpty {
            let notices = StepGoals.notices(goals: a.goals, events: a.steps)
            for g in a.goals {
                goalChecks += 1
                let times = a.steps.map(\.timeSeconds).filter { $0 >= g.startSeconds && $0 < g.endSeconds }.sorted()
                let k = Int(g.target.rounded(.up))
                let expected: Double? = k >= 1 && k <= times.count ? times[k - 1] : nil
                let got = notices.filter { $0.goalID == g.id }.map(\.timeSeconds)
                if got != (expected.map { [$0] } ?? []) { goalFailures += 1 }
            }
        }
        m.exact("NAV-F29", "goal_notice_errors", failures: goalFailures, checks: goalChecks)
        let ranked = StepGoals.rank(actors.map { StepGoals.Entry(user: $0.name, score: Double($0.steps.count)) }, by: .score)
        var rankErrors = 0
        for (a, b) in zip(ranked, ranked.dropFirst()) where a.score < b.score || (a.score == b.score && a.rank != b.rank) {
            rankErrors += 1
        }
        m.exact("NAV-F29", "ranking_errors", failures: rankErrors, checks: max(0, ranked.count - 1))
        // NAV-L1
        if let ev = FingerprintEvaluation(estimates: indoorEstimates, truth: indoorTruth) {
            m.value("NAV-L1", "indoor_building_hit_rate", kind: .accuracy, ev.buildingHitRate, unit: "ratio", threshold: 1.0,
                    comparator: .greaterOrEqual, samples: ev.count)
            m.value("NAV-L1", "indoor_floor_hit_rate", kind: .accuracy, ev.floorHitRate, unit: "ratio", threshold: 0.93,
                    comparator: .greaterOrEqual, samples: ev.count)
            m.value("NAV-L1", "indoor_error_mean", kind: .accuracy, ev.errors.meanMetres, unit: "m", threshold: 6.5,
                    comparator: .lessOrEqual, samples: ev.count)
            m.value("NAV-L1", "indoor_error_p50", kind: .accuracy, ev.errors.medianMetres, unit: "m", samples: ev.count)
            m.value("NAV-L1", "indoor_error_p95", kind: .accuracy, ev.errors.p95Metres, unit: "m", samples: ev.count)
        }
        if let ev = FingerprintEvaluation(estimates: newPhoneEstimates, truth: newPhoneTruth) {
            m.value("NAV-L1", "indoor_new_phone_building_hit_rate", kind: .accuracy, ev.buildingHitRate, unit: "ratio", samples: ev.count)
            m.value("NAV-L1", "indoor_new_phone_floor_hit_rate", kind: .accuracy, ev.floorHitRate, unit: "ratio", samples: ev.count)
            m.value("NAV-L1", "indoor_new_phone_error_mean", kind: .accuracy, ev.errors.meanMetres, unit: "m", samples: ev.count)
            m.value("NAV-L1", "indoor_new_phone_error_p95", kind: .accuracy, ev.errors.p95Metres, unit: "m", samples: ev.count)
        }
        if let fused = HorizontalErrorSummary(errorsMetres: outdoorFused), let gps = HorizontalErrorSummary(errorsMetres: outdoorGPS) {
            m.value("NAV-L1", "outdoor_fused_error_p50", kind: .accuracy, fused.medianMetres, unit: "m", samples: fused.count)
            m.value("NAV-L1", "outdoor_fused_error_p95", kind: .accuracy, fused.p95Metres, unit: "m",
                    threshold: gps.p95Metres, comparator: .lessOrEqual, samples: fused.count)
            m.value("NAV-L1", "outdoor_gps_error_p95", kind: .accuracy, gps.p95Metres, unit: "m", samples: gps.count)
        }
        // NAV-PR1
        m.exact("NAV-PR1", "pings_stored_without_consent", failures: pingsWithoutConsent, checks: privacyChecks)
        m.exact("NAV-PR1", "data_left_after_withdrawal", failures: dataLeft, checks: withdrawals)
        m.exact("NAV-PR1", "pings_past_retention", failures: pastRetention, checks: privacyChecks)
        let phoneRefusals = devices.keys.sorted().reduce(0) { $0 + (devices[$1]?.consent.refusedCollections ?? 0) }
        m.value("NAV-PR1", "collections_refused_without_consent", kind: .count,
                Double(store.refusedWithoutConsent + phoneRefusals), unit: "count", samples: privacyChecks)
    }
}
