import Dispatch
import Foundation

/// An OpenStreetMap node: a point with tags.
public struct OSMNode: Sendable, Equatable {
    /// OSM node id.
    public var id: Int64
    /// Latitude in degrees (WGS84), −90…90.
    public var latitude: Double
    /// Longitude in degrees (WGS84), −180…180.
    public var longitude: Double
    /// The node's `k=v` tags.
    public var tags: [String: String]
    /// 1-based line of the `<node>` element in the file.
    public var line: Int

    /// Creates a node.
    public init(id: Int64, latitude: Double, longitude: Double, tags: [String: String] = [:], line: Int = 0) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.tags = tags
        self.line = line
    }
}

/// An OpenStreetMap way: an ordered list of node references with tags.
public struct OSMWay: Sendable, Equatable {
    /// OSM way id.
    public var id: Int64
    /// Node ids in file order (some may be absent from the file; see `OSMData.presentRuns(of:)`).
    public var nodeRefs: [Int64]
    /// The way's `k=v` tags.
    public var tags: [String: String]
    /// 1-based line of the `<way>` element in the file.
    public var line: Int

    /// Creates a way.
    public init(id: Int64, nodeRefs: [Int64], tags: [String: String] = [:], line: Int = 0) {
        self.id = id
        self.nodeRefs = nodeRefs
        self.tags = tags
        self.line = line
    }
}

/// The kind of element a relation member refers to.
public enum OSMElementKind: String, Sendable, Equatable {
    /// A `<node>`.
    case node
    /// A `<way>`.
    case way
    /// A `<relation>`.
    case relation
}

/// One member of a relation.
public struct OSMMember: Sendable, Equatable {
    /// What the member is.
    public var kind: OSMElementKind
    /// The member's id.
    public var ref: Int64
    /// The member's role (may be empty).
    public var role: String

    /// Creates a member.
    public init(kind: OSMElementKind, ref: Int64, role: String) {
        self.kind = kind
        self.ref = ref
        self.role = role
    }
}

/// An OpenStreetMap relation: members with roles, and tags.
public struct OSMRelation: Sendable, Equatable {
    /// OSM relation id.
    public var id: Int64
    /// Members in file order.
    public var members: [OSMMember]
    /// The relation's `k=v` tags.
    public var tags: [String: String]
    /// 1-based line of the `<relation>` element in the file.
    public var line: Int

    /// Creates a relation.
    public init(id: Int64, members: [OSMMember], tags: [String: String] = [:], line: Int = 0) {
        self.id = id
        self.members = members
        self.tags = tags
        self.line = line
    }
}

/// The contents of an OSM XML file: nodes, ways and relations with an id index,
/// and what was wrong but tolerated (references to nodes absent from the extract).
public struct OSMData: Sendable {
    /// Nodes in file order.
    public var nodes: [OSMNode]
    /// Ways in file order.
    public var ways: [OSMWay]
    /// Relations in file order.
    public var relations: [OSMRelation]
    /// Index of each node id into `nodes`.
    public var nodeIndex: OSMNodeIndex
    /// Way node references whose node is not in the file (clipped extract edges).
    public var missingNodeRefs: Int
    /// Ways with at least one missing node reference.
    public var waysWithMissingNodes: Int
    /// Rows accepted and elements skipped (lenient loads), with their errors.
    public var report: LoadReport

    /// Creates the data set and its node index; counts the dangling way references.
    public init(nodes: [OSMNode], ways: [OSMWay], relations: [OSMRelation], report: LoadReport = LoadReport()) {
        self.nodes = nodes
        self.ways = ways
        self.relations = relations
        self.report = report
        let index = OSMNodeIndex(nodes.lazy.map(\.id))
        self.nodeIndex = index
        var missing = 0
        var waysMissing = 0
        for w in ways {
            let m = w.nodeRefs.reduce(0) { $0 + (index[$1] == nil ? 1 : 0) }
            missing += m
            if m > 0 { waysMissing += 1 }
        }
        self.missingNodeRefs = missing
        self.waysWithMissingNodes = waysMissing
    }

