import Foundation
import Testing

@testable import FieldtestData

/// `UTF8Check` finds the first bad byte wherever it falls against its 32- and 8-byte ASCII steps.
@Suite("UTF-8 check")
struct UTF8CheckTests {
    /// The check of `bytes` held in a larger buffer whose following bytes are invalid, so a read
    /// past the end cannot go unnoticed.
    static func check(_ bytes: [UInt8]) -> Int? {
        let padded = bytes + Array(repeating: 0xFF, count: 40)
        return padded.withUnsafeBytes {
            UTF8Check.firstInvalidOffset(UnsafeRawBufferPointer(rebasing: $0[..<bytes.count]))
        }
    }

    @Test("ASCII of every length up to 200 bytes is valid, and nothing past the end is read")
    func asciiLengths() {
        for n in 0...200 {
            #expect(Self.check(Array(repeating: UInt8(ascii: "q"), count: n)) == nil, "length \(n)")
        }
    }

    @Test("a bad byte is found at its offset, in or out of an ASCII block")
    func badByteAnywhere() {
        let ascii = Array(repeating: UInt8(ascii: "a"), count: 100)
        for at in 0..<ascii.count {
            for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
                var b = ascii
                b.replaceSubrange(at..<min(b.count, at + bad.count), with: bad)
                #expect(Self.check(b) == at, "\(bad) at \(at)")
            }
        }
    }

    @Test("valid text of every sequence length passes, and agrees with the standard library")
    func validText() {
        let text = String(repeating: "ascii é € 😀 ", count: 20) + String(repeating: "x", count: 67)
        let b = Array(text.utf8)
        #expect(Self.check(b) == nil)
        for cut in 0...b.count {
            let prefix = Array(b[..<cut])
            let valid = String(validating: prefix, as: UTF8.self) != nil
            #expect((Self.check(prefix) == nil) == valid, "cut at \(cut)")
        }
    }
}
