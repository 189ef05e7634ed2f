import Foundation

/// Everything that can go wrong in the AccountStore module.
///
/// Each message says what is wrong and how to fix it. The login failure message is the
/// exact sentence of SkyScape LOG1-AF-S1/S2 and never tells which credential was wrong.
public enum AccountStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The registration form broke one or more rules of the credential policy; every
    /// violated rule is listed, in policy order.
    case registrationRejected([CredentialViolation])
    /// Unknown account or wrong password (deliberately indistinguishable; SKY-A2).
    case incorrectCredentials
    /// Too many failed sign-ins for this identifier; retry after the given number of seconds.
    case throttled(retryAfterSeconds: Double)
    /// The verification code did not match; `attemptsLeft` more tries are allowed.
    case verificationCodeIncorrect(attemptsLeft: Int)
    /// The verification code's lifetime has passed; request a new code.
    case verificationCodeExpired
    /// All attempts for this verification code were used; request a new code.
    case verificationAttemptsExhausted
    /// No pending registration with this identifier (already verified, cancelled or never made).
    case unknownPendingRegistration(String)
    /// No account with this user identifier.
    case unknownUser(String)
    /// The encryption key could not be obtained from outside the database.
    case keyUnavailable(String)
    /// A stored value could not be decrypted or parsed (wrong key or tampered database).
    case storageCorrupted(String)
    /// The role may not perform the action on the resource (NAV-F26).
    case accessDenied(role: Role, action: AccessAction, resource: ProtectedResource)
    /// A text field exceeds its documented size limit.
    case textTooLong(field: String, byteCount: Int, limitBytes: Int)
    /// A text field holds a character the field does not allow.
    case invalidText(field: String, reason: String)
    /// Password hashing parameters are below the production floor.
    case insecureHashingParameters(String)
    /// A stored password hash string is not in the expected self-describing format.
    case malformedPasswordHash(String)
    /// The underlying SQLite database reported an error.
    case database(String)
    /// A journal entry with this identifier does not exist.
    case unknownEntry(UUID)
    /// The email address was sent as many verification codes as the policy allows for now.
    case verificationCodeLimit(retryAfterSeconds: Double)
    /// A journal entry with this ID belongs to another user; it cannot be saved or synced as this one.
    case entryOwnedByAnotherUser(UUID)

    /// The exact message SkyScape LOG1-AF-S1 and LOG1-AF-S2 require for any login failure.
    public static let loginFailureMessage = "Incorrect username or password. Please try again."

    /// A message saying what is wrong and how to fix it.
    public var description: String {
        switch self {
        case .registrationRejected(let violations):
            return violations.map(\.message).joined(separator: "\n")
        case .incorrectCredentials:
            return Self.loginFailureMessage
        case .throttled(let seconds):
            // A lockout of a year or more (or an unbounded one) has no useful number of minutes.
            guard seconds.isFinite, seconds < 366 * 86_400 else {
                return "Too many failed sign-in attempts. Sign-in is locked for this account; contact an administrator."
            }
            let minutes = Int((seconds / 60).rounded(.up))
            return "Too many failed sign-in attempts. Please wait \(max(minutes, 1)) minute(s) and try again."
        case .verificationCodeIncorrect(let left):
            return
                "The verification code is incorrect. Please check the code sent to your email address and try again (\(left) attempt(s) left)."
        case .verificationCodeExpired:
            return "The verification code has expired. Please request a new code."
        case .verificationAttemptsExhausted:
            return "Too many incorrect verification codes. Please request a new code."
        case .unknownPendingRegistration(let id):
            return
                "No pending registration '\(id)'; it was already verified, expired or never created. Please register again."
        case .unknownUser(let id):
            return "No account with user ID '\(id)'; check the identifier or create the account first."
        case .keyUnavailable(let reason):
            let cause = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            return
                "The account encryption key is unavailable: \(cause). Provide a 32-byte key (64 hex digits)."
        case .storageCorrupted(let reason):
            return
                "Stored account data cannot be read: \(reason). Check that the same encryption key is used and that the database was not modified."
        case .accessDenied(let role, let action, let resource):
            return
                "Access denied: a \(role.displayName) may not \(action.rawValue) \(resource.displayName). Ask an administrator for the needed role."
        case .textTooLong(let field, let count, let limit):
            return "The \(field) is \(count) bytes of UTF-8; the limit is \(limit) bytes. Shorten it."
        case .invalidText(let field, let reason):
            return "The \(field) is not allowed: \(reason)."
        case .insecureHashingParameters(let reason):
            return "Insecure password hashing parameters: \(reason)."
        case .malformedPasswordHash(let reason):
            return "Stored password hash is malformed: \(reason). Reset the account's password."
        case .database(let reason):
            return "Account database error: \(reason)."
        case .unknownEntry(let id):
            return "No journal entry with ID \(id.uuidString); check the identifier."
        case .verificationCodeLimit(let seconds):
            let hours = Int((min(seconds, 366 * 86_400) / 3600).rounded(.up))
            return
                "Too many verification codes were sent to this email address. Please try again in \(max(hours, 1)) hour(s)."
        case .entryOwnedByAnotherUser(let id):
            return "Journal entry \(id.uuidString) belongs to another user; save a new entry (new ID) instead."
        }
    }
}
