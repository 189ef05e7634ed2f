import Capabilities
import FieldtestData
import Foundation
import Positioning
import TweetSentiment

// `fieldtest-bench e2e` for the commands that load or train a model: `classify` (model load
// included) and `locate` (training included), each against its Python peer's compute alone.

extension BenchEndToEnd {
    /// `fieldtest classify` on `tweets` bundled tweets cycled (`bench classify`'s tweets, one per line),
    /// CSV in and CSV out, model load included: once with one thread per core (the command's default) and
    /// once with `--jobs 1` (per core), against VADER's `polarity_scores` on the same tweets timing its
    /// loop alone.
    func classify(tool: URL, tmp: URL) throws {
        let root = BenchSupport.datasetsRoot(datasets)
        let modelURL = root.appendingPathComponent("models").appendingPathComponent(SentimentModelFile.defaultFileName)
        let corpus = try BenchSupport.guarded {
            try SentimentCorpusFiles.load(SentimentCorpusFiles.bundledInputs(datasets: root))
        }
        let input = SentimentBenchmarkInput.replicate(corpus, count: tweets)
        guard !input.isEmpty else { throw BenchSupport.failed }
        var csv = CSVWriter(capacity: input.count * 90)
        csv.row(["id", "text"])
        for (i, t) in input.enumerated() { csv.row([String(i), t]) }
        let csvURL = tmp.appendingPathComponent("tweets.csv")
        let linesURL = tmp.appendingPathComponent("tweets.txt")
        try BenchSupport.guarded {
            try AtomicFile.write(Data(csv.bytes), to: csvURL)
            try AtomicFile.write(input.joined(separator: "\n"), to: linesURL)
        }
        csv = CSVWriter()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var timings: [(wall: Double, cpu: Double)] = []
        for jobs in [cores, 1] {
            var best = (wall: Double.infinity, cpu: Double.infinity)
            for _ in 0..<repeats {
                guard
                    let t = Self.timeProcess(
                        tool,
                        [
                            "classify", "--model", modelURL.path, "--input", csvURL.path, "--jobs", String(jobs),
                            "--output", tmp.appendingPathComponent("labels.csv").path,
                        ], environment: [:])
                else { return }
                best = (min(best.wall, t.wall), min(best.cpu, t.cpu))
            }
            timings.append(best)
        }
        let size = Double(BenchSupport.fileBytes(csvURL)) / 1e6
        let ours = String(
            format:
                "classify: fieldtest classify process, %d tweets (%.0f MB CSV), model load included: %.3f s with --jobs %d (CPU %.3f s), %.3f s with --jobs 1 (CPU %.3f s)",
            input.count, size, timings[0].wall, cores, timings[0].cpu, timings[1].wall, timings[1].cpu)
        let facts = [
            BenchOutput.fact("seconds", "classify: fieldtest classify process, all cores", timings[0].wall, "s"),
            BenchOutput.fact("seconds", "classify: fieldtest classify process, --jobs 1", timings[1].wall, "s"),
        ]
        let rates =
            PythonBaseline.run(
                "classify_vader", arguments: [linesURL.path, String(input.count)], needs: ["vaderSentiment"])?
            .split(separator: "\n").compactMap { Double($0) } ?? []
        guard let wallRate = rates.first, wallRate > 0 else { return BenchOutput.measured(ours, facts) }
        let vader = Double(input.count) / wallRate
        let vaderCPU = rates.count > 1 && rates[1] > 0 ? Double(input.count) / rates[1] : vader
        let ratio = vader / timings[0].wall
        // Per core: the one-thread process's CPU time against VADER's (robust to other load on the machine).
        let perCore = vaderCPU / timings[1].cpu
        BenchOutput.measured(
            ours
                + String(
                    format:
                        "; VADER compute only %.2f s (CPU %.2f s); ratio %.1f× (goal ≥ 25×: %@), --jobs 1 %.1f×, per core by CPU time %.1f×",
                    vader, vaderCPU, ratio, Goals.verdict(ratio >= 25, "classify end to end ≥ 25× VADER"),
                    vader / timings[1].wall, perCore),
            facts + [
                BenchOutput.fact("baseline_seconds", "classify: VADER compute", vader, "s"),
                BenchOutput.fact(
                    "ratio", "classify end to end vs VADER", ratio, "×", goal: ">= 25", met: ratio >= 25),
                BenchOutput.fact("ratio", "classify end to end --jobs 1 vs VADER", vader / timings[1].wall, "×"),
                BenchOutput.fact("ratio", "classify end to end --jobs 1 vs VADER, CPU time", perCore, "×"),
            ])
    }

