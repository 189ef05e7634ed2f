/// Why a run could not start or go on; each message says what to change.
public enum RunError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A combination of options that cannot work (a usage error).
    case usage(String)
    /// Two scenario files give the same `name:`, under which reports and baselines are kept.
    case duplicateScenarioName(file: String, name: String, otherFile: String)
    /// The baseline file for a scenario does not exist.
    case missingBaseline(path: String, scenario: String, scenarioFile: String, baselineOption: String)
    /// The baseline has no rows for the scenario's cases.
    case baselineWithoutRows(path: String, scenario: String, scenarioFile: String, shard: String?)
    /// `--junit` names a folder.
    case junitIsFolder(String)
    /// An output location cannot be written (nothing was run).
    case unwritableOutput(path: String, option: String, problem: String)
    /// A report folder holds files a run does not write (a run replaces the whole folder).
    case foreignFilesInReportFolder(folder: String, names: [String])
    /// `--resume` found an interrupted run whose settings or datasets differ from this one's.
    case resumeMismatch(folder: String, scenario: String, differences: [String])

    public var description: String {
        switch self {
        case .usage(let message):
            return message
        case let .duplicateScenarioName(file, name, other):
            return "\(file): error: scenario name '\(name)' is also the name of \(other); reports and baselines are "
                + "kept by scenario name, so give each scenario file its own 'name:'"
        case let .missingBaseline(path, scenario, file, option):
            return
                "\(path): error: missing baseline for scenario '\(scenario)'; record one with 'fieldtest run \(file) --record-baseline \(option)'"
        case let .baselineWithoutRows(path, scenario, file, shard):
            return "\(path): error: the baseline has no rows for scenario '\(scenario)'"
                + (shard.map { " (shard \($0))" } ?? "")
                + "; record one with 'fieldtest run \(file) --record-baseline DIR'"
        case .junitIsFolder(let path):
            return "\(path): error: --junit names a folder; give the path of the XML file to write"
        case let .unwritableOutput(path, option, problem):
            return "\(path): error: \(option): \(problem); choose a location you can write to (nothing was run)"
        case let .foreignFilesInReportFolder(folder, names):
            return "\(folder): error: the report folder holds what a run does not write there ("
                + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
                + "); a run replaces the whole folder, so move them away or choose another --out (nothing was run)"
        case let .resumeMismatch(folder, scenario, differences):
            return "\(folder): error: cannot resume scenario '\(scenario)': "
                + differences.joined(separator: "; ")
                + "; results of both would be mixed: restore what changed, or run without --resume to start afresh"
        }
    }
}
