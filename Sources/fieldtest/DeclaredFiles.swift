import Capabilities
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import RunReports
import ScenarioEngine
import TweetSentiment

/// A command that declares every file it reads and writes (`CommandFiles`), in one place.
/// `Fieldtest.main` checks the declaration before the command runs, and refuses to run a command
/// that does not declare its files, so a new command cannot forget its inputs.
protocol DeclaresFiles {
    /// The files the command reads and writes, with the options that named them.
    func declaredFiles() throws -> CommandFiles
}

extension CommandFiles {
    /// Adds the system command `text` (`--system` or `--candidate` value, `CAPABILITY=` or `NAME=COMMAND`
    /// with `splitAtEquals`) as `systemCommand` reads it; `builtin` and an unparsable value add
    /// nothing (the command reports those itself).
    mutating func system(_ text: String, option: String = "--system", splitAtEquals: Bool = false) {
        var command = text
        if splitAtEquals, let eq = text.firstIndex(of: "=") { command = String(text[text.index(after: eq)...]) }
        guard case .external(let spec)? = try? SystemChoice.parse(command: command) else { return }
        systemCommand(spec.command, option: option)
    }

    /// Adds the datasets overlay of `options` (`--datasets`, `$FIELDTEST_DATASETS`, the bundled folder).
    mutating func datasets(options: [String]) {
        if let manifest = try? DatasetsLocation.manifest(options: options) { datasets(manifest) }
    }

    /// Adds the datasets folder `option` names (else the current one).
    mutating func datasets(option: String?) {
        if let manifest = try? DatasetsLocation.manifest(option: option) {
            datasets(manifest)
        } else {
            datasets(folder: DatasetsLocation.current(option: option))
        }
    }
}

extension RunCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        let pipeline = RunPipeline(
            request: try request(), manifest: try DatasetsLocation.manifest(options: folders.datasets), apps: .bundled)
        do { return try pipeline.declaredFiles() } catch {
            // An invalid scenario stops the run here, before it starts: CI still gets its JUnit file.
            pipeline.writeErrorJUnit(error)
            throw error
        }
    }
}

extension CompareCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        let manifest = try DatasetsLocation.manifest(options: folders.datasets)
        f.input(file)
        f.datasets(manifest)
        for entry in candidate { f.system(entry, option: "--candidate", splitAtEquals: true) }
        // The scenario's own systems block (and its sweep's) name files too.
        if let scenario = try? ScenarioLoader(manifest: manifest, registry: .bundled).load(
            URL(fileURLWithPath: file), displayName: file)
        {
            f.scenarioInputs(scenario, manifest: manifest)
        }
        f.output(output, option: "--output")
        f.output(report, option: "--report")
        if let out {
            // Each system's run folder replaces DIR/<NAME>/ as a whole.
            for entry in system {
                let name = String(entry.prefix { $0 != "=" })
                for file in RunReport.fileNames {
                    f.output(
                        URL(fileURLWithPath: out).appendingPathComponent(name).appendingPathComponent(file).path,
                        option: "--out")
                }
            }
        }
        return f
    }
}

extension ValidateCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles { CommandFiles() }  // writes nothing
}

extension CheckCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.input(current)
        f.runFiles([current], beside: ["run.json"])
        let rows = (try? MetricsCSV.read(URL(fileURLWithPath: current))) ?? []
        f.input((try? BaselineComparison.baselineFile(baseline, current: current, rows: rows)) ?? baseline)
        f.output(junit, option: "--junit")
        return f
    }
}

extension SchemaCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.output(output, option: "--output")
        return f
    }
}

extension RequirementsCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.output(output, option: "--output")
        return f
    }
}

extension MergeCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.runFiles(inputs, beside: out == nil ? ["run.json"] : RunReport.fileNames)
        f.output(output, option: "--output")
        // The folder as a whole; merge refuses one that is or holds an input folder.
        f.output(out, option: "--out")
        return f
    }
}

