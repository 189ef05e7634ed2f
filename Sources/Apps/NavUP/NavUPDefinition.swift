import Capabilities
import MetricReports
import ScenarioEngine

/// The NavUP app (campus navigation): its scenario vocabulary, its requirements with
/// their metrics and default thresholds, and its driver.
enum NavUPDefinition: AppVocabularyBuilding {
    /// The app's definition, registered in `AppRegistry.bundled`.
    static let app = AppDefinition(
        name: "navup", doc: "NavUP campus navigation (navup-srs.txt)",
        actions: [
            action(
                "route", "request a route",
                [
                    SchemaField("from", .place, required: true, "venue name or 'lat,lon'"),
                    SchemaField("to", .place, required: true, "venue name or 'lat,lon'"),
                    SchemaField("profile", .string(allowed: ["walk", "wheelchair"])),
                ], work: 2),
            action(
                "random-routes", "request routes between seeded random venues",
                [
                    SchemaField(
                        "routes", .integer(minimum: 1, maximum: 10_000), required: true,
                        "routes per occurrence, at most 10000"
                    ).countingWork(),
                    SchemaField("profile", .string(allowed: ["walk", "wheelchair"])),
                    SchemaField(
                        "contested", .boolean,
                        "only requests whose congestion-free route is slower under the crowd's true positions than the best route then (NAV-F4); none is made while no pair is (default false)"
                    ),
                ], work: 75),
            action(
                "search-venue",
                "search a venue: one typed query, or `queries` seeded prefix/misspelt queries of random venues",
                [
                    SchemaField(
                        "query", .string(),
                        "text typed; the venues whose name, or a word of it, begins with it are the expected answers; a text that begins no venue name expects nothing found (the not-found prompt)"
                    ),
                    SchemaField(
                        "queries", .integer(minimum: 1, maximum: 100_000),
                        "number of seeded queries (prefixes and one-typo names of random venues), at most 100000"
                    ).countingWork(),
                ]),
            action(
                "emergency", "route to the nearest exit or assembly point",
                [
                    SchemaField("from", .place, required: true, "venue name or 'lat,lon'"),
                    SchemaField("profile", .string(allowed: ["walk", "wheelchair"])),
                ]),
            action(
                "walk", "walk with the phone",
                [
                    SchemaField(
                        "duration", .period(maximum: maximumWalkSeconds), required: true,
                        "length of the walk, at most \(Int(maximumWalkSeconds / 3600))h; it must end within the scenario"
                    ).countingWork(per: 10),
                    SchemaField("pace", .string(allowed: ["slow", "normal", "fast"])),
                ]),
            action(
                "locate", "position the phone",
                [
                    SchemaField("environment", .string(allowed: ["indoor", "outdoor"]), required: true),
                    SchemaField(
                        "samples", .integer(minimum: 1, maximum: 3_600),
                        "indoor: test rows located (default 20); outdoor: seconds of walking (default 120); at most 3600"
                    ).countingWork(),
                ]),
            action(
                "consent", "grant or withdraw consent to location collection",
                [SchemaField("granted", .boolean, required: true)]),
            action(
                "write-congestion", "try to write congestion data",
                [SchemaField("role", .string(allowed: ["mobile", "agent", "admin"]), required: true)], work: 2),
            action(
                "set-goal", "set a step goal",
                [
                    SchemaField(
                        "steps", .integer(minimum: 1, maximum: 1_000_000), required: true,
                        "daily step goal, at most 1000000")
                ]),
            action(
                "set-preferences", "save preferred event categories and a reminder lead time",
                [
                    SchemaField("categories", .array(.string(), minItems: 1), required: true),
                    SchemaField("lead", .duration, "reminder before an event starts (default 15m)"),
                ]),
        ],
        feeds: [
            feed(
                "crowd-pings", "crowd-sourced pedestrian pings from the mobility model",
                [
                    SchemaField(
                        "people", .integer(minimum: 1, maximum: 20_000), required: true,
                        "pedestrians simulated, at most 20000"),
                    SchemaField(
                        "dataset", .dataset(formats: [.geolifePLT]),
                        "GeoLife .plt trajectory used to calibrate walking speed"),
                    SchemaField(
                        "gps", .string(allowed: ["open-sky", "urban", "indoor"]),
                        "GPS environment of the crowd's phones (default urban)"),
                    SchemaField(
                        "lecture_venues", .integer(minimum: 2, maximum: 100_000),
                        "venues holding the next classes at each change (default: every venue)"),
                    SchemaField(
                        "exit_window", .duration, "time over which a class leaves its room after it ends (default 5m)"),
                ]),
            feed(
                "campus-events", "timetabled events with expiry",
                [
                    SchemaField(
                        "count", .integer(minimum: 1, maximum: 10_000), "events per delivery (default 5), at most 10000"
                    ).countingWork()
                ]),
        ],
        parameters: [
            SchemaField(
                "campus", .dataset(formats: [.osmXML, .osmPBF]), "manifest name of the campus OSM extract (XML or PBF)"),
            SchemaField(
                "class_change_period", .period(minimum: minimumClassChangePeriod),
                "time between timetabled class changes (default 1h), at least 10m"),
            SchemaField("ping_retention", .duration, "how long crowd pings are kept (default 1h)"),
            SchemaField(
                "fingerprint_train", .dataset(formats: [.ujiIndoorLoc]),
                "manifest name of the UJIIndoorLoc rows the Wi-Fi locator is trained on"),
            SchemaField(
                "fingerprint_test", .dataset(formats: [.ujiIndoorLoc]),
                "manifest name of the UJIIndoorLoc rows located (rows of phones absent from training)"),
        ],
        requirements: requirements,
        checks: [crowdWork],
        inputChecks: [NavUPDriver.inputProblems],
        systemCapabilities: [SystemCapability.route.name, SystemCapability.locate.name],
        makeDriver: { _ in NavUPDriver() })

