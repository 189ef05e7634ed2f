import Foundation

/// Email address syntax check and normalisation.
///
/// Accepts the WHATWG HTML "valid e-mail address" grammar
/// (html.spec.whatwg.org, §4.10.5.1.5: `atext`/`.` local part, LDH domain labels of at most
/// 63 characters), tightened by RFC 5322 dot-atom (no leading, trailing or doubled dot in
/// the local part), RFC 5321 §4.5.3.1 lengths (local part ≤ 64 octets, whole address ≤ 254)
/// and, as Fieldtest's rule for sign-up, a domain of at least two labels (no `user@localhost`).
/// Addresses are ASCII only. Complexity: O(n) in the length of the address.
public enum EmailAddress {
    private static let localSpecials: Set<UInt8> = Set("!#$%&'*+/=?^_`{|}~-".utf8)

    /// Whether `text` is a syntactically valid sign-up email address (white space around it is not allowed).
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 254 else { return false }
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")),
            bytes.lastIndex(of: UInt8(ascii: "@")) == at
        else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        return isValidLocal(local) && isValidDomain(domain)
    }

    private static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    private static func isValidLocal(_ local: ArraySlice<UInt8>) -> Bool {
        guard !local.isEmpty, local.count <= 64 else { return false }
        let dot = UInt8(ascii: ".")
        guard local.first != dot, local.last != dot else { return false }
        var previous: UInt8 = 0
        for b in local {
            guard isAlnum(b) || localSpecials.contains(b) || b == dot else { return false }
            if b == dot && previous == dot { return false }
            previous = b
        }
        return true
    }

    private static func isValidDomain(_ domain: ArraySlice<UInt8>) -> Bool {
        guard !domain.isEmpty, domain.count <= 253 else { return false }
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            guard !label.isEmpty, label.count <= 63,
                let first = label.first, let last = label.last,
                isAlnum(first), isAlnum(last),
                label.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        // The top-level domain must not be all digits (that would be an IP literal).
        if let tld = labels.last, tld.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return false }
        return true
    }

    /// The form used for case-insensitive uniqueness: trimmed, Unicode NFC, lower-cased.
    ///
    /// The whole address is lower-cased. RFC 5321 lets a server treat the local part as
    /// case-sensitive, but no mainstream provider does, and two accounts differing only in
    /// letter case would confuse users (the brief asks for case-insensitive uniqueness).
    public static func normalised(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
            .precomposedStringWithCanonicalMapping
            .lowercased()
    }
}
