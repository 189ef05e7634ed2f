import Capabilities
import MetricReports
import ScenarioEngine

/// The SkyScape app (sunrise/sunset quality predictor): its scenario vocabulary, its requirements with
/// their metrics and default thresholds, and its driver.
enum SkyScapeDefinition: AppVocabularyBuilding {
    /// The app's definition, registered in `AppRegistry.bundled`.
    static let app = AppDefinition(
        name: "skyscape", doc: "SkyScape sunrise/sunset quality predictor (skyscape-srs.txt)",
        actions: [
            action("search", "search a place by name", [SchemaField("query", .string(), required: true)]),
            action(
                "add-favourite", "add a place to favourites", [SchemaField("place", place, required: true, placeDoc)]),
            action(
                "remove-favourites", "multi-select delete",
                [SchemaField("places", .array(place, minItems: 1), required: true, "places, each as 'place' is given")]),
            action(
                "sort-favourites", "sort favourites",
                [SchemaField("by", .string(allowed: ["quality", "distance"]), required: true)]),
            action(
                "view-details", "open a location's details", [SchemaField("place", place, required: true, placeDoc)]),
            action(
                "open-calendar", "open the quality calendar on a day",
                [
                    SchemaField("place", place, required: true, placeDoc),
                    SchemaField(
                        "day", .integer(minimum: -366, maximum: 366), required: true, "days from today (negative: past)"
                    ),
                ]),
            action(
                "set-reminder", "remind 30 min before an event",
                [
                    SchemaField("place", place, required: true, placeDoc),
                    SchemaField("event", .string(allowed: ["sunrise", "sunset"]), required: true),
                    SchemaField("day", .integer(minimum: 0, maximum: 7), "days from today"),
                ]),
            action("register", "create an account", credentials),
            action("login", "sign in", credentials),
            action(
                "move", "move the device",
                [
                    SchemaField("latitude", .number(minimum: -90, maximum: 90), required: true),
                    SchemaField("longitude", .number(minimum: -180, maximum: 180), required: true),
                ]),
        ],
        feeds: [weatherFeed(weatherRecordings, "manifest name of a NOAA LCD, TMY or Beijing PM2.5 dataset")],
        parameters: [
            SchemaField(
                "low_quality_threshold", .number(minimum: 0, maximum: 100),
                "quality % below which a day warns (default 25)"),
            SchemaField(
                "forecast_error_growth", .number(minimum: 0), "forecast cloud error SD per day of lead, % (default 8)"),
            SchemaField("provider", .string(allowed: ["noaa-lcd", "tmy"]), "weather provider"),
        ],
        requirements: requirements,
        // A user who opens the details at the instant of a refresh sees what the app had.
        actionsBeforeFeeds: true,
        checks: [KeyDerivationWork.check(kinds: ["register", "login"])],
        inputChecks: [SkyScapeDriver.inputProblems],
        systemCapabilities: [SystemCapability.sun.name],
        makeDriver: { SkyScapeDriver(scenario: $0) })

    /// A place: a name to search (the most populous match), or a mapping with a name and
    /// coordinates (any spot on Earth), its time zone optional.
    static let place: SchemaType = .oneOf([
        .string(),
        .object(
            ObjectSchema(
                "a place by coordinates",
                [
                    SchemaField("name", .string(), required: true, "the name the app shows"),
                    SchemaField("latitude", .number(minimum: -90, maximum: 90), required: true, "degrees north"),
                    SchemaField("longitude", .number(minimum: -180, maximum: 180), required: true, "degrees east"),
                    SchemaField(
                        "timezone", .string(),
                        "IANA time zone (default: the zone of the nearest place in the places tables)"),
                ])),
    ])
    static let placeDoc = "a place name to search, or {name, latitude, longitude, timezone?}"

