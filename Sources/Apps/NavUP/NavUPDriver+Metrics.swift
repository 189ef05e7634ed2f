import FieldtestGSL
import Foundation
import MetricReports
import Positioning
import ScenarioEngine

/// The metric rows of every NAV requirement, from what the run measured.
extension NavUPDriver {
    /// Linear-interpolated quantile of `values` (GSL's `Quantiles`); 0 when empty.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        Quantiles.quantile(sorted: values.sorted(), probability: q) ?? 0
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
            let inside = events.filter { $0.timeSeconds >= p.startSeconds && $0.timeSeconds < p.startSeconds + periodSeconds }
            covered += inside.count
            let metres = inside.reduce(0) { $0 + $1.lengthMetres }
            if inside.count != p.steps || abs(metres - p.distanceMetres) > 1e-9 * max(1, metres) { errors += 1 }
        }
        if covered != events.count { errors += 1 }
        return errors
    }

    /// Records a requirement's rows only when something was checked, so a listed requirement that the
    /// scenario never exercised gets the engine's failing `not_measured` row instead of a vacuous pass.
    func recordMetrics(_ run: RunContext) {
        let m = run.metrics
        // NAV-F2: routes and searches on the phone's own map while offline.
        if offlineChecks > 0 {
            m.exact("NAV-F2", "offline_failures", failures: offlineFailures, checks: offlineChecks)
            m.value("NAV-F2", "offline_routes", kind: .count, Double(offlineRoutes), unit: "count", samples: offlineRoutes)
            m.value("NAV-F2", "offline_searches", kind: .count, Double(offlineSearches), unit: "count", samples: offlineSearches)
        }
        // NAV-F3
        if searchQueries > 0 {
            m.value("NAV-F3", "top5_hit_rate", kind: .accuracy, Double(searchHits) / Double(searchQueries), unit: "ratio",
                    threshold: 0.95, comparator: .greaterOrEqual, samples: searchQueries)
        }
        // NAV-F4: regret of the routes the app chose on fresh congestion ("online": its download arrived)
        // and on its cached snapshot ("offline": no connection, or the download failed), and (info) of
        // congestion-free routes for the same requests: when both are 0 the requests never depended on
        // congestion.
        if !regretOnline.isEmpty {
            m.value("NAV-F4", "regret_online_p95", kind: .accuracy, Self.quantile(regretOnline, 0.95), unit: "ratio",
                    threshold: 0.10, comparator: .lessOrEqual, samples: regretOnline.count)
            m.value("NAV-F4", "regret_online_mean", kind: .accuracy, regretOnline.reduce(0, +) / Double(regretOnline.count),
                    unit: "ratio", samples: regretOnline.count)
            m.value("NAV-F4", "regret_online_without_congestion_p95", kind: .accuracy, Self.quantile(blindOnline, 0.95),
                    unit: "ratio", samples: blindOnline.count)
        }
        if !regretOffline.isEmpty {
            m.value("NAV-F4", "regret_offline_p95", kind: .accuracy, Self.quantile(regretOffline, 0.95), unit: "ratio",
                    samples: regretOffline.count)
            m.value("NAV-F4", "regret_offline_mean", kind: .accuracy, regretOffline.reduce(0, +) / Double(regretOffline.count),
                    unit: "ratio", samples: regretOffline.count)
            m.value("NAV-F4", "regret_offline_without_congestion_p95", kind: .accuracy, Self.quantile(blindOffline, 0.95),
                    unit: "ratio", samples: blindOffline.count)
        }
        if congestionDownloadsFailed > 0 {
            m.value("NAV-F4", "congestion_downloads_failed", kind: .count, Double(congestionDownloadsFailed), unit: "count",
                    samples: congestionDownloadsFailed)
        }
        if routesWithoutMap > 0 {
            m.value("NAV-F4", "online_routes_without_map", kind: .count, Double(routesWithoutMap), unit: "count", samples: routesWithoutMap)
        }
        if contestedAsked > 0 {
            m.value("NAV-F4", "contested_requests_not_made", kind: .count, Double(contestedMissing), unit: "count", samples: contestedAsked)
        }
        if !cachedAges.isEmpty {
            m.value("NAV-F4", "cached_congestion_age_max", kind: .accuracy, cachedAges.max() ?? 0, unit: "s", samples: cachedAges.count)
        }
        // NAV-F5
        if eventChecks > 0 {
            m.exact("NAV-F5", "expired_events_shown", failures: expiredShown, checks: eventChecks)
            m.exact("NAV-F5", "event_listing_mismatches", failures: listingMismatches, checks: eventChecks)
            m.exact("NAV-F5", "poi_listing_mismatches", failures: poiMismatches, checks: eventChecks)
            m.value("NAV-F5", "events_listed", kind: .count, Double(eventsListed), unit: "count", samples: eventChecks)
            m.value("NAV-F5", "pois_listed", kind: .count, Double(poisListed), unit: "count", samples: eventChecks)
        }
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
        if emergencyChecks > 0 {
            m.exact("NAV-F9", "invalid_emergency_routes", failures: emergencyFailures, checks: emergencyChecks)
            m.value("NAV-F9", "evacuations_starting_at_exit", kind: .count, Double(evacuationsAtExit + wheelchairEvacuationsAtExit),
                    unit: "count", samples: emergencyChecks)
        }
        if alertsSent > 0 { m.exact("NAV-F9", "alerts_undelivered", failures: alertsUndelivered, checks: alertsSent) }
        if wheelchairEvacuations > 0 {
            m.exact("NAV-F18", "wrong_wheelchair_evacuations", failures: wheelchairEvacuationFailures, checks: wheelchairEvacuations)
            m.value("NAV-F18", "wheelchair_evacuations_starting_at_exit", kind: .count, Double(wheelchairEvacuationsAtExit),
                    unit: "count", samples: wheelchairEvacuations)
        }
        // NAV-F15
        if wheelchairRoutes > 0 {
            if wheelchairSteps > 0 { m.exact("NAV-F15", "forbidden_edges_used", failures: forbiddenUsed, checks: wheelchairSteps) }
            m.exact("NAV-F15", "wrong_no_route", failures: wheelchairWrongNoRoute, checks: wheelchairNoRoute)
            m.value("NAV-F15", "wheelchair_routes", kind: .count, Double(wheelchairRoutes), unit: "count", samples: wheelchairRoutes)
            m.value("NAV-F15", "wheelchair_no_route", kind: .count, Double(wheelchairNoRoute), unit: "count", samples: wheelchairRoutes)
        }
        // NAV-F19
        checkRemindersAndGoals(run)
        if reminderChecks > 0 {
            m.exact("NAV-F19", "reminder_errors", failures: reminderFailures, checks: reminderChecks)
            m.value("NAV-F19", "reminders_fired", kind: .count, Double(reminderLog.count), unit: "count", samples: reminderChecks)
        }
        if preferenceListings > 0 {
            m.exact("NAV-F19", "preference_listing_errors", failures: preferenceListingFailures, checks: preferenceListings)
        }
        // NAV-F21: history read back from each phone's cache equals the places actually reached.
        var historyChecks = 0, historyFailures = 0
        for a in actors where !a.history.isEmpty {
            historyChecks += 1
            let key = "navup-history-\(a.name)"
            let stored = (try? devices[a.device]?.cache?.entry(forKey: key))??.payload
            let names = stored.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) } ?? []
            if names != a.history { historyFailures += 1 }
        }
        if historyChecks > 0 { m.exact("NAV-F21", "history_mismatches", failures: historyFailures, checks: historyChecks) }
        // NAV-F22
        if !stepErrors.isEmpty {
            m.value("NAV-F22", "step_count_error_max", kind: .accuracy, stepErrors.max() ?? 0, unit: "ratio",
                    threshold: 0.05, comparator: .lessOrEqual, samples: stepErrors.count)
            let detected = actors.reduce(0) { $0 + $1.walks.reduce(0) { $0 + $1.detected } }
            let truth = actors.reduce(0) { $0 + $1.walks.reduce(0) { $0 + $1.truth } }
            m.value("NAV-F22", "steps_detected_total", kind: .count, Double(detected), unit: "steps", samples: stepErrors.count)
            m.value("NAV-F22", "steps_true_total", kind: .count, Double(truth), unit: "steps", samples: stepErrors.count)
            // Statistics over time: each user's hourly periods against a recount of their steps.
            var distance = 0.0, periods = 0, periodErrors = 0
            for a in actors where !a.steps.isEmpty {
                let stats = StepStatistics(events: a.steps, periodSeconds: 3600)
                distance += stats.totalDistanceMetres
                periods += stats.periods.count
                periodErrors += Self.statisticsErrors(stats, events: a.steps, periodSeconds: 3600)
            }
            m.value("NAV-F22", "distance_walked", kind: .accuracy, distance, unit: "m", samples: periods)
            if periods > 0 {
                m.exact("NAV-F22", "statistics_period_errors", failures: periodErrors, checks: max(periods, 1))
            }
        }
        // NAV-F26
        if writeChecks > 0 { m.exact("NAV-F26", "write_rights_errors", failures: writeFailures, checks: writeChecks) }
        if mobileWrites > 0 {
            m.value("NAV-F26", "mobile_writes_denied", kind: .count, Double(store.deniedWrites), unit: "count",
                    threshold: Double(mobileWrites), comparator: .equal, samples: mobileWrites)
        }
        // NAV-F29: the core's goal notices (`StepGoals.notices`) against a recount of the detected steps, and
        // the ranking by steps (`StepGoals.rank`) against each user's competition rank.
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
        if goalChecks > 0 { m.exact("NAV-F29", "goal_notice_errors", failures: goalFailures, checks: goalChecks) }
        if actors.contains(where: { !$0.steps.isEmpty }) {
            var scores: [String: Double] = [:]
            for a in actors { scores[a.name, default: 0] += Double(a.steps.count) }
            let ranked = StepGoals.rank(scores.keys.sorted().map { StepGoals.Entry(user: $0, score: scores[$0] ?? 0) }, by: .score)
            m.exact("NAV-F29", "ranking_errors", failures: Self.rankingErrors(ranked, scores: scores), checks: scores.count)
        }
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
        if consentChecks > 0 {
            m.exact("NAV-PR1", "pings_stored_without_consent", failures: pingsWithoutConsent, checks: consentChecks)
            m.exact("NAV-PR1", "phone_records_without_consent", failures: phoneRecordsWithoutConsent, checks: consentChecks)
        }
        if withdrawals > 0 { m.exact("NAV-PR1", "data_left_after_withdrawal", failures: dataLeft, checks: withdrawals) }
        if retentionChecks > 0 {
            m.exact("NAV-PR1", "pings_past_retention", failures: pastRetention, checks: retentionChecks)
            let phoneRefusals = devices.keys.sorted().reduce(0) { $0 + (devices[$1]?.consent.refusedCollections ?? 0) }
            m.value("NAV-PR1", "collections_refused_without_consent", kind: .count,
                    Double(store.refusedWithoutConsent + phoneRefusals), unit: "count", samples: consentChecks)
        }
    }
}
