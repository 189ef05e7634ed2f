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
    @Option(help: "The HTML file to write (- for standard output).")
    var output = "report.html"

    func run() throws {
        let html = try HTMLReport.render(inputs: inputs, requirements: AppRegistry.bundled.requirements, output: output)
        try OutputText.write(html, to: output)
    }
}