    /// Number of node, way and relation elements.
    public var elementCount: Int { nodes.count + ways.count + relations.count }

    /// The node with `id`, if present.
    public func node(_ id: Int64) -> OSMNode? {
        guard let i = nodeIndex[id], i < nodes.count else { return nil }
        return nodes[i]
    }

    /// The maximal runs of consecutive node references of `way` whose nodes are present,
    /// as indices into `nodes`. A way clipped by the extract boundary, or with a hole,
    /// becomes several runs; runs shorter than two nodes are dropped. O(length of the way).
    public func presentRuns(of way: OSMWay) -> [[Int]] {
        var runs: [[Int]] = []
        var current: [Int] = []
        for ref in way.nodeRefs {
            if let i = nodeIndex[ref] {
                current.append(i)
            } else {
                if current.count >= 2 { runs.append(current) }
                current = []
            }
        }
        if current.count >= 2 { runs.append(current) }
        return runs
    }
}

/// Reads OpenStreetMap XML 0.6 (`<osm><node/><way/><relation/></osm>`) with a byte-level scanner
/// over the file mapped into memory (`XMLByteScanner`): no callback per element, no copy of the
/// file. Every element is validated: ids must be integers, node `lat`/`lon` finite degrees within
/// range, `<nd ref>` and `<member ref>` integers. Errors are located by line. The XML must be
/// well-formed UTF-8; a `<!DOCTYPE>` (and so any entity beyond the five predefined ones) is refused.
/// References to nodes missing from the file are not errors: OSM extracts are clipped at their
/// edge, so such references are counted (`OSMData.missingNodeRefs`). Elements a download or an
/// editor marks deleted (`visible="false"`, JOSM's `action="delete"`) are passed over; any other
/// element, tag or attribute (bounds, meta, Overpass areas) is ignored.
///
/// Complexity: O(file size) time; memory O(elements) beyond the mapped file.
public enum OSMXMLLoader: OSMByteLoader {
    /// Parses OSM XML in `bytes`; `file` names it in errors.
    public static func parse(bytes: UnsafeRawBufferPointer, file: String, policy: LoadPolicy = .strict)
        throws(DataError)
        -> OSMData
    {
        if bytes.count >= minimumBytesInParts, ProcessInfo.processInfo.activeProcessorCount > 1,
            let data = parseInParts(bytes: bytes, file: file, policy: policy)
        {
            return data
        }
        return try parseWhole(bytes: bytes, file: file, policy: policy)
    }

    /// `parse` on one thread, the file read from start to end.
    static func parseWhole(bytes: UnsafeRawBufferPointer, file: String, policy: LoadPolicy) throws(DataError)
        -> OSMData
    {
        // Checked whole first, so text can be taken from the bytes as they stand; the line of the
        // first bad byte is the error's.
        if let bad = UTF8Check.firstInvalidOffset(bytes) {
            throw .invalidUTF8(file: file, line: UTF8Check.line(of: bad, in: bytes), field: nil)
        }
        var reader = OSMXMLReader(bytes: bytes, file: file, policy: policy)
        do throws(XMLScanError) {
            try reader.run()
        } catch {
            throw .badLayout(
                file: file, line: error.line,
                reason: "malformed XML: \(error.reason); check the file is complete OSM XML")
        }
        if let fatal = reader.fatal { throw fatal }
        guard reader.sawRoot else {
            throw .badLayout(file: file, line: 1, reason: "no <osm> root element; expected OpenStreetMap XML 0.6")
        }
        guard reader.closedRoot else {
            throw .badLayout(
                file: file, line: reader.scanner.line,
                reason: "file ends before </osm>; the file is truncated, download or export it again")
        }
        return OSMData(nodes: reader.nodes, ways: reader.ways, relations: reader.relations, report: reader.report)
    }

    /// Files from this size are read in parts on several threads (`parseInParts`).
    static let minimumBytesInParts = 1 << 19