    /// The fields of the details screen (SKY-D2), as `LocationDetails.missingFields` names them.
    static let detailFields = [
        "sunrise", "sunset", "cloud_low", "cloud_mid", "cloud_high", "rain_probability", "humidity", "air_quality",
        "wind", "quality",
    ]

    /// The requirements the app reports, in catalogue order.
    static let requirements: [RequirementDefinition] = [
        RequirementDefinition(
            id: "SKY-P1", source: "§3 Performance", summary: "A location entered yields accurate data within 5 s",
            measuredAs: "end-to-end latency of a location query (emulated network + cache + compute)",
            threshold: "p95 ≤ 5 s", exercisedBy: .action("view-details"),
            metrics: [Metric.locationQueryLatency, Metric.detailRequestsFailed]),
        RequirementDefinition(
            id: "SKY-P2", source: "§3 Performance", summary: "Sunrise and sunset time accurate to ±5 min",
            measuredAs:
                "absolute error vs a reference solar position algorithm (NREL SPA), apparent sun centre at −0.833°",
            threshold: "max ≤ 300 s",
            exercisedBy: .any([
                .action("add-favourite"), .action("view-details"), .action("open-calendar"), .action("set-reminder"),
            ]),
            metrics: [Metric.sunEventAbsErrorMax, Metric.sunEventAbsErrorMean, Metric.polarEventMismatches]),
        RequirementDefinition(
            id: "SKY-P3", source: "§3 Performance", summary: "The app responds to user input within 3 s",
            measuredAs: "latency of each user action", threshold: "p95 ≤ 3 s",
            exercisedBy: .any(
                [
                    "search", "add-favourite", "remove-favourites", "sort-favourites", "view-details", "open-calendar",
                    "set-reminder", "register", "login", "move",
                ].map(Exercise.action)),
            metrics: [Metric.userActionLatency]),
        RequirementDefinition(
            id: "SKY-R1", source: "§3 Reliability", summary: "Full function restored within 2 min of a reboot",
            measuredAs: "time from emulated restart to first fully served request, from on-device cache",
            threshold: "≤ 120 s", exercisedBy: .all([.restart, .action("add-favourite")]),
            metrics: [Metric.restartToServedMax, Metric.restartRequestsNotServed]),
        RequirementDefinition(
            id: "SKY-D1", source: "DET1 1.2.1", summary: "Location details refreshed every 5 min",
            measuredAs:
                "age of displayed weather while online; the weather shown is the recording's at the time it was fetched",
            threshold: "≤ 300 s; all as recorded", exercisedBy: .action("view-details"),
            metrics: [Metric.weatherAgeOnlineMax, Metric.shownWeatherMismatches]),
        RequirementDefinition(
            id: "SKY-D2", source: "HOME1, DET1",
            summary:
                "Shows sunrise, sunset, cloud cover (low/mid/high), rain probability, humidity, air quality, wind, golden-hour quality",
            measuredAs: "fields present and sourced from the replayed weather", threshold: "all present",
            exercisedBy: .action("view-details"),
            // Ten checks per details view, then one informational row per field a view lacked
            // (`LocationDetails.missingFields`), by name.
            metrics: [Metric.detailFieldsMissing] + Metric.missingFields),
        RequirementDefinition(
            id: "SKY-Q1", source: "Data dictionary",
            summary: "Golden-hour quality: a percentage predicting how beautiful the sunset/sunrise will be",
            measuredAs: "score in 0–100 per location and day; agreement with labelled cases where available",
            threshold: "documented model",
            exercisedBy: .all([
                .feed("weather-refresh"),
                .any([.action("view-details"), .action("open-calendar"), .action("add-favourite")]),
            ]),
            metrics: [Metric.qualityOutOfRange, Metric.qualityMean]),
        RequirementDefinition(
            id: "SKY-S1", source: "SORT1",
            summary:
                "Sort favourites by quality (high→low) or by distance from the GPS position (near→far); ties alphabetical; empty list → \"No location to be sorted!\"; fewer than 2 → ask to save at least 2",
            measuredAs: "ordering and messages", threshold: "exact", exercisedBy: .action("sort-favourites"),
            metrics: [Metric.s1Behaviour, Metric.distanceSortsWithoutPosition]),
        RequirementDefinition(
            id: "SKY-F1", source: "FAV1",
            summary:
                "Search a location; unknown → \"No results found\"; duplicate add → \"Location already added!\"; multi-select delete",
            measuredAs: "results and messages", threshold: "exact",
            exercisedBy: .any([.action("search"), .action("add-favourite"), .action("remove-favourites")]),
            metrics: [Metric.f1Behaviour]),
        RequirementDefinition(
            id: "SKY-C1", source: "CAL1",
            summary:
                "Calendar with quality for the past 30 and next 7 days; later → \"No predictions for the selected date yet!\"; older → \"Information expired.\"",
            measuredAs: "window and messages", threshold: "exact", exercisedBy: .action("open-calendar"),
            metrics: [Metric.c1Behaviour]),
        RequirementDefinition(
            id: "SKY-M1", source: "CAL1 1.4",
            summary: "Reminder 30 min before sunrise/sunset; warn when a chosen day has a low chance of a visible one",
            measuredAs: "reminder time error; warning when quality below a threshold", threshold: "±60 s",
            exercisedBy: .action("set-reminder"),
            metrics: [Metric.reminderAbsErrorMax, Metric.m1Behaviour]),
        RequirementDefinition(
            id: "SKY-A1", source: "REG1, §4",
            summary:
                "Registration: valid email; unique username and email; password ≥ 8 with upper case and special character (data dictionary: 8–32, upper, lower, digit); passwords match; the spec's messages",
            measuredAs: "accept/reject per rule", threshold: "exact", exercisedBy: .action("register"),
            metrics: [Metric.a1Behaviour]),
        RequirementDefinition(
            id: "SKY-A2", source: "LOG1",
            summary:
                "Login failure always says \"Incorrect username or password. Please try again.\" (no hint which was wrong)",
            measuredAs: "message", threshold: "exact", exercisedBy: .action("login"),
            metrics: [Metric.a2Behaviour]),
        RequirementDefinition(
            id: "SKY-SEC", source: "§3 Security",
            summary: "Authentication required; sensitive data encrypted before storage",
            measuredAs: "at-rest inspection of the store", threshold: "no plaintext secrets",
            exercisedBy: .action("register"),
            metrics: [Metric.plaintextSecretsAtRest]),
        RequirementDefinition(
            id: "SKY-X1", source: "§3 Supportability",
            summary: "Works beyond Singapore when another weather source is provided",
            measuredAs: "scenarios at several latitudes and providers", threshold: "pass everywhere",
            exercisedBy: .all([.feed("weather-refresh"), .action("add-favourite")]),
            metrics: [Metric.weatherUnservedRefreshes]),
    ]
}

