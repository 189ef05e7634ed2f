/// The hashing trick (Weinberger et al. 2009, "Feature Hashing for Large Scale
/// Multitask Learning"). Every hash here — unlike Swift's `Hasher` — is identical
/// in every process and on every platform, so models stay valid:
/// - word n-grams: `token(_:)` reads a token eight bytes at a time and `pair(_:_:)`
///   combines two token hashes into a bigram hash (model format 4 on);
/// - character n-grams and lexicon keys: 64-bit FNV-1a (Fowler, Noll & Vo), byte by byte.
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
    public static func fnv1a(_ token: String, droppingFirst skip: Int, state: UInt64 = FeatureHashing.offset) -> UInt64
    {
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

    /// Word-token hash: the bytes as little-endian 64-bit words (the last one zero-padded),
    /// each xored in and mixed (multiply, xor-shift), then the length, then SplitMix64's
    /// finaliser (Steele, Lea & Flood 2014). One multiply per eight bytes, where FNV-1a needs
    /// one per byte. Equal to `token(padded:)` on the same bytes.
    @inline(__always)
    public static func token(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let n = b.count
        var h = tokenSeed
        var i = 0
        while i + 8 <= n {
            h = absorb(h, UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)))
            i += 8
        }
        if i < n {
            var w: UInt64 = 0
            for k in 0..<(n - i) { w |= UInt64(b[i + k]) << (8 * UInt64(k)) }
            h = absorb(h, w)
        }
        return finalize(h ^ UInt64(n))
    }

    /// `token(_:)` for a token followed by at least 8 readable bytes: the last word is one masked load.
    @inline(__always)
    public static func token(padded b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let n = b.count
        guard n > 0 else { return finalize(tokenSeed) }
        let p = UnsafeRawPointer(b.baseAddress!)
        var h = tokenSeed
        var i = 0
        while i + 8 < n {
            h = absorb(h, UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        let rest = UInt64(n - i)  // 1...8
        let mask: UInt64 = rest == 8 ? .max : (1 << (8 * rest)) &- 1
        h = absorb(h, UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) & mask)
        return finalize(h ^ UInt64(n))
    }

    /// `token(_:)` of a string's UTF-8 bytes.
    public static func token(_ text: String) -> UInt64 {
        var copy = text
        return copy.withUTF8 { token($0) }
    }

    /// Hash of the word bigram `first second` from the two token hashes (order matters).
    @inline(__always)
    public static func pair(_ first: UInt64, _ second: UInt64) -> UInt64 {
        finalize((first &* 0x9E37_79B9_7F4A_7C15) ^ second ^ 0x1F)
    }

    static let tokenSeed: UInt64 = 0x6A09_E667_F3BC_C909

    @inline(__always)
    static func absorb(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let x = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return x ^ (x >> 32)
    }

    /// SplitMix64's output function (a bijection of 64-bit values).
    @inline(__always)
    static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Bucket of `hash` in a table of `2^bits` slots (high and low halves folded).
    @inline(__always)
    public static func bucket(_ hash: UInt64, bits: Int) -> Int {
        let folded = hash ^ (hash >> 29) ^ (hash >> 47)
        return Int(truncatingIfNeeded: folded & ((1 << UInt64(bits)) - 1))
    }
}