    /// The requirements the app reports, in catalogue order.
    static let requirements: [RequirementDefinition] = [
        RequirementDefinition(
            id: "NAV-F2", source: "F2, F8", summary: "Campus map usable online and offline",
            measuredAs: "routing and search with connectivity off", threshold: "works",
            exercisedBy: .all([
                .offlinePeriod, .any([.action("route"), .action("random-routes"), .action("search-venue")]),
            ]),
            metrics: [Metric.offlineFailures, Metric.offlineRoutes, Metric.offlineSearches]),
        RequirementDefinition(
            id: "NAV-F3", source: "F3",
            summary: "Search a venue with autocomplete from cache and remote; not found → prompt",
            measuredAs: "top-k hit rate, latency", threshold: "top-5 ≥ 95% *default*",
            exercisedBy: .action("search-venue"),
            metrics: [Metric.top5HitRate, Metric.searchLatency]),
        RequirementDefinition(
            id: "NAV-F4", source: "F4",
            summary:
                "Fastest route between two points; start from map, search or sensed position; offline uses cached congestion, online fresh",
            measuredAs: "route duration vs optimum under true congestion (\"regret\"); latency",
            threshold: "regret p95 ≤ 10% online *default*; p95 ≤ 100 ms *default*",
            exercisedBy: .any([.action("route"), .action("random-routes")]),
            metrics: [
                Metric.routeLatency, Metric.regretOnlineP95, Metric.regretOnlineMean,
                Metric.regretOnlineWithoutCongestionP95, Metric.regretSavedByFreshCongestionMean,
                Metric.regretOfflineP95, Metric.regretOfflineMean, Metric.regretOfflineWithoutCongestionP95,
                Metric.congestionDownloadsFailed, Metric.onlineRoutesWithoutMap, Metric.contestedRequestsNotMade,
                Metric.cachedCongestionAgeMax, Metric.routesOffThePaths, Metric.congestionDownload,
            ]),
        RequirementDefinition(
            id: "NAV-F5", source: "F5, F6, F23, F24",
            summary: "Points of interest and non-expired events along the route or near a place",
            measuredAs: "correctness; no expired event shown", threshold: "exact",
            exercisedBy: .any([.action("route"), .action("random-routes")]),
            metrics: [
                Metric.expiredEventsShown, Metric.eventListingMismatches, Metric.poiListingMismatches,
                Metric.eventsListed, Metric.poisListed,
            ]),
        RequirementDefinition(
            id: "NAV-F7", source: "F7, F25", summary: "Congestion / heatmap from crowd-sourced pedestrian pings",
            measuredAs: "agreement of estimated density with the replayed truth", threshold: "documented",
            exercisedBy: .feed("crowd-pings"),
            metrics: [Metric.edgeDensityCorrelation, Metric.edgeDensityMae, Metric.heatmap50mCorrelation]),
        RequirementDefinition(
            id: "NAV-F9", source: "F9", summary: "Mass alerts; emergency route to an assembly point",
            measuredAs: "delivery; route validity", threshold: "exact", exercisedBy: .action("emergency"),
            metrics: [Metric.invalidEmergencyRoutes, Metric.evacuationsStartingAtExit, Metric.alertsUndelivered]),
        RequirementDefinition(
            id: "NAV-F15", source: "F15", summary: "Wheelchair-friendly fastest route (no steps or impassable edges)",
            measuredAs: "forbidden edges used", threshold: "0",
            exercisedBy: .any([
                .actionWith("route", key: "profile", value: "wheelchair"),
                .actionWith("random-routes", key: "profile", value: "wheelchair"),
                .actionWith("emergency", key: "profile", value: "wheelchair"),
            ]),
            metrics: [
                Metric.forbiddenEdgesUsed, Metric.wrongNoRoute, Metric.wheelchairRoutes, Metric.wheelchairNoRoute,
            ]),
        RequirementDefinition(
            id: "NAV-F18", source: "F18",
            summary: "Emergency: nearest wheelchair-friendly route to an exit from the current position",
            measuredAs: "correctness", threshold: "exact",
            exercisedBy: .actionWith("emergency", key: "profile", value: "wheelchair"),
            metrics: [Metric.wrongWheelchairEvacuations, Metric.wheelchairEvacuationsStartingAtExit]),
        RequirementDefinition(
            id: "NAV-F19", source: "F19, F20",
            summary: "Places and upcoming events by saved preferences, with reminders",
            measuredAs: "correctness", threshold: "exact", exercisedBy: .action("set-preferences"),
            metrics: [Metric.reminderErrors, Metric.remindersFired, Metric.preferenceListingErrors]),
        RequirementDefinition(
            id: "NAV-F21", source: "F21", summary: "History of places visited",
            measuredAs: "correctness", threshold: "exact", exercisedBy: .action("walk"),
            metrics: [Metric.historyMismatches]),
        RequirementDefinition(
            id: "NAV-F22", source: "F22, F27, F31",
            summary: "Step count and distance walked, with statistics over time",
            measuredAs: "step-count error vs ground truth", threshold: "≤ 5% *default*", exercisedBy: .action("walk"),
            metrics: [
                Metric.stepCountErrorMax, Metric.stepsDetectedTotal, Metric.stepsTrueTotal, Metric.distanceWalked,
                Metric.statisticsPeriodErrors,
            ]),
        RequirementDefinition(
            id: "NAV-F26", source: "F26",
            summary: "Access rights: mobile users read congestion; agents and admins read/write",
            measuredAs: "denied writes", threshold: "all denied", exercisedBy: .action("write-congestion"),
            metrics: [Metric.writeRightsErrors, Metric.mobileWritesDenied]),
        RequirementDefinition(
            id: "NAV-F29", source: "F29, F30, F34, F35",
            summary: "Step/distance goals, completion notices, admin-set goals and prizes, ranking by time or score",
            measuredAs: "correctness", threshold: "exact", exercisedBy: .any([.action("set-goal"), .action("walk")]),
            metrics: [Metric.goalNoticeErrors, Metric.rankingErrors]),
        RequirementDefinition(
            id: "NAV-L1", source: "§3.1.4, F4",
            summary:
                "Position from Wi-Fi signal strength, cell towers, GPS, accelerometer and gyroscope, indoors and outdoors",
            measuredAs: "horizontal error (m), floor and building hit rate", threshold: "see performance goals",
            exercisedBy: .action("locate"),
            metrics: [
                Metric.indoorBuildingHitRate, Metric.indoorFloorHitRate, Metric.indoorErrorMean, Metric.indoorErrorP50,
                Metric.indoorErrorP95, Metric.indoorNewPhoneBuildingHitRate, Metric.indoorNewPhoneFloorHitRate,
                Metric.indoorNewPhoneErrorMean, Metric.indoorNewPhoneErrorP95, Metric.outdoorFusedErrorP50,
                Metric.outdoorFusedErrorP95, Metric.outdoorGpsErrorP95, Metric.indoorLocateLatency,
            ]),
        RequirementDefinition(
            id: "NAV-PR1", source: "§2.5",
            summary: "Consent before collecting location (POPI Act); withdrawal; deletion of identifiable data",
            measuredAs: "no data before consent; none left after deletion", threshold: "exact",
            exercisedBy: .any([.feed("crowd-pings"), .actionWith("consent", key: "granted", value: "false")]),
            metrics: [
                Metric.pingsStoredWithoutConsent, Metric.phoneRecordsWithoutConsent, Metric.dataLeftAfterWithdrawal,
                Metric.pingsPastRetention, Metric.collectionsRefusedWithoutConsent,
            ]),
    ]