extension ReportCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.runFiles(inputs, beside: RunReport.fileNames)
        f.output(output, option: "--output")
        return f
    }
}

extension ServeCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles { CommandFiles() }  // answers on standard output only
}

extension DatasetsCommand.List: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles { CommandFiles() }
}

extension DatasetsCommand.Where: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles { CommandFiles() }
}

extension DatasetsCommand.Verify: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles { CommandFiles() }
}

extension DatasetsCommand.Add: DeclaresFiles {
    /// The manifest it rewrites and the copy it makes are its outputs; the file added (with its
    /// companion files) is the input (`DatasetRegistration` also refuses the manifest as the file).
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.input(file)
        f.inputs(DatasetRegistration.companions(of: URL(fileURLWithPath: file), format: format).map(\.path))
        return f
    }
}

extension SunCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.input(input, option: "--input")
        f.output(out.output, option: "--output")
        return f
    }
}

extension ScoreCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.input(weather, option: "--weather")
        if let dataset {
            let manifest = try DatasetsLocation.manifest(options: folder.datasets)
            f.inputs += WeatherProviders.scoringInputs(dataset: dataset, manifest: manifest)  // named first
            f.datasets(manifest)
        }
        f.output(out.output, option: "--output")
        return f
    }
}

extension RouteCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.input(graph, option: "--graph")
        f.input(queries, option: "--queries")
        f.input(congestion, option: "--congestion")
        f.input(profiles, option: "--profiles")
        f.output(out.output, option: "--output")
        return f
    }
}

extension LocateCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.inputs(train, option: "--train")
        f.input(input, option: "--input")
        f.output(out.output, option: "--output")
        return f
    }
}

extension TrainCommand.Sentiment: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.inputs += OutputPathCheck.tweetInputs(input.filter { $0 != OutputText.standardStreamName })
        // The lexicon files, named as the option (or default folder) that chose them, before the datasets folder.
        let lexiconFolder = URL(
            fileURLWithPath: lexicons
                ?? DatasetsLocation.currentFolder(holding: "lexicons", options: folder.datasets)
                .appendingPathComponent("lexicons").path)
        for url in (try? FileManager.default.contentsOfDirectory(at: lexiconFolder, includingPropertiesForKeys: nil))
            ?? []
        {
            f.input(
                lexicons.map { ($0 as NSString).appendingPathComponent(url.lastPathComponent) } ?? url.path,
                option: lexicons == nil ? "lexicon" : "--lexicons")
        }
        f.datasets(options: folder.datasets)
        f.output(output, option: "--output")
        if let output, output != OutputText.standardStreamName {
            f.output(TrainedTextIndex.url(besideModel: URL(fileURLWithPath: output)).path, option: "--output's index")
        }
        return f
    }
}

extension ClassifyCommand: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.input(input, option: "--input")
        f.input(model, option: "--model")
        f.datasets(option: nil)
        f.output(out.output, option: "--output")
        return f
    }
}

extension EvaluateCommand.Sentiment: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.inputs += OutputPathCheck.tweetInputs(input.filter { $0 != OutputText.standardStreamName })
        f.input(model, option: "--model")
        f.datasets(option: nil)
        if let system { f.system(system) }
        f.output(output, option: "--output")
        f.output(supervision.items, option: "--items")
        f.output(supervision.stderr, option: "--stderr")
        return f
    }
}

extension EvaluateSystem: DeclaresFiles {
    func declaredFiles() throws -> CommandFiles {
        var f = CommandFiles()
        f.input(input, option: "--input")
        f.input(graph, option: "--graph")
        f.inputs(train, option: "--train")
        f.datasets(option: nil)
        f.system(system)
        f.output(out.output, option: "--output")
        f.output(supervision.items, option: "--items")
        f.output(supervision.stderr, option: "--stderr")
        return f
    }
}
