/// Text a system or a user gives that ends up on a terminal or in a CSV: control characters in it
/// (C0 but tab, DEL, C1, and the bidirectional controls that reorder what a terminal shows) could
/// recolour, move the cursor or disguise what is shown, so names with them are refused and other
/// text is shown with them escaped.
public enum TerminalSafety {
    /// The first scalar of `text` that must not reach a terminal raw, if any.
    public static func unsafeScalar(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isUnsafe)
    }

    /// Whether `scalar` is a control character or a bidirectional control.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `U+001B`: how a message names `scalar`.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `text` with each unsafe scalar written as `\u{1B}`.
    public static func escaped(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
