import Foundation

/// Typed, validating loader of UJIIndoorLoc CSV files (`trainingData.csv`,
/// `validationData.csv` and files in the same column layout).
///
/// Layout: a header naming `WAP001`…`WAP520` (RSSI, integer dBm in −104…0 or
/// +100 = not detected) and `LONGITUDE`, `LATITUDE` (projected metres, |value| ≤
/// `coordinateLimitMetres` = 10⁸ m, which holds any EPSG:3857 coordinate on Earth),
/// `FLOOR` (non-negative integer), `BUILDINGID`, `SPACEID`, `RELATIVEPOSITION`
/// (1 inside, 2 in front of the door, 0 not recorded), `USERID`, `PHONEID`,
/// `TIMESTAMP` (UNIX seconds). Columns are found by name, so their order may vary.
///
/// Speed: the loader scans bytes directly (no per-field `String`), O(n) in the
/// file's bytes; `fieldtest-bench locate` reports the load time of the bundled
/// 13,000 rows × 529 columns. Lines holding a `"` fall back to the RFC 4180 `CSVReader`.
public enum UJIIndoorLoc {
    /// Number of access-point (`WAPnnn`) columns: 520.
    public static let accessPointCount = 520
    /// RSSI value (dBm field) meaning "access point not detected": +100.
    public static let notDetected: Int8 = 100
    /// Weakest RSSI accepted, in dBm: −104.
    public static let weakestRSSI = -104
    /// Strongest RSSI accepted, in dBm: 0.
    public static let strongestRSSI = 0
    /// Largest accepted |LONGITUDE| and |LATITUDE|, in projected metres: 10⁸. Web-Mercator
    /// (EPSG:3857) coordinates stay within ±2.0·10⁷ m at the ±85° latitude limit (the Jaume I
    /// campus is near −7,500 m, 4,864,900 m), so a larger value is a unit or entry mistake.
    public static let coordinateLimitMetres = 1e8