    /// The longest `walk` an actor may take, seconds (2 h: the phone's inertial
    /// trace is generated at 100 Hz and held in memory).
    static let maximumWalkSeconds: Double = 2 * 3600
    /// The shortest `class_change_period`, seconds: the crowd model plans
    /// every pedestrian's trip at every class change.
    static let minimumClassChangePeriod: Double = 600

    /// The most trips (pedestrians × class changes) the crowd model plans in one scenario.
    static let maximumCrowdTrips = 10_000_000

    /// Checks that the crowd-pings feeds plan a bounded number of trips: people ×
    /// class changes over the scenario, with the shortest `class_change_period`
    /// given (parameter or sweep value; default 1 h).
    @Sendable static func crowdWork(_ s: ScenarioCheckInput) -> [ScenarioProblem] {
        let periods =
            [s.parameters?["class_change_period"]?.double].compactMap { $0 }
            + (s.sweepValues["class_change_period"]?.compactMap(\.double) ?? [])
        guard let period = periods.isEmpty ? 3600 : periods.min(), period > 0 else { return [] }
        let changes = (s.duration / period).rounded(.up) + 1
        var problems: [ScenarioProblem] = []
        for (i, feed) in s.feeds.enumerated() where feed.kind == "crowd-pings" {
            guard let peopleValue = feed.parameters["people"], let people = peopleValue.int else { continue }
            let trips = Double(people) * changes
            if trips > Double(maximumCrowdTrips) {
                problems.append(
                    ScenarioProblem(
                        at: peopleValue,
                        "'feeds[\(i)].people': \(people) people over \(Int(changes)) class changes (every \(DurationText.describe(period))) plan \(Int(trips)) trips; the most is \(maximumCrowdTrips); use fewer people, a longer 'class_change_period' or a shorter 'time.duration'"
                    ))
            }
        }
        return problems
    }
}

