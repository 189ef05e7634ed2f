/// The messages of OSM PBF that `OSMPBFLoader` reads, with only the fields it uses (field numbers and
/// types from `OSMPBF/fileformat.proto` and `OSMPBF/osmformat.proto`); every other field is skipped.
///
/// Decoding follows protobuf's rules: the last value of a singular field wins, a message field seen
/// twice is merged, repeated fields are read packed or not, a known field of an unexpected wire type
/// is skipped as unknown, and a message missing a `required` field is refused.
protocol ProtobufMessage {
    init()
    /// Reads the fields of `reader` into this message, merging with what it holds.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufReader.Malformed)
    /// Throws when a `required` field of this message, or of a message inside it, is missing.
    func checkRequired() throws(ProtobufReader.Malformed)
}

extension ProtobufMessage {
    /// The message encoded in `bytes`, its required fields checked.
    init(protobuf bytes: UnsafeRawBufferPointer) throws(ProtobufReader.Malformed) {
        self.init()
        var reader = ProtobufReader(bytes)
        try merge(from: &reader)
        try checkRequired()
    }

    /// Merges the length-delimited field at `reader` into `message` (nil: a new one).
    static func merge(_ message: inout Self?, from reader: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        var sub = try reader.lengthDelimited()
        var value = message ?? Self()
        try value.merge(from: &sub)
        message = value
    }

    /// Appends the length-delimited message field at `reader` to `messages`.
    static func append(to messages: inout [Self], from reader: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        var sub = try reader.lengthDelimited()
        var value = Self()
        try value.merge(from: &sub)
        messages.append(value)
    }
}

/// A missing `required` field.
private func missing(_ field: String, of message: String) -> ProtobufReader.Malformed {
    ProtobufReader.Malformed(reason: "a \(message) without its required field \(field)")
}

/// Precedes each block: its kind and its size in bytes.
struct PBFBlobHeader: ProtobufMessage {
    var type: String?
    var datasize: Int32?

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited): type = try r.string(field: 1, of: "BlobHeader")
            case (3, .varint): datasize = try r.int32()
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {
        guard type != nil else { throw missing("type", of: "BlobHeader") }
        guard datasize != nil else { throw missing("datasize", of: "BlobHeader") }
    }
}

/// A block's payload, raw or compressed.
struct PBFBlob: ProtobufMessage {
    /// The `data` oneof: the last of its fields wins.
    enum Payload: Equatable {
        case raw([UInt8])
        case zlib([UInt8])
        /// A compression Fieldtest does not read (`lzma_data`, `obsolete_bzip2_data`, `lz4_data`, `zstd_data`).
        case other(field: Int)
    }

    var rawSize: Int32?
    var data: Payload?

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited): data = .raw(try r.bytesField())
            case (2, .varint): rawSize = try r.int32()
            case (3, .lengthDelimited): data = .zlib(try r.bytesField())
            case (4...7, .lengthDelimited):
                try r.skip(wire)
                data = .other(field: field)
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {}
}

/// The first block's content: the features a reader needs.
struct PBFHeaderBlock: ProtobufMessage {
    var requiredFeatures: [String] = []
    /// Present: its four required fields are checked.
    var bbox: PBFHeaderBBox?

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited): try PBFHeaderBBox.merge(&bbox, from: &r)
            case (4, .lengthDelimited): requiredFeatures.append(try r.string(field: 4, of: "HeaderBlock"))
            // Strings not used, but still required to be UTF-8.
            case (5, .lengthDelimited), (16, .lengthDelimited), (17, .lengthDelimited):
                _ = try r.string(field: field, of: "HeaderBlock")
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) { try bbox?.checkRequired() }
}

