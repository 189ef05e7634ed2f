/// The hashing trick (Weinberger et al. 2009, "Feature Hashing for Large Scale
/// Multitask Learning") with 64-bit FNV-1a (Fowler, Noll & Vo), which — unlike
/// Swift's `Hasher` — is identical in every process, so models stay valid.
public enum FeatureHashing {
    /// FNV-1a 64-bit offset basis.
    public static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
    /// FNV-1a 64-bit prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a of `token`'s UTF-8 bytes, continuing from `state`.
    @inline(__always)
    public static func fnv1a(_ token: String, state: UInt64 = FeatureHashing.offset) -> UInt64 {
        var h = state
        var copy = token
        copy.withUTF8 { bytes in
            for b in bytes {
                h ^= UInt64(b)
                h = h &* prime
            }
        }
        return h
    }

    /// FNV-1a of `token`'s UTF-8 bytes after the first `skip` bytes, continuing from `state`.
    @inline(__always)
    public static func fnv1a(_ token: String, droppingFirst skip: Int, state: UInt64 = FeatureHashing.offset) -> UInt64 {
        var h = state
        var copy = token
        copy.withUTF8 { bytes in
            var i = skip
            while i < bytes.count {
                h ^= UInt64(bytes[i])
                h = h &* prime
                i += 1
            }
        }
        return h
    }

    /// FNV-1a of `bytes`, continuing from `state`.
    @inline(__always)
    public static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>, state: UInt64 = FeatureHashing.offset) -> UInt64 {
        var h = state
        for b in bytes {
            h ^= UInt64(b)
            h = h &* prime
        }
        return h
    }

    /// Bigram hash state after `first` (the separator mixed in); continue with `fnv1a(_:state:)`.
    @inline(__always)
    public static func bigramState(_ first: UInt64) -> UInt64 { (first ^ 0x1F) &* prime }

    /// Hash of a unigram.
    @inline(__always)
    public static func unigram(_ token: String) -> UInt64 { fnv1a(token) }

    /// Hash of the bigram `first second` (a separator byte keeps `ab c` ≠ `a bc`).
    @inline(__always)
    public static func bigram(_ first: UInt64, _ secondToken: String) -> UInt64 {
        fnv1a(secondToken, state: (first ^ 0x1F) &* prime)
    }

    /// Bucket of `hash` in a table of `2^bits` slots (high and low halves folded).
    @inline(__always)
    public static func bucket(_ hash: UInt64, bits: Int) -> Int {
        let folded = hash ^ (hash >> 29) ^ (hash >> 47)
        return Int(truncatingIfNeeded: folded & ((1 << UInt64(bits)) - 1))
    }
}
