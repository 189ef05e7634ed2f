import ArgumentParser
import FieldtestData
import Foundation
import Positioning

/// `fieldtest locate`: Wi-Fi fingerprinting of UJIIndoorLoc-format files.
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract:
            "Estimate building, floor and coordinates of Wi-Fi fingerprints (UJIIndoorLoc layout) by weighted k-NN.",
        discussion: """
            Output columns: row,longitude,latitude,floor,building,status (row = 1-based data row of the input; \
            coordinates in the input's projected metres; status ok, or no_signal for a fingerprint in which no \
            access point was detected (every WAP value 100): it is not located and its other columns are empty). \
            When the input has ground truth, building and floor hit rates and mean/median/p95 2-D errors of the \
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
    @Option(
        name: .long,
        help:
            "'tuned' (per-query device-offset search, then powed RSSI, Sørensen, weighted 5-NN cascade), 'no-offset-search' (the same cascade without the search) or 'baseline' (the published 1-NN Euclidean baseline), for comparison."
    )
    var method: Method = .tuned

    /// The locator configurations `--method` chooses from.
    enum Method: String, ExpressibleByArgument, CaseIterable {
        case tuned, noOffsetSearch = "no-offset-search", baseline
        var configuration: FingerprintLocator.Configuration {
            switch self {
            case .tuned: .tuned
            case .noOffsetSearch: .withoutOffsetSearch
            case .baseline: .publishedBaseline
            }
        }
    }

    func validate() throws {
        if train.isEmpty { throw ValidationError("give at least one --train FILE.csv (UJIIndoorLoc layout)") }
        if input == nil && crossValidate == nil {
            throw ValidationError("give --input FILE.csv to locate, or --cross-validate phone|user")
        }
        if input != nil && crossValidate != nil {
            throw ValidationError(
                "--cross-validate evaluates the --train data and reads no --input; give one of --input and --cross-validate"
            )
        }
    }

    func run() throws {
        let paths = try OutputText.inputPaths(train + (input.map { [$0] } ?? []))
        let train = Array(paths.prefix(train.count))
        let input = self.input == nil ? nil : paths.last
        try OutputPathCheck.refuseOverwritingInputs(
            train.map { .init(option: "--train", url: URL(fileURLWithPath: $0)) }
                + (input.map { [.init(option: "--input", url: URL(fileURLWithPath: $0))] } ?? []), output: output)
        let training = try train.flatMap { path in
            try UJIIndoorLoc.load(url: URL(fileURLWithPath: path), displayName: path).records
        }
        if case let n = FingerprintSample.withoutSignal(training), n > 0 {
            CommandSupport.printError("\(n) training fingerprint(s) detect no access point and were left out")
        }
        if let grouping = crossValidate {
            let evaluation = try FingerprintCrossValidation.leaveOneGroupOut(
                try FingerprintSample.fromUJIIndoorLoc(training), by: grouping,
                configuration: method.configuration)
            return try OutputText.write(
                "leave-one-\(grouping.rawValue)-out (\(method.rawValue)): " + evaluation.summary + "\n", to: output)
        }
        guard let input else { return }
        let queries = try UJIIndoorLoc.load(url: URL(fileURLWithPath: input), displayName: input, requireLabels: false)
        let result = try FingerprintBatch.run(
            training: training, queries: queries.records, configuration: method.configuration)
        try OutputText.write(result.csv, to: output)
        if let evaluation = result.evaluation { CommandSupport.printError(evaluation.summary) }
        if result.noSignalCount > 0 {
            CommandSupport.printError(
                "\(result.noSignalCount) fingerprint(s) with no access point detected: status no_signal, not located")
        }
    }
}

extension FingerprintCrossValidation.Grouping: ExpressibleByArgument {}