extension SkyScapeDefinition {
    /// The metrics of the app's requirements, each declared once: the requirement list above and
    /// the driver use these keys, so a misspelt metric does not compile.
    enum Metric {
        // SKY-P1
        static let locationQueryLatency = MetricKey("SKY-P1", .latency("location_query_latency", p95AtMost: 5))
        // A details request that failed outright (reported only when one did).
        static let detailRequestsFailed = MetricKey("SKY-P1", .mismatches("detail_requests_failed").over(.nonZeroSum))

        // SKY-P2
        static let sunEventAbsErrorMax = MetricKey(
            "SKY-P2",
            .atMost("sun_event_abs_error_max", 300, kind: .accuracy, unit: "s").over(.max)
                .unmeasured("no place had a sunrise or sunset"))
        static let sunEventAbsErrorMean = MetricKey(
            "SKY-P2", .info("sun_event_abs_error_mean", kind: .accuracy, unit: "s").over(.mean))
        // A sunrise or sunset shown where the reference has none, or missing where it has one.
        static let polarEventMismatches = MetricKey("SKY-P2", .mismatches("polar_event_mismatches"))

        // SKY-P3
        static let userActionLatency = MetricKey("SKY-P3", .latency("user_action_latency", p95AtMost: 3))

        // SKY-R1
        static let restartToServedMax = MetricKey(
            "SKY-R1",
            .atMost("restart_to_served_max", 120, kind: .latency, unit: "s").over(.max)
                .unmeasured("no request after a restart was served"))
        static let restartRequestsNotServed = MetricKey("SKY-R1", .mismatches("restart_requests_not_served"))

