import ArgumentParser
import Capabilities
import FieldtestData
import Foundation
import TweetSentiment

/// `fieldtest-bench json`: reading external systems' answer lines, the harness's way
/// (`JSONReader.parse` once, then each row decoded from the parsed value) against Foundation's
/// `JSONDecoder` on the same bytes into the same answer types, CPU time per line, best of
/// `--repeats`. Both must decode equal answers (self-check). The reader and its decoder are kept
/// only while they win (docs/benchmarks.md): goal ≥ 1.2× on the sentiment batch.
struct BenchJSON: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "json", abstract: "Answer-line decoding: JSONReader + JSONFieldDecoder vs JSONDecoder.")

    @OptionGroup var goals: GoalOptions
    @Option(help: "Timed passes over the lines; the best is reported.") var repeats = 7

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeats must be at least 1") }
    }

    /// A batch answer as `JSONDecoder` reads it.
    struct Batch<Row: Decodable>: Decodable {
        var id: String
        var rows: [Row]
    }

    func run() throws {
        let labels = SentimentLabel.allCases
        let sentiment = (0..<1_000).map { i -> [(String, JSONField)] in
            [
                ("id", .string("r\(i)")), ("label", .string(labels[i % 3].description)),
                ("score", .number(Double(i % 201 - 100) / 100)),
            ]
        }
        let routes = (0..<10).map { i -> [(String, JSONField)] in
            let nodes = (0..<30).map { Int64(1_000_000 + 37 * i + $0) }
            let path = (0..<30).map {
                GeoPoint(latitude: -0.2 + Double($0) * 1e-4, longitude: -78.5 - Double(i) * 1e-4)
            }
            let answer = RouteAnswer(
                status: "ok", lengthMetres: 412.5 + Double(i), durationSeconds: 300.25, nodeIDs: nodes, path: path)
            return [("id", .string("q\(i)"))] + answer.fields
        }
        var failed = false
        let batch = try measure(
            "sentiment batch of 1,000 rows", lines: [Self.batchLine(sentiment)], rowsPerLine: 1_000,
            SentimentAnswer.self, failed: &failed)
        _ = try measure(
            "sentiment, one row a line (1,000 lines)", lines: sentiment.map { JSONField.line($0) }, rowsPerLine: 1,
            SentimentAnswer.self, failed: &failed)
        _ = try measure(
            "route rows of 30 nodes and 30 points, batch of 10", lines: [Self.batchLine(routes)], rowsPerLine: 10,
            RouteAnswer.self, failed: &failed)
        print("goal ≥ 1.2× JSONDecoder (sentiment batch): " + Goals.verdict(batch >= 1.2, "json reader ≥ 1.2×"))
        if failed { throw BenchSupport.failed }
    }

    /// Times both decoders over `lines` and prints the figures; returns JSONDecoder's time over the reader's.
    private func measure<A: Decodable & Equatable>(
        _ name: String, lines: [[UInt8]], rowsPerLine: Int, _ type: A.Type, failed: inout Bool
    ) throws -> Double {
        let datas = lines.map { Data($0) }
        let viaReader = try lines.map { try Self.readerDecode($0, rowsPerLine: rowsPerLine, as: A.self) }
        let viaFoundation = try datas.map { try Self.foundationDecode($0, rowsPerLine: rowsPerLine, as: A.self) }
        if viaReader != viaFoundation {
            BenchSupport.printError("error: json: \(name): the two decoders disagree")
            failed = true
        }
        let passes = max(1, 20_000 / (lines.count * rowsPerLine))
        let reader = best {
            for _ in 0..<passes {
                for l in lines { _ = try? Self.readerDecode(l, rowsPerLine: rowsPerLine, as: A.self) }
            }
        }
        let foundation = best {
            for _ in 0..<passes {
                for d in datas { _ = try? Self.foundationDecode(d, rowsPerLine: rowsPerLine, as: A.self) }
            }
        }
        let rows = Double(passes * lines.count * rowsPerLine)
        let ratio = foundation / reader
        print(
            String(
                format: "%@: JSONReader + JSONFieldDecoder %.2f µs/row, JSONDecoder %.2f µs/row, ratio %.2f×",
                name, reader / rows * 1e6, foundation / rows * 1e6, ratio))
        return ratio
    }

    /// The least CPU time of `repeats` runs of `body`, seconds.
    private func best(_ body: () -> Void) -> Double {
        (0..<repeats).map { _ in
            let start = BenchSystem.cpuSeconds()
            body()
            return BenchSystem.cpuSeconds() - start
        }.min() ?? 0
    }

    static func readerDecode<A: Decodable>(_ line: [UInt8], rowsPerLine: Int, as: A.Type) throws -> [A] {
        let value = try JSONReader.parse(line)
        guard rowsPerLine > 1 else { return [try value.decode(A.self)] }
        guard case .array(let rows)? = value["rows"] else { throw BenchSupport.failed }
        return try rows.map { try $0.decode(A.self) }
    }

    static func foundationDecode<A: Decodable>(_ data: Data, rowsPerLine: Int, as: A.Type) throws -> [A] {
        guard rowsPerLine > 1 else { return [try JSONDecoder().decode(A.self, from: data)] }
        return try JSONDecoder().decode(Batch<A>.self, from: data).rows
    }

    /// `{"id":"batch-1","rows":[…]}`.
    static func batchLine(_ rows: [[(String, JSONField)]]) -> [UInt8] {
        JSONField.line([("id", .string("batch-1")), ("rows", .array(rows.map { .object($0) }))])
    }
}
