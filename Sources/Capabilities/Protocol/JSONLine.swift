import Foundation

/// A JSON value the harness writes in a request; requests are written by hand (no
/// encoder) because they are flat and a batch of 1,000 rows must cost microseconds.
public enum JSONField: Sendable, Equatable {
    /// A string.
    case string(String)
    /// A number (written with up to 17 significant digits; integers without a fraction).
    case number(Double)
    /// An integer.
    case int(Int)
    /// A boolean.
    case bool(Bool)
    /// An array.
    case array([JSONField])
    /// An object, keys in the given order.
    case object([(String, JSONField)])
    /// `null`.
    case null

    public static func == (a: JSONField, b: JSONField) -> Bool {
        var x: [UInt8] = []
        var y: [UInt8] = []
        a.write(into: &x)
        b.write(into: &y)
        return x == y
    }

    /// Appends the JSON text of this value.
    public func write(into out: inout [UInt8]) {
        switch self {
        case .string(let s): Self.writeString(s, into: &out)
        case .number(let d):
            if d.isFinite {
                out.append(contentsOf: (d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)").utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs): Self.writeObject(pairs, into: &out)
        }
    }

    /// Appends `{"k":v,…}`.
    public static func writeObject(_ pairs: [(String, JSONField)], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (i, (key, value)) in pairs.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            value.write(into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends a JSON string literal (RFC 8259 escapes; non-ASCII as UTF-8).
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied in one go.
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 10: out.append(contentsOf: [92, 110])
            case 13: out.append(contentsOf: [92, 114])
            case 9: out.append(contentsOf: [92, 116])
            case 0..<32:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, 117, 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The JSON text of an object, as a line with its newline.
    public static func line(_ pairs: [(String, JSONField)]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        writeObject(pairs, into: &out)
        out.append(10)
        return out
    }
}

/// The fields every answer line may carry: `id` must be a string and `ok` a boolean where they
/// are given (else the answer is of the wrong type); `error`, `name` and `version` are kept when
/// they are strings.
struct Envelope {
    var id: String?
    var ok: Bool?
    var error: String?
    var name: String?
    var version: String?

    struct WrongType: Error {}

    init(_ fields: [(String, JSONField)]) throws(WrongType) {
        for (key, value) in fields {
            switch key {
            case "id":
                guard let s = value.stringValue else { throw WrongType() }
                id = s
            case "ok":
                guard let b = value.boolValue else { throw WrongType() }
                ok = b
            case "error": error = value.stringValue
            case "name": name = value.stringValue
            case "version": version = value.stringValue
            default: continue
            }
        }
    }
}
