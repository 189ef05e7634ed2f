import CZlib
import FieldtestData
import Foundation
import Testing

/// Hand-encoded OSM PBF files: a header block, then data blocks of dense nodes, zlib-compressed.
enum PBFBombs {
    static func varint(_ value: UInt64) -> [UInt8] {
        var n = value
        var out: [UInt8] = []
        repeat {
            let b = UInt8(n & 0x7F)
            n >>= 7
            out.append(b | (n != 0 ? 0x80 : 0))
        } while n != 0
        return out
    }

    static func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }

    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        _ = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in compress2(o.baseAddress, &length, i.baseAddress, uLong(i.count), 9) }
        }
        return Array(out.prefix(Int(length)))
    }

    /// A block of `kind` holding `payload`, compressed, declaring `rawSize` (the payload's size unless given).
    static func block(_ kind: String, _ payload: [UInt8], rawSize: UInt64? = nil) -> [UInt8] {
        let blob = varint(2 << 3) + varint(rawSize ?? UInt64(payload.count)) + field(3, deflate(payload))
        let header = field(1, Array(kind.utf8)) + varint(3 << 3) + varint(UInt64(blob.count))
        let n = UInt32(header.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header + blob
    }

    /// An OSMData payload of `nodes` dense nodes, ids 1, 2, …, all at one point near Quito.
    static func denseNodes(_ nodes: Int) -> [UInt8] {
        let ids = varint(2) + [UInt8](repeating: 2, count: nodes - 1)
        let lats = varint(3_950_000) + [UInt8](repeating: 0, count: nodes - 1)
        let lons = varint(1_570_240_000) + [UInt8](repeating: 0, count: nodes - 1)
        let dense = field(1, ids) + field(8, lats) + field(9, lons)
        return field(1, field(1, [])) + field(2, field(2, dense))
    }

    /// An OSMData payload of no element and one string of `bytes` NULs: big once inflated, tiny compressed.
    static func bigStringTable(_ bytes: Int) -> [UInt8] {
        field(1, field(1, [UInt8](repeating: 0, count: bytes)))
    }

    static let header = block("OSMHeader", field(4, Array("OsmSchema-V0.6".utf8)) + field(4, Array("DenseNodes".utf8)))

    /// A small file that inflates to `blocks` blocks of `nodes` dense nodes each.
    static func bomb(blocks: Int, nodes: Int) -> [UInt8] {
        let data = block("OSMData", denseNodes(nodes))
        return header + (0..<blocks).flatMap { _ in data }
    }
}

@Suite("OSM PBF expansion budget")
struct OSMPBFBudgetTests {
    static func parse(_ bytes: [UInt8]) throws(DataError) -> OSMData {
        try OSMPBFLoader.parse(Data(bytes), file: "bomb.osm.pbf")
    }

    @Test("N5: a file whose blocks hold far more elements than its size allows is refused before they are built")
    func n5ElementBombIsRefused() throws {
        let bytes = PBFBombs.bomb(blocks: 1, nodes: 3_000_000)  // about 9 KB holding 3 M nodes
        #expect(bytes.count < 100_000)
        do {
            _ = try Self.parse(bytes)
            Issue.record("a 3 M-node bomb of \(bytes.count) bytes was read")
        } catch {
            #expect(error.line == 2, "\(error)")
            #expect(error.description.contains("declare 3000000 elements"), "\(error)")
            #expect(error.description.contains("decompression bomb"), "\(error)")
        }
    }

    @Test("N5: blocks declaring more decompressed bytes than the file's budget are refused before inflating")
    func n5InflatedBytesBombIsRefused() throws {
        // Each block inflates to 30 MiB (within the format's block limit) from about 30 KB: the declared
        // total crosses 64 MiB + 64 × the file's size at the third such block, before it is allocated.
        let big = PBFBombs.block("OSMData", PBFBombs.bigStringTable(30 * 1024 * 1024))
        let bytes = PBFBombs.header + big + big + big
        #expect(bytes.count < 200_000)
        do {
            _ = try Self.parse(bytes)
            Issue.record("blocks inflating to 90 MiB in a file of \(bytes.count) bytes were read")
        } catch {
            #expect(error.line == 4, "\(error)")
            #expect(error.description.contains("decompressed bytes"), "\(error)")
        }
    }

    @Test("N5: a file within its budget reads, dense nodes and all")
    func n5FileWithinBudgetReads() throws {
        let data = try Self.parse(PBFBombs.bomb(blocks: 2, nodes: 1_000))
        #expect(data.nodes.count == 2_000)
        #expect(OSMPBFLoader.Budget(fileBytes: 1_000_000).elements == 2_000_000)
        #expect(OSMPBFLoader.Budget(fileBytes: 1_000_000).inflatedBytes == 64 * 1024 * 1024 + 64_000_000)
    }
}
