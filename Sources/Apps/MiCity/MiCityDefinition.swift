import Capabilities
import FieldtestData
import MetricReports
import ScenarioEngine

/// The MiCity app (city mood): its scenario vocabulary, its requirements with
/// their metrics and default thresholds, and its driver.
enum MiCityDefinition: AppVocabularyBuilding {
    /// The app's definition, registered in `AppRegistry.bundled`.
    static let app = AppDefinition(
        name: "micity", doc: "miCity city mood (micity-srs.txt)",
        actions: [
            action("view-mood", "open the city emotion view", []),
            action(
                "word-cloud", "open the word cloud", [SchemaField("top", .integer(minimum: 1, maximum: 500))], work: 50),
            action(
                "list-tweets", "list tweets by class or word",
                [
                    SchemaField("class", .string(allowed: ["positive", "negative", "neutral"])),
                    SchemaField("word", .string()),
                ], work: 8),
            action(
                "nearby-places", "list places near the device",
                [
                    SchemaField(
                        "radius_m", .number(minimum: 1, maximum: 20_100_000),
                        "metres, at most half the Earth's circumference")
                ], work: 5),
            action(
                "add-place", "save a place to favourites",
                [
                    SchemaField("name", .string(), required: true),
                    SchemaField(
                        "note", .string(),
                        "the details as the user edits them before saving (default: the place's region and population)"),
                ], work: 2),
            action(
                "edit-place", "edit a favourite's details and save them",
                [
                    SchemaField("name", .string(), required: true),
                    SchemaField("note", .string(), required: true, "the new details"),
                ]),
            action("remove-place", "delete a favourite place", [SchemaField("name", .string(), required: true)]),
            action(
                "weather", "weather at a point",
                [
                    SchemaField("latitude", .number(minimum: -90, maximum: 90), required: true),
                    SchemaField("longitude", .number(minimum: -180, maximum: 180), required: true),
                ]),
            action("play-game", "start the mood game", [], work: 3),
        ],
        feeds: [
            feed(
                "tweet-batch", "fetch and classify tweets from the emulated API",
                [
                    SchemaField(
                        "dataset", .dataset(formats: labelledTweetFormats), required: true,
                        "the replayed labelled tweet stream: airline tweets CSV, tweets CSV (text, label), "
                            + "original Sentiment140 CSV, SemEval tweets, VADER ground truth or TweetEval texts "
                            + "(labels beside)"),
                    SchemaField("size", .integer(minimum: 1, maximum: 1000), "tweets per request (default 100)")
                        .countingWork(per: 100),
                    SchemaField(
                        "burst", .integer(minimum: 1, maximum: 100),
                        "extra requests attempted in the same window, at most 100"),
                ]),
            weatherFeed(
                [.noaaLCD, .tmy3, .tmy2],
                "a NOAA LCD (either layout) or TMY3/TMY2 recording; LCD stations without coordinates are placed by id"),
        ],
        parameters: [
            SchemaField(
                "rate_limit", .integer(minimum: 2, maximum: 1_000_000),
                "API requests allowed per window (default 15, at least 2, at most 1000000)"),
            SchemaField(
                "client_rate_limit", .integer(minimum: 2, maximum: 1_000_000),
                "requests per window the client assumes (default rate_limit; above it, 429s and back-off)"),
            SchemaField("rate_window", .period(), "API rate window (default 15m), longer than zero"),
            SchemaField("mood_window", .period(), "rolling window of the city mood (default 1h), longer than zero"),
            SchemaField(
                "ingest", .string(allowed: ["background", "main-thread"]),
                "where the app fetches and classifies tweets: background (default; the spec's design, only merging a batch "
                    + "holds the main thread) or main-thread (every tweet fetch and weather refresh blocks user actions: MIC-NF1 shows the cost)"
            ),
        ],
        requirements: requirements,
        inputChecks: [MiCityDriver.inputProblems],
        systemCapabilities: [SystemCapability.sentiment.name],
        makeDriver: { _ in MiCityDriver() })