/// The header's bounding box; read only to check that it is whole.
struct PBFHeaderBBox: ProtobufMessage {
    /// Which of the fields 1…4 (left, right, top, bottom) were seen, as bits 1…4.
    var seen: UInt8 = 0

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            if (1...4).contains(field), wire == .varint { seen |= 1 << field }
            try r.skip(wire)
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {
        for (bit, name) in [(1, "left"), (2, "right"), (3, "top"), (4, "bottom")] where seen & (1 << bit) == 0 {
            throw missing(name, of: "HeaderBBox")
        }
    }
}

/// An `OSMData` block: a string table, groups of elements and the coordinate scale.
struct PBFPrimitiveBlock: ProtobufMessage {
    /// The string table, each entry nil when it is not UTF-8 (the loader says which).
    var strings: [String?] = []
    var sawStringTable = false
    var groups: [PBFPrimitiveGroup] = []
    /// Nanodegrees per coordinate unit.
    var granularity: Int32 = 100
    /// Nanodegrees added to every latitude.
    var latOffset: Int64 = 0
    /// Nanodegrees added to every longitude.
    var lonOffset: Int64 = 0

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited):
                sawStringTable = true
                var table = try r.lengthDelimited()
                while let (entry, entryWire) = try table.nextField() {
                    guard entry == 1, entryWire == .lengthDelimited else {
                        try table.skip(entryWire)
                        continue
                    }
                    let s = try table.lengthDelimitedBytes { String(validating: $0, as: UTF8.self) }
                    strings.append(s)
                }
            case (2, .lengthDelimited): try PBFPrimitiveGroup.append(to: &groups, from: &r)
            case (17, .varint): granularity = try r.int32()
            case (19, .varint): latOffset = try r.int64()
            case (20, .varint): lonOffset = try r.int64()
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {
        guard sawStringTable else { throw missing("stringtable", of: "PrimitiveBlock") }
        for group in groups { try group.checkRequired() }
    }
}

/// One group of a block: plain nodes, dense nodes, ways or relations.
struct PBFPrimitiveGroup: ProtobufMessage {
    var nodes: [PBFNode] = []
    var dense: PBFDenseNodes?
    var ways: [PBFWay] = []
    var relations: [PBFRelation] = []

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited): try PBFNode.append(to: &nodes, from: &r)
            case (2, .lengthDelimited): try PBFDenseNodes.merge(&dense, from: &r)
            case (3, .lengthDelimited): try PBFWay.append(to: &ways, from: &r)
            case (4, .lengthDelimited): try PBFRelation.append(to: &relations, from: &r)
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {
        for node in nodes { try node.checkRequired() }
        for way in ways { try way.checkRequired() }
        for relation in relations { try relation.checkRequired() }
    }
}

/// An element's metadata; only `visible` (false: a deleted version in a history file) is read.
struct PBFInfo: ProtobufMessage {
    var visible: Bool?

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            if field == 6, wire == .varint { visible = try r.bool() } else { try r.skip(wire) }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {}

    /// Whether an element with this info is a deleted version.
    static func isDeleted(_ info: PBFInfo?) -> Bool { info?.visible == false }
}

/// A plain node: coordinates in units of the block's granularity.
struct PBFNode: ProtobufMessage {
    var id: Int64 = 0
    var keys: [UInt32] = []
    var vals: [UInt32] = []
    var info: PBFInfo?
    var lat: Int64 = 0
    var lon: Int64 = 0
    /// Which of the required fields (id, lat, lon) were read.
    var seen: (id: Bool, lat: Bool, lon: Bool) = (false, false, false)

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .varint): (id, seen.id) = (try r.sint64(), true)
            case (2, _): try r.appendVarints(wire, to: &keys) { UInt32(truncatingIfNeeded: $0) }
            case (3, _): try r.appendVarints(wire, to: &vals) { UInt32(truncatingIfNeeded: $0) }
            case (4, .lengthDelimited): try PBFInfo.merge(&info, from: &r)
            case (8, .varint): (lat, seen.lat) = (try r.sint64(), true)
            case (9, .varint): (lon, seen.lon) = (try r.sint64(), true)
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {
        guard seen.id else { throw missing("id", of: "Node") }
        guard seen.lat else { throw missing("lat", of: "Node") }
        guard seen.lon else { throw missing("lon", of: "Node") }
    }
}

