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
    public var nodeIndex: [Int64: Int]
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
        var index: [Int64: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (i, n) in nodes.enumerated() where index[n.id] == nil { index[n.id] = i }
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
}

/// Turns the scanner's events into OSM elements. The element being read is kept in separate
/// fields (not an enum payload) so appending a node reference or a member never copies the lists.
private struct OSMXMLReader {
    var scanner: XMLByteScanner
    let file: String
    let policy: LoadPolicy
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []
    var report = LoadReport()
    /// The first error under `.strict`.
    var fatal: DataError?
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
    private var tags: [String: String] = [:]

    init(bytes: UnsafeRawBufferPointer, file: String, policy: LoadPolicy) {
        scanner = XMLByteScanner(bytes)
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

    mutating func run() throws(XMLScanError) {
        while fatal == nil {
            switch try scanner.next() {
            case .start(let span):
                do throws(DataError) { try start(name(span)) } catch { fail(error) }
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
        if fatal == nil { fatal = error }
    }

    private func deleted() -> Bool {
        if let v = scanner.attribute("visible"), scanner.value(v, is: "false") { return true }
        if let a = scanner.attribute("action"), scanner.value(a, is: "delete") { return true }
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
            let nodeID = try integer("id", element: "node", line: line)
            latitude = try coordinate("lat", range: -90...90, line: line)
            longitude = try coordinate("lon", range: -180...180, line: line)
            begin(.node, id: nodeID, line: line)
        case .way:
            begin(.way, id: try integer("id", element: "way", line: line), line: line)
        case .relation:
            begin(.relation, id: try integer("id", element: "relation", line: line), line: line)
        case .nd:
            guard open == .way else {
                if open == .skipped { return }
                throw .badLayout(file: file, line: line, reason: "<nd> outside a <way>")
            }
            refs.append(try integer("ref", element: "nd", line: line))
        case .member:
            guard open == .relation else {
                if open == .skipped { return }
                throw .badLayout(file: file, line: line, reason: "<member> outside a <relation>")
            }
            let kind: OSMElementKind
            if let t = scanner.attribute("type"), scanner.value(t, is: "way") {
                kind = .way
            } else if let t = scanner.attribute("type"), scanner.value(t, is: "node") {
                kind = .node
            } else if let t = scanner.attribute("type"), scanner.value(t, is: "relation") {
                kind = .relation
            } else {
                throw .invalidField(
                    file: file, line: line, field: "member.type",
                    value: scanner.attribute("type").map { scanner.value($0) } ?? "",
                    reason: "expected node, way or relation")
            }
            let ref = try integer("ref", element: "member", line: line)
            members.append(
                OSMMember(kind: kind, ref: ref, role: scanner.attribute("role").map { scanner.value($0) } ?? ""))
        case .tag:
            guard let k = scanner.attribute("k") else {
                throw .invalidField(file: file, line: line, field: "tag.k", value: "", reason: "missing attribute 'k'")
            }
            switch open {
            case .node, .way, .relation:
                tags[scanner.value(k)] = scanner.attribute("v").map { scanner.value($0) } ?? ""
            case .none, .skipped: break
            }
        case .other: break
        }
    }

    private mutating func begin(_ kind: Open, id: Int64, line: Int) {
        open = kind
        self.id = id
        self.line = line
        refs.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        if !tags.isEmpty { tags = [:] }
    }

    private mutating func end(_ element: Name) {
        switch (element, open) {
        case (.node, .node):
            nodes.append(OSMNode(id: id, latitude: latitude, longitude: longitude, tags: tags, line: line))
            finish()
        case (.way, .way):
            ways.append(OSMWay(id: id, nodeRefs: refs, tags: tags, line: line))
            finish()
        case (.relation, .relation):
            relations.append(OSMRelation(id: id, members: members, tags: tags, line: line))
            finish()
        case (.node, _), (.way, _), (.relation, _): open = .none
        case (.osm, _): closedRoot = true
        default: break
        }
    }

    private mutating func finish() {
        report.rowsLoaded += 1
        open = .none
        tags = [:]
    }

    /// An integer id attribute; digits (with an optional sign) are read straight from the bytes.
    private func integer(_ key: StaticString, element: String, line: Int) throws(DataError) -> Int64 {
        var field: String { "\(key)" }  // built only for an error
        guard let i = scanner.attribute(key) else {
            throw .invalidField(
                file: file, line: line, field: "\(element).\(field)", value: "",
                reason: "missing attribute '\(field)'; every <\(element)> needs an integer \(field)")
        }
        if scanner.attributes[i].plain, let v = Self.plainInteger(scanner.bytes(scanner.attributes[i].value)) {
            return v
        }
        let raw = scanner.value(i)
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

    private func coordinate(_ key: StaticString, range: ClosedRange<Double>, line: Int) throws(DataError) -> Double {
        var field: String { "node.\(key)" }  // built only for an error
        guard let i = scanner.attribute(key) else {
            throw .invalidField(
                file: file, line: line, field: field, value: "",
                reason: "missing attribute '\(key)'; nodes need lat and lon in degrees")
        }
        if scanner.attributes[i].plain, let v = Self.plainDecimal(scanner.bytes(scanner.attributes[i].value)),
            range.contains(v)
        {
            return v
        }
        return try FieldParser.double(scanner.value(i), field: field, in: range, file: file, line: line)
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
