import FieldtestData
import ScenarioEngine

/// Building blocks the bundled apps' definitions share: the action and feed
/// constructors, account credentials, and the weather-refresh feed.
protocol AppVocabularyBuilding {}

extension AppVocabularyBuilding {
    /// An action with the timing keys (`AppDefinition.action`).
    static func action(_ name: String, _ doc: String, _ fields: [SchemaField], work: Double = 1) -> (
        String, ObjectSchema
    ) {
        AppDefinition.action(name, doc, fields, work: work)
    }

    /// A periodic feed (`AppDefinition.feed`).
    static func feed(_ name: String, _ doc: String, _ fields: [SchemaField]) -> (String, ObjectSchema) {
        AppDefinition.feed(name, doc, fields)
    }

    /// The fields of a sign-up or login action.
    static var credentials: [SchemaField] {
        [
            SchemaField("username", .string(), required: true),
            SchemaField("email", .string()),
            SchemaField("password", .string(), required: true),
            SchemaField("confirm", .string(), "password confirmation (default: same as password)"),
            SchemaField("expect", .string(allowed: ["accept", "reject"]), "expected outcome, checked exactly"),
        ]
    }

    /// Weather recordings the SkyScape and weather-cities providers replay.
    static var weatherRecordings: [DatasetFormat] { [.noaaLCD, .tmy3, .tmy2, .beijingPM25] }

    /// The weather feed, reading datasets of `formats`.
    static func weatherFeed(_ formats: [DatasetFormat], _ datasetDoc: String) -> (String, ObjectSchema) {
        feed(
            "weather-refresh", "replays recorded weather observations through a weather provider",
            [
                SchemaField("dataset", .dataset(formats: formats), required: true, datasetDoc),
                SchemaField("place", .string(), "place the recording stands for (default: every favourite)"),
            ])
    }
}
