import FieldtestData
import Foundation
import Testing

/// Hand-encoded PBF files through `OSMPBFLoader`: raw blocks, unpacked fields, damaged messages.
@Suite("OSM PBF messages through the loader")
struct OSMPBFMessageLoaderTests {
    /// A block of `kind` holding `payload` uncompressed.
    static func rawBlock(_ kind: String, _ payload: [UInt8]) -> [UInt8] {
        block(kind, blob: PBFBombs.field(1, payload))
    }

    /// A block of `kind` whose `Blob` message is `blob`.
    static func block(_ kind: String, blob: [UInt8]) -> [UInt8] {
        let header = PBFBombs.field(1, Array(kind.utf8)) + PBFBombs.varint(3 << 3) + PBFBombs.varint(UInt64(blob.count))
        let n = UInt32(header.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header + blob
    }

    static func parse(_ bytes: [UInt8]) -> Result<OSMData, DataError> {
        do throws(DataError) {
            return .success(try OSMPBFLoader.parse(Data(bytes), file: "m.osm.pbf"))
        } catch { return .failure(error) }
    }

    static let header = rawBlock("OSMHeader", PBFBombs.field(4, Array("OsmSchema-V0.6".utf8)))

    @Test("a raw block of plain nodes and a way with unpacked refs reads, offsets and granularity applied")
    func rawBlockUnpacked() throws {
        let strings = PBFBombs.field(1, PBFBombs.field(1, []) + PBFBombs.field(1, Array("highway".utf8)))
        let node = PBFBombs.field(
            1,
            ProtobufReaderTests.varintField(1, 4) + ProtobufReaderTests.varintField(8, 20)
                + ProtobufReaderTests.varintField(9, 40))
        let way =
            ProtobufReaderTests.varintField(1, 9) + ProtobufReaderTests.varintField(2, 1)
            + ProtobufReaderTests.varintField(3, 1) + ProtobufReaderTests.varintField(8, 4)
            + ProtobufReaderTests.varintField(8, 2)
        let block =
            strings + PBFBombs.field(2, node + PBFBombs.field(3, way)) + ProtobufReaderTests.varintField(17, 1_000)
            + ProtobufReaderTests.varintField(19, 5_000_000_000)
        let data = try Self.parse(Self.header + Self.rawBlock("OSMData", block)).get()
        // id 2, lat 5 + 10 × 1000 nanodegrees ÷ 1e9, lon 20 × 1000 ÷ 1e9.
        #expect(data.nodes == [OSMNode(id: 2, latitude: 5.00001, longitude: 0.00002, tags: [:])])
        #expect(data.ways == [OSMWay(id: 9, nodeRefs: [2, 3], tags: ["highway": "highway"])])
    }

    @Test("damaged protobuf inside a block is an error naming the block and what is wrong")
    func damagedMessage() throws {
        let cut = PBFBombs.field(1, []) + PBFBombs.varint(2 << 3 | 2) + PBFBombs.varint(500) + [0x0A]
        let missingLat = PBFBombs.field(1, []) + PBFBombs.field(2, PBFBombs.field(1, [0x08, 0x02]))
        for (payload, expected) in [(cut, "500 bytes where only 1 remain"), (missingLat, "required field lat")] {
            guard
                case .failure(.badLayout(_, let line, let reason)) = Self.parse(
                    Self.header + Self.rawBlock("OSMData", payload))
            else {
                Issue.record("expected a bad layout")
                continue
            }
            #expect(line == 2)
            #expect(reason.contains("block 2 (byte \(Self.header.count))"), "\(reason)")
            #expect(reason.contains("OSMData block is not valid protobuf") && reason.contains(expected), "\(reason)")
        }
    }

    @Test("a block compressed with other than zlib is refused by name; a raw block is not")
    func otherCompression() throws {
        let payload = PBFBombs.field(1, [])
        for field: UInt64 in 4...7 {
            let blob = ProtobufReaderTests.varintField(2, UInt64(payload.count)) + PBFBombs.field(field, payload)
            let error = Self.parse(Self.header + Self.block("OSMData", blob: blob))
            guard case .failure(let failure) = error else {
                Issue.record("field \(field): read")
                continue
            }
            #expect(failure.description.contains("compressed with other than zlib"), "\(failure)")
        }
        let noData = Self.parse(Self.header + Self.block("OSMData", blob: ProtobufReaderTests.varintField(2, 0)))
        #expect((try? noData.get()) == nil)
        #expect(try Self.parse(Self.header + Self.rawBlock("OSMData", payload)).get().nodes.isEmpty)
    }
}
