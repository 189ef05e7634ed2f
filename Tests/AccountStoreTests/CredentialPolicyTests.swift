import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import AccountStore

@Suite("Credential policies quote their specifications")
struct CredentialPolicyTests {
    static let skyPasswordMessage = "Password does not meet requirements. Please enter a different password"

    @Test("SkyScape REG1: a good form passes")
    func skyScapeAcceptsGoodForm() {
        let form = RegistrationForm(
            username: "samantha", email: "samantha123@email.com",
            password: "Sunset#2024", passwordConfirmation: "Sunset#2024")
        #expect(CredentialPolicy.skyScapeRegistration.violations(in: form).isEmpty)
    }

    @Test("SkyScape REG1: every broken rule is reported with the spec's wording")
    func skyScapeReportsEveryRule() {
        let form = RegistrationForm(
            username: "sam", email: "not-an-email",
            password: "short", passwordConfirmation: "Short")
        let violations = CredentialPolicy.skyScapeRegistration.violations(
            in: form, isUsernameTaken: { $0 == "sam" }, isEmailTaken: { _ in false })
        #expect(
            violations.map(\.ruleID) == [
                "SKY-REG1-AF-S1-email-syntax",
                "SKY-REG1-1.3.1-unique-username",
                "SKY-REG1-1.3.3-length",
                "SKY-REG1-1.3.3-uppercase",
                "SKY-REG1-1.3.3-special",
                "SKY-REG1-1.3.4-passwords-match",
            ])
        #expect(violations[0].message == "Please enter a valid email address")
        #expect(violations[0].messageSource == .specification("skyscape-srs.txt REG1-AF-S1"))
        #expect(violations[1].message == "This username is taken. Please enter another username.")
        #expect(violations[2].message == Self.skyPasswordMessage)
        #expect(
            violations[2].requirement
                == "The password must contain at least 1 uppercase, 1 special character and have at least 8 characters."
        )
        #expect(violations[5].messageSource == .fieldtest)
    }

    @Test("SkyScape REG1: empty fields are each reported", arguments: CredentialField.allCases)
    func skyScapeRequiresAllFields(field: CredentialField) {
        var form = RegistrationForm(
            username: "samantha", email: "sam@example.com",
            password: "Sunset#2024", passwordConfirmation: "Sunset#2024")
        switch field {
        case .username: form.username = "   "
        case .email: form.email = nil
        case .password: form.password = ""
        case .passwordConfirmation: form.passwordConfirmation = nil
        }
        let ids = CredentialPolicy.skyScapeRegistration.violations(in: form).map(\.ruleID)
        #expect(ids.contains("SKY-REG1-1.2-required-\(field.rawValue)"))
    }

    @Test(
        "SkyScape REG1 password rules",
        arguments: [
            ("Sunset#1", [String]()),
            ("Sunset#", ["SKY-REG1-1.3.3-length"]),
            ("sunset#2024", ["SKY-REG1-1.3.3-uppercase"]),
            ("Sunset2024", ["SKY-REG1-1.3.3-special"]),
            ("Sunset 2024", ["SKY-REG1-1.3.3-special"]),  // a space is not a special character
            ("ÉTÉ-soleil", [String]()),  // Unicode upper case counts
        ])
    func skyScapePasswordRules(password: String, expected: [String]) {
        let form = RegistrationForm(
            username: "samantha", email: "sam@example.com",
            password: password, passwordConfirmation: password)
        let ids = CredentialPolicy.skyScapeRegistration.violations(in: form).map(\.ruleID)
        #expect(ids == expected)
    }

    @Test("SkyScape REG1: email already used is reported")
    func skyScapeEmailTaken() {
        let form = RegistrationForm(
            username: "samantha", email: "Sam@Example.com",
            password: "Sunset#2024", passwordConfirmation: "Sunset#2024")
        let v = CredentialPolicy.skyScapeRegistration.violations(
            in: form, isEmailTaken: { EmailAddress.normalised($0) == "sam@example.com" })
        #expect(v.map(\.ruleID) == ["SKY-REG1-1.3.2-unique-email"])
        #expect(v.first?.requirement == "The email must not be from an existing user.")
    }

    @Test(
        "SkyScape data dictionary: username and password rules",
        arguments: [
            ("samantha1", "Sunset2024", [String]()),
            ("sam", "Sunset2024", ["SKY-DD-username-length-min"]),
            (String(repeating: "a", count: 33), "Sunset2024", ["SKY-DD-username-length-max"]),
            ("samantha_1", "Sunset2024", ["SKY-DD-username-alphanumeric"]),
            ("samantha1", "Sun2", ["SKY-DD-password-length-min"]),
            ("samantha1", "Sunset2024" + String(repeating: "x", count: 23), ["SKY-DD-password-length-max"]),
            ("samantha1", "sunset2024", ["SKY-DD-password-uppercase"]),
            ("samantha1", "SUNSET2024", ["SKY-DD-password-lowercase"]),
            ("samantha1", "SunsetSunset", ["SKY-DD-password-digit"]),
        ])
    func dataDictionaryRules(username: String, password: String, expected: [String]) {
        let form = RegistrationForm(
            username: username, email: "sam@example.com",
            password: password, passwordConfirmation: password)
        let violations = CredentialPolicy.skyScapeDataDictionary.violations(in: form)
        #expect(violations.map(\.ruleID) == expected)
        for v in violations where v.field == .password {
            #expect(v.message == Self.skyPasswordMessage)
            #expect(
                v.requirement
                    == "This also includes a password with a minimum of 8 and maximum of 32 characters. A combination of at least 1 upper-case letter, 1 lower-case letter, and 1 number is required."
            )
        }
    }

    @Test(
        "Weather by city R2",
        arguments: [
            ("Forecast1", [String]()),
            ("Fore1", ["WXC-R2-length"]),
            ("Forecasts", ["WXC-R2-digit"]),
            ("forecast1", ["WXC-R2-uppercase"]),
            ("f", ["WXC-R2-length", "WXC-R2-digit", "WXC-R2-uppercase"]),
        ])
    func weatherCitiesRules(password: String, expected: [String]) {
        let form = RegistrationForm(username: "stormchaser", password: password)
        let violations = CredentialPolicy.weatherCities.violations(in: form)
        #expect(violations.map(\.ruleID) == expected)
        #expect(violations.allSatisfy { $0.messageSource == .fieldtest })
        #expect(
            violations.allSatisfy { $0.field != .password || $0.requirement.hasPrefix("There should be validation") })
    }

    @Test("BeenThereDoneThat: email and Fieldtest's NIST length rule")
    func beenThereDoneThatRules() {
        let policy = CredentialPolicy.beenThereDoneThat
        #expect(policy.violations(in: RegistrationForm(email: "troy@example.org", password: "journaling")).isEmpty)
        let bad = policy.violations(in: RegistrationForm(email: "troy@", password: "short"))
        #expect(bad.map(\.ruleID) == ["BTD-5.2.2.3.1-email-syntax", "BTD-fieldtest-password-length-min"])
        let long = policy.violations(
            in: RegistrationForm(email: "troy@example.org", password: String(repeating: "p", count: 65)))
        #expect(long.map(\.ruleID) == ["BTD-fieldtest-password-length-max"])
        let taken = policy.violations(
            in: RegistrationForm(email: "troy@example.org", password: "journaling"),
            isEmailTaken: { _ in true })
        #expect(taken.map(\.ruleID) == ["BTD-5.2.3.3-one-account"])
    }

    @Test("Passwords must match byte for byte, not up to Unicode equivalence")
    func confirmationIsExact() {
        // "é" precomposed vs "e" + combining acute: equal as Swift Strings, different bytes.
        let form = RegistrationForm(
            username: "samantha", email: "sam@example.com",
            password: "Caf\u{E9}#Sunset", passwordConfirmation: "Cafe\u{301}#Sunset")
        let ids = CredentialPolicy.skyScapeRegistration.violations(in: form).map(\.ruleID)
        #expect(ids == ["SKY-REG1-1.3.4-passwords-match"])
    }

    @Test("Policies are found by identifier")
    func lookup() {
        #expect(CredentialPolicy.all.count == 4)
        #expect(CredentialPolicy.named("weather-cities-r2") == .weatherCities)
        #expect(CredentialPolicy.named("nope") == nil)
    }

    /// The specifications live beside the repository (`../shared/specs`).
    static let specsFolder = SharedFolder.url("specs")

    /// Needs `../shared/specs`: skipped without it, a failure with `CI=true`.
    @Test(
        "Quoted requirement texts and spec messages occur verbatim in the spec files",
        SharedFolder.needs("specs"))
    func quotesAreVerbatim() throws {
        try SharedFolder.require("specs")
        for policy in CredentialPolicy.all {
            for rule in policy.rules {
                if rule.requirementSource != "fieldtest" {
                    let file = String(rule.requirementSource.prefix { $0 != " " })
                    let text = try String(contentsOf: Self.specsFolder.appendingPathComponent(file), encoding: .utf8)
                    #expect(text.contains(rule.requirement), "\(rule.id): requirement not verbatim in \(file)")
                }
                if case .specification(let source) = rule.messageSource {
                    let file = String(source.prefix { $0 != " " })
                    let text = try String(contentsOf: Self.specsFolder.appendingPathComponent(file), encoding: .utf8)
                    #expect(text.contains("“\(rule.message)”"), "\(rule.id): message not verbatim in \(file)")
                }
            }
        }
    }
}

