import ArgumentParser
import Capabilities
import FieldtestData
import Foundation
import SkyScoring

/// Both sides report their best of 5 (Fieldtest: five passes over all rows; pvlib: five vectorised
/// passes; astral: five fifths of the rows, the best scaled to all rows), so a moment of other load on
/// the machine does not decide the ratio.
///
/// `fieldtest-bench sun`: location-days per second through `SolarCalculator` (all 11 events of
/// `fieldtest sun` per row; the ratios compare this computation, each row's results consumed and
/// dropped as the baselines do, with the baselines' own computation, both without file reading;
/// the batch API's rate with stored results and the end-to-end CSV throughput are printed too) beside pvlib's NREL SPA (`pvlib.spa.transit_sunrise_sunset`, numpy,
/// vectorised over all rows: transit, sunrise, sunset) and astral 3 (`astral.sun.sun`: dawn, sunrise,
/// noon, sunset, dusk, one row at a time) on the same seeded input in the same run. Single core; the
/// ratios are given from wall-clock time and from CPU time (per core, robust to other load).
struct BenchSun: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "sun", abstract: "Solar-event throughput beside pvlib SPA and astral (same input, same run).")

    @OptionGroup var goals: GoalOptions

    @Option(help: "Number of location-days, 1…10000000.") var rows = 100_000
    @Option(help: "Seed of the generated input.") var seed: UInt64 = 20_240_621

    func validate() throws {
        if !(1...10_000_000).contains(rows) { throw ValidationError("--rows must be in 1…10000000 (got \(rows))") }
    }

    /// The input CSV: `rows` location-days, |lat| ≤ 65°, 2000–2030, eight zones, drawn with `seed`.
    static func input(rows: Int, seed: UInt64) -> String {
        let zones = [
            "UTC", "Asia/Singapore", "Asia/Kolkata", "America/New_York", "Europe/Oslo", "Australia/Adelaide",
            "Pacific/Kiritimati", "America/St_Johns",
        ]
        var rng = SeededGenerator(seed: seed)
        var text = "id,latitude,longitude,date,timezone\n"
        for i in 0..<rows {
            let lat = Double(rng.next() % 130_000) / 1000 - 65
            let lon = Double(rng.next() % 360_000) / 1000 - 180
            let day = CivilDate(daysSinceEpoch: 10_957 + Int(rng.next() % 11_000))
            text += "r\(i),\(lat),\(lon),\(day),\(zones[Int(rng.next() % UInt64(zones.count))])\n"
        }
        return text
    }

    func run() throws {
        let text = Self.input(rows: rows, seed: seed)
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("fieldtest-bench-sun-\(seed).csv")
        try AtomicFile.write(text, to: tmp)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let requests = try BenchSupport.guarded { try SunBatch.parse(bytes: Array(text.utf8), file: tmp.path) }
        let clock = ContinuousClock()
        // The computation as the baselines run it: every row's events computed and consumed (folded
        // into a checksum so nothing is skipped), no result table kept.
        let calculator = SolarCalculator()
        var best = Double.infinity
        var bestCPU = Double.infinity
        var checksum = 0.0
        for _ in 0..<5 {
            let start = clock.now
            let cpuStart = PythonBaseline.cpuSeconds()
            checksum = 0
            for r in requests {
                let d = calculator.day(date: r.date, latitude: r.latitude, longitude: r.longitude, offsets: r.offsets)
                checksum +=
                    (d.sunrise ?? 0) + (d.sunset ?? 0) + (d.solarNoon ?? 0) + (d.civilDawn ?? 0) + (d.civilDusk ?? 0)
                    + (d.goldenMorning.start ?? 0) + (d.goldenMorning.end ?? 0) + (d.goldenEvening.start ?? 0)
                    + (d.goldenEvening.end ?? 0) + (d.dayLengthSeconds ?? 0)
            }
            let d = clock.now - start
            bestCPU = min(bestCPU, PythonBaseline.cpuSeconds() - cpuStart)
            best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        }
        // The batch API, which also stores every row's `SolarDay` (fresh memory: its page faults vary by run).
        var bestBatch = Double.infinity
        var days: [SolarDay] = []
        for _ in 0..<5 {
            let start = clock.now
            days = SunBatch.compute(requests)
            let d = clock.now - start
            bestBatch = min(bestBatch, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        }
        // End to end, as `fieldtest sun` runs: parse and validate the CSV, compute, render the CSV.
        let bytes = Array(text.utf8)
        var bestEndToEnd = Double.infinity
        for _ in 0..<3 {
            let start = clock.now
            _ = try BenchSupport.guarded { try SunBatch.run(bytes: bytes, file: tmp.path) }
            let d = clock.now - start
            bestEndToEnd = min(bestEndToEnd, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        }
        let polar = days.filter { $0.note != .none }.count
        print("bench sun: \(rows) location-days (|lat| ≤ 65°, 2000–2030, 8 zones), \(polar) polar; best of 5 runs")
        print(
            "sun: fieldtest end to end (CSV in, 11 events, CSV out) \(Int(Double(rows) / bestEndToEnd)) location-days/s"
        )
        print(
            "sun: fieldtest SunBatch.compute (results stored) \(Int(Double(rows) / bestBatch)) location-days/s; checksum \(checksum)"
        )
        let ours = Double(rows) / best
        guard
            let out = PythonBaseline.run(
                "sun_pvlib_astral", arguments: [tmp.path], needs: ["pvlib", "astral", "numpy"])
        else {
            PythonBaseline.report(
                name: "sun", unit: "location-days", fieldtest: ours, baseline: nil, baselineName: "", goal: nil)
            return
        }
        let times = out.split(separator: "\n").compactMap { Double($0) }
        guard times.count == 4 else { throw BenchSupport.failed }
        PythonBaseline.report(
            name: "sun", unit: "location-days", fieldtest: ours, baseline: Double(rows) / times[0],
            baselineName: "pvlib SPA (numpy, vectorised)", goal: 10)
        PythonBaseline.report(
            name: "sun", unit: "location-days", fieldtest: ours, baseline: Double(rows) / times[1],
            baselineName: "astral 3 sun()", goal: 100)
        // Per core: this thread's CPU time against the Python process's, robust to other load on the machine.
        let oursCPU = Double(rows) / max(bestCPU, 1e-9)
        PythonBaseline.report(
            name: "sun, CPU time", unit: "location-days", fieldtest: oursCPU, baseline: Double(rows) / times[2],
            baselineName: "pvlib SPA (numpy, vectorised)", goal: 10)
        PythonBaseline.report(
            name: "sun, CPU time", unit: "location-days", fieldtest: oursCPU, baseline: Double(rows) / times[3],
            baselineName: "astral 3 sun()", goal: 100)
    }
}
