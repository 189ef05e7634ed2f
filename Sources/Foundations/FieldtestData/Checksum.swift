import CZlib
import Foundation

/// CRC-32 (ISO-HDLC, zlib's) of bytes, to tell a damaged cache file from a good one: it catches
/// every burst of up to 32 flipped bits and every truncation that changes the length it covers.
/// Not a defence against deliberate tampering. O(n), about a byte per cycle.
public enum Checksum {
    /// The CRC-32 of `bytes`.
    public static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard var p = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return 0 }
        var remaining = bytes.count
        var crc = CZlib.crc32(0, nil, 0)
        // zlib takes a 32-bit length.
        while remaining > 0 {
            let n = min(remaining, 1 << 30)
            crc = CZlib.crc32(crc, p, uInt(n))
            p += n
            remaining -= n
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
