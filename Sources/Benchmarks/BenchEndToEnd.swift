import ArgumentParser
import CampusRouting
import Capabilities
import FieldtestData
import Foundation

/// `fieldtest-bench e2e`: the `fieldtest` tool run as a whole process — start-up, map load, graph
/// build, queries, CSV out — beside its Python peer's compute alone, on the same queries in the same
/// run. `route`: 2,000 walk queries on each bundled campus map (between usable vertices, drawn with
/// the seed), cold (graph cache off, as a first run) and warm (cache filled by a previous run), against
/// networkx's `dijkstra_path` timing only its queries over the same directed graph. `sun`: 100,000
/// location-days as `bench sun` makes them, against pvlib's vectorised SPA. `classify`: `tweets`
/// bundled tweets, model load included, against VADER. `locate`: training on the bundled UJIIndoorLoc
/// rows but a held-out set and locating it, against scikit-learn's k-NN fit + predict. Best of `repeats`.
struct BenchEndToEnd: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "e2e",
        abstract:
            "The fieldtest process end to end (route, sun, classify, locate; loading included) beside its Python peer's compute."
    )

    @OptionGroup var goals: GoalOptions

    @Option(
        help:
            "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
    ) var datasets: String?
    @Option(help: "The fieldtest executable (default: the one beside this benchmark).") var fieldtest: String?
    @Option(help: "Route queries per map, 1…1000000.") var queries = 2000
    @Option(help: "Timed repetitions (best is reported), 1…100.") var repeats = 3
    @Option(help: "Seed for the query pairs.") var seed: UInt64 = 42
    @Option(help: "Tweets for classify (the bundled tweets cycled), 1…10000000.") var tweets = 1_000_000
    @Option(help: "Parts to run, comma-separated: route, sun, classify, locate (default: all).")
    var parts = "route,sun,classify,locate"

    /// The parts `--parts` names.
    var chosen: Set<String> { Set(parts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }

    func validate() throws {
        if !(1...1_000_000).contains(queries) {
            throw ValidationError("--queries must be in 1…1000000 (got \(queries))")
        }
        if !(1...100).contains(repeats) { throw ValidationError("--repeats must be in 1…100 (got \(repeats))") }
        if !(1...10_000_000).contains(tweets) {
            throw ValidationError("--tweets must be in 1…10000000 (got \(tweets))")
        }
        let unknown = chosen.subtracting(["route", "sun", "classify", "locate"])
        if !unknown.isEmpty || chosen.isEmpty {
            throw ValidationError(
                "--parts \(parts): expected some of route, sun, classify, locate, comma-separated")
        }
    }

    func run() throws {
        let tool = URL(
            fileURLWithPath: fieldtest
                ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("fieldtest").path)
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            BenchSupport.printError(
                "note: no fieldtest executable at \(tool.path); build it (swift build -c release --product fieldtest) or pass --fieldtest"
            )
            return
        }
        var rng = SeededGenerator(seed: seed)
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fieldtest-bench-e2e-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        if chosen.contains("route") {
            for (name, url) in try BenchSupport.files(.osmXML, in: datasets) {
                try route(name: name, map: url, tool: tool, tmp: tmp, rng: &rng)
            }
        }
        if chosen.contains("sun") { try sun(tool: tool, tmp: tmp) }
        if chosen.contains("classify") { try classify(tool: tool, tmp: tmp) }
        if chosen.contains("locate") { try locate(tool: tool, tmp: tmp) }
    }

    /// `fieldtest sun` on `bench sun`'s 100,000 location-days (CSV in, CSV out) against pvlib's
    /// vectorised SPA timing its computation alone.
    func sun(tool: URL, tmp: URL) throws {
        let rows = 100_000
        let input = tmp.appendingPathComponent("sun.csv")
        try BenchSupport.guarded { try AtomicFile.write(BenchSun.input(rows: rows, seed: 20_240_621), to: input) }
        var best = Double.infinity
        var bestCPU = Double.infinity
        for _ in 0..<repeats {
            guard
                let t = Self.timeProcess(
                    tool, ["sun", "--input", input.path, "--output", tmp.appendingPathComponent("sun-out.csv").path],
                    environment: [:])
            else { return }
            best = min(best, t.wall)
            bestCPU = min(bestCPU, t.cpu)
        }
        let ours = String(
            format: "sun: fieldtest sun process, %d location-days, CSV in and out: %.3f s (CPU %.3f s)", rows, best,
            bestCPU)
        let out = PythonBaseline.run("sun_pvlib_astral", arguments: [input.path], needs: ["pvlib", "astral", "numpy"])
        let times = out?.split(separator: "\n").compactMap { Double($0) } ?? []
        guard let pvlib = times.first, pvlib > 0 else {
            BenchOutput.measured(ours, [BenchOutput.fact("seconds", "sun: fieldtest sun process", best, "s")])
            return
        }
        let ratio = pvlib / best
        BenchOutput.measured(
            ours
                + String(
                    format: "; pvlib SPA compute only %.3f s; ratio %.1f× (goal ≥ 10×: %@), by CPU time %.1f×", pvlib,
                    ratio, Goals.verdict(ratio >= 10, "sun end to end ≥ 10× pvlib"),
                    (times.count > 2 ? times[2] : pvlib) / bestCPU),
            [
                BenchOutput.fact("seconds", "sun: fieldtest sun process", best, "s"),
                BenchOutput.fact("baseline_seconds", "sun: pvlib SPA compute", pvlib, "s"),
                BenchOutput.fact("ratio", "sun end to end vs pvlib", ratio, "×", goal: ">= 10", met: ratio >= 10),
            ])
    }

    /// Wall-clock and CPU seconds (user + system, from the child's own resource usage) of `tool
    /// arguments` with `environment` added, its standard output discarded; nil (and a note) when it
    /// fails. Spawned and reaped directly: Foundation's `Process.waitUntilExit` polls its run loop,
    /// which on Linux rounded a short process's wall clock up to about 50 ms.
    static func timeProcess(_ tool: URL, _ arguments: [String], environment: [String: String]) -> (
        wall: Double, cpu: Double
    )? {
        let argv = ([tool.path] + arguments).map { strdup($0) } + [nil]
        let envp =
            ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") }
            + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, tool.path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            BenchSupport.printError("note: \(tool.path) did not start: \(String(cString: strerror(spawned)))")
            return nil
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let d = ContinuousClock.now - start
        // Exited normally (no signal) with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            BenchSupport.printError(
                "note: \(tool.lastPathComponent) \(arguments.joined(separator: " ")) ended with wait status \(status)")
            return nil
        }
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return (BenchRoute.seconds(d), cpu)
    }

    /// The best of `repeats` runs of `fieldtest route` (`arguments`): cold (no graph cache) wall and CPU
    /// seconds, and warm wall seconds (reading a cache in `cache` that an untimed run filled); nil when
    /// the tool did not run.
    func timeRoute(_ tool: URL, _ arguments: [String], cache: URL) -> (cold: Double, coldCPU: Double, warm: Double)? {
        var cold = Double.infinity
        var warm = Double.infinity
        var coldCPU = Double.infinity
        for _ in 0..<repeats {
            guard let c = Self.timeProcess(tool, arguments, environment: ["FIELDTEST_GRAPH_CACHE": "off"]) else {
                return nil
            }
            cold = min(cold, c.wall)
            coldCPU = min(coldCPU, c.cpu)
            // The first warm run fills the cache; the timed one reads it.
            _ = Self.timeProcess(tool, arguments, environment: ["FIELDTEST_GRAPH_CACHE": cache.path])
            guard let w = Self.timeProcess(tool, arguments, environment: ["FIELDTEST_GRAPH_CACHE": cache.path]) else {
                return nil
            }
            warm = min(warm, w.wall)
        }
        return (cold, coldCPU, warm)
    }

    func route(name: String, map: URL, tool: URL, tmp: URL, rng: inout SeededGenerator) throws {
        let graph = try BenchSupport.guarded { try CampusGraph(source: try MapFile.load(url: map).source) }
        let p = try BenchSupport.guarded { try graph.profileIndex(named: "walk") }
        let usable = (0..<graph.vertices.count).filter { v in
            graph.snap(graph.vertices[v].location, profile: p, maxMetres: 0.001)?.vertex == Int32(v)
        }
        guard usable.count >= 2 else { return }
        let pairs = (0..<queries).map { _ in
            (
                usable[Int.random(in: 0..<usable.count, using: &rng)],
                usable[Int.random(in: 0..<usable.count, using: &rng)]
            )
        }
        var csv = "id,from_lat,from_lon,to_lat,to_lon,profile\n"
        for (i, (s, t)) in pairs.enumerated() {
            let a = graph.vertices[s].location
            let b = graph.vertices[t].location
            csv += "\(i),\(a.latitude),\(a.longitude),\(b.latitude),\(b.longitude),walk\n"
        }
        let edgeText = BenchRoute.networkxEdges(graph, profile: p)
        let queriesURL = tmp.appendingPathComponent("\(name)-queries.csv")
        let outURL = tmp.appendingPathComponent("\(name)-routes.csv")
        let edgesURL = tmp.appendingPathComponent("\(name)-edges.txt")
        let pairsURL = tmp.appendingPathComponent("\(name)-pairs.txt")
        try BenchSupport.guarded {
            try AtomicFile.write(csv, to: queriesURL)
            try AtomicFile.write(edgeText, to: edgesURL)
            try AtomicFile.write(pairs.map { "\($0.0) \($0.1)\n" }.joined(), to: pairsURL)
        }
        let arguments = ["route", "--graph", map.path, "--queries", queriesURL.path, "--output", outURL.path]
        guard let timed = timeRoute(tool, arguments, cache: tmp.appendingPathComponent("graph-cache")) else { return }
        let (cold, coldCPU, warm) = timed
        let size = Double(BenchSupport.fileBytes(map)) / 1e6
        let ours = String(
            format: "%@: fieldtest route process, %d queries, %.1f MB map: cold %.3f s (CPU %.3f s), cache warm %.3f s",
            name, pairs.count, size, cold, coldCPU, warm)
        let out = PythonBaseline.run(
            "route_networkx", arguments: [edgesURL.path, pairsURL.path, String(repeats)], needs: ["networkx"])
        let peerLines = out?.split(separator: "\n").compactMap { Double($0) } ?? []
        guard let peer = peerLines.first, peer > 0 else {
            BenchOutput.measured(
                ours, [BenchOutput.fact("seconds", "\(name): fieldtest route process cold", cold, "s")])
            return
        }
        let ratio = peer / cold
        // CPU time: robust to other work on the machine, which stretches both wall clocks unevenly.
        let peerCPU = peerLines.count > 2 ? peerLines[2] : peer
        BenchOutput.measured(
            ours
                + String(
                    format:
                        "; networkx compute only %.3f s (CPU %.3f s); ratio cold %.1f× (goal ≥ 50×: %@), warm %.1f×, cold by CPU time %.1f×",
                    peer, peerCPU, ratio, Goals.verdict(ratio >= 50, "\(name) route end to end ≥ 50× networkx"),
                    peer / warm, peerCPU / coldCPU),
            [
                BenchOutput.fact("seconds", "\(name): fieldtest route process cold", cold, "s"),
                BenchOutput.fact("seconds", "\(name): fieldtest route process cache warm", warm, "s"),
                BenchOutput.fact("baseline_seconds", "\(name): networkx dijkstra_path compute", peer, "s"),
                BenchOutput.fact(
                    "ratio", "\(name) route end to end cold vs networkx", ratio, "×", goal: ">= 50", met: ratio >= 50),
                BenchOutput.fact("ratio", "\(name) route end to end warm vs networkx", peer / warm, "×"),
                BenchOutput.fact(
                    "ratio", "\(name) route end to end cold vs networkx, CPU time", peerCPU / coldCPU, "×"),
            ])
    }
}
