// The OSM XML reader as it stood before the single-pass rewrite (issue 27), kept verbatim but for
// the type names as the oracle of OSMXMLEquivalenceTests: the new reader must give the same data,
// the same reports and the same errors (file, line, field, message) on every input.
import Foundation

@testable import FieldtestData

/// A run of bytes in the scanned buffer, by offset.
struct PreviousXMLSpan: Sendable, Equatable {
    /// Offset of the first byte.
    var start: Int
    /// Number of bytes.
    var count: Int
}

/// One attribute of the current start tag: its name and its raw value (between the quotes).
struct PreviousXMLAttribute {
    /// The attribute's name.
    var name: PreviousXMLSpan
    /// The raw value, before entity references are replaced and white space normalised.
    var value: PreviousXMLSpan
    /// Whether the raw bytes are the value as they stand (no `&…;`, no tab or line break).
    var plain: Bool
}

/// What the scanner found next.
enum PreviousXMLEvent {
    /// A start tag; its attributes are in `PreviousXMLByteScanner.attributes` until the next call.
    case start(PreviousXMLSpan)
    /// An end tag, or the end of an empty-element tag (`<tag/>`).
    case end(PreviousXMLSpan)
    /// The end of the input, with every element closed.
    case endOfInput
}

/// Why the input is not well-formed XML, and where.
struct PreviousXMLScanError: Error {
    /// 1-based line where the fault was found.
    var line: Int
    /// What is wrong, worded for the person who has to fix the file.
    var reason: String
}

/// A pull scanner of XML 1.0 over bytes held in memory, for the subset data files use: elements,
/// attributes, character data, comments, CDATA sections and processing instructions. It checks
/// well-formedness (names, quoting, nesting, one root, allowed characters, the five predefined
/// entities and character references) and keeps the line number. It refuses document type
/// declarations: the entities they declare can expand without bound, and OSM XML has none.
///
/// The bytes must already be valid UTF-8 (see `UTF8Check`). Values stay byte spans until asked for;
/// nothing is allocated per element but the attribute list, which is reused. O(input) time.
struct PreviousXMLByteScanner {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var pos: Int
    /// Where the document starts (after a byte-order mark): the only place an XML declaration may be.
    private let documentStart: Int
    private let classes: UnsafePointer<UInt8>
    /// 1-based line of the scan position (of the `>` closing a start tag when it is returned).
    private(set) var line = 1
    /// Attributes of the last start tag returned.
    private(set) var attributes: [PreviousXMLAttribute] = []
    private var open: [PreviousXMLSpan] = []
    private var pendingEnd: PreviousXMLSpan?
    private var rootClosed = false

    /// Scans `bytes`, which must outlive the scanner.
    init(_ bytes: UnsafeRawBufferPointer) {
        let p = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? PreviousXMLByteClass.empty
        base = p
        count = bytes.count
        pos = count >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0
        documentStart = pos
        classes = PreviousXMLByteClass.table
        attributes.reserveCapacity(16)
    }

    /// Number of elements open.
    var depth: Int { open.count }

    /// Whether `span` holds exactly the ASCII bytes of `literal`.
    @inline(__always)
    func equals(_ span: PreviousXMLSpan, _ literal: StaticString) -> Bool {
        span.count == literal.utf8CodeUnitCount && memcmp(base + span.start, literal.utf8Start, span.count) == 0
    }

