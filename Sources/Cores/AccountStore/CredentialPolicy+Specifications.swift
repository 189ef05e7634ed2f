import Foundation

/// The credential policies of the specifications, one per specification variant.
///
/// Requirement texts are quoted exactly from the files in `shared/specs`; messages are
/// quoted exactly where the specification gives one (`MessageSource.specification`) and
/// are Fieldtest's own otherwise (`MessageSource.fieldtest`).
extension CredentialPolicy {
    // MARK: Shared SkyScape wording

    private static let skyFile = "skyscape-srs.txt"
    private static let skyInvalidEmail = "Please enter a valid email address"
    private static let skyUsernameTaken = "This username is taken. Please enter another username."
    private static let skyPasswordRejected = "Password does not meet requirements. Please enter a different password"
    private static let skyAllFilled = "The system must verify that all fields are filled when user press “Submit”."
    private static let skyRule133 =
        "The password must contain at least 1 uppercase, 1 special character and have at least 8 characters."

    /// The email, username and confirmation rules both SkyScape variants share
    /// (REG1 functional requirements 1.2, 1.3.1, 1.3.2, 1.3.4 and REG1-AF-S1/S2).
    private static func skyScapeCommonRules(prefix: String) -> (
        head: [CredentialRule], email: [CredentialRule], confirmation: [CredentialRule]
    ) {
        let required: [CredentialRule] = [
            (CredentialField.username, "Please enter a username."),
            (.email, "Please enter your email address."),
            (.password, "Please enter a password."),
            (.passwordConfirmation, "Please re-enter your password."),
        ].map { field, message in
            CredentialRule(
                id: "\(prefix)-1.2-required-\(field.rawValue)", field: field, check: .required,
                requirement: skyAllFilled, requirementSource: "\(skyFile) REG1 functional requirement 1.2",
                message: message, messageSource: .fieldtest)
        }
        let email: [CredentialRule] = [
            CredentialRule(
                id: "\(prefix)-AF-S1-email-syntax", field: .email, check: .validEmailSyntax,
                requirement: "If email address is invalid:", requirementSource: "\(skyFile) REG1-AF-S1",
                message: skyInvalidEmail, messageSource: .specification("\(skyFile) REG1-AF-S1")),
            CredentialRule(
                id: "\(prefix)-1.3.1-unique-username", field: .username, check: .uniqueUsername,
                requirement: "The username must be unique from existing users.",
                requirementSource: "\(skyFile) REG1 functional requirement 1.3.1",
                message: skyUsernameTaken, messageSource: .specification("\(skyFile) REG1-AF-S2")),
            CredentialRule(
                id: "\(prefix)-1.3.2-unique-email", field: .email, check: .uniqueEmail,
                requirement: "The email must not be from an existing user.",
                requirementSource: "\(skyFile) REG1 functional requirement 1.3.2",
                message:
                    "An account with this email address already exists. Please log in or use another email address.",
                messageSource: .fieldtest),
        ]
        let confirmation = [
            CredentialRule(
                id: "\(prefix)-1.3.4-passwords-match", field: .passwordConfirmation, check: .matchesPassword,
                requirement: "Both passwords must be exact same.",
                requirementSource: "\(skyFile) REG1 functional requirement 1.3.4",
                message: "The passwords do not match. Please enter the same password twice.",
                messageSource: .fieldtest)
        ]
        return (required, email, confirmation)
    }

    /// SkyScape registration (REG1, SKY-A1): valid email; unique username and email;
    /// password of at least 8 characters with an upper-case letter and a special
    /// character; both passwords identical; the email confirmed with a code.
    public static let skyScapeRegistration: CredentialPolicy = {
        let prefix = "SKY-REG1"
        let common = skyScapeCommonRules(prefix: prefix)
        let source = "\(skyFile) REG1 functional requirement 1.3.3"
        let password: [CredentialRule] = [
            (CredentialCheck.minimumLength(8), "length"),
            (.containsUppercase, "uppercase"),
            (.containsSpecial, "special"),
        ].map { check, name in
            CredentialRule(
                id: "\(prefix)-1.3.3-\(name)", field: .password, check: check,
                requirement: skyRule133, requirementSource: source,
                message: skyPasswordRejected, messageSource: .specification("\(skyFile) REG1-AF-S3"))
        }
        return CredentialPolicy(
            id: "skyscape-reg1", name: "SkyScape registration (REG1)",
            rules: common.head + common.email + password + common.confirmation,
            requiresEmailVerification: true)
    }()

