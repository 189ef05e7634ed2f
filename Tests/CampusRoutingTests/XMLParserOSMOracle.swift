import FieldtestData
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

// The OSM XML reader Fieldtest had before its byte scanner, built on Foundation's XMLParser
// (libxml2), kept as the test oracle: the scanner must read every bundled map to the same data.

/// Reads OpenStreetMap XML 0.6 with Foundation's streaming `XMLParser`. Every element is validated: ids must be integers, node `lat`/`lon`
/// finite degrees within range, `<nd ref>` and `<member ref>` integers. Errors are located
/// by the parser's line number. References to nodes missing from the file are not errors:
/// OSM extracts are clipped at their edge, so such references are counted (`OSMData.missingNodeRefs`).
/// Elements a download or an editor marks deleted (`visible="false"`, JOSM's `action="delete"`)
/// are passed over; any other element, tag or attribute (bounds, meta, Overpass areas) is ignored.
///
/// Complexity: O(file size) time; memory O(elements).
enum XMLParserOSMOracle {
    /// Loads `url`. Under `.strict` the first bad element throws; under `.lenient` it is skipped and counted.
    static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> OSMData
    {
        let name = displayName ?? url.path
        let bytes = try readFileBytes(url, displayName: name)
        return try parse(Data(bytes), file: name, policy: policy)
    }

    /// Parses OSM XML held in memory; `file` names it in errors.
    static func parse(_ data: Data, file: String, policy: LoadPolicy = .strict) throws(DataError) -> OSMData {
        // OSM XML is UTF-8, and Foundation's XMLParser traps on some invalid sequences (in a name,
        // say) instead of reporting them, so the bytes are checked first, with the line of a bad one.
        if data.contains(where: { $0 >= 0x80 }) { _ = try TextLines.decode([UInt8](data), file: file) }
        let delegate = OracleDelegate(file: file, policy: policy)
        // A stream makes XMLParser feed libxml2 in chunks; one chunk above 10 MB trips its "huge input" limit.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        delegate.parser = parser
        let ok = parser.parse()
        if let error = delegate.fatal { throw error }
        if !ok {
            let reason =
                parser.parserError.map { "malformed XML (\(($0 as NSError).code)): \($0.localizedDescription)" }
                ?? "malformed XML"
            throw .badLayout(
                file: file, line: max(1, parser.lineNumber), reason: reason + "; check the file is complete OSM XML")
        }
        guard delegate.sawRoot else {
            throw .badLayout(file: file, line: 1, reason: "no <osm> root element; expected OpenStreetMap XML 0.6")
        }
        guard delegate.closedRoot else {
            throw .badLayout(
                file: file, line: max(1, parser.lineNumber),
                reason: "file ends before </osm>; the file is truncated, download or export it again")
        }
        return OSMData(
            nodes: delegate.nodes, ways: delegate.ways, relations: delegate.relations, report: delegate.report)
    }
}

/// Collects elements from `XMLParser` callbacks; keeps the first fatal error and aborts.
private final class OracleDelegate: NSObject, XMLParserDelegate {
    let file: String
    let policy: LoadPolicy
    weak var parser: XMLParser?
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []
    var report = LoadReport()
    var fatal: DataError?
    var sawRoot = false
    var closedRoot = false
    /// Elements marked deleted, passed over.
    var deletedElements = 0

    private enum Open { case none, node(OSMNode), way(OSMWay), relation(OSMRelation), skipped }
    private var open: Open = .none

    init(file: String, policy: LoadPolicy) {
        self.file = file
        self.policy = policy
    }

    private var line: Int { parser?.lineNumber ?? 0 }

    static func deleted(_ attrs: [String: String]) -> Bool {
        attrs["visible"] == "false" || attrs["action"] == "delete"
    }

    private func fail(_ error: DataError) {
        if policy == .lenient {
            report.record(error)
            open = .skipped
            return
        }
        if fatal == nil { fatal = error }
        parser?.abortParsing()
    }