    /// Formats of the labelled tweet files a `tweet-batch` feed replays (`LabelledTweetStream`).
    static let labelledTweetFormats: [DatasetFormat] = [
        .airlineTweets, .tweetsCSV, .sentiment140CSV, .semEvalTweets, .vaderGroundTruth, .tweetevalText,
    ]

    /// The requirements the app reports, in catalogue order.
    static let requirements: [RequirementDefinition] = [
        RequirementDefinition(
            id: "MIC-12", source: "Func_12",
            summary: "100 tweets fetched and classified positive/negative/neutral every 80 s",
            measuredAs: "batch size, period, classification latency", threshold: "100 per 80 s",
            exercisedBy: .feed("tweet-batch"),
            metrics: [
                Metric.batchLatency, Metric.classify100Compute, Metric.fetchPeriodP50, Metric.fetchPeriodMax,
                Metric.tweetsClassified, Metric.recordingUsedUpAt,
            ]),
        RequirementDefinition(
            id: "MIC-14", source: "Func_14", summary: "Classifier trained on a large corpus of preclassified tweets",
            measuredAs: "accuracy, macro-F1 on held-out labelled tweets",
            threshold: "accuracy ≥ Go et al. 2009 baselines", exercisedBy: .feed("tweet-batch"),
            metrics: [
                Metric.posnegAccuracy, Metric.accuracy, Metric.macroF1, Metric.macroRecall,
                Metric.tweetsLeftOutTrainedOn,
            ]),
        RequirementDefinition(
            id: "MIC-15", source: "Func_15, Func_20", summary: "City-wide emotion updated with each classified batch",
            measuredAs: "correctness of the aggregate", threshold: "exact", exercisedBy: .feed("tweet-batch"),
            metrics: [Metric.moodMismatches]),
        RequirementDefinition(
            id: "MIC-16", source: "Func_16–18, Func_21", summary: "Word cloud of emotion terms, sized by occurrence",
            measuredAs: "term counts", threshold: "exact", exercisedBy: .action("word-cloud"),
            metrics: [Metric.wordCloudMismatches, Metric.distinctTermsChecked]),
        RequirementDefinition(
            id: "MIC-25", source: "Func_25–28", summary: "List tweets by class or containing a word",
            measuredAs: "correctness", threshold: "exact", exercisedBy: .action("list-tweets"),
            metrics: [Metric.listingMismatches]),
        weatherAtPoint,
        RequirementDefinition(
            id: "MIC-34", source: "Func_34–45",
            summary: "Nearby places; add to favourites with editable details; saved to SQLite; delete",
            measuredAs: "correctness, latency", threshold: "exact",
            exercisedBy: .any([.action("add-place"), .action("edit-place"), .action("remove-place")]),
            metrics: [Metric.favouritesMismatches, Metric.saveLatency, Metric.editLatency, Metric.deleteLatency]),
        RequirementDefinition(
            id: "MIC-55", source: "Func_55", summary: "Game difficulty follows the city's emotion (desirable)",
            measuredAs: "monotone mapping", threshold: "documented",
            // `difficulty_not_monotone` is checked over the whole mood range on every run; a `play-game`
            // adds the `difficulty_mismatches` checks.
            exercisedBy: .always,
            metrics: [Metric.difficultyMismatches, Metric.difficultyNotMonotone]),
        RequirementDefinition(
            id: "MIC-NF1", source: "NonFunc_01–02", summary: "Fetching tweets and weather never blocks user actions",
            measuredAs: "user-action latency during ingest", threshold: "p95 unchanged within 10% *default*",
            exercisedBy: .any(
                [
                    "view-mood", "word-cloud", "list-tweets", "nearby-places", "add-place", "edit-place",
                    "remove-place", "weather", "play-game",
                ].map(Exercise.action)),
            metrics: [
                Metric.actionLatencyWithIngest, Metric.actionLatencyWithoutIngest, Metric.actionsDuringIngest,
                Metric.actionsWaitingForMainThread, Metric.p95RatioWithVsWithout,
            ]),
        RequirementDefinition(
            id: "MIC-NF4", source: "NonFunc_04", summary: "Database queries are fast",
            measuredAs: "query latency", threshold: "p95 ≤ 10 ms *default*",
            exercisedBy: .any([
                .action("list-tweets"), .action("add-place"), .action("edit-place"), .action("remove-place"),
            ]),
            metrics: [Metric.query]),
        RequirementDefinition(
            id: "MIC-NF6", source: "NonFunc_06", summary: "Never exceed the tweet API's request limit",
            measuredAs: "requests per rate window", threshold: "≤ limit, always", exercisedBy: .feed("tweet-batch"),
            metrics: [
                Metric.maxRequestsPerWindow, Metric.answers429, Metric.fetchesDeferred, Metric.fetchesPaced,
                Metric.burstRequestsRefused, Metric.fetchesOffline, Metric.fetchesLost,
            ]),
    ]

