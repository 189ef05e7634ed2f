import Foundation

/// A run of bytes in the scanned buffer, by offset.
struct XMLSpan: Sendable, Equatable {
    /// Offset of the first byte.
    var start: Int
    /// Number of bytes.
    var count: Int
}

/// One attribute of the current start tag: its name and its raw value (between the quotes).
struct XMLAttribute {
    /// The attribute's name.
    var name: XMLSpan
    /// The raw value, before entity references are replaced and white space normalised.
    var value: XMLSpan
    /// Whether the raw bytes are the value as they stand (no `&…;`, no tab or line break).
    var plain: Bool
    /// The name's first eight bytes, zero-padded (`XMLByteScanner.head`): with the length, enough to
    /// tell the short names data files use apart in one comparison.
    var head: UInt64
}

/// What the scanner found next.
enum XMLEvent {
    /// A start tag; its attributes are in `XMLByteScanner.attributes` until the next call.
    case start(XMLSpan)
    /// An end tag, or the end of an empty-element tag (`<tag/>`).
    case end(XMLSpan)
    /// The end of the input, with every element closed.
    case endOfInput
}

/// Why the input is not well-formed XML, and where.
struct XMLScanError: Error {
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
/// nothing is allocated per element. The attribute list and the stack of open elements live in
/// buffers the scanner owns (it is not copyable), so the inner loops index them without Array's
/// uniqueness checks and reference counting. O(input) time.
struct XMLByteScanner: ~Copyable {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var pos: Int
    /// Where the document starts (after a byte-order mark): the only place an XML declaration may be.
    private let documentStart: Int
    private let classes: UnsafePointer<UInt8>
    /// 1-based line of the scan position (of the `>` closing a start tag when it is returned).
    private(set) var line = 1
    /// Attributes of the last start tag returned: `attributeCount` of them.
    private var attributes: UnsafeMutablePointer<XMLAttribute>
    private var attributeCapacity = 16
    /// Number of attributes of the last start tag returned.
    private(set) var attributeCount = 0
    /// The open elements, innermost last: `depth` of them.
    private var open: UnsafeMutablePointer<XMLSpan>
    private var openCapacity = 16
    /// Number of elements open.
    private(set) var depth = 0
    private var pendingEnd: XMLSpan?
    private var rootClosed = false
    /// Whether the input may end with the root element still open (the first part of a document
    /// read in two parts): `next` then reports the end of input instead of a truncated file.
    private var stopsInsideRoot = false

    /// Scans `bytes`, which must outlive the scanner.
    init(_ bytes: UnsafeRawBufferPointer) {
        let p = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? XMLByteClass.empty
        base = p
        count = bytes.count
        pos = count >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0
        documentStart = pos
        classes = XMLByteClass.table
        attributes = .allocate(capacity: attributeCapacity)
        open = .allocate(capacity: openCapacity)
    }

    /// Scans the first part of a document that ends, cut between two children of the root, with the
    /// root still open; `next` returns `.endOfInput` there when exactly the root is open.
    init(firstPartOf bytes: UnsafeRawBufferPointer) {
        self.init(bytes)
        stopsInsideRoot = true
    }

    /// Scans `bytes` from `start`, where the previous part of a document ended between two children
    /// of the root, whose name is at `root`: the root is open, no XML declaration may follow, and
    /// lines count from 1 again (the caller adds the previous parts'). With `stopsInsideRoot`, the
    /// part may end with the root still open, as the first part does.
    init(partOf bytes: UnsafeRawBufferPointer, from start: Int, root: XMLSpan, stopsInsideRoot: Bool) {
        let p = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? XMLByteClass.empty
        base = p
        count = bytes.count
        pos = start
        documentStart = -1
        classes = XMLByteClass.table
        attributes = .allocate(capacity: attributeCapacity)
        open = .allocate(capacity: openCapacity)
        open[0] = root
        depth = 1
        self.stopsInsideRoot = stopsInsideRoot
    }

    /// The root element's name, once it is open.
    var root: XMLSpan? { depth > 0 ? open[0] : nil }

    deinit {
        attributes.deallocate()
        open.deallocate()
    }

    /// Attribute `i` (`0..<attributeCount`) of the last start tag returned.
    @inline(__always)
    func attribute(at i: Int) -> XMLAttribute {
        precondition(i >= 0 && i < attributeCount, "attribute index out of range")
        return attributes[i]
    }

    /// The innermost open element.
    private var innermost: XMLSpan? { depth > 0 ? open[depth - 1] : nil }

    @inline(__always)
    private mutating func push(_ name: XMLSpan) {
        if depth == openCapacity { open = Self.doubled(open, count: depth, capacity: &openCapacity) }
        open[depth] = name
        depth += 1
    }

    @inline(__always)
    private mutating func appendAttribute(_ a: XMLAttribute) {
        if attributeCount == attributeCapacity {
            attributes = Self.doubled(attributes, count: attributeCount, capacity: &attributeCapacity)
        }
        attributes[attributeCount] = a
        attributeCount += 1
    }

