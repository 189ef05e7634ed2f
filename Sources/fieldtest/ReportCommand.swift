import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import RunReports
import ScenarioEngine

/// `fieldtest report`: one self-contained HTML page of run folders.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML report (no script, no network) of run folders or metrics.csv files.",
        discussion: """
            Give run folders (Results/runs/<scenario>/<run_id>, an --out DIR/<scenario>), folders holding them, \
            or metrics.csv files. Several runs of one scenario are shown side by side. See docs/reports.md.
            """)

    @Argument(help: "Run folders, folders of run folders, or metrics.csv files.")
    var inputs: [String]

    @Option(name: .long, help: "The HTML file to write (- for standard output).")
    var output = "report.html"

    func run() throws {
        // Every file the report reads, those inside the folders given included, is an input.
        let read = inputs.flatMap { path in
            let url = URL(fileURLWithPath: path)
            let inside = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects
            return [url] + (inside?.compactMap { $0 as? URL } ?? [])
        }
        try OutputPathCheck.refuseOverwritingInputs(read.map { .init(option: "", url: $0) }, output: output)
        let html = try HTMLReport.render(inputs: inputs, requirements: AppRegistry.bundled.requirements)
        try OutputText.write(html, to: output)
    }
}
