import Foundation

/// Rules for the emailed verification code (SkyScape REG1 1.4: "The system must send a
/// verification code to the email address submitted" … "must prompt the user if the code
/// given is incorrect"). The specification sets no lifetime or attempt limit; Fieldtest uses
/// 6 decimal digits, a 10-minute lifetime and 5 attempts (cf. NIST SP 800-63B §5.1.3,
/// §5.2.2 rate limiting), all configurable.
public struct VerificationCodePolicy: Sendable, Equatable {
    /// Number of decimal digits in a code (1–9).
    public let digits: Int
    /// Seconds from issue until the code stops being accepted.
    public let lifetimeSeconds: Double
    /// How many wrong codes may be entered before the code is void.
    public let maxAttempts: Int
    /// How many codes one email address may be sent (the first code and new registrations of
    /// the same address together) within `codeBudgetSeconds`; with `maxAttempts` this bounds
    /// the guesses at a code (5 × 4 = 20 a day against 10⁶ codes by default).
    public let maxCodesPerEmail: Int
    /// The window of `maxCodesPerEmail`, seconds from the first code; pending registrations
    /// older than this are deleted.
    public let codeBudgetSeconds: Double

    /// Creates a policy; `digits` is clamped to 1–9, `maxAttempts` and `maxCodesPerEmail` to at
    /// least 1, and a non-finite or negative lifetime or window to the default.
    public init(
        digits: Int = 6, lifetimeSeconds: Double = 600, maxAttempts: Int = 5,
        maxCodesPerEmail: Int = 4, codeBudgetSeconds: Double = 86_400
    ) {
        self.digits = min(max(digits, 1), 9)
        self.lifetimeSeconds = lifetimeSeconds.isFinite && lifetimeSeconds >= 0 ? lifetimeSeconds : 600
        self.maxAttempts = max(maxAttempts, 1)
        self.maxCodesPerEmail = max(maxCodesPerEmail, 1)
        self.codeBudgetSeconds = codeBudgetSeconds.isFinite && codeBudgetSeconds >= 0 ? codeBudgetSeconds : 86_400
    }

    /// Fieldtest's default: 6 digits, 600 s, 5 attempts, 4 codes per address a day.
    public static let standard = VerificationCodePolicy()

    /// A fresh uniformly random code with leading zeros kept, e.g. `"042917"`. O(digits).
    public func makeCode(using rng: inout some RandomNumberGenerator) -> String {
        var limit = 1
        for _ in 0..<digits { limit *= 10 }
        let value = Int.random(in: 0..<limit, using: &rng)
        let text = String(value)
        return String(repeating: "0", count: digits - text.count) + text
    }
}

/// The server-side state of one issued code: only a keyed digest of the code is kept.
public struct VerificationState: Sendable, Equatable {
    /// HMAC-SHA256 of the code under the registry's index key.
    public let codeDigest: [UInt8]
    /// When the code stops being accepted (UTC).
    public let expiresAt: Date
    /// Wrong codes still allowed.
    public private(set) var attemptsLeft: Int

    /// Creates the state of a code issued with `policy` at `issuedAt`.
    public init(codeDigest: [UInt8], expiresAt: Date, attemptsLeft: Int) {
        self.codeDigest = codeDigest
        self.expiresAt = expiresAt
        self.attemptsLeft = attemptsLeft
    }

    /// Checks `submittedDigest` (the digest of the code the user typed) at `now`.
    ///
    /// Order: expiry, then exhausted attempts, then a constant-time comparison. A wrong code
    /// uses up one attempt. Throws ``AccountStoreError/verificationCodeExpired``,
    /// ``AccountStoreError/verificationAttemptsExhausted`` or
    /// ``AccountStoreError/verificationCodeIncorrect(attemptsLeft:)``.
    public mutating func check(submittedDigest: [UInt8], now: Date) throws(AccountStoreError) {
        guard now < expiresAt else { throw .verificationCodeExpired }
        guard attemptsLeft > 0 else { throw .verificationAttemptsExhausted }
        if ConstantTime.equals(submittedDigest, codeDigest) { return }
        attemptsLeft -= 1
        throw .verificationCodeIncorrect(attemptsLeft: attemptsLeft)
    }
}
