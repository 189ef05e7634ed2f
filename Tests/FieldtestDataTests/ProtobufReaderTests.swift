import Foundation
import Testing

@testable import FieldtestData

/// The protobuf wire-format reader of OSM PBF maps: varints, zigzag, packed and unpacked repeated
/// fields, unknown fields, and every kind of damage an error, never a trap.
@Suite("Protobuf reader")
struct ProtobufReaderTests {
    typealias Malformed = ProtobufReader.Malformed

    /// The result of `read` over a reader of `bytes`.
    static func reading<T>(_ bytes: [UInt8], _ read: (inout ProtobufReader) throws(Malformed) -> T) -> Result<
        T, Malformed
    > {
        bytes.withUnsafeBytes { buffer in
            var reader = ProtobufReader(buffer)
            do throws(Malformed) { return .success(try read(&reader)) } catch { return .failure(error) }
        }
    }

    static func varint(_ bytes: [UInt8]) -> Result<UInt64, Malformed> {
        reading(bytes) { (r: inout ProtobufReader) throws(Malformed) in try r.varint() }
    }

    static func decode<M: ProtobufMessage>(_ bytes: [UInt8], as _: M.Type = M.self) -> Result<M, Malformed> {
        bytes.withUnsafeBytes { buffer in
            do throws(Malformed) { return .success(try M(protobuf: buffer)) } catch { return .failure(error) }
        }
    }

    /// The reason of a failure, or nil when it succeeded.
    static func reason<T>(_ result: Result<T, Malformed>) -> String? {
        if case .failure(let error) = result { return error.reason }
        return nil
    }

    /// A varint field's key and value.
    static func varintField(_ number: UInt64, _ value: UInt64) -> [UInt8] {
        PBFBombs.varint(number << 3) + PBFBombs.varint(value)
    }

    static func zigzag(_ n: Int64) -> UInt64 { UInt64(bitPattern: (n << 1) ^ (n >> 63)) }

    @Test("varints: one byte, several, and the 10-byte maximum")
    func varints() throws {
        #expect(try Self.varint([0]).get() == 0)
        #expect(try Self.varint([0x7F]).get() == 127)
        #expect(try Self.varint([0xAC, 0x02]).get() == 300)
        #expect(try Self.varint([UInt8](repeating: 0xFF, count: 9) + [0x01]).get() == UInt64.max)
        for value: UInt64 in [1 << 35, 1 << 63, 0xDEAD_BEEF_1234] {
            #expect(try Self.varint(PBFBombs.varint(value)).get() == value)
        }
        // A non-minimal encoding of 1 is still valid, up to 10 bytes.
        #expect(try Self.varint([0x81] + [UInt8](repeating: 0x80, count: 8) + [0x00]).get() == 1)
    }

    @Test("a varint over 10 bytes, past 64 bits or cut short is an error")
    func badVarints() {
        let overlong = Self.reason(Self.varint([UInt8](repeating: 0x80, count: 10) + [0x00]))
        #expect(overlong?.contains("longer than 10 bytes") == true, "\(overlong ?? "read")")
        let overflow = Self.reason(Self.varint([UInt8](repeating: 0xFF, count: 9) + [0x02]))
        #expect(overflow?.contains("overflows 64 bits") == true, "\(overflow ?? "read")")
        for cut in [[], [0x80], [0xFF, 0xFF, 0xFF]] as [[UInt8]] {
            let truncated = Self.reason(Self.varint(cut))
            #expect(truncated?.contains("cut short") == true, "\(cut): \(truncated ?? "read")")
        }
    }

    @Test("zigzag: 0, -1, 1, -2, … and the 64- and 32-bit extremes")
    func zigzag() throws {
        #expect([0, 1, 2, 3, 4].map(ProtobufReader.zigzag64) == [0, -1, 1, -2, 2])
        #expect(ProtobufReader.zigzag64(.max) == .min)
        #expect(ProtobufReader.zigzag64(.max - 1) == .max)
        #expect(ProtobufReader.zigzag32(.max) == .min && ProtobufReader.zigzag32(.max - 1) == .max)
        #expect([0, 1, 2, 3].map(ProtobufReader.zigzag32) == [0, -1, 1, -2])
        let values: [Int64] = [0, -1, 1, -78_510_944_300, .max, .min]
        for v in values {
            let read = Self.reading(PBFBombs.varint(Self.zigzag(v))) { (r: inout ProtobufReader) throws(Malformed) in
                try r.sint64()
            }
            #expect(try read.get() == v)
        }
        // sint32 reads the low 32 bits; int32 a negative value sign-extended to 10 bytes.
        let int32 = Self.reading(PBFBombs.varint(UInt64(bitPattern: -5))) {
            (r: inout ProtobufReader) throws(Malformed) in
            try r.int32()
        }
        #expect(try int32.get() == -5)
    }