    /// The bytes of `span`.
    @inline(__always)
    func bytes(_ span: PreviousXMLSpan) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + span.start, count: span.count)
    }

    /// The text of `span` (already valid UTF-8).
    func string(_ span: PreviousXMLSpan) -> String { String(decoding: bytes(span), as: UTF8.self) }

    /// Index in `attributes` of the attribute called `name`.
    @inline(__always)
    func attribute(_ name: StaticString) -> Int? {
        for i in attributes.indices where equals(attributes[i].name, name) { return i }
        return nil
    }

    /// The value of attribute `i` with entity references replaced and white space normalised (XML 1.0 §3.3.3).
    func value(_ i: Int) -> String {
        let a = attributes[i]
        if a.plain { return string(a.value) }
        var out: [UInt8] = []
        out.reserveCapacity(a.value.count)
        var i = a.value.start
        let end = a.value.start + a.value.count
        while i < end {
            let c = base[i]
            switch c {
            case UInt8(ascii: "&"):
                // Checked when scanned, so it parses.
                let (scalar, next) = (try? entity(at: i)) ?? (Unicode.Scalar(0xFFFD)!, i + 1)
                out.append(contentsOf: String(Character(scalar)).utf8)
                i = next
                continue
            case UInt8(ascii: "\r"):
                if i + 1 < end, base[i + 1] == UInt8(ascii: "\n") { i += 1 }
                out.append(0x20)
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"): out.append(0x20)
            default: out.append(c)
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether attribute `i`'s value is exactly `literal` (ASCII).
    func value(_ i: Int, is literal: StaticString) -> Bool {
        attributes[i].plain ? equals(attributes[i].value, literal) : value(i) == literal.description
    }

    private func fault(_ reason: String) -> PreviousXMLScanError { PreviousXMLScanError(line: line, reason: reason) }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// The next event.
    mutating func next() throws(PreviousXMLScanError) -> PreviousXMLEvent {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            if open.isEmpty { rootClosed = true }
            return .end(name)
        }
        while true {
            try skipText()
            if pos >= count {
                if let innermost = open.last {
                    throw fault(
                        "the file ends inside <\(string(innermost))> (\(open.count) element(s) left open); it is truncated"
                    )
                }
                return .endOfInput
            }
            // At '<'.
            let tagStart = pos
            pos += 1
            guard pos < count else { throw fault("the file ends inside a tag; it is truncated") }
            switch base[pos] {
            case UInt8(ascii: "/"):
                pos += 1
                let name = try scanName(what: "end tag")
                skipSpace()
                guard pos < count, base[pos] == UInt8(ascii: ">") else {
                    throw pos >= count
                        ? fault("the file ends inside </\(string(name))>; it is truncated")
                        : fault("expected '>' to close </\(string(name))>, found \(describe(base[pos]))")
                }
                pos += 1
                guard let innermost = open.last else {
                    throw fault("</\(string(name))> closes an element that was never opened")
                }
                guard innermost.count == name.count, memcmp(base + innermost.start, base + name.start, name.count) == 0
                else {
                    throw fault("</\(string(name))> does not match the open <\(string(innermost))>")
                }
                open.removeLast()
                if open.isEmpty { rootClosed = true }
                return .end(name)
            case UInt8(ascii: "!"):
                if matches("<!--", at: tagStart) {
                    try skipComment()
                } else if matches("<![CDATA[", at: tagStart) {
                    guard !open.isEmpty else { throw fault("a CDATA section outside the root element") }
                    pos = tagStart + 9
                    try skip(until: "]]>", what: "CDATA section")
                } else if matches("<!DOCTYPE", at: tagStart) {
                    throw fault(
                        "a <!DOCTYPE> declaration: DTDs and the entities they declare are not read (they can expand "
                            + "without bound); OSM XML has none, so remove it")
                } else {
                    throw fault("'<!' starts neither a comment nor a CDATA section")
                }
            case UInt8(ascii: "?"):
                pos += 1
                let target = try scanName(what: "processing instruction")
                guard pos < count,
                    classes[Int(base[pos])] & PreviousXMLByteClass.space != 0 || base[pos] == 0x0A
                        || matches("?>", at: pos)
                else {
                    throw pos >= count
                        ? fault("the file ends inside a processing instruction; it is truncated")
                        : fault("white space must follow <?\(string(target)), found \(describe(base[pos]))")
                }
                if target.count == 3, bytes(target).map({ $0 | 0x20 }) == Array("xml".utf8) {
                    guard tagStart == documentStart, equals(target, "xml") else {
                        throw fault("an XML declaration (<?xml …?>) is allowed only at the very start of the file")
                    }
                    try scanDeclaration()
                } else {
                    try skip(until: "?>", what: "processing instruction")
                }
            default:
                if rootClosed {
                    throw fault("content after the end of the root element; a file holds one root element")
                }
                pos = tagStart + 1
                let name = try scanName(what: "start tag")
                let empty = try scanAttributes(of: name)
                open.append(name)
                if empty { pendingEnd = name }
                return .start(name)
            }
        }
    }

    /// The XML declaration after `<?xml`: `version="1.x"`, then optionally `encoding` (UTF-8 or a
    /// subset of it) and `standalone` (`yes` or `no`), in that order (XML 1.0 §2.8).
    private mutating func scanDeclaration() throws(PreviousXMLScanError) {
        let element = PreviousXMLSpan(start: pos - 3, count: 3)
        _ = try scanAttributes(of: element, closing: UInt8(ascii: "?"))
        let names = attributes.map { string($0.name) }
        let allowed = [
            ["version"], ["version", "encoding"], ["version", "standalone"], ["version", "encoding", "standalone"],
        ]
        guard allowed.contains(names) else {
            throw fault("the XML declaration must be <?xml version=\"1.0\" encoding=\"UTF-8\"?>; found \(names)")
        }
        let version = value(0)
        guard version.count >= 3, version.hasPrefix("1."),
            version.utf8.dropFirst(2).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else {
            throw fault("XML version '\(version)'; expected 1.0")
        }
        if names.count > 1, names[1] == "encoding" {
            let encoding = value(1).uppercased()
            guard ["UTF-8", "UTF8", "US-ASCII", "ASCII"].contains(encoding) else {
                throw fault("the file declares encoding '\(value(1))'; only UTF-8 is read, so convert it to UTF-8")
            }
        }
        if names.last == "standalone", !["yes", "no"].contains(value(names.count - 1)) {
            throw fault("standalone must be \"yes\" or \"no\"")
        }
    }

    @inline(__always)
    private func matches(_ literal: StaticString, at i: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        return i + n <= count && memcmp(base + i, literal.utf8Start, n) == 0
    }

    /// Character data up to the next `<`: entity references and characters are checked, and only
    /// white space may stand outside the root element.
    private mutating func skipText() throws(PreviousXMLScanError) {
        var sawText = false
        while pos < count {
            let c = base[pos]
            let k = classes[Int(c)]
            if k & PreviousXMLByteClass.textSpecial == 0 {
                if k & PreviousXMLByteClass.space == 0 { sawText = true }
                pos += 1
                continue
            }
            if c == UInt8(ascii: "<") { break }
            if c == UInt8(ascii: "\n") {
                line += 1
            } else if c == UInt8(ascii: "&") {
                pos = try entity(at: pos).next
                sawText = true
                continue
            } else {
                throw fault("\(describe(c)) is not allowed in XML text")
            }
            pos += 1
        }
        if sawText, open.isEmpty {
            throw fault(
                rootClosed
                    ? "text after the end of the root element" : "text before the root element; expected '<'")
        }
    }

    private mutating func skipSpace() {
        while pos < count {
            let c = base[pos]
            if c == UInt8(ascii: "\n") {
                line += 1
            } else if c != 0x20 && c != UInt8(ascii: "\t") && c != UInt8(ascii: "\r") {
                return
            }
            pos += 1
        }
    }

    /// A name at the scan position; `what` (and the `element` it belongs to) say whose, in an error.
    private mutating func scanName(what: StaticString, of element: PreviousXMLSpan? = nil) throws(PreviousXMLScanError)
        -> PreviousXMLSpan
    {
        let start = pos
        guard pos < count, classes[Int(base[pos])] & PreviousXMLByteClass.nameStart != 0 else {
            let whose = "\(what)" + (element.map { " of <\(string($0))>" } ?? "")
            throw pos >= count
                ? fault("the file ends inside a \(whose); it is truncated")
                : fault("a \(whose) needs a name, found \(describe(base[pos]))")
        }
        pos += 1
        while pos < count, classes[Int(base[pos])] & PreviousXMLByteClass.nameChar != 0 { pos += 1 }
        return PreviousXMLSpan(start: start, count: pos - start)
    }

    /// Attributes up to `>` or `/>` (or `?>` when `closing` is `?`); returns whether the tag was empty (`/>`).
    private mutating func scanAttributes(of element: PreviousXMLSpan, closing: UInt8 = UInt8(ascii: "/"))
        throws(PreviousXMLScanError)
        -> Bool
    {
        attributes.removeAll(keepingCapacity: true)
        while true {
            let before = pos
            skipSpace()
            guard pos < count else { throw fault("the file ends inside <\(string(element))>; it is truncated") }
            let c = base[pos]
            if c == UInt8(ascii: ">"), closing == UInt8(ascii: "/") {
                pos += 1
                return false
            }
            if c == closing {
                guard pos + 1 < count, base[pos + 1] == UInt8(ascii: ">") else {
                    throw fault(
                        "'\(Character(Unicode.Scalar(closing)))' in <\(string(element))> must be followed by '>'")
                }
                pos += 2
                return closing == UInt8(ascii: "/")
            }
            guard pos > before else {
                throw fault("attributes of <\(string(element))> must be separated by white space")
            }
            let name = try scanName(what: "attribute", of: element)
            skipSpace()
            guard pos < count, base[pos] == UInt8(ascii: "=") else {
                throw fault("attribute '\(string(name))' of <\(string(element))> needs '=' and a quoted value")
            }
            pos += 1
            skipSpace()
            guard pos < count, base[pos] == UInt8(ascii: "\"") || base[pos] == UInt8(ascii: "'") else {
                throw fault("the value of attribute '\(string(name))' must be in quotes")
            }
            let quote = base[pos]
            pos += 1
            let start = pos
            var plain = true
            while true {
                guard pos < count else {
                    throw fault("the file ends inside the value of attribute '\(string(name))'; it is truncated")
                }
                let c = base[pos]
                if classes[Int(c)] & PreviousXMLByteClass.valueSpecial == 0 {
                    pos += 1
                    continue
                }
                if c == quote { break }
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): break
                case UInt8(ascii: "<"):
                    throw fault("'<' in the value of attribute '\(string(name))'; write it as &lt;")
                case UInt8(ascii: "&"):
                    pos = try entity(at: pos).next
                    plain = false
                    continue
                case UInt8(ascii: "\n"):
                    line += 1
                    plain = false
                case UInt8(ascii: "\t"), UInt8(ascii: "\r"): plain = false
                default: throw fault("\(describe(c)) is not allowed in XML (attribute '\(string(name))')")
                }
                pos += 1
            }
            let value = PreviousXMLSpan(start: start, count: pos - start)
            pos += 1
            for a in attributes where a.name.count == name.count {
                if memcmp(base + a.name.start, base + name.start, name.count) == 0 {
                    throw fault("attribute '\(string(name))' appears twice in <\(string(element))>")
                }
            }
            attributes.append(PreviousXMLAttribute(name: name, value: value, plain: plain))
        }
    }

    /// The entity or character reference at `i` (`&…;`) and the offset after it.
    private func entity(at i: Int) throws(PreviousXMLScanError) -> (scalar: Unicode.Scalar, next: Int) {
        var j = i + 1
        while j < count, j - i <= 32, base[j] != UInt8(ascii: ";") { j += 1 }
        guard j < count, base[j] == UInt8(ascii: ";") else {
            throw fault("'&' that starts no entity reference; write a literal ampersand as &amp;")
        }
        let body = UnsafeBufferPointer(start: base + i + 1, count: j - i - 1)
        if body.first == UInt8(ascii: "#") {
            let hex = body.count > 1 && body[1] == UInt8(ascii: "x")
            let digits = body.dropFirst(hex ? 2 : 1)
            var value: UInt32 = 0
            for d in digits {
                guard let v = hexDigit(d), hex || v < 10, value < 0x11_0000 else {
                    throw fault("bad character reference &\(String(decoding: body, as: UTF8.self));")
                }
                value = value * (hex ? 16 : 10) + v
            }
            let allowed =
                value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x1_0000...0x10_FFFF).contains(value)
            guard !digits.isEmpty, allowed, let scalar = Unicode.Scalar(value) else {
                throw fault("character reference &\(String(decoding: body, as: UTF8.self)); is not an XML character")
            }
            return (scalar, j + 1)
        }
        let name = String(decoding: body, as: UTF8.self)
        let predefined: [String: Unicode.Scalar] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        guard let scalar = predefined[name] else {
            throw fault(
                "entity &\(name); is not defined; XML data files may use only &lt; &gt; &amp; &quot; &apos; "
                    + "and character references")
        }
        return (scalar, j + 1)
    }

    private func hexDigit(_ d: UInt8) -> UInt32? {
        switch d {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(d - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(d - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(d - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func skipComment() throws(PreviousXMLScanError) {
        pos += 3  // past "!--"
        while pos < count {
            let c = base[pos]
            if c == UInt8(ascii: "-"), pos + 1 < count, base[pos + 1] == UInt8(ascii: "-") {
                guard pos + 2 < count, base[pos + 2] == UInt8(ascii: ">") else {
                    throw fault("'--' inside a comment; XML comments may not contain it")
                }
                pos += 3
                return
            }
            try checkCharacter(c, in: "comment")
            pos += 1
        }
        throw fault("the file ends inside a comment; it is truncated")
    }

    private mutating func skip(until terminator: StaticString, what: String) throws(PreviousXMLScanError) {
        while pos < count {
            if base[pos] == terminator.utf8Start[0], matches(terminator, at: pos) {
                pos += terminator.utf8CodeUnitCount
                return
            }
            try checkCharacter(base[pos], in: what)
            pos += 1
        }
        throw fault("the file ends inside a \(what); it is truncated")
    }

    @inline(__always)
    private mutating func checkCharacter(_ c: UInt8, in what: String) throws(PreviousXMLScanError) {
        if c == UInt8(ascii: "\n") {
            line += 1
        } else if c < 0x20, c != UInt8(ascii: "\t"), c != UInt8(ascii: "\r") {
            throw fault("\(describe(c)) is not allowed in XML (\(what))")
        }
    }
}

/// Byte classes for the scanner's inner loops, one table lookup per byte.
enum PreviousXMLByteClass {
    /// Ends a run of character data, or needs a look: `<`, `&`, line feed, control characters.
    static let textSpecial: UInt8 = 1
    /// Ends a run of attribute value bytes: quotes, `<`, `&`, tab, line feed, carriage return, control characters.
    static let valueSpecial: UInt8 = 2
    /// Space, tab or carriage return (line feeds are `textSpecial`).
    static let space: UInt8 = 4
    /// May start a name: letters, `_`, `:` and every byte of a multi-byte character.
    static let nameStart: UInt8 = 8
    /// May continue a name: `nameStart`, digits, `-`, `.`.
    static let nameChar: UInt8 = 16

    /// The 256 entries, built once.
    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 {
            var k: UInt8 = 0
            let c = UInt8(b)
            if c < 0x20 && c != 0x09 && c != 0x0D { k |= textSpecial }
            if c < 0x20 { k |= valueSpecial }
            if c == 0x20 || c == 0x09 || c == 0x0D { k |= space }
            if c == UInt8(ascii: "<") || c == UInt8(ascii: "&") { k |= textSpecial | valueSpecial }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { k |= valueSpecial }
            let letter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            if letter || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c >= 0x80 { k |= nameStart | nameChar }
            if (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") { k |= nameChar }
            t[b] = k
        }
        return UnsafePointer(t)
    }()

    /// A valid address for an empty input.
    nonisolated(unsafe) static let empty: UnsafePointer<UInt8> = UnsafePointer(
        UnsafeMutablePointer<UInt8>.allocate(capacity: 1))
}
/// Reads OpenStreetMap XML 0.6 (`<osm><node/><way/><relation/></osm>`) with a byte-level scanner
/// over the file mapped into memory (`PreviousXMLByteScanner`): no callback per element, no copy of the
/// file. Every element is validated: ids must be integers, node `lat`/`lon` finite degrees within
/// range, `<nd ref>` and `<member ref>` integers. Errors are located by line. The XML must be
/// well-formed UTF-8; a `<!DOCTYPE>` (and so any entity beyond the five predefined ones) is refused.
/// References to nodes missing from the file are not errors: OSM extracts are clipped at their
/// edge, so such references are counted (`OSMData.missingNodeRefs`). Elements a download or an
/// editor marks deleted (`visible="false"`, JOSM's `action="delete"`) are passed over; any other
/// element, tag or attribute (bounds, meta, Overpass areas) is ignored.
///
/// Complexity: O(file size) time; memory O(elements) beyond the mapped file.
enum PreviousOSMXMLLoader {
    /// Parses OSM XML in `bytes`; `file` names it in errors.
    static func parse(bytes: UnsafeRawBufferPointer, file: String, policy: LoadPolicy = .strict)
        throws(DataError)
        -> OSMData
    {
        // Checked whole first, so text can be taken from the bytes as they stand; the line of the
        // first bad byte is the error's.
        if let bad = UTF8Check.firstInvalidOffset(bytes) {
            throw .invalidUTF8(file: file, line: UTF8Check.line(of: bad, in: bytes), field: nil)
        }
        var reader = PreviousOSMXMLReader(bytes: bytes, file: file, policy: policy)
        do throws(PreviousXMLScanError) {
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
private struct PreviousOSMXMLReader {
    var scanner: PreviousXMLByteScanner
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
        scanner = PreviousXMLByteScanner(bytes)
        self.file = file
        self.policy = policy
    }

    private enum Name { case osm, node, way, relation, nd, member, tag, other }

    private func name(_ span: PreviousXMLSpan) -> Name {
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

    mutating func run() throws(PreviousXMLScanError) {
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