    /// The elements of one part of a document read in parts.
    private struct Part: Sendable {
        var nodes: [OSMNode]
        var ways: [OSMWay]
        var relations: [OSMRelation]
        var rowsLoaded: Int
        /// Line of the part's end, counted from the part's start.
        var endLine: Int
    }

    /// `parse` on several threads. The document is cut before children of the root (lines that start
    /// with `<node`, `<way` or `<relation`) into about four parts per core, which the cores take in
    /// turn, so parts of different cost even out: the first part is read with the root left open at
    /// its end, the others with the root open from the start, each also left open at its end but the
    /// last; the elements are joined in order, their lines shifted by the parts before. Nil, and the
    /// caller reads the file whole, unless every part is whole, valid and error-free, the root is
    /// `<osm>` and closes in the last part: so a file with any fault is always reported as the whole
    /// read reports it, and a cut that lands where it must not (inside a comment, a CDATA section or
    /// an element) only costs time. The same result as the whole read.
    static func parseInParts(
        bytes: UnsafeRawBufferPointer, file: String, policy: LoadPolicy,
        parts wanted: Int = 4 * ProcessInfo.processInfo.activeProcessorCount, minimumPartBytes: Int = 1 << 17
    ) -> OSMData? {
        guard let root = rootName(bytes) else { return nil }
        var cuts = [0]
        let count = max(2, min(wanted, bytes.count / max(1, minimumPartBytes)))
        for k in 1..<count {
            guard let cut = cutPoint(bytes, after: bytes.count * k / count) else { break }
            if cut > cuts[cuts.count - 1], cut > root.start + root.count { cuts.append(cut) }
        }
        guard cuts.count >= 2 else { return nil }
        cuts.append(bytes.count)
        let bounds = cuts
        let partCount = cuts.count - 1
        nonisolated(unsafe) let whole = bytes
        let results = ParallelSlices.Slots<Part?>(count: partCount)
        DispatchQueue.concurrentPerform(iterations: partCount) { i in
            let range = bounds[i]..<bounds[i + 1]
            let last = i == partCount - 1
            guard UTF8Check.firstInvalidOffset(UnsafeRawBufferPointer(rebasing: whole[range])) == nil else {
                return results.set(i, nil)
            }
            let upToEnd = UnsafeRawBufferPointer(rebasing: whole[0..<range.upperBound])
            var reader = OSMXMLReader(
                scanner: i == 0
                    ? XMLByteScanner(firstPartOf: upToEnd)
                    : XMLByteScanner(partOf: upToEnd, from: range.lowerBound, root: root, stopsInsideRoot: !last),
                file: file, policy: policy)
            if i > 0 { reader.sawRoot = true }
            do throws(XMLScanError) { try reader.run() } catch { return results.set(i, nil) }
            guard reader.fatal == nil, reader.report.issues.isEmpty, reader.sawRoot, reader.closedRoot == last else {
                return results.set(i, nil)
            }
            if i == 0 {
                guard let open = reader.scanner.root, reader.scanner.equals(open, "osm") else {
                    return results.set(i, nil)
                }
            }
            results.set(
                i,
                Part(
                    nodes: reader.nodes, ways: reader.ways, relations: reader.relations,
                    rowsLoaded: reader.report.rowsLoaded, endLine: reader.scanner.line))
        }
        var parts = results.take().compactMap { $0 }
        guard parts.count == partCount else { return nil }
        var nodes: [OSMNode] = []
        var ways: [OSMWay] = []
        var relations: [OSMRelation] = []
        nodes.reserveCapacity(parts.reduce(0) { $0 + $1.nodes.count })
        ways.reserveCapacity(parts.reduce(0) { $0 + $1.ways.count })
        var report = LoadReport()
        var shift = 0
        for k in parts.indices {
            // Shifted in place (each part's arrays are referenced once here), then appended.
            if shift > 0 {
                for i in parts[k].nodes.indices { parts[k].nodes[i].line += shift }
                for i in parts[k].ways.indices { parts[k].ways[i].line += shift }
                for i in parts[k].relations.indices { parts[k].relations[i].line += shift }
            }
            nodes += parts[k].nodes
            ways += parts[k].ways
            relations += parts[k].relations
            report.rowsLoaded += parts[k].rowsLoaded
            shift += parts[k].endLine - 1
            parts[k] = Part(nodes: [], ways: [], relations: [], rowsLoaded: 0, endLine: 0)
        }
        return OSMData(nodes: nodes, ways: ways, relations: relations, report: report)
    }