extension NavUPDefinition {
    /// The metrics of the app's requirements, each declared once: the requirement list above and
    /// the driver use these keys, so a misspelt metric does not compile.
    enum Metric {
        // NAV-F2
        static let offlineFailures = MetricKey("NAV-F2", .mismatches("offline_failures"))
        static let offlineRoutes = MetricKey("NAV-F2", .info("offline_routes", kind: .count, unit: "count").over(.sum))
        static let offlineSearches = MetricKey(
            "NAV-F2", .info("offline_searches", kind: .count, unit: "count").over(.sum))

        // NAV-F3
        static let top5HitRate = MetricKey(
            "NAV-F3", .atLeast("top5_hit_rate", 0.95, kind: .accuracy, unit: "ratio").over(.mean))
        static let searchLatency = MetricKey("NAV-F3", .latency("search_latency"))

        // NAV-F4
        static let routeLatency = MetricKey(
            "NAV-F4",
            .latency("route_latency", p95AtMost: 0.1)
                .unmeasured("no route request had the campus map on the phone"))
        static let regretOnlineP95 = MetricKey(
            "NAV-F4",
            .atMost("regret_online_p95", 0.10, kind: .accuracy, unit: "ratio").over(.quantile(0.95))
                .unmeasured("no route was found online with fresh congestion"))
        static let regretOnlineMean = MetricKey(
            "NAV-F4", .info("regret_online_mean", kind: .accuracy, unit: "ratio").over(.mean))
        static let regretOnlineWithoutCongestionP95 = MetricKey(
            "NAV-F4",
            .info("regret_online_without_congestion_p95", kind: .accuracy, unit: "ratio").over(.quantile(0.95)))
        // Of the online requests whose congestion-free route the crowd slows, the mean share of
        // that route's regret saved by routing on fresh congestion (0 when congestion is ignored;
        // `check` compares it with the baseline).
        static let regretSavedByFreshCongestionMean = MetricKey(
            "NAV-F4", .info("regret_saved_by_fresh_congestion_mean", kind: .accuracy, unit: "ratio").over(.mean))
        static let regretOfflineP95 = MetricKey(
            "NAV-F4", .info("regret_offline_p95", kind: .accuracy, unit: "ratio").over(.quantile(0.95)))
        static let regretOfflineMean = MetricKey(
            "NAV-F4", .info("regret_offline_mean", kind: .accuracy, unit: "ratio").over(.mean))
        static let regretOfflineWithoutCongestionP95 = MetricKey(
            "NAV-F4",
            .info("regret_offline_without_congestion_p95", kind: .accuracy, unit: "ratio").over(.quantile(0.95)))
        static let congestionDownloadsFailed = MetricKey(
            "NAV-F4", .info("congestion_downloads_failed", kind: .count, unit: "count").over(.sum))
        static let onlineRoutesWithoutMap = MetricKey(
            "NAV-F4", .info("online_routes_without_map", kind: .count, unit: "count").over(.sum))
        static let contestedRequestsNotMade = MetricKey(
            "NAV-F4", .info("contested_requests_not_made", kind: .count, unit: "count").over(.sum))
        static let cachedCongestionAgeMax = MetricKey(
            "NAV-F4", .info("cached_congestion_age_max", kind: .accuracy, unit: "s").over(.max))
        // Answers of the routing system under test (plain queries) that do not walk the campus paths.
        static let routesOffThePaths = MetricKey(
            "NAV-F4", .mismatches("routes_off_the_paths").unmeasured("no route was found without congestion"))
        static let congestionDownload = MetricKey("NAV-F4", .latency("congestion_download").onVirtualClock())

