import MetricReports
import ScenarioEngine

/// The WeatherCities app (weather by favourite city): its scenario vocabulary, its requirements with
/// their metrics and default thresholds, and its driver.
enum WeatherCitiesDefinition: AppVocabularyBuilding {
    /// The app's definition, registered in `AppRegistry.bundled`.
    static let app = AppDefinition(
        name: "weather-cities", doc: "Weather by city favourites (weather-cities-usecases.txt)",
        actions: [
            action(
                "search-city", "search US cities",
                [
                    SchemaField("query", .string(), required: true),
                    SchemaField("expect", .string(), "expected top hit"),
                ]),
            action(
                "search-sample", "search a seeded sample of real city names, exact and misspelt",
                [
                    SchemaField("size", .integer(minimum: 1, maximum: 100_000), required: true).countingWork()
                ]),
            action("add-city", "add a favourite city", [SchemaField("city", .string(), required: true)]),
            action("remove-city", "delete a favourite city", [SchemaField("city", .string(), required: true)]),
            action("view-city", "open a favourite's weather and map", [SchemaField("city", .string(), required: true)]),
            action(
                "view-weather-layer", "open the map's weather layer", [SchemaField("city", .string(), required: true)]),
            action(
                "answer-weather-permission", "answer the per-location weather prompt",
                [
                    SchemaField("city", .string(), required: true), SchemaField("allow", .boolean, required: true),
                ]),
            action("register", "create an account", credentials),
        ],
        feeds: [weatherFeed(weatherRecordings, "manifest name of a NOAA LCD, TMY or Beijing PM2.5 dataset")],
        parameters: [SchemaField("search_latency_ms", .number(minimum: 0), "WXC-D1 p95 threshold (default 100)")],
        requirements: requirements,
        checks: [KeyDerivationWork.check(kinds: ["register"])],
        inputChecks: [WeatherProviders.inputProblems],
        makeDriver: { WeatherCitiesDriver(scenario: $0) })

    /// The requirements the app reports, in catalogue order.
    static let requirements: [RequirementDefinition] = [
        RequirementDefinition(
            id: "WXC-A1", source: "R2", summary: "Password ≥ 8 characters with a digit and an upper-case letter",
            measuredAs: "accept/reject", threshold: "exact", exercisedBy: .action("register"),
            metrics: [Metric.a1Behaviour]),
        RequirementDefinition(
            id: "WXC-D1", source: "R3, Add/Delete Cities",
            summary: "Search all US cities; add to and delete from personal favourites",
            measuredAs: "search hit rate for exact and misspelt names; latency",
            threshold: "top-1 ≥ 95% exact, p95 ≤ 100 ms *default*",
            exercisedBy: .any([
                .action("search-city"), .action("search-sample"), .action("add-city"), .action("remove-city"),
            ]),
            metrics: [
                Metric.exactNameTop1HitRate, Metric.misspeltNameTop1HitRate, Metric.misspeltNameTop5HitRate,
                Metric.d1Behaviour, Metric.searchLatency,
            ]),
        RequirementDefinition(
            id: "WXC-W1", source: "R5",
            summary: "A favourite city shows its weather from the weather source and its map location",
            measuredAs:
                "weather fields present (symbol, description, temperature); values as recorded for the moment shown",
            threshold: "all present, all as recorded", exercisedBy: .action("view-city"),
            metrics: [Metric.w1WeatherFieldsMissing, Metric.w1WeatherValuesWrong, Metric.cityViewLatency]),
        RequirementDefinition(
            id: "WXC-P1", source: "Use case 3",
            summary: "Cellular refused → only Wi-Fi is used; location refused → no device position",
            measuredAs: "network path and position availability", threshold: "exact", exercisedBy: .action("view-city"),
            metrics: [Metric.p1Behaviour]),
        RequirementDefinition(
            id: "WXC-P2", source: "Use case 5",
            summary: "Weather service asks permission per new location; refusal disables it there",
            measuredAs: "behaviour", threshold: "exact", exercisedBy: .action("answer-weather-permission"),
            metrics: [Metric.p2Behaviour]),
        RequirementDefinition(
            id: "WXC-M1", source: "Map UI", summary: "Weather layer for a two-hour period",
            measuredAs: "forecast horizon served", threshold: "2 h", exercisedBy: .action("view-weather-layer"),
            metrics: [Metric.weatherLayerHorizonMin]),
        MiCityDefinition.weatherAtPoint,
    ]
}

extension WeatherCitiesDefinition {
    /// The metrics of the app's requirements, each declared once: the requirement list above and
    /// the driver use these keys, so a misspelt metric does not compile.
    enum Metric {
        // WXC-A1
        static let a1Behaviour = MetricKey("WXC-A1", .mismatches("behaviour_mismatches"))

        // WXC-D1
        // Each query samples 1 (hit) or 0: the mean is the hit rate.
        static let exactNameTop1HitRate = MetricKey(
            "WXC-D1", .atLeast("exact_name_top1_hit_rate", 0.95, kind: .accuracy, unit: "ratio").over(.mean))
        static let misspeltNameTop1HitRate = MetricKey(
            "WXC-D1", .info("misspelt_name_top1_hit_rate", kind: .accuracy, unit: "ratio").over(.mean))
        static let misspeltNameTop5HitRate = MetricKey(
            "WXC-D1", .info("misspelt_name_top5_hit_rate", kind: .accuracy, unit: "ratio").over(.mean))
        static let d1Behaviour = MetricKey("WXC-D1", .mismatches("behaviour_mismatches"))
        static let searchLatency = MetricKey(
            "WXC-D1", .latency("search_latency", p95AtMost: 0.1).unmeasured("no city was searched"))

        // WXC-P1
        static let p1Behaviour = MetricKey("WXC-P1", .mismatches("behaviour_mismatches"))

        // WXC-P2
        static let p2Behaviour = MetricKey("WXC-P2", .mismatches("behaviour_mismatches"))

        // WXC-M1
        static let weatherLayerHorizonMin = MetricKey(
            "WXC-M1", .atLeast("weather_layer_horizon_min", 7200, kind: .accuracy, unit: "s").over(.min))

        // WXC-W1: MIC-30's weather checks under this app's ID, then the view's latency.
        static let w1WeatherFieldsMissing = MetricKey("WXC-W1", MiCityDefinition.Metric.weatherFieldsMissing.definition)
        static let w1WeatherValuesWrong = MetricKey("WXC-W1", MiCityDefinition.Metric.weatherValuesWrong.definition)
        static let cityViewLatency = MetricKey("WXC-W1", .latency("city_view_latency"))

        /// The weather checks of a view, under both IDs that report them (WXC-W1, then MIC-30).
        static let weatherFieldsMissing = [w1WeatherFieldsMissing, MiCityDefinition.Metric.weatherFieldsMissing]
        static let weatherValuesWrong = [w1WeatherValuesWrong, MiCityDefinition.Metric.weatherValuesWrong]
    }
}
