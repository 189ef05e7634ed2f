import FieldtestTestSupport
import Foundation
import Synchronization
import Testing

@testable import FieldtestData

/// Slices of work on several threads, their results in order (`ParallelSlices`).
@Suite("parallel slices")
struct ParallelSlicesTests {
    /// What `emit` saw: the results in call order, and whether two calls ever overlapped.
    final class Emitted: Sendable {
        let results = Mutex<[[Int]]>([])
        let inside = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)

        func take(_ slice: [Int]) {
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlapped.store(true, ordering: .sequentiallyConsistent)
            }
            // Long enough for another thread to finish a slice meanwhile.
            usleep(200)
            results.withLock { $0.append(slice) }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    @Test(
        "forEachInOrder emits map's results in slice order, one call at a time",
        arguments: [(0, 4, 1), (1, 4, 1), (7, 1, 1), (7, 3, 1), (1000, 2, 10), (1000, 16, 1), (50, 8, 20)])
    func emitsInOrder(count: Int, jobs: Int, minimumPerSlice: Int) throws {
        let emitted = Emitted()
        // Uneven slices: the later ones finish first.
        let work: @Sendable (Range<Int>) -> [Int] = { range in
            usleep(UInt32(max(0, 2_000 - 100 * range.lowerBound % 2_000)))
            return range.map { $0 * $0 }
        }
        try ParallelSlices.forEachInOrder(
            count: count, jobs: jobs, minimumPerSlice: minimumPerSlice, work, emit: emitted.take)
        let expected = ParallelSlices.map(count: count, jobs: jobs, minimumPerSlice: minimumPerSlice, work)
        #expect(emitted.results.withLock { $0 } == expected)
        #expect(expected.flatMap { $0 } == (0..<count).map { $0 * $0 })
        let overlapped = emitted.overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!overlapped)
    }

    struct Refused: Error, Equatable {}

    @Test("after emit throws, later results are dropped and the error comes back once every slice is done")
    func emitErrorStopsTheOutput() {
        let emitted = Emitted()
        let finished = Atomic<Int>(0)
        #expect(throws: Refused.self) {
            try ParallelSlices.forEachInOrder(count: 80, jobs: 8, minimumPerSlice: 1) { range in
                finished.add(1, ordering: .sequentiallyConsistent)
                return Array(range)
            } emit: { slice in
                if slice.first == 30 { throw Refused() }
                emitted.take(slice)
            }
        }
        let slicesDone = finished.load(ordering: .sequentiallyConsistent)
        #expect(slicesDone == 8)
        #expect(emitted.results.withLock { $0 } == (0..<3).map { k in Array((k * 10)..<(k * 10 + 10)) })
    }

    @Test("CSVStreaming's emitting transform writes the header and each run's parts in order, atomically")
    func streamingTransformWritesInOrder() throws {
        let dir = TemporaryFiles.url("emit")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.csv")
        let output = dir.appendingPathComponent("out.csv")
        try Data(("n\n" + (0..<500).map { "\($0)\n" }.joined()).utf8).write(to: input)
        try CSVStreaming.transform(file: input.path, output: output.path, header: ["n", "square"], chunkBytes: 256) {
            table, emit in
            let values = try table.records.map { try #require(Int($0.fields[0])) }
            try ParallelSlices.forEachInOrder(count: values.count, jobs: 4, minimumPerSlice: 8) { range in
                var w = CSVWriter()
                for i in range { w.row(["\(values[i])", "\(values[i] * values[i])"]) }
                return w
            } emit: {
                try emit($0)
            }
        }
        let expected = "n,square\n" + (0..<500).map { "\($0),\($0 * $0)\n" }.joined()
        #expect(try String(contentsOf: output, encoding: .utf8) == expected)

        // A run that fails after earlier runs were written leaves the output as it was.
        try Data(("n\n" + (0..<500).map { "\($0)\n" }.joined() + "x\n").utf8).write(to: input)
        #expect(throws: (any Error).self) {
            try CSVStreaming.transform(file: input.path, output: output.path, header: ["n"], chunkBytes: 256) {
                table, emit in
                var w = CSVWriter()
                for record in table.records {
                    guard let n = Int(record.fields[0]) else {
                        throw DataError.badLayout(file: "in", line: 1, reason: "x")
                    }
                    w.row(["\(n)"])
                }
                try emit(w)
            }
        }
        #expect(try String(contentsOf: output, encoding: .utf8) == expected)

        // A header-only input gives the header alone.
        try Data("n\n".utf8).write(to: input)
        try CSVStreaming.transform(file: input.path, output: output.path, header: ["n", "square"]) { _, _ in }
        #expect(try String(contentsOf: output, encoding: .utf8) == "n,square\n")
    }
}