        // NAV-F5
        static let expiredEventsShown = MetricKey(
            "NAV-F5", .mismatches("expired_events_shown").unmeasured("no route request found a route"))
        static let eventListingMismatches = MetricKey(
            "NAV-F5", .mismatches("event_listing_mismatches").unmeasured("no route request found a route"))
        static let poiListingMismatches = MetricKey(
            "NAV-F5", .mismatches("poi_listing_mismatches").unmeasured("no route request found a route"))
        static let eventsListed = MetricKey("NAV-F5", .info("events_listed", kind: .count, unit: "count").over(.sum))
        static let poisListed = MetricKey("NAV-F5", .info("pois_listed", kind: .count, unit: "count").over(.sum))

        // NAV-F7
        static let edgeDensityCorrelation = MetricKey(
            "NAV-F7", .info("edge_density_correlation", kind: .accuracy, unit: "r").over(.correlation))
        static let edgeDensityMae = MetricKey(
            "NAV-F7", .info("edge_density_mae", kind: .accuracy, unit: "persons/m2").over(.mean))
        static let heatmap50mCorrelation = MetricKey(
            "NAV-F7",
            .atLeast("heatmap_50m_correlation", 0.8, kind: .accuracy, unit: "r").over(.correlation)
                .unmeasured("nobody was walking at any delivery"))

        // NAV-F9
        static let invalidEmergencyRoutes = MetricKey("NAV-F9", .mismatches("invalid_emergency_routes"))
        static let evacuationsStartingAtExit = MetricKey(
            "NAV-F9", .info("evacuations_starting_at_exit", kind: .count, unit: "count").over(.sum))
        static let alertsUndelivered = MetricKey("NAV-F9", .mismatches("alerts_undelivered"))

        // NAV-F15
        static let forbiddenEdgesUsed = MetricKey(
            "NAV-F15", .mismatches("forbidden_edges_used").unmeasured("no wheelchair route was found"))
        static let wrongNoRoute = MetricKey(
            "NAV-F15", .mismatches("wrong_no_route").unmeasured("no wheelchair query had no route"))
        static let wheelchairRoutes = MetricKey(
            "NAV-F15", .info("wheelchair_routes", kind: .count, unit: "count").over(.sum))
        static let wheelchairNoRoute = MetricKey(
            "NAV-F15", .info("wheelchair_no_route", kind: .count, unit: "count").over(.sum))

        // NAV-F18
        static let wrongWheelchairEvacuations = MetricKey("NAV-F18", .mismatches("wrong_wheelchair_evacuations"))
        static let wheelchairEvacuationsStartingAtExit = MetricKey(
            "NAV-F18", .info("wheelchair_evacuations_starting_at_exit", kind: .count, unit: "count").over(.sum))

        // NAV-F19
        static let reminderErrors = MetricKey(
            "NAV-F19", .mismatches("reminder_errors").unmeasured("no event of a preferred category was delivered"))
        static let remindersFired = MetricKey(
            "NAV-F19", .info("reminders_fired", kind: .count, unit: "count").over(.sum))
        static let preferenceListingErrors = MetricKey("NAV-F19", .mismatches("preference_listing_errors"))

        // NAV-F21
        static let historyMismatches = MetricKey("NAV-F21", .mismatches("history_mismatches"))

