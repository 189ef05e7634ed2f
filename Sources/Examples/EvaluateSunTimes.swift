import Capabilities
import Foundation

/// A capability in-process: score the built-in sun-times system against the NREL SPA reference, as
/// `fieldtest evaluate sun` does. An external system (`SystemChoice.external`) is scored the same way.
enum EvaluateSunTimes: InProcessExample {
    static func run() throws {
        // snippet.evaluate
        // The places and dates to score: `fieldtest sun`'s input. Columns of labelled times (sunrise, sunset, …)
        // would replace the reference.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldtest-snippet-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("places.csv")
        try """
        id,latitude,longitude,date,timezone
        paris,48.85,2.35,2024-06-21,Europe/Paris
        quito,-0.18,-78.47,2024-03-20,America/Guayaquil
        tromso,69.65,18.96,2024-01-15,Europe/Oslo
        """.write(to: input, atomically: true, encoding: .utf8)

        let sun = try CapabilityRegistry.bundled.named("sun")
        let request = SystemEvaluation.Request(capability: sun, inputs: [input.path], datasets: folder, output: nil)
        let report = try SystemEvaluation.evaluate(request)
        // One figure per metric and event kind: errors in seconds, counts within --tolerance (60 s).
        for figure in report.figures
        where ["sunrise", "sunset"].contains(figure.scope) && figure.metric == "error_max_s" {
            let value = figure.value.map { String(format: "%.1f", $0) } ?? "-"
            print(figure.scope, figure.metric, value, figure.unit, "over", figure.rows, "places")
        }
        // snippet.end
    }
}
