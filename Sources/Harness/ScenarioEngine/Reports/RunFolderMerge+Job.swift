import FieldtestData
import Foundation
import MetricReports

extension RunFolderMerge {
    /// `fieldtest merge`: the shards of a sweep (`locate`d run folders or metrics files) merged in
    /// sweep order (`ShardMerge`) into run folders under `out`, or one metrics CSV to `output`.
    /// A missing or duplicated case is a failure with nothing written (unless `allowPartial`), as is
    /// a merged row that failed its requirement (written).
    public struct Job: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Give the shards' run folders (DIR/<scenario> of 'run --out DIR'), folders holding them \
            (results/shard-*), or their metrics.csv files; merge names the cases no input holds (and the shard \
            that runs each) and the cases held by several. --out DIR writes the run folders as 'run --out DIR' \
            does for one machine, replacing DIR only when it holds nothing but what merge writes and no input \
            (docs/outputs.md, "Merged run folders"); else the merged metrics.csv goes to --output.
            Exit codes: 0 merged, 1 a case is missing or duplicated (nothing written unless \
            --allow-partial) or a merged row failed its requirement (written), 2 invalid input.
            --allow-partial writes the rows there are even when cases are missing or duplicated (a duplicated \
            case keeps its first input's rows).
            """

        /// Shard run folders, folders holding them, or their metrics files.
        public var inputs: [String]
        /// The merged metrics CSV, nil or `-` for standard output (without `out`).
        public var output: String?
        /// The folder of merged run folders `out/<scenario>/`.
        public var out: String?
        /// Whether the rows that are there are written when cases are missing or duplicated.
        public var allowPartial: Bool
        /// The command line recorded in each merged `run.json`.
        public var commandLine: [String]

        /// A job.
        public init(inputs: [String], output: String?, out: String?, allowPartial: Bool, commandLine: [String]) {
            (self.inputs, self.output, self.out, self.allowPartial) = (inputs, output, out, allowPartial)
            self.commandLine = commandLine
        }

        /// The inputs with the run files beside them; the output file or the `out` folder as a whole
        /// (`checkOutput` refuses one that is or holds an input folder).
        public var files: CommandFiles {
            var f = CommandFiles()
            f.runFiles(inputs, beside: out == nil ? ["run.json"] : RunReport.fileNames)
            f.output(output, option: "--output")
            f.output(out, option: "--out")
            return f
        }

        /// Merges and writes, saying on standard error what is missing and what was written.
        public func run() throws -> CommandJobOutcome {
            let files = try RunFolderMerge.locate(inputs)
            if let out { try RunFolderMerge.checkOutput(out, metricsFiles: files) }
            let read = try ShardMerge.read(files: files, output: output)
            let report = try ShardMerge.merge(read)
            report.diagnostics(allowPartial: allowPartial).forEach(JobNote.print)
            if !report.isComplete && !allowPartial { return .failure }
            if let out {
                let written = try RunFolderMerge.write(report, inputs: read, to: out, commandLine: commandLine)
                written.notes.forEach(JobNote.print)
                for folder in written.folders { JobNote.print("merge: wrote \(folder)") }
            } else {
                try OutputText.write(MetricsCSV.render(report.rows), to: output)
            }
            if let message = report.failingRowsMessage() {
                JobNote.print(message)
                return .failure
            }
            return .success
        }
    }
}