/// Nodes as parallel delta-coded columns; `keysVals` is k, v, k, v, …, 0 per node.
struct PBFDenseNodes: ProtobufMessage {
    var id: [Int64] = []
    var lat: [Int64] = []
    var lon: [Int64] = []
    var keysVals: [Int32] = []
    /// `denseinfo.visible`, when the group has a `denseinfo`.
    var denseInfo: PBFDenseInfo?

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch field {
            case 1: try r.appendVarints(wire, to: &id) { ProtobufReader.zigzag64($0) }
            case 5 where wire == .lengthDelimited: try PBFDenseInfo.merge(&denseInfo, from: &r)
            case 8: try r.appendVarints(wire, to: &lat) { ProtobufReader.zigzag64($0) }
            case 9: try r.appendVarints(wire, to: &lon) { ProtobufReader.zigzag64($0) }
            case 10: try r.appendVarints(wire, to: &keysVals) { Int32(truncatingIfNeeded: $0) }
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {}
}

/// Metadata of dense nodes; only the `visible` column is read.
struct PBFDenseInfo: ProtobufMessage {
    var visible: [Bool] = []

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            if field == 6 { try r.appendVarints(wire, to: &visible) { $0 != 0 } } else { try r.skip(wire) }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {}
}

/// A way: tags and delta-coded node references.
struct PBFWay: ProtobufMessage {
    var id: Int64 = 0
    /// Whether the required `id` was read.
    var hasID = false
    var keys: [UInt32] = []
    var vals: [UInt32] = []
    var info: PBFInfo?
    var refs: [Int64] = []

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .varint): (id, hasID) = (try r.int64(), true)
            case (2, _): try r.appendVarints(wire, to: &keys) { UInt32(truncatingIfNeeded: $0) }
            case (3, _): try r.appendVarints(wire, to: &vals) { UInt32(truncatingIfNeeded: $0) }
            case (4, .lengthDelimited): try PBFInfo.merge(&info, from: &r)
            case (8, _): try r.appendVarints(wire, to: &refs) { ProtobufReader.zigzag64($0) }
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {
        guard hasID else { throw missing("id", of: "Way") }
    }
}

/// A relation: tags and members (roles as string indexes, delta-coded ids, kinds).
struct PBFRelation: ProtobufMessage {
    /// `MemberType` of the format; another value is dropped when read, as protobuf does with an
    /// unknown value of a closed enum.
    enum MemberType: Int32 {
        case node = 0
        case way = 1
        case relation = 2
    }

    var id: Int64 = 0
    /// Whether the required `id` was read.
    var hasID = false
    var keys: [UInt32] = []
    var vals: [UInt32] = []
    var info: PBFInfo?
    var rolesSid: [Int32] = []
    var memids: [Int64] = []
    var types: [MemberType] = []

    mutating func merge(from r: inout ProtobufReader) throws(ProtobufReader.Malformed) {
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .varint): (id, hasID) = (try r.int64(), true)
            case (2, _): try r.appendVarints(wire, to: &keys) { UInt32(truncatingIfNeeded: $0) }
            case (3, _): try r.appendVarints(wire, to: &vals) { UInt32(truncatingIfNeeded: $0) }
            case (4, .lengthDelimited): try PBFInfo.merge(&info, from: &r)
            case (8, _): try r.appendVarints(wire, to: &rolesSid) { Int32(truncatingIfNeeded: $0) }
            case (9, _): try r.appendVarints(wire, to: &memids) { ProtobufReader.zigzag64($0) }
            case (10, _): try r.appendVarints(wire, to: &types) { MemberType(rawValue: Int32(truncatingIfNeeded: $0)) }
            default: try r.skip(wire)
            }
        }
    }

    func checkRequired() throws(ProtobufReader.Malformed) {
        guard hasID else { throw missing("id", of: "Relation") }
    }
}