    /// Where to cut `bytes` past offset `start`: the `<` of the first line after it that starts (after
    /// spaces or tabs) with `<node`, `<way` or `<relation` and a space; nil when none is found.
    static func cutPoint(_ bytes: UnsafeRawBufferPointer, after start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            guard let newline = (i..<bytes.count).first(where: { bytes[$0] == 0x0A }) else { return nil }
            var j = newline + 1
            while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
            for name in ["<node ", "<way ", "<relation "] where j + name.utf8.count <= bytes.count {
                if zip(name.utf8, bytes[j..<j + name.utf8.count]).allSatisfy({ $0 == $1 }) { return j }
            }
            i = j
        }
        return nil
    }

    /// The span of `osm` in the first `<osm` start tag (followed by a space, a line break or `>`).
    static func rootName(_ bytes: UnsafeRawBufferPointer) -> XMLSpan? {
        let tag = Array("<osm".utf8)
        var i = 0
        while i + tag.count < min(bytes.count, 1 << 16) {
            if bytes[i] == tag[0], zip(tag, bytes[i..<i + tag.count]).allSatisfy({ $0 == $1 }) {
                let after = bytes[i + tag.count]
                if after == 0x20 || after == 0x0A || after == 0x0D || after == 0x09 || after == 0x3E {
                    return XMLSpan(start: i + 1, count: 3)
                }
            }
            i += 1
        }
        return nil
    }
}

/// Turns the scanner's events into OSM elements. The element being read is kept in separate
/// fields (not an enum payload) so appending a node reference or a member never copies the lists.
/// Each start tag's attributes are sorted into `Slots` in one pass, by length and first eight bytes,
/// so reading `id`, `lat` or `ref` is an index, not a search by name.
private struct OSMXMLReader: ~Copyable {
    var scanner: XMLByteScanner
    let file: String
    let policy: LoadPolicy
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []
    var report = LoadReport()
    /// The first error under `.strict`.
    var fatal: DataError?
    /// Whether `fatal` is set; tested per event instead of the optional (copying it costs a call).
    private var failed = false
    var sawRoot = false
    var closedRoot = false
    /// Elements marked deleted, passed over.
    var deletedElements = 0

    private enum Open { case none, node, way, relation, skipped }
    private var open: Open = .none
    private var id: Int64 = 0
    private var line = 0
    private var latitude = 0.0
    private var longitude = 0.0
    private var refs: [Int64] = []
    private var members: [OSMMember] = []
    /// The element's tags in file order; made a dictionary when the element ends, sized once.
    private var tags: [(key: String, value: String)] = []
    private var slots = Slots()
    private let heads = Heads()
    /// Strings recently made from plain values, by a hash of their bytes (`text(_:)`).
    private var recent = [Recent](repeating: Recent(), count: 1 << Self.recentBits)
    private static let recentBits = 10

    /// A string made from the value bytes at `span`.
    private struct Recent {
        var span = XMLSpan(start: 0, count: -1)
        var string = ""
    }

    /// Index in the scanner's attribute list of each attribute the reader uses, or −1.
    private struct Slots {
        var id = -1, lat = -1, lon = -1, ref = -1, k = -1, v = -1, type = -1, role = -1, visible = -1, action = -1
    }