    @Test("repeated fields read packed, unpacked or both give the same values")
    func packedAndUnpacked() throws {
        let ids: [Int64] = [5, -3, 1_000_000_000_000, -1]
        let packed = PBFBombs.field(1, ids.flatMap { PBFBombs.varint(Self.zigzag($0)) })
        let unpacked = ids.flatMap { Self.varintField(1, Self.zigzag($0)) }
        let mixed =
            PBFBombs.field(1, ids.prefix(2).flatMap { PBFBombs.varint(Self.zigzag($0)) })
            + ids.dropFirst(2).flatMap { Self.varintField(1, Self.zigzag($0)) }
        for bytes in [packed, unpacked, mixed] {
            #expect(try Self.decode(bytes, as: PBFDenseNodes.self).get().id == ids)
        }
        // An empty packed run is no value.
        #expect(try Self.decode(PBFBombs.field(10, []), as: PBFDenseNodes.self).get().keysVals == [])
    }

    @Test("unknown fields of every wire type are skipped; a known field of another wire type too")
    func unknownFields() throws {
        let unknown =
            Self.varintField(7, 1 << 40) + PBFBombs.varint(3 << 3 | 1) + [UInt8](repeating: 9, count: 8)
            + PBFBombs.field(5, [1, 2, 3]) + PBFBombs.varint(1_000 << 3 | 5) + [1, 2, 3, 4]
        let wrongType = PBFBombs.field(1, [0x02])  // Way.id is a varint; as bytes it is an unknown field.
        let way = try Self.decode(unknown + wrongType + Self.varintField(1, 42) + unknown, as: PBFWay.self).get()
        #expect(way.id == 42 && way.refs.isEmpty)
    }

    @Test("a length past the end, a cut fixed field, a group or a bad key is an error, not an allocation")
    func damage() {
        let cases: [([UInt8], String)] = [
            (PBFBombs.varint(8 << 3 | 2) + PBFBombs.varint(1_000) + [1, 2, 3], "1000 bytes where only 3 remain"),
            (PBFBombs.varint(8 << 3 | 2) + PBFBombs.varint(1 << 62), "where only 0 remain"),
            (PBFBombs.varint(8 << 3 | 2) + PBFBombs.varint(.max), "where only 0 remain"),
            (PBFBombs.varint(7 << 3 | 1) + [1, 2, 3], "8 bytes where only 3 remain"),
            (PBFBombs.varint(7 << 3 | 5) + [1], "4 bytes where only 1 remain"),
            (PBFBombs.varint(7 << 3 | 3), "group"),
            (PBFBombs.varint(7 << 3 | 4), "group"),
            (PBFBombs.varint(7 << 3 | 6), "wire type 6"),
            (PBFBombs.varint(0 << 3 | 0) + [0], "field number of 0"),
            (PBFBombs.field(8, [0x80]), "cut short"),  // a packed run ending inside a varint
        ]
        for (bytes, expected) in cases {
            let reason = Self.reason(Self.decode(bytes, as: PBFWay.self)) ?? "decoded"
            #expect(reason.contains(expected), "\(bytes): \(reason)")
        }
    }

    @Test("required fields are checked, singular fields take the last value, messages merge")
    func protobufRules() throws {
        let missingLat = Self.varintField(1, 2) + Self.varintField(9, 4)
        #expect(Self.reason(Self.decode(missingLat, as: PBFNode.self)) == "a Node without its required field lat")
        #expect(Self.reason(Self.decode([], as: PBFPrimitiveBlock.self))?.contains("stringtable") == true)
        let header = PBFBombs.field(1, Array("OSMData".utf8))
        #expect(Self.reason(Self.decode(header, as: PBFBlobHeader.self))?.contains("datasize") == true)
        let notUTF8 = PBFBombs.field(1, [0xFF]) + Self.varintField(3, 1)
        #expect(Self.reason(Self.decode(notUTF8, as: PBFBlobHeader.self))?.contains("not UTF-8") == true)

        let twice = Self.varintField(1, 1) + Self.varintField(1, 7)
        #expect(try Self.decode(twice, as: PBFWay.self).get().id == 7)
        // Two `dense` fields of one group merge: their columns are joined.
        let dense = PBFBombs.field(2, PBFBombs.field(1, [2]))
        let group = try Self.decode(dense + dense, as: PBFPrimitiveGroup.self).get()
        #expect(group.dense?.id == [1, 1])
        // The last compression of the `data` oneof wins.
        let blob = try Self.decode(PBFBombs.field(1, [1]) + PBFBombs.field(4, [2]), as: PBFBlob.self).get()
        #expect(blob.data == .other(field: 4))
        // A member type outside the enum is dropped, as protobuf does with closed enums.
        let relation = Self.varintField(1, 1) + PBFBombs.field(10, [0, 7, 1, 2])
        #expect(try Self.decode(relation, as: PBFRelation.self).get().types == [.node, .way, .relation])
        // The block defaults: granularity 100, offsets 0.
        let block = try Self.decode(PBFBombs.field(1, []), as: PBFPrimitiveBlock.self).get()
        #expect(block.granularity == 100 && block.latOffset == 0 && block.lonOffset == 0)
    }
}