    /// MIC-30, also reported by weather-cities: one definition, shared.
    static let weatherAtPoint =
        RequirementDefinition(
            id: "MIC-30", source: "Func_30–32",
            summary: "Weather by latitude/longitude: symbol, description, temperature",
            measuredAs: "fields present; values as recorded for the moment shown",
            threshold: "all present, all as recorded",
            // miCity shows the weather at each weather-refresh delivery (its `weather` action needs that feed);
            // weather-cities at each `view-city`. One rule serves both apps' scenarios.
            exercisedBy: .any([.feed("weather-refresh"), .action("view-city")]),
            metrics: [Metric.weatherFieldsMissing, Metric.weatherValuesWrong])
}

extension MiCityDefinition {
    /// The metrics of the app's requirements, each declared once: the requirement list above and
    /// the driver use these keys, so a misspelt metric does not compile.
    enum Metric {
        // MIC-12
        // P95 threshold: the tweet-batch period, from the run.
        static let batchLatency = MetricKey("MIC-12", .latency("batch_latency").unmeasured("no fetched batch arrived"))
        static let classify100Compute = MetricKey("MIC-12", .latency("classify_100_compute"))
        // Threshold: the feed period.
        static let fetchPeriodP50 = MetricKey(
            "MIC-12",
            MetricDefinition("fetch_period_p50", kind: .count, unit: "s", comparator: .lessOrEqual)
                .unmeasured("fewer than two fetches were answered"))
        static let fetchPeriodMax = MetricKey("MIC-12", .info("fetch_period_max", kind: .count, unit: "s"))
        static let tweetsClassified = MetricKey("MIC-12", .info("tweets_classified", kind: .count, unit: "count"))
        static let recordingUsedUpAt = MetricKey("MIC-12", .info("recording_used_up_at", kind: .count, unit: "s"))

        // MIC-14
        static let posnegAccuracy = MetricKey(
            "MIC-14",
            .atLeast("posneg_accuracy", 0.83, kind: .accuracy, unit: "ratio")
                .unmeasured("no held-out positive or negative tweet was classified"))
        static let accuracy = MetricKey("MIC-14", .info("accuracy", kind: .accuracy, unit: "ratio"))
        // Means over classes, not shares of the tweets: no Wilson interval.
        static let macroF1 = MetricKey("MIC-14", .info("macro_f1", kind: .accuracy, unit: "ratio").withoutInterval())
        static let macroRecall = MetricKey(
            "MIC-14", .info("macro_recall", kind: .accuracy, unit: "ratio").withoutInterval())
        // Labelled tweets the shipped model trained on (by text hash), left out of the figures.
        static let tweetsLeftOutTrainedOn = MetricKey(
            "MIC-14", .info("tweets_left_out_trained_on", kind: .count, unit: "count").over(.sum))

        // MIC-15
        static let moodMismatches = MetricKey(
            "MIC-15", .mismatches("mood_mismatches").unmeasured("no fetched batch arrived"))

