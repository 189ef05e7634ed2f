/// A reader of the protobuf wire format (https://protobuf.dev/programming-guides/encoding/) over a
/// byte buffer, for the few messages of OSM PBF maps (`OSMPBFMessages.swift`).
///
/// Every read is bounds-checked and throws `Malformed` instead of trapping: a varint longer than 10
/// bytes or past 64 bits, a field cut short, a length beyond the bytes that remain (refused before
/// anything is allocated for it), a field number 0, a reserved wire type (6, 7) and the deprecated
/// groups (3, 4, which no OSM PBF writer emits). Repeated scalar fields are read packed or unpacked,
/// as protobuf parsers must accept both. The buffer must outlive the reader.
struct ProtobufReader {
    /// Why the bytes are not valid protobuf; the loader wraps it into a located `DataError`.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// How a field's value is laid out (the low 3 bits of its key).
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case startGroup = 3
        case endGroup = 4
        case fixed32 = 5
    }

    private let bytes: UnsafeRawBufferPointer
    /// Offset of the next unread byte in `bytes`.
    private(set) var position: Int

    /// A reader of all of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        position = 0
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= bytes.count }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - position }

    /// The next field's number and wire type, or nil at the end of the message.
    mutating func nextField() throws(Malformed) -> (number: Int, wireType: WireType)? {
        guard !isAtEnd else { return nil }
        let key = try varint()
        let number = key >> 3
        guard number >= 1, number <= 536_870_911 else {
            throw Malformed(reason: "a field number of \(number), outside 1…536870911")
        }
        guard let wireType = WireType(rawValue: key & 7) else {
            throw Malformed(reason: "field \(number) has wire type \(key & 7), which does not exist")
        }
        guard wireType != .startGroup, wireType != .endGroup else {
            throw Malformed(
                reason: "field \(number) is a group (wire type \(wireType.rawValue)), which OSM PBF never uses")
        }
        return (Int(number), wireType)
    }

    /// A base-128 varint of at most 10 bytes whose value fits 64 bits.
    mutating func varint() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<10 {
            guard position < bytes.count else {
                throw Malformed(reason: "a varint is cut short by the end of its message")
            }
            let byte = bytes[position]
            position += 1
            if index == 9 {
                // The 10th byte holds bit 63 alone; more would overflow 64 bits or make it longer.
                guard byte & 0x80 == 0 else { throw Malformed(reason: "a varint longer than 10 bytes") }
                guard byte <= 1 else { throw Malformed(reason: "a varint that overflows 64 bits") }
            }
            value |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte & 0x80 == 0 { return value }
        }
        preconditionFailure("unreachable: the 10th byte returns or throws")
    }

    /// `int32` (and enum) fields: a varint truncated to 32 bits, as protobuf specifies.
    mutating func int32() throws(Malformed) -> Int32 { Int32(truncatingIfNeeded: try varint()) }
    /// `uint32` fields.
    mutating func uint32() throws(Malformed) -> UInt32 { UInt32(truncatingIfNeeded: try varint()) }
    /// `int64` fields.
    mutating func int64() throws(Malformed) -> Int64 { Int64(bitPattern: try varint()) }
    /// `sint64` fields (zigzag).
    mutating func sint64() throws(Malformed) -> Int64 { Self.zigzag64(try varint()) }
    /// `sint32` fields (zigzag of the low 32 bits).
    mutating func sint32() throws(Malformed) -> Int32 { Self.zigzag32(UInt32(truncatingIfNeeded: try varint())) }
    /// `bool` fields: any non-zero varint is true.
    mutating func bool() throws(Malformed) -> Bool { try varint() != 0 }

    /// Zigzag-decoded 64-bit value: 0, 1, 2, 3, … → 0, -1, 1, -2, ….
    static func zigzag64(_ n: UInt64) -> Int64 { Int64(bitPattern: n >> 1) ^ -Int64(bitPattern: n & 1) }
    /// Zigzag-decoded 32-bit value.
    static func zigzag32(_ n: UInt32) -> Int32 { Int32(bitPattern: n >> 1) ^ -Int32(bitPattern: n & 1) }

    /// The bytes of a length-delimited field, as a reader of them alone; the length is checked
    /// against what remains before anything else.
    mutating func lengthDelimited() throws(Malformed) -> ProtobufReader {
        let length = try varint()
        guard length <= UInt64(remaining) else {
            throw Malformed(reason: "a field of \(length) bytes where only \(remaining) remain in its message")
        }
        let start = position
        position += Int(length)
        return ProtobufReader(UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
    }

    /// The bytes of a length-delimited field, given to `body` without a copy.
    mutating func lengthDelimitedBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) throws(Malformed) -> T {
        body(try lengthDelimited().bytes)
    }

    /// A `bytes` field, copied.
    mutating func bytesField() throws(Malformed) -> [UInt8] {
        try lengthDelimitedBytes { Array($0) }
    }

    /// A `string` field, which must be UTF-8.
    mutating func string(field number: Int, of message: String) throws(Malformed) -> String {
        let text = try lengthDelimitedBytes { String(validating: $0, as: UTF8.self) }
        guard let text else {
            throw Malformed(reason: "field \(number) of a \(message) is not UTF-8")
        }
        return text
    }

    /// Passes over the value of a field of `wireType` (an unknown field, or a known one whose wire type
    /// does not match its declaration, as protobuf parsers treat it).
    mutating func skip(_ wireType: WireType) throws(Malformed) {
        switch wireType {
        case .varint: _ = try varint()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup, .endGroup:
            throw Malformed(reason: "a group (wire type \(wireType.rawValue)), which OSM PBF never uses")
        }
    }

    private mutating func advance(_ count: Int) throws(Malformed) {
        guard count <= remaining else {
            throw Malformed(
                reason: "a fixed-size field of \(count) bytes where only \(remaining) remain in its message")
        }
        position += count
    }

    /// Appends the values of a repeated varint field, packed (one length-delimited run) or not (one
    /// varint), each through `convert`; a value `convert` gives nil for (an unknown enum value) is
    /// dropped, as protobuf does. Another wire type is skipped as an unknown field.
    mutating func appendVarints<T>(
        _ wireType: WireType, to values: inout [T], _ convert: (UInt64) -> T?
    ) throws(Malformed) {
        switch wireType {
        case .varint:
            if let value = convert(try varint()) { values.append(value) }
        case .lengthDelimited:
            var packed = try lengthDelimited()
            // Exactly one byte of each varint has its high bit clear: the count, without reading twice.
            values.reserveCapacity(values.count + packed.bytes.reduce(0) { $0 + ($1 < 0x80 ? 1 : 0) })
            while !packed.isAtEnd {
                if let value = convert(try packed.varint()) { values.append(value) }
            }
        default:
            try skip(wireType)
        }
    }
}
