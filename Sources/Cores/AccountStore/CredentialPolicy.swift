import Foundation

/// A field of a registration form.
public enum CredentialField: String, Sendable, Equatable, CaseIterable {
    /// The chosen username.
    case username
    /// The email address.
    case email
    /// The password.
    case password
    /// The password typed a second time ("Re-enter Password").
    case passwordConfirmation
}

/// One machine-checkable condition of a credential rule.
///
/// Lengths count user-perceived characters (Swift `Character`, i.e. extended grapheme
/// clusters), which is what a person typing into a form counts.
public enum CredentialCheck: Sendable, Equatable {
    /// The field is present and not blank after trimming white space.
    case required
    /// At least this many characters.
    case minimumLength(Int)
    /// At most this many characters.
    case maximumLength(Int)
    /// At least one upper-case letter (Unicode `isUppercase`).
    case containsUppercase
    /// At least one lower-case letter (Unicode `isLowercase`).
    case containsLowercase
    /// At least one digit (Unicode `isNumber`).
    case containsDigit
    /// At least one character that is neither a letter, a digit nor white space.
    case containsSpecial
    /// Only ASCII letters and digits (`A–Z`, `a–z`, `0–9`).
    case asciiAlphanumericOnly
    /// A syntactically valid email address (``EmailAddress/validate(_:)``).
    case validEmailSyntax
    /// The confirmation equals the password exactly (byte for byte).
    case matchesPassword
    /// No existing account has this username, compared case-insensitively (checked by the registry).
    case uniqueUsername
    /// No existing account has this email, compared case-insensitively (checked by the registry).
    case uniqueEmail
    /// The text does not contain this character.
    case excludesCharacter(Character)
}

/// Where a user-facing message comes from.
public enum MessageSource: Sendable, Equatable {
    /// Quoted exactly from the named place of a specification.
    case specification(String)
    /// Written by Fieldtest because the specification gives no message.
    case fieldtest
}

/// One rule of a credential policy: a check on one field, the specification's own wording
/// of the requirement, and the message shown when it is broken.
public struct CredentialRule: Sendable, Equatable {
    /// Stable identifier, e.g. `SKY-REG1-1.3.3-uppercase`.
    public let id: String
    /// The form field the rule checks.
    public let field: CredentialField
    /// The condition.
    public let check: CredentialCheck
    /// The requirement as the specification words it, quoted exactly (or, for rules the
    /// specification does not state, Fieldtest's wording, see `requirementSource`).
    public let requirement: String
    /// The file and section the requirement comes from (`fieldtest` when it is Fieldtest's).
    public let requirementSource: String
    /// The message shown to the user when the rule is broken.
    public let message: String
    /// Where `message` comes from.
    public let messageSource: MessageSource

    /// Creates a rule.
    public init(
        id: String, field: CredentialField, check: CredentialCheck, requirement: String,
        requirementSource: String, message: String, messageSource: MessageSource
    ) {
        self.id = id
        self.field = field
        self.check = check
        self.requirement = requirement
        self.requirementSource = requirementSource
        self.message = message
        self.messageSource = messageSource
    }
}

/// A broken rule, reported to the user with the rule's message.
public struct CredentialViolation: Sendable, Equatable, CustomStringConvertible {
    /// The identifier of the broken rule.
    public let ruleID: String
    /// The field at fault.
    public let field: CredentialField
    /// The message to show (the specification's wording where it has one).
    public let message: String
    /// The requirement that was not met, in the specification's wording.
    public let requirement: String
    /// Where `message` comes from.
    public let messageSource: MessageSource

    /// Builds the violation of `rule`.
    public init(rule: CredentialRule) {
        ruleID = rule.id
        field = rule.field
        message = rule.message
        requirement = rule.requirement
        messageSource = rule.messageSource
    }

    /// `field: message [rule]`.
    public var description: String { "\(field.rawValue): \(message) [\(ruleID)]" }
}

/// The fields a user submits to register. Absent fields are `nil`.
public struct RegistrationForm: Sendable, Equatable {
    /// The chosen username, if the application has usernames.
    public var username: String?
    /// The email address, if the application collects one.
    public var email: String?
    /// The password.
    public var password: String
    /// The password typed again, if the form has a confirmation field.
    public var passwordConfirmation: String?

