import CZlib
import Foundation

/// Reads OpenStreetMap PBF (`.osm.pbf`), the format of the extract services: a sequence of blocks,
/// each a length, a `BlobHeader` and a `Blob` (raw or zlib-compressed protobuf), the first an
/// `OSMHeader`, the rest `OSMData` blocks of string-table-coded nodes (plain or dense), ways and
/// relations. The result is the same `OSMData` the XML reader gives for the same map, with
/// `line` 0 on every element (the format has no lines).
///
/// Errors are located by block: a `DataError` whose line is the 1-based block number and whose
/// reason gives the block's byte offset and what is wrong (a truncated block, a bad zlib stream, a
/// string index out of range, a coordinate out of range). Under `.lenient` a bad element is skipped
/// and counted; a damaged block always stops the load. Elements of a history file marked not
/// visible (deleted versions) are passed over, as in XML.
///
/// Limits: a block header of at most 64 KiB and a block of at most 32 MiB, compressed or not (the
/// format's own). A file's budget (`Budget`) bounds what it may expand to, checked against the sizes and
/// counts the blocks declare before anything is allocated for them: the blocks inflate to at most
/// 64 MiB + 64 × the file's size in all, and hold at most 1,000,000 + one element (node, way or
/// relation) per byte of the file. Real extracts inflate to a few times their size and hold about one
/// element per 10 bytes; a decompression bomb (a 1 MB file of 400 M dense nodes, 47 GB once read) is
/// refused at the block that crosses the budget. Complexity: O(file size + decompressed size) time;
/// memory O(elements) plus one block, so O(file size).
public enum OSMPBFLoader: OSMByteLoader {
    /// The largest block header the format allows, in bytes.
    static let maxHeaderBytes = 64 * 1024
    /// The largest block, compressed or decompressed, the format allows, in bytes.
    static let maxBlobBytes = 32 * 1024 * 1024
    /// What a file of a given size may expand to: decompressed bytes and elements, in all.
    public struct Budget: Sendable, Equatable {
        /// Decompressed bytes of every block together.
        public var inflatedBytes: Int
        /// Nodes, ways and relations together.
        public var elements: Int

        /// The budget of a file of `fileBytes` bytes: 64 MiB + 64 × its size inflated, and
        /// 1,000,000 + one element per byte.
        public init(fileBytes: Int) {
            inflatedBytes = 64 * 1024 * 1024 + 64 * fileBytes
            elements = 1_000_000 + fileBytes
        }
    }

    /// Features of the `OSMHeader` block this reader understands; a file that requires another is refused.
    static let understoodFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    /// Whether `prefix` (the first bytes of a file) starts an OSM PBF file: a block header length,
    /// then a `BlobHeader` whose type is `OSMHeader`.
    public static func looksLikePBF(_ prefix: some Collection<UInt8>) -> Bool {
        let b = Array(prefix.prefix(16))
        return b.count >= 15 && b[0] == 0 && b[1] == 0 && b[4] == 0x0A && b[5] == 9
            && Array(b[6..<15]) == Array("OSMHeader".utf8)
    }

    /// Parses OSM PBF in `bytes`; `file` names it in errors.
    public static func parse(bytes: UnsafeRawBufferPointer, file: String, policy: LoadPolicy = .strict)
        throws(DataError)
        -> OSMData
    {
        var reader = PBFReader(file: file, policy: policy, budget: Budget(fileBytes: bytes.count))
        var offset = 0
        while offset < bytes.count {
            reader.block += 1
            reader.blockOffset = offset
            offset = try reader.readBlock(bytes, at: offset)
        }
        guard reader.sawHeader else {
            throw .badLayout(
                file: file, line: 1,
                reason: bytes.isEmpty
                    ? "the file is empty; expected an OpenStreetMap PBF file"
                    : "no OSMHeader block; expected an OpenStreetMap PBF file")
        }
        return OSMData(nodes: reader.nodes, ways: reader.ways, relations: reader.relations, report: reader.report)
    }
}

/// The state of one PBF read: the elements so far and where the reader is, for errors.
private struct PBFReader {
    let file: String
    let policy: LoadPolicy
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []
    var report = LoadReport()
    var sawHeader = false
    /// 1-based number of the block being read.
    var block = 0
    /// Byte offset of the block being read.
    var blockOffset = 0
    /// What the whole file may expand to, and what its blocks declared so far.
    let budget: OSMPBFLoader.Budget
    var inflatedBytes = 0
    var elements = 0