    /// SkyScape's data-dictionary variant ("Login details", SKY-A1): username of 8–32
    /// alphanumeric characters; password of 8–32 characters with an upper-case letter, a
    /// lower-case letter and a digit; plus REG1's email, uniqueness and confirmation rules.
    public static let skyScapeDataDictionary: CredentialPolicy = {
        let prefix = "SKY-DD"
        let common = skyScapeCommonRules(prefix: prefix)
        let usernameText =
            "This includes a unique username created with a minimum of 8 and maximum of 32 alphanumeric characters."
        let passwordText =
            "This also includes a password with a minimum of 8 and maximum of 32 characters. A combination of at least 1 upper-case letter, 1 lower-case letter, and 1 number is required."
        let source = "\(skyFile) §4 Data Dictionary, Login details"
        let username: [CredentialRule] = [
            (CredentialCheck.minimumLength(8), "length-min", "Usernames must have at least 8 characters."),
            (.maximumLength(32), "length-max", "Usernames must have at most 32 characters."),
            (.asciiAlphanumericOnly, "alphanumeric", "Usernames may contain only letters A–Z, a–z and digits 0–9."),
        ].map { check, name, message in
            CredentialRule(
                id: "\(prefix)-username-\(name)", field: .username, check: check,
                requirement: usernameText, requirementSource: source,
                message: message, messageSource: .fieldtest)
        }
        let password: [CredentialRule] = [
            (CredentialCheck.minimumLength(8), "length-min"),
            (.maximumLength(32), "length-max"),
            (.containsUppercase, "uppercase"),
            (.containsLowercase, "lowercase"),
            (.containsDigit, "digit"),
        ].map { check, name in
            CredentialRule(
                id: "\(prefix)-password-\(name)", field: .password, check: check,
                requirement: passwordText, requirementSource: source,
                message: skyPasswordRejected, messageSource: .specification("\(skyFile) REG1-AF-S3"))
        }
        return CredentialPolicy(
            id: "skyscape-data-dictionary", name: "SkyScape login details (data dictionary)",
            rules: common.head + common.email + username + password + common.confirmation,
            requiresEmailVerification: true)
    }()

    /// Team 25's weather-by-city app (R2, WXC-A1): a username and a password of at least 8
    /// characters containing a number and an upper-case character. The specification gives
    /// no messages, so all messages are Fieldtest's. No email is collected at sign-up
    /// (use case 1, S1: "User submits a username, password, and theme color").
    public static let weatherCities: CredentialPolicy = {
        let file = "weather-cities-usecases.txt"
        let r2 =
            "There should be validation for checking that the password is at least 8 characters long and contains at least one number and uppercase character."
        let rules: [CredentialRule] = [
            CredentialRule(
                id: "WXC-UC1-S2-username-required", field: .username, check: .required,
                requirement: "[S2] The app verifies that the username and password are valid [E1]",
                requirementSource: "\(file) use case 1 (Creating an Account)",
                message: "Please enter a username.", messageSource: .fieldtest),
            CredentialRule(
                id: "WXC-unique-username", field: .username, check: .uniqueUsername,
                requirement: "Usernames identify accounts at login, so no two accounts may share one (Fieldtest).",
                requirementSource: "fieldtest",
                message: "This username is already taken. Please choose another username.", messageSource: .fieldtest),
            CredentialRule(
                id: "WXC-R2-length", field: .password, check: .minimumLength(8), requirement: r2,
                requirementSource: "\(file) R2",
                message: "Password must be at least 8 characters long.", messageSource: .fieldtest),
            CredentialRule(
                id: "WXC-R2-digit", field: .password, check: .containsDigit, requirement: r2,
                requirementSource: "\(file) R2",
                message: "Password must contain at least one number.", messageSource: .fieldtest),
            CredentialRule(
                id: "WXC-R2-uppercase", field: .password, check: .containsUppercase, requirement: r2,
                requirementSource: "\(file) R2",
                message: "Password must contain at least one uppercase character.", messageSource: .fieldtest),
        ]
        return CredentialPolicy(
            id: "weather-cities-r2", name: "Weather by city (R2)", rules: rules,
            requiresEmailVerification: false)
    }()

    /// BeenThereDoneThat (BTD-A1): sign-in by email and password, one account per email.
    /// The specification delegates authentication to Firebase and states no password
    /// rule, so the password rule is Fieldtest's: NIST SP 800-63B §5.1.1.2 (at least 8
    /// characters; at least 64 allowed), no composition rules.
    public static let beenThereDoneThat: CredentialPolicy = {
        let file = "beentheredonethat-srs.txt"
        let nist =
            "Memorized secrets shall be at least 8 characters in length; verifiers should permit at least 64 characters (NIST SP 800-63B §5.1.1.2, adopted by Fieldtest)."
        let rules: [CredentialRule] = [
            CredentialRule(
                id: "BTD-5.2.2.3.1-email-syntax", field: .email, check: .validEmailSyntax,
                requirement: "Authentication requests will include the user's e-mail address.",
                requirementSource: "\(file) 5.2.2.3.1",
                message: "Please enter a valid email address.", messageSource: .fieldtest),
            CredentialRule(
                id: "BTD-5.2.3.3-one-account", field: .email, check: .uniqueEmail,
                requirement:
                    "The application shall generate a unique identifier for each user during sign-up, ensuring one account per user and storing essential user details securely.",
                requirementSource: "\(file) 5.2.3.3",
                message: "An account with this email address already exists. Please sign in instead.",
                messageSource: .fieldtest),
            CredentialRule(
                id: "BTD-fieldtest-password-length-min", field: .password, check: .minimumLength(8), requirement: nist,
                requirementSource: "fieldtest",
                message: "Password must be at least 8 characters long.", messageSource: .fieldtest),
            CredentialRule(
                id: "BTD-fieldtest-password-length-max", field: .password, check: .maximumLength(64), requirement: nist,
                requirementSource: "fieldtest",
                message: "Password must be at most 64 characters long.", messageSource: .fieldtest),
        ]
        return CredentialPolicy(
            id: "beentheredonethat", name: "BeenThereDoneThat sign-up", rules: rules,
            requiresEmailVerification: false)
    }()

    /// Every specification policy, for scenario lookup by ``id``.
    public static let all: [CredentialPolicy] = [
        skyScapeRegistration, skyScapeDataDictionary, weatherCities, beenThereDoneThat,
    ]

    /// The policy with identifier `id`, or `nil`.
    public static func named(_ id: String) -> CredentialPolicy? {
        all.first { $0.id == id }
    }
}
