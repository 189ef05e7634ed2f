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
        let mx = pairs.reduce(0) { $0 + $1.truth } / n
        let my = pairs.reduce(0) { $0 + $1.estimate } / n
        var sxy = 0.0
        var sxx = 0.0
        var syy = 0.0
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

    /// Records a requirement's rows only when something was checked, so a listed requirement that the
    /// scenario never exercised gets the engine's failing `not_measured` row instead of a vacuous pass.
    func recordMetrics(_ run: RunContext) {
        let m = run.metrics
        // NAV-F2: routes and searches on the phone's own map while offline.
        if offlineChecks > 0 {
            m.exact("NAV-F2", "offline_failures", failures: offlineFailures, checks: offlineChecks)
            m.expect("NAV-F2", "offline_routes", Double(offlineRoutes), samples: offlineRoutes)
            m.expect("NAV-F2", "offline_searches", Double(offlineSearches), samples: offlineSearches)
        }
        // NAV-F3
        if searchQueries > 0 {
            m.expect("NAV-F3", "top5_hit_rate", Double(searchHits) / Double(searchQueries), samples: searchQueries)
        }
        // NAV-F4: regret of the routes the app chose on fresh congestion ("online": its download arrived)
        // and on its cached snapshot ("offline": no connection, or the download failed), and (info) of
        // congestion-free routes for the same requests: when both are 0 the requests never depended on
        // congestion.
        if !regretOnline.isEmpty {
            m.expect("NAV-F4", "regret_online_p95", Self.quantile(regretOnline, 0.95), samples: regretOnline.count)
            m.expect(
                "NAV-F4", "regret_online_mean", regretOnline.reduce(0, +) / Double(regretOnline.count),
                samples: regretOnline.count)
            m.expect(
                "NAV-F4", "regret_online_without_congestion_p95", Self.quantile(blindOnline, 0.95),
                samples: blindOnline.count)
        }
        if !regretOffline.isEmpty {
            m.expect("NAV-F4", "regret_offline_p95", Self.quantile(regretOffline, 0.95), samples: regretOffline.count)
            m.expect(
                "NAV-F4", "regret_offline_mean", regretOffline.reduce(0, +) / Double(regretOffline.count),
                samples: regretOffline.count)
            m.expect(
                "NAV-F4", "regret_offline_without_congestion_p95", Self.quantile(blindOffline, 0.95),
                samples: blindOffline.count)
        }
        if congestionDownloadsFailed > 0 {
            m.expect(
                "NAV-F4", "congestion_downloads_failed", Double(congestionDownloadsFailed),
                samples: congestionDownloadsFailed)
        }
        if routesWithoutMap > 0 {
            m.expect("NAV-F4", "online_routes_without_map", Double(routesWithoutMap), samples: routesWithoutMap)
        }
        if contestedAsked > 0 {
            m.expect("NAV-F4", "contested_requests_not_made", Double(contestedMissing), samples: contestedAsked)
        }
        if !cachedAges.isEmpty {
            m.expect("NAV-F4", "cached_congestion_age_max", cachedAges.max() ?? 0, samples: cachedAges.count)
        }
        // NAV-F5
        if eventChecks > 0 {
            m.exact("NAV-F5", "expired_events_shown", failures: expiredShown, checks: eventChecks)
            m.exact("NAV-F5", "event_listing_mismatches", failures: listingMismatches, checks: eventChecks)
            m.exact("NAV-F5", "poi_listing_mismatches", failures: poiMismatches, checks: eventChecks)
            m.expect("NAV-F5", "events_listed", Double(eventsListed), samples: eventChecks)
            m.expect("NAV-F5", "pois_listed", Double(poisListed), samples: eventChecks)
        }
        // NAV-F7: agreement of estimated with true density (Pearson r), per edge and per 50 m heat-map cell.
        if !densityPairs.isEmpty {
            m.expect("NAV-F7", "edge_density_correlation", Self.correlation(densityPairs), samples: densityPairs.count)
            let mae = densityPairs.reduce(0) { $0 + abs($1.truth - $1.estimate) } / Double(densityPairs.count)
            m.expect("NAV-F7", "edge_density_mae", mae, samples: densityPairs.count)
            m.expect("NAV-F7", "heatmap_50m_correlation", Self.correlation(cellPairs), samples: cellPairs.count)
        }
        // NAV-F9, NAV-F18
        if emergencyChecks > 0 {
            m.exact("NAV-F9", "invalid_emergency_routes", failures: emergencyFailures, checks: emergencyChecks)
            m.expect(
                "NAV-F9", "evacuations_starting_at_exit", Double(evacuationsAtExit + wheelchairEvacuationsAtExit),
                samples: emergencyChecks)
        }
        if alertsSent > 0 { m.exact("NAV-F9", "alerts_undelivered", failures: alertsUndelivered, checks: alertsSent) }
        if wheelchairEvacuations > 0 {
            m.exact(
                "NAV-F18", "wrong_wheelchair_evacuations", failures: wheelchairEvacuationFailures,
                checks: wheelchairEvacuations)
            m.expect(
                "NAV-F18", "wheelchair_evacuations_starting_at_exit", Double(wheelchairEvacuationsAtExit),
                samples: wheelchairEvacuations)
        }
        // NAV-F15
        if wheelchairRoutes > 0 {
            if wheelchairSteps > 0 {
                m.exact("NAV-F15", "forbidden_edges_used", failures: forbiddenUsed, checks: wheelchairSteps)
            }
            m.exact("NAV-F15", "wrong_no_route", failures: wheelchairWrongNoRoute, checks: wheelchairNoRoute)
            m.expect("NAV-F15", "wheelchair_routes", Double(wheelchairRoutes), samples: wheelchairRoutes)
            m.expect("NAV-F15", "wheelchair_no_route", Double(wheelchairNoRoute), samples: wheelchairRoutes)
        }
        // NAV-F19
        checkRemindersAndGoals(run)
        if reminderChecks > 0 {
            m.exact("NAV-F19", "reminder_errors", failures: reminderFailures, checks: reminderChecks)
            m.expect("NAV-F19", "reminders_fired", Double(reminderLog.count), samples: reminderChecks)
        }
        if preferenceListings > 0 {
            m.exact(
                "NAV-F19", "preference_listing_errors", failures: preferenceListingFailures, checks: preferenceListings)
        }
        // NAV-F21: history read back from each phone's cache equals the places actually reached.
        var historyChecks = 0
        var historyFailures = 0
        for a in actors where !a.history.isEmpty {
            historyChecks += 1
            let key = "navup-history-\(a.name)"
            let stored = (try? devices[a.device]?.cache?.entry(forKey: key))??.payload
            let names = stored.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) } ?? []
            if names != a.history { historyFailures += 1 }
        }
        if historyChecks > 0 {
            m.exact("NAV-F21", "history_mismatches", failures: historyFailures, checks: historyChecks)
        }
        // NAV-F22
        if !stepErrors.isEmpty {
            m.expect("NAV-F22", "step_count_error_max", stepErrors.max() ?? 0, samples: stepErrors.count)
            let detected = actors.reduce(0) { $0 + $1.walks.reduce(0) { $0 + $1.detected } }
            let truth = actors.reduce(0) { $0 + $1.walks.reduce(0) { $0 + $1.truth } }
            m.expect("NAV-F22", "steps_detected_total", Double(detected), samples: stepErrors.count)
            m.expect("NAV-F22", "steps_true_total", Double(truth), samples: stepErrors.count)
            // Statistics over time: each user's hourly periods against a recount of their steps.
            var distance = 0.0
            var periods = 0
            var periodErrors = 0
            for a in actors where !a.steps.isEmpty {
                let stats = StepStatistics(events: a.steps, periodSeconds: 3600)
                distance += stats.totalDistanceMetres
                periods += stats.periods.count
                periodErrors += Self.statisticsErrors(stats, events: a.steps, periodSeconds: 3600)
            }
            m.expect("NAV-F22", "distance_walked", distance, samples: periods)
            if periods > 0 {
                m.exact("NAV-F22", "statistics_period_errors", failures: periodErrors, checks: periods)
            }
        }
        // NAV-F26
        if writeChecks > 0 { m.exact("NAV-F26", "write_rights_errors", failures: writeFailures, checks: writeChecks) }
        if mobileWrites > 0 {
            m.expect(
                "NAV-F26", "mobile_writes_denied", Double(store.deniedWrites),
                samples: mobileWrites, threshold: Double(mobileWrites))
        }
        // NAV-F29: the core's goal notices (`StepGoals.notices`) against a recount of the detected steps, and
        // the ranking by steps (`StepGoals.rank`) against each user's competition rank.
        var goalChecks = 0
        var goalFailures = 0
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
            let ranked = StepGoals.rank(
                scores.keys.sorted().map { StepGoals.Entry(user: $0, score: scores[$0] ?? 0) }, by: .score)
            m.exact(
                "NAV-F29", "ranking_errors", failures: Self.rankingErrors(ranked, scores: scores), checks: scores.count)
        }
        // NAV-L1
        if let ev = FingerprintEvaluation(estimates: indoorEstimates, truth: indoorTruth) {
            m.expect("NAV-L1", "indoor_building_hit_rate", ev.buildingHitRate, samples: ev.count)
            m.expect("NAV-L1", "indoor_floor_hit_rate", ev.floorHitRate, samples: ev.count)
            m.expect("NAV-L1", "indoor_error_mean", ev.errors.meanMetres, samples: ev.count)
            m.expect("NAV-L1", "indoor_error_p50", ev.errors.medianMetres, samples: ev.count)
            m.expect("NAV-L1", "indoor_error_p95", ev.errors.p95Metres, samples: ev.count)
        }
        if let ev = FingerprintEvaluation(estimates: newPhoneEstimates, truth: newPhoneTruth) {
            m.expect("NAV-L1", "indoor_new_phone_building_hit_rate", ev.buildingHitRate, samples: ev.count)
            m.expect("NAV-L1", "indoor_new_phone_floor_hit_rate", ev.floorHitRate, samples: ev.count)
            m.expect("NAV-L1", "indoor_new_phone_error_mean", ev.errors.meanMetres, samples: ev.count)
            m.expect("NAV-L1", "indoor_new_phone_error_p95", ev.errors.p95Metres, samples: ev.count)
        }
        if let fused = HorizontalErrorSummary(errorsMetres: outdoorFused),
            let gps = HorizontalErrorSummary(errorsMetres: outdoorGPS)
        {
            m.expect("NAV-L1", "outdoor_fused_error_p50", fused.medianMetres, samples: fused.count)
            m.expect(
                "NAV-L1", "outdoor_fused_error_p95", fused.p95Metres, samples: fused.count, threshold: gps.p95Metres)
            m.expect("NAV-L1", "outdoor_gps_error_p95", gps.p95Metres, samples: gps.count)
        }
        // NAV-PR1
        if consentChecks > 0 {
            m.exact("NAV-PR1", "pings_stored_without_consent", failures: pingsWithoutConsent, checks: consentChecks)
            m.exact(
                "NAV-PR1", "phone_records_without_consent", failures: phoneRecordsWithoutConsent, checks: consentChecks)
        }
        if withdrawals > 0 { m.exact("NAV-PR1", "data_left_after_withdrawal", failures: dataLeft, checks: withdrawals) }
        if retentionChecks > 0 {
            m.exact("NAV-PR1", "pings_past_retention", failures: pastRetention, checks: retentionChecks)
            let phoneRefusals = devices.keys.sorted().reduce(0) { $0 + (devices[$1]?.consent.refusedCollections ?? 0) }
            m.expect(
                "NAV-PR1", "collections_refused_without_consent", Double(store.refusedWithoutConsent + phoneRefusals),
                samples: consentChecks)
        }
    }
}
