/// Decodes the HTML character references found in tweet exports (`&amp;`,
/// `&lt;`, `&quot;`, `&#39;`, `&#x1F600;` …), as specified by the WHATWG HTML
/// standard §13.2.5.72 (named references: the common subset; numeric
/// references: any valid scalar). Unknown or malformed references are kept
/// verbatim. Complexity: O(n) in the text's scalars.
public enum HTMLEntities {
    /// The named references decoded (name without `&` and `;`).
    public static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "hellip": "…", "ndash": "–", "mdash": "—", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "copy": "©", "reg": "®", "trade": "™", "euro": "€", "pound": "£", "hearts": "♥",
    ]

    /// `text` with its character references decoded (one pass: `&amp;lt;` → `&lt;`).
    public static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let s = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "&", let (scalar, end) = reference(s, at: i) {
                out.append(scalar)
                i = end
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }

    /// Decodes the references in the UTF-8 bytes `s` into `out` (emptied first;
    /// same rules as `decode(_:)`; valid UTF-8 in, valid UTF-8 out). A reference's
    /// body is ASCII, so byte and scalar offsets agree while one is parsed. O(n).
    static func decode(_ s: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == 0x26, let (scalar, end) = reference(s, at: i) {
                UTF8.encode(scalar) { out.append($0) }
                i = end
            } else {
                out.append(c)
                i += 1
            }
        }
    }

    /// The reference starting at byte `start` (an `&`) and the offset after its `;`.
    static func reference(_ s: UnsafeBufferPointer<UInt8>, at start: Int) -> (Unicode.Scalar, Int)? {
        var j = start + 1
        let limit = min(s.count, start + 12)
        var body = ""
        while j < limit, s[j] != 0x3B {
            let v = s[j]
            guard (v &- 0x30) < 10 || ((v | 0x20) &- 0x61) < 26 || v == 0x23 else { return nil }
            body.unicodeScalars.append(Unicode.Scalar(v))
            j += 1
        }
        guard j < limit, s[j] == 0x3B, !body.isEmpty, let scalar = scalar(body: body) else { return nil }
        return (scalar, j + 1)
    }

    /// The reference starting at `s[start]` (an `&`) and the index after its `;`.
    static func reference(_ s: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        var j = start + 1
        let limit = min(s.count, start + 12)
        var body = ""
        while j < limit, s[j] != ";" {
            let v = s[j]
            guard v.isASCII, v.properties.isAlphabetic || ("0"..."9").contains(v) || v == "#" else { return nil }
            body.unicodeScalars.append(v)
            j += 1
        }
        guard j < limit, s[j] == ";", !body.isEmpty, let scalar = scalar(body: body) else { return nil }
        return (scalar, j + 1)
    }

    /// The scalar a reference body (between `&` and `;`) stands for, if any.
    static func scalar(body: String) -> Unicode.Scalar? {
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value, value != 0 else { return nil }
            return Unicode.Scalar(value)
        }
        return named[body]
    }
}