    init(file: String, policy: LoadPolicy, budget: OSMPBFLoader.Budget) {
        self.file = file
        self.policy = policy
        self.budget = budget
    }

    /// The refusal of a file that expands past its budget (`what`: the quantity, `limit` its bound).
    func overBudget(_ what: String, _ total: Int, _ limit: Int, _ rule: String) -> DataError {
        damaged(
            "the blocks so far declare \(total) \(what), more than this file's budget of \(limit) (\(rule)); a real "
                + "extract stays far below it, so this file is a decompression bomb or damaged")
    }

    func damaged(_ reason: String) -> DataError {
        .badLayout(
            file: file, line: block,
            reason: "block \(block) (byte \(blockOffset)): \(reason); the line number is the block number in a PBF file"
        )
    }

    /// Reads the block at `offset`; returns the offset of the next.
    mutating func readBlock(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(DataError) -> Int {
        let truncated = "the file ends inside this block; it is truncated, download or convert it again"
        guard offset + 4 <= bytes.count else { throw damaged(truncated) }
        let headerLength = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        guard (1...OSMPBFLoader.maxHeaderBytes).contains(headerLength) else {
            throw damaged(
                "a block header of \(headerLength) bytes, outside 1…\(OSMPBFLoader.maxHeaderBytes); this is not an OSM PBF file or it is damaged"
            )
        }
        guard offset + 4 + headerLength <= bytes.count else { throw damaged(truncated) }
        let header: PBFBlobHeader = try decode(bytes, offset + 4, headerLength, what: "block header")
        let size = Int(header.datasize ?? 0)
        guard (0...OSMPBFLoader.maxBlobBytes).contains(size) else {
            throw damaged("a block of \(size) bytes, outside 0…\(OSMPBFLoader.maxBlobBytes)")
        }
        let blobStart = offset + 4 + headerLength
        guard blobStart + size <= bytes.count else { throw damaged(truncated) }
        let blob: PBFBlob = try decode(bytes, blobStart, size, what: "block")
        switch header.type {
        case "OSMHeader":
            guard !sawHeader else { throw damaged("a second OSMHeader block") }
            let payload = try payload(of: blob)
            let head: PBFHeaderBlock = try decode(payload, what: "OSMHeader block")
            let unknown = head.requiredFeatures.filter { !OSMPBFLoader.understoodFeatures.contains($0) }
            guard unknown.isEmpty else {
                throw damaged(
                    "the file requires \(unknown.joined(separator: ", ")), which Fieldtest does not read; convert it "
                        + "with `osmium cat in.osm.pbf -o out.osm.pbf`")
            }
            sawHeader = true
        case "OSMData":
            guard sawHeader else { throw damaged("an OSMData block before the OSMHeader block") }
            let payload = try payload(of: blob)
            let primitives: PBFPrimitiveBlock = try decode(payload, what: "OSMData block")
            try read(primitives)
        default:
            break  // Blocks of other kinds may be skipped, the format says.
        }
        return blobStart + size
    }

    /// The message of `what` in `count` bytes of `bytes` from `start`.
    private func decode<M: ProtobufMessage>(
        _ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int, what: String
    ) throws(DataError) -> M {
        do throws(ProtobufReader.Malformed) {
            return try M(protobuf: UnsafeRawBufferPointer(rebasing: bytes[start..<start + count]))
        } catch {
            throw damaged("the \(what) is not valid protobuf (\(error.reason))")
        }
    }

    /// The message of `what` in a block's payload.
    private func decode<M: ProtobufMessage>(_ payload: [UInt8], what: String) throws(DataError) -> M {
        let result = payload.withUnsafeBytes { bytes -> Result<M, DataError> in
            do throws(DataError) { return .success(try decode(bytes, 0, bytes.count, what: what)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The block's payload, inflated when zlib-compressed.
    private mutating func payload(of blob: PBFBlob) throws(DataError) -> [UInt8] {
        switch blob.data {
        case .raw(let raw)?:
            return raw
        case .zlib(let compressed)?:
            let size = Int(blob.rawSize ?? 0)
            guard blob.rawSize != nil, (0...OSMPBFLoader.maxBlobBytes).contains(size) else {
                throw damaged("a zlib block without a valid raw_size (\(blob.rawSize ?? 0))")
            }
            inflatedBytes += size
            guard inflatedBytes <= budget.inflatedBytes else {
                throw overBudget(
                    "decompressed bytes", inflatedBytes, budget.inflatedBytes, "64 MiB + 64 × the file's size")
            }
            var out = [UInt8](repeating: 0, count: size)
            var outLength = uLongf(size)
            let status = out.withUnsafeMutableBytes { o in
                compressed.withUnsafeBytes { i in
                    uncompress(
                        o.baseAddress?.assumingMemoryBound(to: Bytef.self), &outLength,
                        i.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(i.count))
                }
            }
            guard status == Z_OK else {
                let why =
                    status == Z_BUF_ERROR
                    ? "it inflates to more than its raw_size of \(size) bytes, or is cut short"
                    : status == Z_DATA_ERROR ? "the zlib data is corrupt" : "zlib error \(status)"
                throw damaged("cannot inflate the block: \(why)")
            }
            guard Int(outLength) == size else {
                throw damaged("the block inflates to \(outLength) bytes, not its raw_size of \(size)")
            }
            return out
        case .other?:
            throw damaged(
                "the block is compressed with other than zlib, which Fieldtest does not read; convert it with "
                    + "`osmium cat in.osm.pbf -o out.osm.pbf`")
        case nil:
            throw damaged("a block with no data")
        }
    }

    /// Records `error` for the element under `.lenient`, or throws it.
    private mutating func reject(_ error: DataError) throws(DataError) {
        guard policy == .lenient else { throw error }
        report.record(error)
    }

    private func elementError(_ field: String, _ value: String, _ reason: String) -> DataError {
        .invalidField(
            file: file, line: block, field: field, value: value,
            reason: "\(reason) (block \(block), byte \(blockOffset))")
    }

    private mutating func read(_ block: PBFPrimitiveBlock) throws(DataError) {
        // Counted before a single element is built: the arrays of the decoded block are all there is yet.
        for group in block.groups {
            elements += group.nodes.count + (group.dense?.id.count ?? 0) + group.ways.count + group.relations.count
        }
        guard elements <= budget.elements else {
            throw overBudget("elements", elements, budget.elements, "1,000,000 + one per byte of the file")
        }
        var strings: [String] = []
        strings.reserveCapacity(block.strings.count)
        for (i, s) in block.strings.enumerated() {
            guard let text = s else {
                throw damaged("string \(i) of the string table is not UTF-8")
            }
            strings.append(text)
        }
        let granularity = Int64(block.granularity)
        func degrees(_ offset: Int64, _ units: Int64) -> Double? {
            let (scaled, o1) = granularity.multipliedReportingOverflow(by: units)
            let (nano, o2) = offset.addingReportingOverflow(scaled)
            // Exact integer nanodegrees over an exact power of ten: one rounding, as from the XML's decimal text.
            return o1 || o2 ? nil : Double(nano) / 1e9
        }
        func tags(_ keys: [UInt32], _ values: [UInt32]) -> [String: String]? {
            guard keys.count == values.count else { return nil }
            var out: [String: String] = [:]
            for (k, v) in zip(keys, values) {
                guard Int(k) < strings.count, Int(v) < strings.count else { return nil }
                out[strings[Int(k)]] = strings[Int(v)]
            }
            return out
        }
        for group in block.groups {
            for n in group.nodes {
                if PBFInfo.isDeleted(n.info) { continue }
                guard let t = tags(n.keys, n.vals) else {
                    try reject(
                        elementError("node.tags", "\(n.id)", "tag keys and values do not pair up with the string table")
                    )
                    continue
                }
                try addNode(
                    id: n.id, latitude: degrees(block.latOffset, n.lat), longitude: degrees(block.lonOffset, n.lon),
                    tags: t)
            }
            if let dense = group.dense {
                try readDense(
                    dense, strings: strings, latitude: { degrees(block.latOffset, $0) },
                    longitude: { degrees(block.lonOffset, $0) })
            }
            for w in group.ways {
                if PBFInfo.isDeleted(w.info) { continue }
                guard let t = tags(w.keys, w.vals) else {
                    try reject(
                        elementError("way.tags", "\(w.id)", "tag keys and values do not pair up with the string table"))
                    continue
                }
                var ref: Int64 = 0
                let refs = w.refs.map { delta -> Int64 in
                    ref &+= delta
                    return ref
                }
                ways.append(OSMWay(id: w.id, nodeRefs: refs, tags: t, line: 0))
                report.rowsLoaded += 1
            }
            for r in group.relations { try readRelation(r, strings: strings, tags: tags) }
        }
    }

    /// One relation of a block: its members with their roles, unless they do not pair up.
    private mutating func readRelation(
        _ r: PBFRelation, strings: [String], tags: ([UInt32], [UInt32]) -> [String: String]?
    ) throws(DataError) {
        if PBFInfo.isDeleted(r.info) { return }
        guard let t = tags(r.keys, r.vals), r.rolesSid.count == r.memids.count, r.types.count == r.memids.count,
            r.rolesSid.allSatisfy({ $0 >= 0 && Int($0) < strings.count })
        else {
            try reject(
                elementError("relation.members", "\(r.id)", "members or tags do not pair up with the string table"))
            return
        }
        var ref: Int64 = 0
        var members: [OSMMember] = []
        members.reserveCapacity(r.memids.count)
        for i in r.memids.indices {
            ref &+= r.memids[i]
            let kind: OSMElementKind
            switch r.types[i] {
            case .node: kind = .node
            case .way: kind = .way
            case .relation: kind = .relation
            }
            members.append(OSMMember(kind: kind, ref: ref, role: strings[Int(r.rolesSid[i])]))
        }
        relations.append(OSMRelation(id: r.id, members: members, tags: t, line: 0))
        report.rowsLoaded += 1
    }

    private mutating func readDense(
        _ dense: PBFDenseNodes, strings: [String], latitude: (Int64) -> Double?, longitude: (Int64) -> Double?
    ) throws(DataError) {
        let n = dense.id.count
        guard dense.lat.count == n, dense.lon.count == n else {
            throw damaged(
                "dense nodes with \(n) ids but \(dense.lat.count) latitudes and \(dense.lon.count) longitudes")
        }
        let visible = dense.denseInfo.flatMap { $0.visible.count == n ? $0.visible : nil }
        let keysVals = dense.keysVals
        var id: Int64 = 0
        var lat: Int64 = 0
        var lon: Int64 = 0
        var j = 0
        for i in 0..<n {
            id &+= dense.id[i]
            lat &+= dense.lat[i]
            lon &+= dense.lon[i]
            var t: [String: String] = [:]
            var badTags = false
            // keys_vals: k, v, k, v, …, 0 for each node (absent altogether when no node has tags).
            while j < keysVals.count, keysVals[j] != 0 {
                guard j + 1 < keysVals.count, keysVals[j] > 0, keysVals[j + 1] >= 0, Int(keysVals[j]) < strings.count,
                    Int(keysVals[j + 1]) < strings.count
                else {
                    badTags = true
                    j = keysVals.count
                    break
                }
                t[strings[Int(keysVals[j])]] = strings[Int(keysVals[j + 1])]
                j += 2
            }
            j += 1
            if let visible, !visible[i] { continue }
            if badTags {
                try reject(elementError("node.tags", "\(id)", "dense node tags do not pair up with the string table"))
                continue
            }
            try addNode(id: id, latitude: latitude(lat), longitude: longitude(lon), tags: t)
        }
    }

    private mutating func addNode(id: Int64, latitude: Double?, longitude: Double?, tags: [String: String])
        throws(DataError)
    {
        guard let latitude, (-90...90).contains(latitude) else {
            try reject(elementError("node.lat", latitude.map { "\($0)" } ?? "overflow", "outside -90…90"))
            return
        }
        guard let longitude, (-180...180).contains(longitude) else {
            try reject(elementError("node.lon", longitude.map { "\($0)" } ?? "overflow", "outside -180…180"))
            return
        }
        nodes.append(OSMNode(id: id, latitude: latitude, longitude: longitude, tags: tags, line: 0))
        report.rowsLoaded += 1
    }
}