    /// `fieldtest locate` trained on the bundled UJIIndoorLoc rows but 1,111 evenly spaced hold-out
    /// rows of the raw files, locating those rows (training, the cascade and the CSV out included),
    /// against scikit-learn's `KNeighborsRegressor` (feature transform, fit and predict, the same
    /// distance and k) on the same rows, timing its compute alone.
    func locate(tool: URL, tmp: URL) throws {
        let files = try BenchSupport.files(.ujiIndoorLoc, in: datasets)
        var header: ArraySlice<UInt8>?
        var rows: [ArraySlice<UInt8>] = []
        for (_, url) in files {
            let bytes = try BenchSupport.guarded { try readFileBytes(url, displayName: url.path) }
            // Lines as bytes (the files are plain ASCII CSV without quoted line breaks).
            var lines = bytes.split(separator: 0x0A).map { $0.last == 0x0D ? $0.dropLast() : $0 }.filter { !$0.isEmpty }
            guard !lines.isEmpty else { continue }
            let first = lines.removeFirst()
            guard header == nil || header == first else {
                BenchSupport.printError("error: \(url.path) has another header than the other UJIIndoorLoc files")
                throw BenchSupport.failed
            }
            header = first
            rows += lines
        }
        let queryCount = 1111
        guard let header, rows.count >= 2 * queryCount else { return }
        // Evenly spaced over the raw rows, those without signal included, as both processes read the files
        // (`bench locate` spaces its queries over the rows with signal, as its two sides load them).
        var held = [Bool](repeating: false, count: rows.count)
        for i in 0..<queryCount { held[i * rows.count / queryCount] = true }
        func file(_ chosen: Bool) -> Data {
            var out = Data(header)
            out.append(0x0A)
            for (row, h) in zip(rows, held) where h == chosen {
                out.append(contentsOf: row)
                out.append(0x0A)
            }
            return out
        }
        let trainURL = tmp.appendingPathComponent("uji-train.csv")
        let queriesURL = tmp.appendingPathComponent("uji-queries.csv")
        try BenchSupport.guarded {
            try AtomicFile.write(file(false), to: trainURL)
            try AtomicFile.write(file(true), to: queriesURL)
        }
        var best = (wall: Double.infinity, cpu: Double.infinity)
        for _ in 0..<repeats {
            guard
                let t = Self.timeProcess(
                    tool,
                    [
                        "locate", "--train", trainURL.path, "--input", queriesURL.path, "--output",
                        tmp.appendingPathComponent("located.csv").path,
                    ], environment: [:])
            else { return }
            best = (min(best.wall, t.wall), min(best.cpu, t.cpu))
        }
        let ours = String(
            format:
                "locate: fieldtest locate process, trained on %d fingerprints, %d located (cascade, CSV out): %.3f s (CPU %.3f s)",
            rows.count - queryCount, queryCount, best.wall, best.cpu)
        let facts = [BenchOutput.fact("seconds", "locate: fieldtest locate process", best.wall, "s")]
        let k = FingerprintLocator.Configuration.tuned.positionNeighbours
        let times =
            PythonBaseline.run(
                "locate_sklearn_fit", arguments: [trainURL.path, queriesURL.path, String(k)],
                needs: ["numpy", "sklearn"])?
            .split(separator: "\n").compactMap { Double($0) } ?? []
        guard let peer = times.first, peer > 0 else { return BenchOutput.measured(ours, facts) }
        let peerCPU = times.count > 1 ? times[1] : peer
        let ratio = peer / best.wall
        BenchOutput.measured(
            ours
                + String(
                    format:
                        "; scikit-learn KNeighborsRegressor features + fit + predict only %.3f s (CPU %.3f s); ratio %.1f× (goal ≥ 5×: %@), by CPU time %.1f×",
                    peer, peerCPU, ratio, Goals.verdict(ratio >= 5, "locate end to end ≥ 5× scikit-learn"),
                    peerCPU / best.cpu),
            facts + [
                BenchOutput.fact("baseline_seconds", "locate: scikit-learn fit + predict", peer, "s"),
                BenchOutput.fact(
                    "ratio", "locate end to end vs scikit-learn", ratio, "×", goal: ">= 5", met: ratio >= 5),
                BenchOutput.fact("ratio", "locate end to end vs scikit-learn, CPU time", peerCPU / best.cpu, "×"),
            ])
    }

}