        // NAV-F22
        static let stepCountErrorMax = MetricKey(
            "NAV-F22", .atMost("step_count_error_max", 0.05, kind: .accuracy, unit: "ratio").over(.max))
        static let stepsDetectedTotal = MetricKey(
            "NAV-F22", .info("steps_detected_total", kind: .count, unit: "steps").over(.sum))
        static let stepsTrueTotal = MetricKey(
            "NAV-F22", .info("steps_true_total", kind: .count, unit: "steps").over(.sum))
        static let distanceWalked = MetricKey(
            "NAV-F22", .info("distance_walked", kind: .accuracy, unit: "m").over(.sum))
        static let statisticsPeriodErrors = MetricKey(
            "NAV-F22", .mismatches("statistics_period_errors").unmeasured("no walk detected a step"))

        // NAV-F26
        static let writeRightsErrors = MetricKey("NAV-F26", .mismatches("write_rights_errors"))
        // Threshold: every write a mobile user tried.
        static let mobileWritesDenied = MetricKey(
            "NAV-F26",
            MetricDefinition("mobile_writes_denied", kind: .count, unit: "count", comparator: .equal).over(.sum))

        // NAV-F29
        static let goalNoticeErrors = MetricKey("NAV-F29", .mismatches("goal_notice_errors"))
        static let rankingErrors = MetricKey(
            "NAV-F29", .mismatches("ranking_errors").unmeasured("no walk detected a step"))

        // NAV-L1
        static let indoorBuildingHitRate = MetricKey(
            "NAV-L1",
            .atLeast("indoor_building_hit_rate", 1.0, kind: .accuracy, unit: "ratio")
                .unmeasured("the locator answered no scan"))
        static let indoorFloorHitRate = MetricKey(
            "NAV-L1",
            .atLeast("indoor_floor_hit_rate", 0.93, kind: .accuracy, unit: "ratio")
                .unmeasured("the locator answered no scan"))
        static let indoorErrorMean = MetricKey(
            "NAV-L1",
            .atMost("indoor_error_mean", 6.5, kind: .accuracy, unit: "m")
                .unmeasured("the locator answered no scan"))
        static let indoorErrorP50 = MetricKey("NAV-L1", .info("indoor_error_p50", kind: .accuracy, unit: "m"))
        static let indoorErrorP95 = MetricKey("NAV-L1", .info("indoor_error_p95", kind: .accuracy, unit: "m"))
        static let indoorNewPhoneBuildingHitRate = MetricKey(
            "NAV-L1", .info("indoor_new_phone_building_hit_rate", kind: .accuracy, unit: "ratio"))
        static let indoorNewPhoneFloorHitRate = MetricKey(
            "NAV-L1", .info("indoor_new_phone_floor_hit_rate", kind: .accuracy, unit: "ratio"))
        static let indoorNewPhoneErrorMean = MetricKey(
            "NAV-L1", .info("indoor_new_phone_error_mean", kind: .accuracy, unit: "m"))
        static let indoorNewPhoneErrorP95 = MetricKey(
            "NAV-L1", .info("indoor_new_phone_error_p95", kind: .accuracy, unit: "m"))
        static let outdoorFusedErrorP50 = MetricKey(
            "NAV-L1", .info("outdoor_fused_error_p50", kind: .accuracy, unit: "m"))
        // Threshold: the GPS-only p95 of the same walks.
        static let outdoorFusedErrorP95 = MetricKey(
            "NAV-L1",
            MetricDefinition("outdoor_fused_error_p95", kind: .accuracy, unit: "m", comparator: .lessOrEqual)
                .unmeasured("no GPS fix in an outdoor locate"))
        static let outdoorGpsErrorP95 = MetricKey("NAV-L1", .info("outdoor_gps_error_p95", kind: .accuracy, unit: "m"))
        static let indoorLocateLatency = MetricKey("NAV-L1", .latency("indoor_locate_latency"))

        // NAV-PR1
        static let pingsStoredWithoutConsent = MetricKey("NAV-PR1", .mismatches("pings_stored_without_consent"))
        static let phoneRecordsWithoutConsent = MetricKey("NAV-PR1", .mismatches("phone_records_without_consent"))
        static let dataLeftAfterWithdrawal = MetricKey("NAV-PR1", .mismatches("data_left_after_withdrawal"))
        static let pingsPastRetention = MetricKey("NAV-PR1", .mismatches("pings_past_retention"))
        static let collectionsRefusedWithoutConsent = MetricKey(
            "NAV-PR1", .info("collections_refused_without_consent", kind: .count, unit: "count").over(.sum))
    }
}
