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
            Output columns: row,longitude,latitude,floor,building,status (row: 1-based data row of the input; \
            coordinates in the input's projected metres; status ok, or no_signal when no access point was detected \
            (every WAP value 100): not located, other columns empty). With ground truth in the input, hit rates and \
            2-D errors go to standard error. --cross-validate evaluates the training data leave-one-phone-out (or \
            -user-out) instead of an --input; its line goes to --output. Method and figures: docs/positioning.md.
            """
    )

    @Option(help: "Labelled training file (UJIIndoorLoc layout); repeat to add files.")
    var train: [String] = []
    @Option(help: "Fingerprints to locate (UJIIndoorLoc layout; ground-truth columns optional).")
    var input: String?
    @OptionGroup var out: OutputCSV
    @Option(help: "Evaluate the training data holding out each 'phone' or 'user' in turn.")
    var crossValidate: FingerprintCrossValidation.Grouping?
    @Option(
        help:
            "'tuned' (per-query device-offset search, then powed RSSI, Sørensen, weighted 5-NN cascade), 'no-offset-search' (the same cascade without the search) or 'baseline' (the published 1-NN Euclidean baseline), for comparison."
    )
    var method: FingerprintLocateJob.Method = .tuned

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
        let result = try FingerprintLocateJob.run(
            training: train, input: input, crossValidate: crossValidate, method: method, output: out.output)
        try OutputText.write(result.output, to: out.output)
        result.notes.forEach(CommandSupport.printError)
    }
}

extension FingerprintCrossValidation.Grouping: ExpressibleByArgument {}
extension FingerprintLocateJob.Method: ExpressibleByArgument {}