@Suite("Email syntax")
struct EmailAddressTests {
    @Test(
        "Valid addresses",
        arguments: [
            "samantha123@email.com", "a.b+tag@sub.example.co.uk", "o'brien@example.ie", "x@a-b.io", "UPPER@EXAMPLE.COM",
        ])
    func valid(address: String) {
        #expect(EmailAddress.isValid(address))
    }

    @Test(
        "Invalid addresses",
        arguments: [
            "", "plain", "@example.com", "user@", "user@localhost", "a@@b.com", "a@b@c.com", ".a@b.com", "a.@b.com",
            "a..b@c.com", "a b@c.com", " a@b.com", "a@-b.com", "a@b-.com", "a@b..com", "a@1.2.3.4", "ü@example.com",
            "a@exa_mple.com", String(repeating: "l", count: 65) + "@example.com",
        ])
    func invalid(address: String) {
        #expect(!EmailAddress.isValid(address))
    }

    @Test("Normalisation folds case, trims and composes")
    func normalisation() {
        #expect(EmailAddress.normalised("  Sam@Example.COM\n") == "sam@example.com")
        #expect(EmailAddress.normalised("Cafe\u{301}@x.org") == EmailAddress.normalised("caf\u{E9}@x.org"))
    }
}

@Suite("Verification code")
struct VerificationCodeTests {
    @Test("Codes have the policy's digits and keep leading zeros")
    func codeShape() {
        var rng = SeededGenerator(seed: 7)
        let policy = VerificationCodePolicy.standard
        let codes = (0..<200).map { _ in policy.makeCode(using: &rng) }
        #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        #expect(Set(codes).count > 190)  // 200 draws from 10^6: collisions are rare
    }