    private func id(_ attrs: [String: String], element: String, field: String = "id") throws(DataError) -> Int64 {
        guard let raw = attrs[field] else {
            throw .invalidField(
                file: file, line: line, field: "\(element).\(field)", value: "",
                reason: "missing attribute '\(field)'; every <\(element)> needs an integer \(field)")
        }
        guard let v = Int64(raw.trimmingCharacters(in: .whitespaces)) else {
            throw .invalidField(
                file: file, line: line, field: "\(element).\(field)", value: raw, reason: "not an integer id")
        }
        return v
    }

    private func coordinate(_ attrs: [String: String], _ key: String, range: ClosedRange<Double>) throws(DataError)
        -> Double
    {
        guard let raw = attrs[key] else {
            throw .invalidField(
                file: file, line: line, field: "node.\(key)", value: "",
                reason: "missing attribute '\(key)'; nodes need lat and lon in degrees")
        }
        return try FieldParser.double(raw, field: "node.\(key)", in: range, file: file, line: line)
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attrs: [String: String] = [:]
    ) {
        if fatal != nil { return }
        do throws(DataError) {
            // Deleted in the editor (JOSM's action="delete") or a deleted version (visible="false",
            // Overpass attic data): not part of the map; such nodes may even lack coordinates.
            if ["node", "way", "relation"].contains(elementName), Self.deleted(attrs) {
                open = .skipped
                deletedElements += 1
                return
            }
            switch elementName {
            case "osm":
                sawRoot = true
            case "node":
                let n = OSMNode(
                    id: try id(attrs, element: "node"),
                    latitude: try coordinate(attrs, "lat", range: -90...90),
                    longitude: try coordinate(attrs, "lon", range: -180...180),
                    line: line)
                open = .node(n)
            case "way":
                open = .way(OSMWay(id: try id(attrs, element: "way"), nodeRefs: [], line: line))
            case "relation":
                open = .relation(OSMRelation(id: try id(attrs, element: "relation"), members: [], line: line))
            case "nd":
                guard case .way(var w) = open else {
                    if case .skipped = open { return }
                    throw .badLayout(file: file, line: line, reason: "<nd> outside a <way>")
                }
                w.nodeRefs.append(try id(attrs, element: "nd", field: "ref"))
                open = .way(w)
            case "member":
                guard case .relation(var r) = open else {
                    if case .skipped = open { return }
                    throw .badLayout(file: file, line: line, reason: "<member> outside a <relation>")
                }
                let typeRaw = attrs["type"] ?? ""
                guard let kind = OSMElementKind(rawValue: typeRaw) else {
                    throw .invalidField(
                        file: file, line: line, field: "member.type", value: typeRaw,
                        reason: "expected node, way or relation")
                }
                r.members.append(
                    OSMMember(
                        kind: kind, ref: try id(attrs, element: "member", field: "ref"),
                        role: attrs["role"] ?? ""))
                open = .relation(r)
            case "tag":
                guard let k = attrs["k"] else {
                    throw .invalidField(
                        file: file, line: line, field: "tag.k", value: "", reason: "missing attribute 'k'")
                }
                let v = attrs["v"] ?? ""
                switch open {
                case .node(var n):
                    n.tags[k] = v
                    open = .node(n)
                case .way(var w):
                    w.tags[k] = v
                    open = .way(w)
                case .relation(var r):
                    r.tags[k] = v
                    open = .relation(r)
                case .none, .skipped: break
                }
            default:
                break
            }
        } catch {
            fail(error)
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        if fatal != nil { return }
        switch (elementName, open) {
        case ("node", .node(let n)):
            nodes.append(n)
            report.rowsLoaded += 1
            open = .none
        case ("way", .way(let w)):
            ways.append(w)
            report.rowsLoaded += 1
            open = .none
        case ("relation", .relation(let r)):
            relations.append(r)
            report.rowsLoaded += 1
            open = .none
        case ("node", _), ("way", _), ("relation", _): open = .none
        case ("osm", _): closedRoot = true
        default: break
        }
    }
}