    /// The number of lines `bytes` ends: LF, CRLF or a bare CR each end one, as the loader reads them.
    public static func lineEnds(_ bytes: [UInt8]) -> Int {
        let lf = UInt8(ascii: "\n")
        let cr = UInt8(ascii: "\r")
        var count = 0
        for (i, b) in bytes.enumerated()
        where b == lf || (b == cr && (i + 1 == bytes.count || bytes[i + 1] != lf)) { count += 1 }
        return count
    }
    /// The header names of the access-point columns, `WAP001`…`WAP520`.
    public static let accessPointColumns: [String] = (1...accessPointCount).map { i in
        let digits = String(i)
        return "WAP" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
    /// Ground-truth columns that make a row labelled.
    public static let groundTruthColumns = ["LONGITUDE", "LATITUDE", "FLOOR", "BUILDINGID"]
    /// Metadata columns (0 when absent from a query file).
    public static let metadataColumns = ["SPACEID", "RELATIVEPOSITION", "USERID", "PHONEID", "TIMESTAMP"]

    /// Loads `url`. With `requireLabels` every ground-truth and metadata column
    /// must be present; otherwise a file without the ground-truth columns loads
    /// with `label == nil` (a pure query file).
    public static func load(
        url: URL, displayName: String? = nil, policy: LoadPolicy = .strict,
        requireLabels: Bool = true
    ) throws(DataError) -> Loaded<UJIIndoorLocRecord> {
        let name = displayName ?? url.path
        let bytes = try readFileBytes(url, displayName: name)
        return try load(bytes: bytes, file: name, policy: policy, requireLabels: requireLabels)
    }

    /// Parses `bytes` (the whole file) named `file` in messages. See `load(url:)`. `lineOffset` is
    /// added to every data row's line in messages: for a run of a streamed file (`CSVChunkReader`)
    /// parsed behind a copy of the file's header.
    public static func load(
        bytes: [UInt8], file: String, policy: LoadPolicy = .strict,
        requireLabels: Bool = true, lineOffset: Int = 0
    ) throws(DataError) -> Loaded<UJIIndoorLocRecord> {
        let result: Result<Loaded<UJIIndoorLocRecord>, DataError> = bytes.withUnsafeBufferPointer { buffer in
            let parser = UJIIndoorLocParser(bytes: buffer, file: file)
            do throws(DataError) {
                return .success(try parser.run(policy: policy, requireLabels: requireLabels, lineOffset: lineOffset))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// The byte-level parser behind `UJIIndoorLoc.load`; `bytes` is only valid
/// during the call that created the parser.
struct UJIIndoorLocParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    private static let comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r"),
        quote = UInt8(ascii: "\""), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"),
        minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+"), zero = UInt8(ascii: "0"),
        nine = UInt8(ascii: "9")

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Column positions of the fields the loader reads.
    struct Layout {
        var columnCount: Int
        var wap: [Int]
        var longitude: Int?, latitude: Int?, floor: Int?, building: Int?
        var space: Int?, relativePosition: Int?, user: Int?, phone: Int?, timestamp: Int?
        var labelled: Bool { longitude != nil }
    }

    func run(policy: LoadPolicy, requireLabels: Bool, lineOffset: Int = 0) throws(DataError) -> Loaded<
        UJIIndoorLocRecord
    > {
        var start = 0
        let n = bytes.count
        if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var line = 1
        // Skip blank lines before the header.
        var headerRange: Range<Int>? = nil
        while start < n {
            let end = lineEnd(from: start)
            let content = trimCR(start..<end)
            if !content.isEmpty {
                headerRange = content
                break
            }
            start = end + 1
            line += 1
        }
        guard let headerRange else { throw .empty(file: file) }
        let headerRecords = try CSVReader(fileName: file).records(Array(bytes[headerRange]))
        guard let headerFields = headerRecords.first?.fields else { throw .empty(file: file) }
        let header = CSVHeader(headerFields)
        let layout = try makeLayout(header, requireLabels: requireLabels)
        let headerLine = line
        var lineNo = headerLine + lineOffset
        var pos = headerRange.upperBound
        // Advance past the header's line end.
        if pos < n, bytes[pos] == Self.cr { pos += 1 }
        if pos < n, bytes[pos] == Self.lf { pos += 1 }

        var records: [UJIIndoorLocRecord] = []
        records.reserveCapacity(max(16, n / 2200))
        var report = LoadReport()
        var fields: [Range<Int>] = []
        fields.reserveCapacity(layout.columnCount + 1)
        while pos < n {
            lineNo += 1
            let end = lineEnd(from: pos)
            let content = trimCR(pos..<end)
            pos = end + 1
            if content.isEmpty { continue }
            do throws(DataError) {
                let record: UJIIndoorLocRecord
                if hasQuote(content) {
                    record = try parseQuoted(content, line: lineNo, layout: layout, header: header)
                } else {
                    split(content, into: &fields)
                    if fields.count != layout.columnCount {
                        throw .wrongColumnCount(
                            file: file, line: lineNo, expected: layout.columnCount,
                            found: fields.count)
                    }
                    record = try parseRow(line: lineNo, layout: layout) { fields[$0] }
                }
                records.append(record)
                report.rowsLoaded += 1
            } catch {
                guard policy == .lenient else { throw error }
                report.record(error)
            }
        }
        return Loaded(records: records, report: report)
    }

    private func makeLayout(_ header: CSVHeader, requireLabels: Bool) throws(DataError) -> Layout {
        var wap: [Int] = []
        wap.reserveCapacity(UJIIndoorLoc.accessPointCount)
        for name in UJIIndoorLoc.accessPointColumns { wap.append(try header.require(name, file: file)) }
        func column(_ name: String, required: Bool) throws(DataError) -> Int? {
            if required { return try header.require(name, file: file) }
            return header.position(of: name)
        }
        let lon = try column("LONGITUDE", required: requireLabels)
        var layout = Layout(columnCount: header.names.count, wap: wap, longitude: lon)
        if lon != nil || requireLabels {
            // Once a file carries ground truth, all four ground-truth columns are needed.
            layout.latitude = try column("LATITUDE", required: true)
            layout.floor = try column("FLOOR", required: true)
            layout.building = try column("BUILDINGID", required: true)
        }
        layout.space = try column("SPACEID", required: requireLabels)
        layout.relativePosition = try column("RELATIVEPOSITION", required: requireLabels)
        layout.user = try column("USERID", required: requireLabels)
        layout.phone = try column("PHONEID", required: requireLabels)
        layout.timestamp = try column("TIMESTAMP", required: requireLabels)
        return layout
    }

    /// Where the line from `start` ends: at the next LF, or at a bare CR before it. Lines end as the
    /// shared `CSVReader` ends them (LF, CRLF or a classic-Mac CR), so a CR-only file is read row by
    /// row instead of as one header line with nothing after it. A CRLF's CR stays (`trimCR` drops it).
    private func lineEnd(from start: Int) -> Int {
        let n = bytes.count
        guard start < n, let base = bytes.baseAddress else { return n }
        var end = n
        if let hit = memchr(base + start, Int32(Self.lf), n - start) {
            end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        if let cr = memchr(base + start, Int32(Self.cr), end - start),
            case let at = base.distance(to: cr.assumingMemoryBound(to: UInt8.self)), at < end - 1
        {
            return at
        }
        return end
    }

    private func hasQuote(_ r: Range<Int>) -> Bool {
        guard !r.isEmpty, let base = bytes.baseAddress else { return false }
        return memchr(base + r.lowerBound, Int32(Self.quote), r.count) != nil
    }

    private func trimCR(_ r: Range<Int>) -> Range<Int> {
        if r.upperBound > r.lowerBound, bytes[r.upperBound - 1] == Self.cr { return r.lowerBound..<(r.upperBound - 1) }
        return r
    }

    private func split(_ r: Range<Int>, into fields: inout [Range<Int>]) {
        fields.removeAll(keepingCapacity: true)
        guard let base = bytes.baseAddress, !r.isEmpty else {
            fields.append(r)
            return
        }
        var s = r.lowerBound
        while s <= r.upperBound {
            guard s < r.upperBound,
                let hit = memchr(base + s, Int32(Self.comma), r.upperBound - s)
            else {
                fields.append(s..<r.upperBound)
                break
            }
            let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            fields.append(s..<i)
            s = i + 1
        }
    }

    /// Slow path for a line with quoted fields: parse it with the RFC 4180 reader.
    private func parseQuoted(_ r: Range<Int>, line: Int, layout: Layout, header: CSVHeader) throws(DataError)
        -> UJIIndoorLocRecord
    {
        // The reader sees this one line as line 1; its errors are moved to the file's line and
        // name the header's column.
        let recs: [CSVRecord]
        do throws(DataError) { recs = try CSVReader(fileName: file).records(Array(bytes[r])) } catch {
            throw header.namingColumns(in: error.linesShifted(by: line - 1))
        }
        guard let fieldsText = recs.first?.fields, recs.count == 1 else {
            throw .badLayout(
                file: file, line: line, reason: "a quoted field spans lines; UJIIndoorLoc rows are one line each")
        }
        if fieldsText.count != layout.columnCount {
            throw .wrongColumnCount(file: file, line: line, expected: layout.columnCount, found: fieldsText.count)
        }
        let joined = Array(fieldsText.joined(separator: ",").utf8)
        let result: Result<UJIIndoorLocRecord, DataError> = joined.withUnsafeBufferPointer { buffer in
            let sub = UJIIndoorLocParser(bytes: buffer, file: file)
            var ranges: [Range<Int>] = []
            sub.split(0..<buffer.count, into: &ranges)
            guard ranges.count == layout.columnCount else {
                return .failure(
                    .badLayout(
                        file: file, line: line,
                        reason: "a field holds a comma; UJIIndoorLoc fields are numbers"))
            }
            do throws(DataError) {
                return .success(try sub.parseRow(line: line, layout: layout) { ranges[$0] })
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func text(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }

    private func parseRow(
        line: Int, layout: Layout,
        field: (Int) -> Range<Int>
    ) throws(DataError) -> UJIIndoorLocRecord {
        var rssi = [Int8](repeating: UJIIndoorLoc.notDetected, count: UJIIndoorLoc.accessPointCount)
        for (k, column) in layout.wap.enumerated() {
            let r = field(column)
            guard let v = parseInt(r),
                v == Int(UJIIndoorLoc.notDetected)
                    || (UJIIndoorLoc.weakestRSSI...UJIIndoorLoc.strongestRSSI).contains(v)
            else {
                throw .invalidField(
                    file: file, line: line, field: UJIIndoorLoc.accessPointColumns[k], value: text(r),
                    reason: "RSSI must be an integer dBm in -104…0, or 100 for 'not detected'")
            }
            rssi[k] = Int8(v)
        }
        guard layout.labelled, let lonC = layout.longitude, let latC = layout.latitude,
            let floorC = layout.floor, let buildingC = layout.building
        else {
            return UJIIndoorLocRecord(rssi: rssi, label: nil)
        }
        let lon = try coordinate(field(lonC), "LONGITUDE", line)
        let lat = try coordinate(field(latC), "LATITUDE", line)
        let floor = try int(field(floorC), "FLOOR", line, min: 0)
        let building = try int(field(buildingC), "BUILDINGID", line, min: 0)
        let space = try layout.space.map { c throws(DataError) in try int(field(c), "SPACEID", line, min: 0) } ?? 0
        var relative: UJIIndoorLocRelativePosition? = nil
        if let c = layout.relativePosition {
            let v = try int(field(c), "RELATIVEPOSITION", line, min: 0)
            if v != 0 {
                guard let rp = UJIIndoorLocRelativePosition(rawValue: v) else {
                    throw .invalidField(
                        file: file, line: line, field: "RELATIVEPOSITION", value: text(field(c)),
                        reason: "must be 1 (inside), 2 (outside in front of the door) or 0 (not recorded)")
                }
                relative = rp
            }
        }
        let user = try layout.user.map { c throws(DataError) in try int(field(c), "USERID", line, min: 0) } ?? 0
        let phone = try layout.phone.map { c throws(DataError) in try int(field(c), "PHONEID", line, min: 0) } ?? 0
        let time = try layout.timestamp.map { c throws(DataError) in try int(field(c), "TIMESTAMP", line, min: 0) } ?? 0
        let label = UJIIndoorLocLabel(
            longitudeMetres: lon, latitudeMetres: lat, floor: floor, building: building,
            space: space, relativePosition: relative, user: user, phone: phone,
            timestampSeconds: time)
        return UJIIndoorLocRecord(rssi: rssi, label: label)
    }

    private func int(_ r: Range<Int>, _ name: String, _ line: Int, min: Int) throws(DataError) -> Int {
        guard let v = parseInt(r) else {
            let t = text(r).trimmingCharacters(in: .whitespaces)
            throw .invalidField(
                file: file, line: line, field: name, value: text(r),
                reason: t.isEmpty ? "value is missing" : "not an integer")
        }
        guard v >= min else {
            throw .invalidField(file: file, line: line, field: name, value: text(r), reason: "must be ≥ \(min)")
        }
        return v
    }

    private func double(_ r: Range<Int>, _ name: String, _ line: Int) throws(DataError) -> Double {
        try FieldParser.double(text(r), field: name, in: nil, file: file, line: line)
    }

    /// A projected coordinate: finite and within ±`UJIIndoorLoc.coordinateLimitMetres`.
    private func coordinate(_ r: Range<Int>, _ name: String, _ line: Int) throws(DataError) -> Double {
        let v = try double(r, name, line)
        guard abs(v) <= UJIIndoorLoc.coordinateLimitMetres else {
            throw .invalidField(
                file: file, line: line, field: name, value: text(r),
                reason:
                    "must be projected metres within ±100000000 (EPSG:3857-like, as in UJIIndoorLoc); check the units")
        }
        return v
    }

    /// Parses an optionally signed base-10 integer of at most 18 digits,
    /// allowing surrounding spaces; nil for anything else.
    private func parseInt(_ r: Range<Int>) -> Int? {
        var i = r.lowerBound
        var end = r.upperBound
        while i < end, bytes[i] == Self.space || bytes[i] == Self.tab { i += 1 }
        while end > i, bytes[end - 1] == Self.space || bytes[end - 1] == Self.tab { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == Self.minus || bytes[i] == Self.plus {
            negative = bytes[i] == Self.minus
            i += 1
        }
        guard i < end, end - i <= 18 else { return nil }
        var v = 0
        while i < end {
            let b = bytes[i]
            guard b >= Self.zero && b <= Self.nine else { return nil }
            v = v * 10 + Int(b - Self.zero)
            i += 1
        }
        return negative ? -v : v
    }
}
