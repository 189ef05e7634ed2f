import FieldtestData
import Foundation

/// Which texts a sentiment model was trained on, recognised by content: the sorted, distinct
/// FNV-1a 64 hashes (`FeatureHashing.fnv1a`) of its training examples' texts.
///
/// A model is scored honestly only on tweets it never saw. The index, written beside the model
/// by `fieldtest train sentiment` (`<model>.trained`), lets a harness leave out exactly the tweets
/// the model trained on, whatever file or dataset name they arrive under, and score every other
/// labelled tweet. A false match needs two texts with one 64-bit hash: about 1 in 10^14 per
/// lookup for an index of 170,000 texts.
///
/// File layout: the 8 bytes `FTTRAIN1`, the count as a little-endian UInt64, then the hashes in
/// ascending order, each a little-endian UInt64. Lookup is a binary search, O(log n).
public struct TrainedTextIndex: Sendable, Equatable {
    /// The hashes, ascending and distinct.
    public private(set) var hashes: [UInt64]

    /// The index of `texts`.
    public init<S: Sequence>(texts: S) where S.Element == String {
        hashes = Array(Set(texts.map { FeatureHashing.fnv1a($0) })).sorted()
    }

    /// Whether `text` is one the model trained on.
    public func contains(_ text: String) -> Bool {
        let h = FeatureHashing.fnv1a(text)
        var lo = 0
        var hi = hashes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if hashes[mid] < h { lo = mid + 1 } else { hi = mid }
        }
        return lo < hashes.count && hashes[lo] == h
    }

    /// The texts trained on.
    public var count: Int { hashes.count }

    static let magic = Array("FTTRAIN1".utf8)

    /// The file's bytes.
    public func encoded() -> Data {
        var out = Data(Self.magic)
        out.reserveCapacity(16 + 8 * hashes.count)
        for v in [UInt64(hashes.count)] + hashes {
            withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// A file that is not a trained-text index.
    public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file, as named to the user.
        public var file: String
        /// What is wrong.
        public var reason: String

        public var description: String {
            "\(file): error: not a trained-text index (\(reason)); write it again with 'fieldtest train sentiment'"
        }
    }

    /// The index in `data` (the bytes of `file`).
    public init(decoding data: Data, file: String) throws(FormatError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 16, Array(bytes[0..<8]) == Self.magic else {
            throw FormatError(file: file, reason: "it does not start with FTTRAIN1")
        }
        func word(_ i: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
            return v
        }
        let count = word(8)
        guard count <= UInt64((bytes.count - 16) / 8), bytes.count == 16 + 8 * Int(count) else {
            throw FormatError(file: file, reason: "it declares \(count) hashes in \(bytes.count) bytes")
        }
        var hashes: [UInt64] = []
        hashes.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let h = word(16 + 8 * i)
            guard hashes.last.map({ $0 < h }) ?? true else {
                throw FormatError(file: file, reason: "its hashes are not ascending at entry \(i)")
            }
            hashes.append(h)
        }
        self.hashes = hashes
    }
}
