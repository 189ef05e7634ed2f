import Foundation

/// Validation of a whole buffer as UTF-8 at memory speed: eight ASCII bytes per step, and the
/// multi-byte sequences checked by hand (no overlong forms, no surrogates, nothing past U+10FFFF).
public enum UTF8Check {
    /// Offset of the first byte that does not start or continue a valid sequence, or nil when all
    /// of `bytes` is valid UTF-8. O(n).
    public static func firstInvalidOffset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let raw = bytes.baseAddress else { return nil }
        let p = raw.assumingMemoryBound(to: UInt8.self)
        let n = bytes.count
        var i = 0
        while i < n {
            // ASCII runs (most of a data file) 32 bytes per step.
            while i + 32 <= n {
                let a = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let b = raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                let c = raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
                let d = raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
                guard (a | b | c | d) & 0x8080_8080_8080_8080 == 0 else { break }
                i += 32
            }
            if i == n { break }
            if i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let b0 = p[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xED:
                length = 3
                high = 0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF4:
                length = 4
                high = 0x8F
            case 0xF1...0xF3: length = 4
            default: return i
            }
            guard i + length <= n, (low...high).contains(p[i + 1]) else { return i }
            for k in 2..<max(2, length) where p[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    /// 1-based line of byte `offset`: one more than the line feeds before it.
    public static func line(of offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        var line = 1
        for b in bytes.prefix(offset) where b == UInt8(ascii: "\n") { line += 1 }
        return line
    }
}
