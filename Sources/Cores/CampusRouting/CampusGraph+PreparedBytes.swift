import FieldtestData

/// The prepared adjacency of a graph's profiles (usable arcs, reverse arcs, weak components, ALT
/// landmark distances) as bytes and back, so a caller can keep it (`GraphCache` of the
/// `Capabilities` module stores it in a signed cache file) and offer it to a later build of the same
/// map and profiles instead of computing it again. Pure: bytes in, values out.
extension CampusGraph {
    /// Version of the byte layout of `preparedBytes(profiles:)` and of the adjacency it holds.
    public static let preparedFormatVersion: UInt32 = 2

    /// Prepared adjacency read back from bytes, to offer to `init(source:profiles:preparing:offered:)`.
    public struct PreparedAdjacency: Sendable {
        let profiles: [ProfileAdjacency]

        /// Number of profiles.
        public var count: Int { profiles.count }
    }

    /// Why bytes are not prepared adjacency.
    public struct PreparedBytesError: Error, Sendable, Equatable {
        /// What is wrong, said of the cache file that held the bytes.
        public var reason: String
    }

    /// Builds the graph of `source`, preparing the profiles at the indices `preparing` (nil: all; the
    /// others when first used). `offered` is asked once, after the edges are built, for the prepared
    /// profiles' adjacency in the order of `preparing` (a cache); each one that fits the graph is
    /// taken, any other computed (`uses(_:for:)` tells which happened). Throws `.emptyGraph` when no
    /// way is routable.
    public init(
        source: MapSource, profiles: RoutingProfiles, preparing: [Int]?, offered: () -> PreparedAdjacency?
    ) throws(RoutingError) {
        let indices = preparing ?? Array(profiles.profiles.indices)
        try self.init(source: source, profiles: profiles, preparing: preparing) { _, _ in
            guard let offer = offered(), offer.profiles.count == indices.count else { return [:] }
            return Dictionary(uniqueKeysWithValues: zip(indices, offer.profiles))
        }
    }

    /// Whether the graph took every profile of `offered` (for the profiles at `indices`) as its own,
    /// rather than computing any because it did not fit.
    public func uses(_ offered: PreparedAdjacency, for indices: [Int]) -> Bool {
        offered.profiles.count == indices.count && zip(indices, offered.profiles).allSatisfy { adjacency($0) === $1 }
    }

    /// The adjacency of the profiles at `indices` (each prepared now if it was not yet), as bytes:
    /// per profile its arrays, each a little-endian count and the elements' bytes padded to 8 bytes.
    public func preparedBytes(profiles indices: [Int]) -> [UInt8] {
        Self.preparedBytes(of: indices.map(adjacency))
    }

    /// `adjacency` as bytes (see `preparedBytes(profiles:)`).
    static func preparedBytes(of adjacency: [ProfileAdjacency]) -> [UInt8] {
        var w = ArrayWriter()
        for a in adjacency { w.adjacency(a) }
        return w.bytes
    }

    /// The `count` profiles' adjacency in `bytes` (written by `preparedBytes(profiles:)`), every count
    /// checked against the bytes left; the graph checks each against its own arcs when offered.
    public static func preparedAdjacency(decoding bytes: UnsafeRawBufferPointer, count: Int)
        -> Result<PreparedAdjacency, PreparedBytesError>
    {
        var reader = ArrayReader(bytes: bytes)
        var out: [ProfileAdjacency] = []
        for _ in 0..<count {
            guard let a = reader.adjacency() else {
                return .failure(PreparedBytesError(reason: "the cache file's arrays are malformed"))
            }
            out.append(a)
        }
        guard reader.atEnd else {
            return .failure(PreparedBytesError(reason: "the cache file has bytes past its arrays"))
        }
        return .success(PreparedAdjacency(profiles: out))
    }