    @Test("Expiry, attempts and success")
    func stateMachine() throws {
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        var state = VerificationState(codeDigest: [1, 2, 3], expiresAt: t0.addingTimeInterval(600), attemptsLeft: 2)
        #expect(throws: AccountStoreError.verificationCodeIncorrect(attemptsLeft: 1)) {
            try state.check(submittedDigest: [9, 9, 9], now: t0)
        }
        try state.check(submittedDigest: [1, 2, 3], now: t0.addingTimeInterval(599))
        #expect(throws: AccountStoreError.verificationCodeExpired) {
            try state.check(submittedDigest: [1, 2, 3], now: t0.addingTimeInterval(600))
        }
        #expect(throws: AccountStoreError.verificationCodeIncorrect(attemptsLeft: 0)) {
            try state.check(submittedDigest: [0], now: t0)
        }
        #expect(throws: AccountStoreError.verificationAttemptsExhausted) {
            try state.check(submittedDigest: [1, 2, 3], now: t0)
        }
    }
}

@Suite("Constant-time comparison and roles")
struct ConstantTimeAndRoleTests {
    @Test func equality() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([UInt8](), []))
    }

    @Test("NAV-F26: mobile users only read congestion data", arguments: Role.allCases)
    func navUPAccess(role: Role) throws {
        let policy = AccessPolicy.navUP
        try policy.authorize(role, .read, .congestionData)
        if role == .mobileUser {
            #expect(
                throws: AccountStoreError.accessDenied(role: .mobileUser, action: .write, resource: .congestionData)
            ) {
                try policy.authorize(role, .write, .congestionData)
            }
        } else {
            try policy.authorize(role, .write, .congestionData)
        }
        #expect(policy.allows(role, .write, .userRoles) == (role == .admin))
    }
}