        // SKY-D1
        static let weatherAgeOnlineMax = MetricKey(
            "SKY-D1",
            .atMost("weather_age_online_max", 300, kind: .accuracy, unit: "s").over(.max)
                .unmeasured("no details were served online"))
        // Each details view: its cloud, rain, humidity and wind lie within the recorded values
        // around the time the shown copy was fetched (now − its age).
        static let shownWeatherMismatches = MetricKey("SKY-D1", .mismatches("shown_weather_mismatches"))

        // SKY-D2
        static let detailFieldsMissing = MetricKey("SKY-D2", .mismatches("detail_fields_missing"))

        // SKY-Q1
        static let qualityOutOfRange = MetricKey(
            "SKY-Q1", .mismatches("quality_out_of_range").unmeasured("no sunset shown had recorded weather around it"))
        static let qualityMean = MetricKey("SKY-Q1", .info("quality_mean", kind: .accuracy, unit: "%").over(.mean))

        // SKY-S1
        static let s1Behaviour = MetricKey(
            "SKY-S1", .mismatches("behaviour_mismatches").unmeasured("every sort was by distance with no position"))
        // One sample per distance sort asked for without a position (not checked).
        static let distanceSortsWithoutPosition = MetricKey(
            "SKY-S1", .info("distance_sorts_without_position", kind: .count, unit: "count").over(.sum))

        // SKY-F1
        static let f1Behaviour = MetricKey("SKY-F1", .mismatches("behaviour_mismatches"))

        // SKY-C1
        static let c1Behaviour = MetricKey("SKY-C1", .mismatches("behaviour_mismatches"))

        // SKY-M1
        static let reminderAbsErrorMax = MetricKey(
            "SKY-M1",
            .atMost("reminder_abs_error_max", 60, kind: .accuracy, unit: "s").over(.max)
                .unmeasured("no reminder fired during the run"))
        static let m1Behaviour = MetricKey(
            "SKY-M1", .mismatches("behaviour_mismatches").unmeasured("no sunrise or sunset on a reminder's day"))

        // SKY-A1
        static let a1Behaviour = MetricKey("SKY-A1", .mismatches("behaviour_mismatches"))

        // SKY-A2
        static let a2Behaviour = MetricKey("SKY-A2", .mismatches("behaviour_mismatches"))

        // SKY-SEC
        static let plaintextSecretsAtRest = MetricKey("SKY-SEC", .mismatches("plaintext_secrets_at_rest"))

        // SKY-X1
        static let weatherUnservedRefreshes = MetricKey(
            "SKY-X1",
            .mismatches("weather_unserved_refreshes").unmeasured("no refresh found a favourite on an online phone"))

        /// One informational row per details field a view lacked, by name, in name order.
        static let missingFields = SkyScapeDefinition.detailFields.sorted().map {
            MetricKey("SKY-D2", .info("missing_\($0)", kind: .count, unit: "count").over(.nonZeroSum))
        }

        /// The row counting views that lacked `field`, one of `SkyScapeDefinition.detailFields`.
        static func missing(_ field: String) -> MetricKey {
            guard let key = missingFields.first(where: { $0.name == "missing_" + field }) else {
                preconditionFailure("'\(field)' is not one of SkyScapeDefinition.detailFields")
            }
            return key
        }
    }
}