        // MIC-16
        static let wordCloudMismatches = MetricKey("MIC-16", .mismatches("word_cloud_mismatches"))
        // Each check samples the distinct terms it recounted.
        static let distinctTermsChecked = MetricKey(
            "MIC-16", .info("distinct_terms_checked", kind: .count, unit: "count").over(.sum))

        // MIC-25
        static let listingMismatches = MetricKey("MIC-25", .mismatches("listing_mismatches"))

        // MIC-34
        static let favouritesMismatches = MetricKey("MIC-34", .mismatches("favourites_mismatches"))
        static let saveLatency = MetricKey("MIC-34", .latency("save_latency"))
        static let editLatency = MetricKey("MIC-34", .latency("edit_latency"))
        static let deleteLatency = MetricKey("MIC-34", .latency("delete_latency"))

        // MIC-55
        static let difficultyMismatches = MetricKey("MIC-55", .mismatches("difficulty_mismatches"))
        static let difficultyNotMonotone = MetricKey("MIC-55", .mismatches("difficulty_not_monotone"))

        // MIC-NF1
        static let actionLatencyWithIngest = MetricKey("MIC-NF1", .latency("action_latency_with_ingest"))
        static let actionLatencyWithoutIngest = MetricKey("MIC-NF1", .latency("action_latency_without_ingest"))
        // One sample per user action: 1 when it happened during an ingest, or waited.
        static let actionsDuringIngest = MetricKey(
            "MIC-NF1", .info("actions_during_ingest", kind: .count, unit: "count").over(.sum))
        static let actionsWaitingForMainThread = MetricKey(
            "MIC-NF1", .info("actions_waiting_for_main_thread", kind: .count, unit: "count").over(.sum))
        static let p95RatioWithVsWithout = MetricKey(
            "MIC-NF1", .atMost("p95_ratio_with_vs_without", 1.10, kind: .latency, unit: "ratio").withoutInterval())

        // MIC-NF4
        static let query = MetricKey("MIC-NF4", .latency("query", p95AtMost: 0.010))

        // MIC-NF6
        // Threshold: the API limit.
        static let maxRequestsPerWindow = MetricKey(
            "MIC-NF6",
            MetricDefinition("max_requests_per_window", kind: .count, unit: "count", comparator: .lessOrEqual)
                .unmeasured("no request reached the tweet API"))
        static let answers429 = MetricKey(
            "MIC-NF6",
            .atMost("answers_429", 0, kind: .count, unit: "count").unmeasured("no request reached the tweet API"))
        static let fetchesDeferred = MetricKey("MIC-NF6", .info("fetches_deferred", kind: .count, unit: "count"))
        static let fetchesPaced = MetricKey("MIC-NF6", .info("fetches_paced", kind: .count, unit: "count"))
        static let burstRequestsRefused = MetricKey(
            "MIC-NF6", .info("burst_requests_refused", kind: .count, unit: "count"))
        static let fetchesOffline = MetricKey("MIC-NF6", .info("fetches_offline", kind: .count, unit: "count"))
        static let fetchesLost = MetricKey("MIC-NF6", .info("fetches_lost", kind: .count, unit: "count"))

        // MIC-30
        // Three checks per view: symbol, description, temperature.
        static let weatherFieldsMissing = MetricKey(
            "MIC-30", .mismatches("weather_fields_missing").unmeasured("the weather was refused wherever it was viewed")
        )
        // The shown temperature within the recorded values around its time; icon and description agree.
        static let weatherValuesWrong = MetricKey(
            "MIC-30", .mismatches("weather_values_wrong").unmeasured("no recorded weather was shown"))

        // Counted at the end of the run (`MetricCollector.exact`); not listed in the catalogue.
        static let tweetsSkippedOrDuplicated = MetricKey("MIC-12", .mismatches("tweets_skipped_or_duplicated"))
        /// Fetched batches that did not hold `size` tweets (or what the recording had left), named
        /// after the batch size the run asked for.
        static func batchesNot(_ size: Int) -> MetricKey { MetricKey("MIC-12", .mismatches("batches_not_\(size)")) }
    }
}