    /// Every field of `p` that decides which arcs it may use, in a fixed order (sets sorted): what a
    /// cache of prepared adjacency keys a profile by.
    public static func preparedDescription(of p: RoutingProfile) -> String {
        func set(_ s: Set<String>) -> String { s.sorted().joined(separator: ",") }
        func map(_ m: [String: Set<String>]) -> String {
            m.keys.sorted().map { "\($0)=\(set(m[$0] ?? []))" }.joined(separator: ";")
        }
        return [
            p.name, String(p.speedMetresPerSecond.bitPattern), set(p.highways), p.modeKey, set(p.modeDenied),
            set(p.accessDenied), set(p.modeOverridesAccess), p.onewayKey ?? "-", map(p.excludeWays),
            map(p.excludeNodes), p.maxInclinePercent.map { String($0.bitPattern) } ?? "-", p.accessibilityKey,
            "\(p.unknownAccessibility)",
        ].joined(separator: "|")
    }
}

/// Appends arrays as a little-endian count followed by the elements' bytes, padded to 8 bytes.
private struct ArrayWriter {
    var bytes: [UInt8] = []

    mutating func array<T: BitwiseCopyable>(_ values: [T]) {
        withUnsafeBytes(of: UInt64(values.count).littleEndian) { bytes.append(contentsOf: $0) }
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        while bytes.count % 8 != 0 { bytes.append(0) }
    }

    mutating func adjacency(_ a: CampusGraph.ProfileAdjacency) {
        array(a.offsets)
        array(a.targets)
        array(a.lengths)
        array(a.arcs)
        array(a.edges)
        array(a.component)
        array(a.componentSizes)
        array([a.largestComponent])
        array(a.reverseOffsets)
        array(a.reverseTargets)
        array(a.reverseLengths)
        array(a.reverseArcs)
        array(a.reverseEdges)
        array([Int64(a.landmarks.count)])
        array([a.landmarks.component])
        array(a.landmarks.distances)
        array(a.landmarks.landmarks)
    }
}

/// Reads what `ArrayWriter` wrote, checking every count against the bytes left.
private struct ArrayReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var atEnd: Bool { offset == bytes.count }

    mutating func array<T: BitwiseCopyable>(_: T.Type) -> [T]? {
        guard offset + 8 <= bytes.count else { return nil }
        let count = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
        offset += 8
        let size = MemoryLayout<T>.stride
        guard count <= UInt64(bytes.count - offset) / UInt64(size) else { return nil }
        let n = Int(count)
        let values = [T](unsafeUninitializedCapacity: n) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(
                from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n * size]))
            initialized = n
        }
        offset += n * size
        offset = min(bytes.count, (offset + 7) / 8 * 8)
        return values
    }

    mutating func adjacency() -> CampusGraph.ProfileAdjacency? {
        guard let offsets = array(Int32.self), let targets = array(Int32.self), let lengths = array(Double.self),
            let arcs = array(Int32.self), let edges = array(Int32.self), let component = array(Int32.self),
            let sizes = array(Int32.self), let largest = array(Int32.self), largest.count == 1,
            let rOffsets = array(Int32.self), let rTargets = array(Int32.self), let rLengths = array(Double.self),
            let rArcs = array(Int32.self), let rEdges = array(Int32.self), let lCount = array(Int64.self),
            lCount.count == 1, lCount[0] >= 0, lCount[0] <= 1024, let lComponent = array(Int32.self),
            lComponent.count == 1, let distances = array(Double.self), let landmarks = array(Int32.self)
        else { return nil }
        return CampusGraph.ProfileAdjacency(
            offsets: offsets, targets: targets, lengths: lengths, arcs: arcs, edges: edges, component: component,
            componentSizes: sizes, largestComponent: largest[0], reverseOffsets: rOffsets, reverseTargets: rTargets,
            reverseLengths: rLengths, reverseArcs: rArcs, reverseEdges: rEdges,
            landmarks: LandmarkBounds(
                count: Int(lCount[0]), component: lComponent[0], distances: distances, landmarks: landmarks))
    }
}
