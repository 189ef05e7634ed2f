import MetricReports
import ScenarioEngine

/// The BeenThereDoneThat app (journal with accounts): its scenario vocabulary, its requirements with
/// their metrics and default thresholds, and its driver.
enum JournalDefinition: AppVocabularyBuilding {
    /// The app's definition, registered in `AppRegistry.bundled`.
    static let app = AppDefinition(
        name: "journal", doc: "BeenThereDoneThat journal with accounts (beentheredonethat-srs.txt)",
        actions: [
            action("sign-up", "create an account", credentials),
            action("login", "sign in", credentials),
            action(
                "post-entries", "write journal entries",
                [
                    SchemaField(
                        "entries", .integer(minimum: 1, maximum: 10_000), required: true,
                        "entries written, at most 10000"
                    ).countingWork(),
                    SchemaField("category", .string()),
                    SchemaField("type", .string(allowed: ["journal", "picture-diary"])),
                ]),
            action(
                "filter-entries", "filter entries",
                [
                    SchemaField("type", .string(allowed: ["journal", "picture-diary"])),
                    SchemaField("category", .string()),
                    SchemaField(
                        "days", .integer(minimum: 1, maximum: 36_600), "entries of the last N days, at most 36600"),
                ], work: 30),
            action("browse-prompts", "open recommended prompts", []),
            action("crash", "kill the app between send and acknowledgement", []),
        ],
        feeds: [feed("sync", "background synchronisation attempts", [])],
        parameters: [
            SchemaField(
                "kdf_iterations", .integer(minimum: 600_000, maximum: 10_000_000),
                "PBKDF2 iterations (default 600000, at most 10000000)")
        ],
        requirements: requirements,
        checks: [
            KeyDerivationWork.check(kinds: ["sign-up", "login"], iterationsParameter: "kdf_iterations"),
            JournalFilterWork.check(),
        ],
        makeDriver: { _ in JournalDriver() })

    /// The requirements the app reports, in catalogue order.
    static let requirements: [RequirementDefinition] = [
        RequirementDefinition(
            id: "BTD-A1", source: "5.3.1.1–2, 5.2.3.3",
            summary: "Sign-up creates a unique user ID with email, creation date, last sign-in; one account per email",
            measuredAs: "records", threshold: "exact", exercisedBy: .action("sign-up"),
            metrics: [Metric.accountRecordMismatches]),
        RequirementDefinition(
            id: "BTD-A2", source: "5.3.1.3, 5.2.1.4", summary: "Credentials verified promptly; clear error on failure",
            measuredAs: "login latency", threshold: "p95 ≤ 500 ms *default* (with a slow KDF)",
            exercisedBy: .action("login"),
            metrics: [Metric.loginOutcomeMismatches, Metric.loginVerification, Metric.loginEndToEnd]),
        RequirementDefinition(
            id: "BTD-J1", source: "5.3.2.1–2, 5.2.3.4",
            summary: "Journal entry with title, body, saved timestamp, category, prompt",
            measuredAs: "records", threshold: "exact",
            exercisedBy: .all([.action("login"), .action("post-entries")]),
            metrics: [Metric.entryRecordMismatches]),
        RequirementDefinition(
            id: "BTD-J2", source: "5.3.2.3", summary: "Posting an entry has minimal latency",
            measuredAs: "local commit latency; sync latency when online", threshold: "p95 ≤ 50 ms local *default*",
            exercisedBy: .all([.action("login"), .action("post-entries")]),
            metrics: [Metric.localCommit, Metric.syncLatency]),
        RequirementDefinition(
            id: "BTD-J3", source: "5.2.1.2, 5.2.3.2",
            summary: "Filter entries (type: picture diary / journal; category; date)",
            measuredAs: "results", threshold: "exact",
            exercisedBy: .all([.action("login"), .action("filter-entries")]),
            metrics: [Metric.filterResultMismatches, Metric.filterLatency]),
        RequirementDefinition(
            id: "BTD-P1", source: "5.2.3.5–6", summary: "Recommended prompts grouped by category",
            measuredAs: "groups and recommendations against the prompt collection", threshold: "exact",
            exercisedBy: .action("browse-prompts"),
            metrics: [Metric.promptGroupMismatches]),
        RequirementDefinition(
            id: "BTD-S1", source: "5.1", summary: "Synchronises when connected",
            measuredAs: "entries written offline reach the server once online; none lost or duplicated",
            threshold: "0 lost, 0 duplicated", exercisedBy: .all([.action("login"), .action("post-entries")]),
            metrics: [
                Metric.outboxLeft, Metric.resentDeliveries, Metric.crashesBetweenSendAndAck, Metric.pushesOffline,
                Metric.pushesRequestLost, Metric.pushesResponseLost, Metric.pushesDelivered,
            ]),
    ]
}

extension JournalDefinition {
    /// The metrics of the app's requirements, each declared once: the requirement list above and
    /// the driver use these keys, so a misspelt metric does not compile.
    enum Metric {
        // BTD-A1
        static let accountRecordMismatches = MetricKey("BTD-A1", .mismatches("account_record_mismatches"))

        // BTD-A2
        static let loginOutcomeMismatches = MetricKey(
            "BTD-A2", .mismatches("login_outcome_mismatches").unmeasured("no login request reached the server"))
        static let loginVerification = MetricKey(
            "BTD-A2", .latency("login_verification", p95AtMost: 0.5).unmeasured("no login request reached the server"))
        static let loginEndToEnd = MetricKey("BTD-A2", .latency("login_end_to_end"))

        // BTD-J1
        static let entryRecordMismatches = MetricKey("BTD-J1", .mismatches("entry_record_mismatches"))

        // BTD-J2
        static let localCommit = MetricKey("BTD-J2", .latency("local_commit", p95AtMost: 0.05))
        static let syncLatency = MetricKey("BTD-J2", .latency("sync_latency").onVirtualClock())

        // BTD-J3
        static let filterResultMismatches = MetricKey(
            "BTD-J3", .mismatches("filter_result_mismatches").unmeasured("no filter came after a successful login"))
        static let filterLatency = MetricKey("BTD-J3", .latency("filter_latency"))

        // BTD-P1
        static let promptGroupMismatches = MetricKey("BTD-P1", .mismatches("prompt_group_mismatches"))

        // BTD-S1
        static let outboxLeft = MetricKey("BTD-S1", .atMost("outbox_left", 0, kind: .count, unit: "count"))
        static let resentDeliveries = MetricKey("BTD-S1", .info("resent_deliveries", kind: .count, unit: "count"))
        static let crashesBetweenSendAndAck = MetricKey(
            "BTD-S1", .info("crashes_between_send_and_ack", kind: .count, unit: "count"))
        static let pushesOffline = MetricKey("BTD-S1", .info("pushes_offline", kind: .count, unit: "count"))
        static let pushesRequestLost = MetricKey("BTD-S1", .info("pushes_requestLost", kind: .count, unit: "count"))
        static let pushesResponseLost = MetricKey("BTD-S1", .info("pushes_responseLost", kind: .count, unit: "count"))
        static let pushesDelivered = MetricKey("BTD-S1", .info("pushes_delivered", kind: .count, unit: "count"))

        // Counted at the end of the run (`MetricCollector.exact`); not listed in the catalogue.
        static let entriesLost = MetricKey("BTD-S1", .mismatches("entries_lost"))
        static let entriesDuplicated = MetricKey("BTD-S1", .mismatches("entries_duplicated"))
    }
}
