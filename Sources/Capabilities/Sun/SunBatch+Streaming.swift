import FieldtestData
import Foundation
import SkyScoring

extension SunBatch {
    /// `fieldtest sun` as one call: the CSV file `path` (`-`: standard input) streamed a run of rows at
    /// a time (`CSVChunkReader`) to `output` (nil or `-`: standard output), in bounded memory; the same
    /// bytes as `run(bytes:file:)` whatever `jobs` is. An `output` that names the input is refused.
    ///
    /// Each run's fields are found as byte ranges (`CSVByteColumns`) and its rows parsed, computed and
    /// rendered in `jobs` contiguous slices on as many threads, written in order. A run the byte
    /// reading does not take as it is (quoted header names, white space around a value, a value out of
    /// range, …) goes through `CSVTable` and `parse(table:zones:)` instead, which gives the located
    /// error of a bad row. Memory: O(run size), times two while a run is being rendered.
    public static func run(
        file path: String, output: String?, jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws {
        let name = OutputText.inputPath(path)
        try OutputPathCheck.refuseOverwritingInputs(
            [OutputPathCheck.Input(option: "--input", url: URL(fileURLWithPath: name))], output: output)
        var zones: [String: ZoneOffsets] = [:]
        let calculator = SolarCalculator()
        var header: CSVHeader?
        var headerLine: [UInt8] = []
        var sink: OutputSink?
        try CSVChunkReader(fileName: name).forEachRun(path: name) { run in
            guard let header else {
                let table = try CSVTable(bytes: run.bytes, file: name)
                _ = try parse(table: table, zones: &zones)  // the columns, and any row given with the header
                (header, headerLine) = (table.header, Array((table.header.names.joined(separator: ",") + "\n").utf8))
                // Started once the header is good: a file refused there leaves no output.
                sink = try OutputSink(path: output)
                var w = CSVWriter()
                w.row(outputColumns)
                try sink?.write(w.bytes)
                return
            }
            let bytes = headerLine + run.bytes
            if let columns = CSVByteColumns.scan(bytes, columns: ["id", "latitude", "longitude", "date", "timezone"]),
                let slices = rows(columns, of: bytes, calculator: calculator, jobs: jobs)
            {
                for slice in slices { try sink?.write(slice.bytes) }
            } else {
                let table = try CSVTable(header: header, bytes: run.bytes, file: name, firstLine: run.firstLine)
                let requests = try parse(table: table, zones: &zones)
                try sink?.write(rows(requests, compute(requests, calculator: calculator)).bytes)
            }
        }
        try sink?.finish()
    }

    /// The output rows of the data rows `columns` found in `bytes` (columns id, latitude, longitude,
    /// date, timezone), as `jobs` slices in row order; nil when any field is not one `parse(table:zones:)`
    /// would read as it stands (the caller then reads the run that way, which locates the problem).
    static func rows(
        _ columns: CSVByteColumns, of bytes: [UInt8], calculator: SolarCalculator, jobs: Int
    ) -> [CSVWriter]? {
        // Slices of at least a few thousand rows: below that a thread costs more than it saves.
        let slices = ParallelSlices.map(count: columns.rowCount, jobs: jobs, minimumPerSlice: 4096) {
            range -> CSVWriter? in
            var zones = ZoneNameCache()
            var requests: [Request] = []
            requests.reserveCapacity(range.count)
            for i in range {
                guard let r = request(columns, row: i, of: bytes, zones: &zones) else { return nil }
                requests.append(r)
            }
            return rows(requests, compute(requests, calculator: calculator))
        }
        let done = slices.compactMap { $0 }
        return done.count == slices.count ? done : nil
    }

    /// Row `i` of `columns` as a request, or nil when a field needs `parse(table:zones:)`.
    static func request(_ columns: CSVByteColumns, row i: Int, of bytes: [UInt8], zones: inout ZoneNameCache)
        -> Request?
    {
        func text(_ f: CSVFieldBytes) -> String {
            f.isUnescaped
                ? String(decoding: columns.unescaped[f.start..<f.end], as: UTF8.self)
                : String(decoding: bytes[f.start..<f.end], as: UTF8.self)
        }
        func plain(_ f: CSVFieldBytes, maxBytes: Int, _ allowed: (UInt8) -> Bool) -> String? {
            guard !f.isUnescaped, f.end > f.start, f.end - f.start <= maxBytes,
                bytes[f.start..<f.end].allSatisfy(allowed)
            else { return nil }
            return text(f)
        }
        // Only plain decimal numbers, which `FieldParser.double` reads with the same `Double(_:)`.
        func coordinate(_ f: CSVFieldBytes, limit: Double) -> Double? {
            guard let s = plain(f, maxBytes: 40, Self.isDecimalByte), let v = Double(s), v.isFinite, abs(v) <= limit
            else { return nil }
            return v
        }
        guard let latitude = coordinate(columns.columns[1][i], limit: 90),
            let longitude = coordinate(columns.columns[2][i], limit: 180),
            let dateText = plain(columns.columns[3][i], maxBytes: 10, { $0 > 0x20 && $0 < 0x7F }),
            let date = CivilDate(iso: Substring(dateText)),
            let zone = zones.zone(columns.columns[4][i], of: bytes)
        else { return nil }
        return Request(
            id: text(columns.columns[0][i]), latitude: latitude, longitude: longitude, date: date, offsets: zone)
    }

    /// Digits, signs, the decimal point and the exponent letter.
    static func isDecimalByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2B || b == 0x2E || b == 0x65 || b == 0x45
    }

    /// Time zones by the bytes of their names, so a row's zone is found without making a `String`.
    struct ZoneNameCache {
        private var names: [[UInt8]] = []
        private var zones: [ZoneOffsets] = []

        /// The zone the field names (IANA names only, as `parse(table:zones:)`); nil when the name is
        /// not one, or has white space around it, or the field is quoted with doubled quotes.
        mutating func zone(_ f: CSVFieldBytes, of bytes: [UInt8]) -> ZoneOffsets? {
            guard !f.isUnescaped, f.end > f.start, bytes[f.start] > 0x20, bytes[f.end - 1] > 0x20 else { return nil }
            let name = bytes[f.start..<f.end]
            // A few zones per file is the common case: a linear scan beats hashing the name.
            for (k, known) in names.enumerated() where known.count == name.count && known.elementsEqual(name) {
                return zones[k]
            }
            guard let zone = ZoneOffsets.ianaZone(named: String(decoding: name, as: UTF8.self)) else { return nil }
            let offsets = ZoneOffsets.shared(for: zone)
            if names.count < 64 {
                names.append(Array(name))
                zones.append(offsets)
            }
            return offsets
        }
    }
}

extension SunBatch {
    /// `fieldtest sun`: `run(file:output:)` as a command.
    public struct Job: CommandJob {
        /// The input CSV (`-`: standard input).
        public var input: String
        /// The output CSV, nil or `-` for standard output.
        public var output: String?

        /// A job.
        public init(input: String, output: String?) { (self.input, self.output) = (input, output) }

        public var files: CommandFiles {
            var f = CommandFiles()
            f.input(input, option: "--input")
            f.output(output, option: "--output")
            return f
        }

        public func run() throws -> CommandJobOutcome {
            try SunBatch.run(file: input, output: output)
            return .success
        }
    }
}
