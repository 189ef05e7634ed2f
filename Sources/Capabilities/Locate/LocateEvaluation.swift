import FieldtestData
import Foundation
import Positioning

/// `evaluate locate`: a positioning system's estimates against the labelled positions of a
/// UJIIndoorLoc file (`LONGITUDE`, `LATITUDE`, `FLOOR`, `BUILDINGID`), after training on `--train`
/// (the built-in weighted k-NN locator, or an external system sent the training files in `load`
/// messages).
///
/// A fingerprint with no access point detected has no answer to give and is counted in
/// `no_signal`, not sent. Figures: `fingerprints`, `no_signal`, `no_answer`; over the answered:
/// `error_mean_m`, `error_p50_m`, `error_p75_m`, `error_p95_m`, `error_max_m` (2-D Euclidean error in
/// the file's projected metres, whatever the floor), `building_hit_rate`, and `floor_hit_rate`
/// (building and floor both right).
enum LocateEvaluation {
    /// A labelled position as `items` shows it: projected metres, floor and building.
    static func describe(_ t: UJIIndoorLocLabel) -> String {
        String(format: "%.2f %.2f floor %d building %d", t.longitudeMetres, t.latitudeMetres, t.floor, t.building)
    }

    static func run(_ r: SystemEvaluation.Request, choice: SystemChoice) throws -> (String, [SystemEvaluation.Figure]) {
        let file = r.inputs[0]
        let labelled = try UJIIndoorLoc.load(url: URL(fileURLWithPath: file), displayName: file).records
        let withSignal = labelled.filter { FingerprintBatch.hasSignal($0.rssi) }
        let queries = withSignal.enumerated().map { LocateQuery(id: String($0.offset + 1), rssi: $0.element.rssi) }
        let name: String
        let answers: [LocateAnswer?]
        switch choice {
        case .builtin:
            let training = try r.training.flatMap { path in
                try UJIIndoorLoc.load(url: URL(fileURLWithPath: path), displayName: path).records
            }
            let locator = try FingerprintLocator(training: try FingerprintSample.fromUJIIndoorLoc(training))
            (name, answers) = ("builtin", SystemEvaluation.batched(queries, locator.locate))
        case .external(let spec):
            let setup = r.training.map {
                SetupDataset(path: URL(fileURLWithPath: $0).standardizedFileURL.path, format: "ujiindoorloc-csv")
            }
            let system = try SystemEvaluation.start(.locate, spec: spec, request: r, setup: setup)
            defer { system.close() }
            let positioning = ExternalPositioningSystem(system)
            (name, answers) = (SystemEvaluation.name(system), SystemEvaluation.batched(queries, positioning.locate))
        }
        var errors: [Double] = []
        var buildingHits = 0
        var floorHits = 0
        for (k, (record, answer)) in zip(withSignal, answers).enumerated() {
            guard let answer, let truth = record.label else {
                try r.itemLog?.add(
                    id: queries[k].id, expected: record.label.map(Self.describe) ?? "", answer: nil)
                continue
            }
            let error =
                ((answer.longitude - truth.longitudeMetres) * (answer.longitude - truth.longitudeMetres)
                + (answer.latitude - truth.latitudeMetres) * (answer.latitude - truth.latitudeMetres)).squareRoot()
            errors.append(error)
            try r.itemLog?.add(
                id: queries[k].id, expected: Self.describe(truth),
                answer: String(
                    format: "%.2f %.2f floor %d building %d", answer.longitude, answer.latitude, answer.floor,
                    answer.building),
                correct: answer.building == truth.building && answer.floor == truth.floor, error: error)
            if answer.building == truth.building {
                buildingHits += 1
                if answer.floor == truth.floor { floorHits += 1 }
            }
        }
        let n = errors.count
        let e = ErrorSummary(errors)
        func rate(_ hits: Int) -> Double? { n == 0 ? nil : Double(hits) / Double(n) }
        return (
            name,
            [
                .init("fingerprints", Double(labelled.count), unit: "count", rows: labelled.count),
                .init("no_signal", Double(labelled.count - withSignal.count), unit: "count", rows: labelled.count),
                .init("no_answer", Double(withSignal.count - n), unit: "count", rows: withSignal.count),
                .init("error_mean_m", e.mean, unit: "m", rows: n),
                .init("error_p50_m", e.percentile(50), unit: "m", rows: n),
                .init("error_p75_m", e.percentile(75), unit: "m", rows: n),
                .init("error_p95_m", e.percentile(95), unit: "m", rows: n),
                .init("error_max_m", e.max, unit: "m", rows: n),
                .init("building_hit_rate", rate(buildingHits), unit: "rate", rows: n),
                .init("floor_hit_rate", rate(floorHits), unit: "rate", rows: n),
            ]
        )
    }
}