    /// `XMLByteScanner.head` of each attribute name and attribute value the reader looks for (all of
    /// eight bytes or fewer, so equal heads and lengths mean equal bytes).
    private struct Heads {
        let id = XMLByteScanner.head("id"), lat = XMLByteScanner.head("lat"), lon = XMLByteScanner.head("lon")
        let ref = XMLByteScanner.head("ref"), k = XMLByteScanner.head("k"), v = XMLByteScanner.head("v")
        let type = XMLByteScanner.head("type"), role = XMLByteScanner.head("role")
        let visible = XMLByteScanner.head("visible"), action = XMLByteScanner.head("action")
        let node = XMLByteScanner.head("node"), way = XMLByteScanner.head("way")
        let relation = XMLByteScanner.head("relation")
        let `false` = XMLByteScanner.head("false"), delete = XMLByteScanner.head("delete")
    }

    init(bytes: UnsafeRawBufferPointer, file: String, policy: LoadPolicy) {
        self.init(scanner: XMLByteScanner(bytes), file: file, policy: policy)
    }

    /// A reader of what `scanner` scans (e.g. one part of a document).
    init(scanner: consuming XMLByteScanner, file: String, policy: LoadPolicy) {
        self.scanner = scanner
        self.file = file
        self.policy = policy
    }

    private enum Name { case osm, node, way, relation, nd, member, tag, other }

    private func name(_ span: XMLSpan) -> Name {
        switch span.count {
        case 2: return scanner.equals(span, "nd") ? .nd : .other
        case 3:
            if scanner.equals(span, "tag") { return .tag }
            if scanner.equals(span, "way") { return .way }
            return scanner.equals(span, "osm") ? .osm : .other
        case 4: return scanner.equals(span, "node") ? .node : .other
        case 6: return scanner.equals(span, "member") ? .member : .other
        case 8: return scanner.equals(span, "relation") ? .relation : .other
        default: return .other
        }
    }

    /// Whether attribute `i`'s value is `literal`, whose head is `head`: a word comparison when the
    /// value is plain, else the scanner's comparison of the decoded value.
    @inline(__always)
    private func value(_ i: Int, is literal: StaticString, head: UInt64) -> Bool {
        let a = scanner.attribute(at: i)
        guard a.plain else { return scanner.value(i, is: literal) }
        return a.value.count == literal.utf8CodeUnitCount && scanner.head(a.value) == head
    }

    /// Sorts the current start tag's attributes into `slots`. Names are unique within a tag (the
    /// scanner checks), so each slot holds the one attribute of that name, as a search would find.
    @inline(__always)
    private mutating func sortAttributes() {
        slots = Slots()
        for i in 0..<scanner.attributeCount {
            let a = scanner.attribute(at: i)
            let h = a.head
            switch a.name.count {
            case 1:
                if h == heads.k {
                    slots.k = i
                } else if h == heads.v {
                    slots.v = i
                }
            case 2: if h == heads.id { slots.id = i }
            case 3:
                if h == heads.lat {
                    slots.lat = i
                } else if h == heads.lon {
                    slots.lon = i
                } else if h == heads.ref {
                    slots.ref = i
                }
            case 4:
                if h == heads.type {
                    slots.type = i
                } else if h == heads.role {
                    slots.role = i
                }
            case 6: if h == heads.action { slots.action = i }
            case 7: if h == heads.visible { slots.visible = i }
            default: break
            }
        }
    }

    mutating func run() throws(XMLScanError) {
        while !failed {
            switch try scanner.next() {
            case .start(let span):
                let element = name(span)
                if element == .other { continue }
                sortAttributes()
                do throws(DataError) { try start(element) } catch { fail(error) }
            case .end(let span): end(name(span))
            case .endOfInput: return
            }
        }
    }

    private mutating func fail(_ error: DataError) {
        if policy == .lenient {
            report.record(error)
            open = .skipped
            return
        }
        if !failed {
            fatal = error
            failed = true
        }
    }

    private func deleted() -> Bool {
        if slots.visible >= 0, value(slots.visible, is: "false", head: heads.false) { return true }
        if slots.action >= 0, value(slots.action, is: "delete", head: heads.delete) { return true }
        return false
    }

