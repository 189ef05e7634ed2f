import ArgumentParser
import FieldtestData
import Foundation
import Positioning

/// `fieldtest locate`: Wi-Fi fingerprinting of UJIIndoorLoc-format files.
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Estimate building, floor and coordinates of Wi-Fi fingerprints (UJIIndoorLoc layout) by weighted k-NN.",
        discussion: """
        Output columns: row,longitude,latitude,floor,building,status (row = 1-based data row of the input; \
        coordinates in the input's projected metres; status ok, or no_signal for a fingerprint in which no \
        access point was detected (every WAP value 100): it is not located and its other columns are empty). \
        When the input has ground truth, building and floor hit rates and mean/median/p75/p95 2-D errors of the \
        located fingerprints go to standard error. With --cross-validate, the training data is evaluated \
        leave-one-phone-out (or -user-out; it needs at least two phones or users) instead of an --input, \
        and the one-line result goes to --output (default: standard output).
        """
    )

    @Option(name: .long, help: "Labelled training file (UJIIndoorLoc layout); repeat to add files.")
    var train: [String] = []
    @Option(name: .long, help: "Fingerprints to locate (UJIIndoorLoc layout; ground-truth columns optional).")
    var input: String?
    @Option(name: .long, help: "Output CSV (default: standard output).")
    var output: String?
    @Option(name: .long, help: "Evaluate the training data holding out each 'phone' or 'user' in turn.")
    var crossValidate: FingerprintCrossValidation.Grouping?
    @Option(name: .long, help: "'tuned' (powed RSSI, Sørensen, weighted 5-NN cascade after a device-offset search), 'no-offset-search' (the same cascade without the search) or 'baseline' (the published 1-NN Euclidean baseline), the last two for comparison.")
    var method: Method = .tuned

    /// The locator configurations `--method` chooses from.
    enum Method: String, ExpressibleByArgument, CaseIterable {
        case tuned, baseline
        case withoutOffsetSearch = "no-offset-search"

        var configuration: FingerprintLocator.Configuration {
            switch self {
            case .tuned: .tuned
            case .baseline: .publishedBaseline
            case .withoutOffsetSearch: .withoutOffsetSearch
            }
        }
    }

    func validate() throws {
        if train.isEmpty { throw ValidationError("give at least one --train FILE.csv (UJIIndoorLoc layout)") }
        if input == nil && crossValidate == nil { throw ValidationError("give --input FILE.csv to locate, or --cross-validate phone|user") }
        if input != nil && crossValidate != nil {
            throw ValidationError("--cross-validate evaluates the --train data and reads no --input; give one of --input and --cross-validate")
        }
    }

    func run() throws {
        try OutputPathCheck.refuseOverwritingInputs(
            train.map { .init(option: "--train", url: URL(fileURLWithPath: $0)) }
                + (input.map { [.init(option: "--input", url: URL(fileURLWithPath: $0))] } ?? []), output: output)
        let training = try CommandSupport.guarded {
            try train.flatMap { path in try UJIIndoorLoc.load(url: URL(fileURLWithPath: path), displayName: path).records }
        }
        if let grouping = crossValidate {
            let evaluation = try CommandSupport.guarded {
                try FingerprintCrossValidation.leaveOneGroupOut(try FingerprintSample.fromUJIIndoorLoc(training), by: grouping,
                                                                configuration: method.configuration)
            }
            let line = "leave-one-\(grouping.rawValue)-out (\(method.rawValue)): " + Self.describe(evaluation) + "\n"
            try CommandSupport.guarded { try CommandSupport.emit(line, to: output) }
            return
        }
        guard let input else { return }
        let result = try CommandSupport.guarded {
            let queries = try UJIIndoorLoc.load(url: URL(fileURLWithPath: input), displayName: input, requireLabels: false)
            return try FingerprintBatch.run(training: training, queries: queries.records, configuration: method.configuration)
        }
        try CommandSupport.guarded { try CommandSupport.emit(result.csv, to: output) }
        if let evaluation = result.evaluation { CommandSupport.printError(Self.describe(evaluation)) }
        if result.noSignalCount > 0 {
            CommandSupport.printError("\(result.noSignalCount) fingerprint(s) with no access point detected: status no_signal, not located")
        }
    }

    static func describe(_ e: FingerprintEvaluation) -> String {
        func pct(_ v: Double) -> String { String(format: "%.2f %%", v * 100) }
        func m(_ v: Double) -> String { String(format: "%.2f m", v) }
        return "\(e.count) fingerprints: building hit rate \(pct(e.buildingHitRate)), floor hit rate \(pct(e.floorHitRate)), "
            + "2-D error mean \(m(e.errors.meanMetres)), median \(m(e.errors.medianMetres)), p75 \(m(e.errors.p75Metres)), "
            + "p95 \(m(e.errors.p95Metres))"
    }
}

extension FingerprintCrossValidation.Grouping: ExpressibleByArgument {}