    /// `buffer`'s `count` elements moved into a buffer of twice `capacity` (which is doubled); `buffer` is freed.
    private static func doubled<Element>(
        _ buffer: UnsafeMutablePointer<Element>, count: Int, capacity: inout Int
    ) -> UnsafeMutablePointer<Element> {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        capacity *= 2
        return bigger
    }

    /// The first eight bytes of `span` as a little-endian word, zero-padded when it is shorter.
    @inline(__always)
    func head(_ span: XMLSpan) -> UInt64 {
        let n = min(span.count, 8)
        if span.start + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + span.start).loadUnaligned(as: UInt64.self))
            return n == 8 ? word : word & ((1 &<< UInt64(8 * n)) &- 1)
        }
        var word: UInt64 = 0
        for k in 0..<n { word |= UInt64(base[span.start + k]) &<< UInt64(8 * k) }
        return word
    }

    /// Whether spans `a` and `b` hold the same bytes.
    @inline(__always)
    func same(_ a: XMLSpan, _ b: XMLSpan) -> Bool {
        a.count == b.count && memcmp(base + a.start, base + b.start, a.count) == 0
    }

    /// The last eight bytes of `span` (of at least eight) as a little-endian word.
    @inline(__always)
    func tail(_ span: XMLSpan) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + span.start + span.count - 8).loadUnaligned(as: UInt64.self))
    }

    /// `head` of an ASCII literal, for comparing names against it.
    static func head(_ literal: StaticString) -> UInt64 {
        var word: UInt64 = 0
        for k in 0..<min(literal.utf8CodeUnitCount, 8) { word |= UInt64(literal.utf8Start[k]) << UInt64(8 * k) }
        return word
    }

    /// Whether `span` holds exactly the ASCII bytes of `literal`.
    @inline(__always)
    func equals(_ span: XMLSpan, _ literal: StaticString) -> Bool {
        span.count == literal.utf8CodeUnitCount && memcmp(base + span.start, literal.utf8Start, span.count) == 0
    }

    /// The bytes of `span`.
    @inline(__always)
    func bytes(_ span: XMLSpan) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + span.start, count: span.count)
    }

    /// The text of `span` (already valid UTF-8).
    func string(_ span: XMLSpan) -> String { String(decoding: bytes(span), as: UTF8.self) }

    /// Index in the attribute list of the attribute called `name`.
    @inline(__always)
    func attribute(_ name: StaticString) -> Int? {
        for i in 0..<attributeCount where equals(attributes[i].name, name) { return i }
        return nil
    }

    /// The value of attribute `i` with entity references replaced and white space normalised (XML 1.0 §3.3.3).
    func value(_ i: Int) -> String {
        let a = attribute(at: i)
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
        let a = attribute(at: i)
        return a.plain ? equals(a.value, literal) : value(i) == literal.description
    }

    private func fault(_ reason: String) -> XMLScanError { XMLScanError(line: line, reason: reason) }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// The next event.
    mutating func next() throws(XMLScanError) -> XMLEvent {
        if let name = pendingEnd {
            pendingEnd = nil
            depth -= 1
            if depth == 0 { rootClosed = true }
            return .end(name)
        }
        while true {
            try skipText()
            if pos >= count {
                if stopsInsideRoot && depth == 1 { return .endOfInput }
                if let innermost {
                    throw fault(
                        "the file ends inside <\(string(innermost))> (\(depth) element(s) left open); it is truncated"
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
                guard let innermost else {
                    throw fault("</\(string(name))> closes an element that was never opened")
                }
                guard innermost.count == name.count, memcmp(base + innermost.start, base + name.start, name.count) == 0
                else {
                    throw fault("</\(string(name))> does not match the open <\(string(innermost))>")
                }
                depth -= 1
                if depth == 0 { rootClosed = true }
                return .end(name)
            case UInt8(ascii: "!"):
                if matches("<!--", at: tagStart) {
                    try skipComment()
                } else if matches("<![CDATA[", at: tagStart) {
                    guard depth > 0 else { throw fault("a CDATA section outside the root element") }
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
                    classes[Int(base[pos])] & XMLByteClass.space != 0 || base[pos] == 0x0A
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
                push(name)
                if empty { pendingEnd = name }
                return .start(name)
            }
        }
    }

    /// The XML declaration after `<?xml`: `version="1.x"`, then optionally `encoding` (UTF-8 or a
    /// subset of it) and `standalone` (`yes` or `no`), in that order (XML 1.0 §2.8).
    private mutating func scanDeclaration() throws(XMLScanError) {
        let element = XMLSpan(start: pos - 3, count: 3)
        _ = try scanAttributes(of: element, closing: UInt8(ascii: "?"))
        let names = (0..<attributeCount).map { string(attributes[$0].name) }
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
    private mutating func skipText() throws(XMLScanError) {
        var sawText = false
        while pos < count {
            // The run of plain bytes with a local index, which the compiler keeps in a register.
            var i = pos
            while i < count {
                let k = classes[Int(base[i])]
                if k & XMLByteClass.textSpecial != 0 { break }
                if k & XMLByteClass.space == 0 { sawText = true }
                i += 1
            }
            pos = i
            guard i < count else { break }
            let c = base[pos]
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
        if sawText, depth == 0 {
            throw fault(
                rootClosed
                    ? "text after the end of the root element" : "text before the root element; expected '<'")
        }
    }

    /// White space at the scan position; most calls find none, so the test comes first, inline.
    @inline(__always)
    private mutating func skipSpace() {
        guard pos < count, classes[Int(base[pos])] & XMLByteClass.spaceOrLineFeed != 0 else { return }
        skipSpaceRun()
    }

    private mutating func skipSpaceRun() {
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
    @inline(__always)
    private mutating func scanName(what: StaticString, of element: XMLSpan? = nil) throws(XMLScanError) -> XMLSpan {
        let start = pos
        guard pos < count, classes[Int(base[pos])] & XMLByteClass.nameStart != 0 else {
            let whose = "\(what)" + (element.map { " of <\(string($0))>" } ?? "")
            throw pos >= count
                ? fault("the file ends inside a \(whose); it is truncated")
                : fault("a \(whose) needs a name, found \(describe(base[pos]))")
        }
        var i = pos + 1
        while i < count, classes[Int(base[i])] & XMLByteClass.nameChar != 0 { i += 1 }
        pos = i
        return XMLSpan(start: start, count: i - start)
    }

    /// Attributes up to `>` or `/>` (or `?>` when `closing` is `?`); returns whether the tag was empty (`/>`).
    private mutating func scanAttributes(of element: XMLSpan, closing: UInt8 = UInt8(ascii: "/")) throws(XMLScanError)
        -> Bool
    {
        attributeCount = 0
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
                pos = skipValueBytes(from: pos)
                guard pos < count else {
                    throw fault("the file ends inside the value of attribute '\(string(name))'; it is truncated")
                }
                let c = base[pos]
                if classes[Int(c)] & XMLByteClass.valueSpecial == 0 {
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
            let value = XMLSpan(start: start, count: pos - start)
            pos += 1
            // Names of eight bytes or fewer are equal when their heads are; longer ones compare the rest.
            let head = head(name)
            for j in 0..<attributeCount where attributes[j].head == head && attributes[j].name.count == name.count {
                if name.count <= 8
                    || memcmp(base + attributes[j].name.start + 8, base + name.start + 8, name.count - 8) == 0
                {
                    throw fault("attribute '\(string(name))' appears twice in <\(string(element))>")
                }
            }
            appendAttribute(XMLAttribute(name: name, value: value, plain: plain, head: head))
        }
    }

    /// The offset of the first byte at or after `i` that may end an attribute value or needs a look
    /// (a quote, `<`, `&`, a control character), or `count`. Eight bytes per step while eight remain:
    /// in each word, the lowest byte the bit tricks flag is exactly the first such byte (a false flag
    /// can only follow a true one), and any byte flagged is looked at again by the caller.
    @inline(__always)
    private func skipValueBytes(from start: Int) -> Int {
        var i = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= count {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            @inline(__always) func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
            let flags =
                zeroByte(w ^ (ones &* 0x22)) | zeroByte(w ^ (ones &* 0x27)) | zeroByte(w ^ (ones &* 0x3C))
                | zeroByte(w ^ (ones &* 0x26)) | ((w &- ones &* 0x20) & ~w & highs)
            if flags != 0 { return i + flags.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < count, classes[Int(base[i])] & XMLByteClass.valueSpecial == 0 { i += 1 }
        return i
    }

    /// The entity or character reference at `i` (`&…;`) and the offset after it.
    private func entity(at i: Int) throws(XMLScanError) -> (scalar: Unicode.Scalar, next: Int) {
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

    private mutating func skipComment() throws(XMLScanError) {
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

    private mutating func skip(until terminator: StaticString, what: String) throws(XMLScanError) {
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
    private mutating func checkCharacter(_ c: UInt8, in what: String) throws(XMLScanError) {
        if c == UInt8(ascii: "\n") {
            line += 1
        } else if c < 0x20, c != UInt8(ascii: "\t"), c != UInt8(ascii: "\r") {
            throw fault("\(describe(c)) is not allowed in XML (\(what))")
        }
    }
}

/// Byte classes for the scanner's inner loops, one table lookup per byte.
enum XMLByteClass {
    /// Ends a run of character data, or needs a look: `<`, `&`, line feed, control characters.
    static let textSpecial: UInt8 = 1
    /// Ends a run of attribute value bytes: quotes, `<`, `&`, tab, line feed, carriage return, control characters.
    static let valueSpecial: UInt8 = 2
    /// Space, tab or carriage return (line feeds are `textSpecial`).
    static let space: UInt8 = 4
    /// Space, tab, carriage return or line feed.
    static let spaceOrLineFeed: UInt8 = 32
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
            if c == 0x20 || c == 0x09 || c == 0x0D { k |= space | spaceOrLineFeed }
            if c == 0x0A { k |= spaceOrLineFeed }
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