    private mutating func start(_ element: Name) throws(DataError) {
        let line = scanner.line
        switch element {
        case .node, .way, .relation:
            // Deleted in the editor (JOSM's action="delete") or a deleted version (visible="false",
            // Overpass attic data): not part of the map; such nodes may even lack coordinates.
            if deleted() {
                open = .skipped
                deletedElements += 1
                return
            }
        default: break
        }
        switch element {
        case .osm:
            sawRoot = true
        case .node:
            let nodeID = try integer(slots.id, "id", element: "node", line: line)
            latitude = try coordinate(slots.lat, "lat", range: -90...90, line: line)
            longitude = try coordinate(slots.lon, "lon", range: -180...180, line: line)
            begin(.node, id: nodeID, line: line)
        case .way:
            begin(.way, id: try integer(slots.id, "id", element: "way", line: line), line: line)
        case .relation:
            begin(.relation, id: try integer(slots.id, "id", element: "relation", line: line), line: line)
        case .nd:
            guard open == .way else {
                if open == .skipped { return }
                throw .badLayout(file: file, line: line, reason: "<nd> outside a <way>")
            }
            refs.append(try integer(slots.ref, "ref", element: "nd", line: line))
        case .member:
            guard open == .relation else {
                if open == .skipped { return }
                throw .badLayout(file: file, line: line, reason: "<member> outside a <relation>")
            }
            let kind: OSMElementKind
            let t = slots.type
            if t >= 0, value(t, is: "way", head: heads.way) {
                kind = .way
            } else if t >= 0, value(t, is: "node", head: heads.node) {
                kind = .node
            } else if t >= 0, value(t, is: "relation", head: heads.relation) {
                kind = .relation
            } else {
                throw .invalidField(
                    file: file, line: line, field: "member.type", value: t >= 0 ? scanner.value(t) : "",
                    reason: "expected node, way or relation")
            }
            let ref = try integer(slots.ref, "ref", element: "member", line: line)
            members.append(OSMMember(kind: kind, ref: ref, role: slots.role >= 0 ? text(slots.role) : ""))
        case .tag:
            guard slots.k >= 0 else {
                throw .invalidField(file: file, line: line, field: "tag.k", value: "", reason: "missing attribute 'k'")
            }
            switch open {
            case .node, .way, .relation:
                let key = text(slots.k)
                tags.append((key, slots.v >= 0 ? text(slots.v) : ""))
            case .none, .skipped: break
            }
        case .other: break
        }
    }

    /// The value of attribute `i`, as `XMLByteScanner.value` gives it. Tag keys, common values and
    /// member roles repeat through a file ("highway", "outer"), so a plain value whose bytes equal
    /// those of the string last made in its hash slot takes that string: one comparison instead of a
    /// validation, a copy and, past 15 bytes, an allocation; repeated long values share storage.
    @inline(__always)
    private mutating func text(_ i: Int) -> String {
        let a = scanner.attribute(at: i)
        guard a.plain else { return scanner.value(i) }
        let v = a.value
        var h = scanner.head(v) &+ UInt64(truncatingIfNeeded: v.count)
        if v.count > 8 { h ^= scanner.tail(v) &* 0x9E37_79B9_7F4A_7C15 }
        let slot = Int(truncatingIfNeeded: (h &* 0xBF58_476D_1CE4_E5B9) &>> UInt64(64 - Self.recentBits))
        if scanner.same(recent[slot].span, v) { return recent[slot].string }
        let made = scanner.string(v)
        recent[slot] = Recent(span: v, string: made)
        return made
    }

    private mutating func begin(_ kind: Open, id: Int64, line: Int) {
        open = kind
        self.id = id
        self.line = line
        refs.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
    }

    /// The element's tags as a dictionary; a key given twice keeps its last value.
    private func tagDictionary() -> [String: String] {
        if tags.isEmpty { return [:] }
        var d = [String: String](minimumCapacity: tags.count)
        for (k, v) in tags { d[k] = v }
        return d
    }

