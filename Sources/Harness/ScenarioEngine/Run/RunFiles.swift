import FieldtestData
import Foundation

extension CommandFiles {
    /// Adds what `scenario` reads besides the datasets folders: its file, the datasets it names by
    /// path, and the files named by the system commands of its `systems:` block and of every sweep case.
    public mutating func scenarioInputs(_ scenario: Scenario, manifest: DatasetManifest) {
        input(scenario.file)
        inputs += scenario.datasetEntries.map { .init(option: "", url: manifest.url(of: $0)) }
        var seen = Set<[String]>()
        for systems in [scenario.systems] + ScenarioRunner.cases(of: scenario).map(\.scenario.systems) {
            for setting in systems.values where seen.insert(setting.command).inserted {
                systemCommand(setting.command, option: "systems: in \(scenario.file)")
            }
        }
    }
}

extension RunPipeline {
    /// Every file the run reads and writes (`CommandFiles`), the one declaration `fieldtest run`
    /// checks before anything runs: the scenario files (and what they name), the datasets folders,
    /// the system commands' files, the baselines; the `--junit`, `--report` and `--record-baseline`
    /// files and the report files of each scenario.
    public func declaredFiles() throws -> CommandFiles {
        try request.validate()
        let scenarios = try loadScenarios()
        return files(scenarios: scenarios, reportFolders: reportFolders(scenarios, runIDs: scenarios.map { _ in "" }))
    }

    /// `declaredFiles()` for loaded scenarios and their report folders.
    func files(scenarios: [Scenario], reportFolders: [URL]) -> CommandFiles {
        var files = CommandFiles()
        files.inputs = inputFiles(scenarios: scenarios)
        files.outputs = outputFiles(scenarios: scenarios, reportFolders: reportFolders)
        return files
    }

    /// The report folder of each scenario: `--out DIR/<scenario>`, else `Results/runs/<scenario>/<run_id>`.
    func reportFolders(_ scenarios: [Scenario], runIDs: [String]) -> [URL] {
        zip(scenarios, runIDs).map { s, runID in
            request.out.map { URL(fileURLWithPath: $0).appendingPathComponent(s.name) }
                ?? URL(fileURLWithPath: request.resultsFolder).appendingPathComponent(s.name).appendingPathComponent(
                    runID)
        }
    }

    /// Refuses a `--record-baseline` folder that is (or lies inside) a scenario's report folder or
    /// its folder in progress: publishing the report folder replaces it as a whole, and the
    /// baseline would be lost.
    func refuseBaselineInReportFolder(_ reportFolders: [URL]) throws(RunError) {
        guard let recordBaseline = request.recordBaseline else { return }
        let baseline = OutputPathCheck.canonicalPath(recordBaseline)
        for folder in reportFolders {
            for candidate in [folder, RunStaging(target: folder).folder] {
                let report = OutputPathCheck.canonicalPath(candidate.path)
                if baseline == report || baseline.hasPrefix(report + "/") {
                    throw .usage(
                        "\(recordBaseline): error: --record-baseline \(recordBaseline) is inside the report folder \(folder.path), which the run "
                            + "replaces as a whole, so the baseline would be lost; record it into another folder")
                }
            }
        }
    }
}
