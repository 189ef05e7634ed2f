import Foundation

/// A registered account as the application sees it, with the email decrypted (BTD-A1:
/// "a unique user UID", "the email, creation date, last sign-in date").
public struct UserAccount: Sendable, Equatable {
    /// Unique user identifier (a random UUID, upper-case text).
    public let id: String
    /// The username, for applications with usernames.
    public let username: String?
    /// The email address as entered, for applications that collect one.
    public let email: String?
    /// The account's NavUP role (NAV-F26).
    public let role: Role
    /// The credential policy the account was created under.
    public let policyID: String
    /// When the account was created (UTC).
    public let createdAt: Date
    /// The last successful sign-in (UTC), if any.
    public let lastSignInAt: Date?
}

/// An issued email verification code, as the emulated mail service would deliver it.
public struct VerificationDelivery: Sendable, Equatable {
    /// The pending registration to confirm with ``AccountRegistry/verifyEmail(pendingID:code:now:)``.
    public let pendingID: String
    /// The address the code is sent to.
    public let email: String
    /// The code itself (only the emulated mailbox sees it; the database keeps an HMAC).
    public let code: String
    /// When the code stops being accepted (UTC).
    public let expiresAt: Date
}

/// What registration produced.
public enum RegistrationOutcome: Sendable, Equatable {
    /// The account exists now (policies without email verification).
    case created(UserAccount)
    /// A code was sent; the account is created once it is confirmed (SkyScape REG1 1.4–1.5).
    case pendingVerification(VerificationDelivery)
}

/// Random identifiers.
extension AccountRandomness {
    /// A random (version 4) UUID from `rng`. O(1).
    public static func uuid(using rng: inout some RandomNumberGenerator) -> UUID {
        var b = bytes(16, using: &rng)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }
}