    private mutating func end(_ element: Name) {
        switch (element, open) {
        case (.node, .node):
            nodes.append(OSMNode(id: id, latitude: latitude, longitude: longitude, tags: tagDictionary(), line: line))
            finish()
        case (.way, .way):
            ways.append(OSMWay(id: id, nodeRefs: refs, tags: tagDictionary(), line: line))
            finish()
        case (.relation, .relation):
            relations.append(OSMRelation(id: id, members: members, tags: tagDictionary(), line: line))
            finish()
        case (.node, _), (.way, _), (.relation, _): open = .none
        case (.osm, _): closedRoot = true
        default: break
        }
    }

    private mutating func finish() {
        report.rowsLoaded += 1
        open = .none
        tags.removeAll(keepingCapacity: true)
    }

    /// The integer attribute at `slot` (named `key`, for errors); digits (with an optional sign)
    /// are read straight from the bytes.
    private func integer(_ slot: Int, _ key: StaticString, element: String, line: Int) throws(DataError) -> Int64 {
        var field: String { "\(key)" }  // built only for an error
        guard slot >= 0 else {
            throw .invalidField(
                file: file, line: line, field: "\(element).\(field)", value: "",
                reason: "missing attribute '\(field)'; every <\(element)> needs an integer \(field)")
        }
        let a = scanner.attribute(at: slot)
        if a.plain, let v = Self.plainInteger(scanner.bytes(a.value)) {
            return v
        }
        let raw = scanner.value(slot)
        guard let v = Int64(raw.trimmingCharacters(in: .whitespaces)) else {
            throw .invalidField(
                file: file, line: line, field: "\(element).\(field)", value: raw, reason: "not an integer id")
        }
        return v
    }

    /// `-?[0-9]{1,18}` as an integer; nil for anything else (left to the general parser).
    @inline(__always)
    static func plainInteger(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = b.first == UInt8(ascii: "-")
        if negative { i = 1 }
        guard b.count > i, b.count - i <= 18 else { return nil }
        var v: Int64 = 0
        while i < b.count {
            let d = b[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            v = v &* 10 &+ Int64(d)
            i += 1
        }
        return negative ? -v : v
    }

    /// Powers of ten a double holds exactly.
    private static let exactPowers: [Double] = (0...22).map { pow(10, Double($0)) }

    /// The coordinate attribute at `slot` (named `key`, for errors), in degrees within `range`.
    private func coordinate(_ slot: Int, _ key: StaticString, range: ClosedRange<Double>, line: Int) throws(DataError)
        -> Double
    {
        var field: String { "node.\(key)" }  // built only for an error
        guard slot >= 0 else {
            throw .invalidField(
                file: file, line: line, field: field, value: "",
                reason: "missing attribute '\(key)'; nodes need lat and lon in degrees")
        }
        let a = scanner.attribute(at: slot)
        if a.plain, let v = Self.plainDecimal(scanner.bytes(a.value)), range.contains(v) {
            return v
        }
        return try FieldParser.double(scanner.value(slot), field: field, in: range, file: file, line: line)
    }

    /// `-?[0-9]+(\.[0-9]+)?` with at most 15 significant digits, as the correctly rounded double:
    /// the digits as an integer are exact, and so is the power of ten, so one division rounds once
    /// (Clinger's fast path), which is the value `Double(String)` gives. Nil for anything else.
    @inline(__always)
    static func plainDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let negative = b.first == UInt8(ascii: "-")
        if negative { i = 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = -1
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: ".") {
                guard fraction < 0, digits > 0 else { return nil }
                fraction = 0
            } else {
                let d = c &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                mantissa = mantissa &* 10 &+ Int64(d)
                digits += 1
                if fraction >= 0 { fraction += 1 }
            }
            i += 1
        }
        guard digits > 0, digits <= 15, fraction != 0 else { return nil }
        let v = Double(mantissa) / exactPowers[max(0, fraction)]
        return negative ? -v : v
    }
}