    /// Creates a form.
    public init(username: String? = nil, email: String? = nil, password: String, passwordConfirmation: String? = nil) {
        self.username = username
        self.email = email
        self.password = password
        self.passwordConfirmation = passwordConfirmation
    }

    /// The raw value of `field`, or `nil` when the form has none.
    public func value(of field: CredentialField) -> String? {
        switch field {
        case .username: return username
        case .email: return email
        case .password: return password
        case .passwordConfirmation: return passwordConfirmation
        }
    }
}

/// A specification's credential rules, as data.
///
/// ``violations(in:isUsernameTaken:isEmailTaken:)`` evaluates every rule and returns every
/// broken one, in rule order, so the user sees all problems at once.
/// Complexity: O(r · n) for r rules and n characters in the form.
public struct CredentialPolicy: Sendable, Equatable {
    /// Stable identifier, e.g. `skyscape-reg1`.
    public let id: String
    /// Human-readable name.
    public let name: String
    /// The rules, in the order their violations are reported.
    public let rules: [CredentialRule]
    /// Whether the email address must be confirmed with a code before the account exists
    /// (SkyScape REG1 1.4–1.5).
    public let requiresEmailVerification: Bool

    /// Creates a policy.
    public init(id: String, name: String, rules: [CredentialRule], requiresEmailVerification: Bool) {
        self.id = id
        self.name = name
        self.rules = rules
        self.requiresEmailVerification = requiresEmailVerification
    }

    /// The rule every policy with usernames adds: a username cannot contain `@`, so that a
    /// sign-in identifier with `@` is always an email address and one without it always a
    /// username (otherwise a username spelled like someone's email would capture their logins).
    public static let usernameIsNotAnEmail = CredentialRule(
        id: "fieldtest-username-no-at", field: .username, check: .excludesCharacter("@"),
        requirement: "A username does not contain '@' (it would read as an email address at sign-in).",
        requirementSource: "fieldtest", message: "Usernames cannot contain '@'.", messageSource: .fieldtest)

    /// Whether some rule of the policy checks `field`.
    public func uses(_ field: CredentialField) -> Bool {
        rules.contains { $0.field == field }
    }

    /// Every rule `form` breaks. Uniqueness rules ask the two closures (given the raw
    /// username and email); the registry answers them case-insensitively.
    public func violations(
        in form: RegistrationForm,
        isUsernameTaken: (String) -> Bool = { _ in false },
        isEmailTaken: (String) -> Bool = { _ in false }
    ) -> [CredentialViolation] {
        rules.compactMap { rule in
            let value = form.value(of: rule.field)
            let ok = Self.satisfies(
                rule.check, value: value, form: form,
                isUsernameTaken: isUsernameTaken, isEmailTaken: isEmailTaken)
            return ok ? nil : CredentialViolation(rule: rule)
        }
    }

    private static func satisfies(
        _ check: CredentialCheck, value: String?, form: RegistrationForm,
        isUsernameTaken: (String) -> Bool, isEmailTaken: (String) -> Bool
    ) -> Bool {
        let text = value ?? ""
        switch check {
        case .required:
            return !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        case .minimumLength(let n):
            return text.count >= n
        case .maximumLength(let n):
            return text.count <= n
        case .containsUppercase:
            return text.contains { $0.isUppercase }
        case .containsLowercase:
            return text.contains { $0.isLowercase }
        case .containsDigit:
            return text.contains { $0.isNumber }
        case .containsSpecial:
            return text.contains { !($0.isLetter || $0.isNumber || $0.isWhitespace) }
        case .asciiAlphanumericOnly:
            return text.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
            }
        case .validEmailSyntax:
            return EmailAddress.isValid(text)
        case .excludesCharacter(let c):
            return !text.contains(c)
        case .matchesPassword:
            // "Exact same": compare the UTF-8 bytes, not canonical equivalence.
            return value.map { Array($0.utf8) } == Array(form.password.utf8)
        case .uniqueUsername:
            return text.isEmpty || !isUsernameTaken(text)
        case .uniqueEmail:
            return text.isEmpty || !isEmailTaken(text)
        }
    }
}
