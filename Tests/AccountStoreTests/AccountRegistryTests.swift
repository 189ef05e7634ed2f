import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import AccountStore

/// Shared helpers: cheap hashing (1,000 iterations) except where a test says otherwise.
enum Fixture {
    static let t0 = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00:00Z
    static let keys: KeyProvider = {
        // 32 fixed bytes; tests only.
        (try? KeyProvider(keyBytes: (0..<32).map { UInt8($0 * 7 + 3) }))!
    }()

    static func registry(
        _ policy: CredentialPolicy, path: String? = nil, iterations: Int = 1_000,
        keys: KeyProvider = keys
    ) throws -> AccountRegistry {
        try AccountRegistry(
            path: path, keys: keys,
            configuration: AccountRegistryConfiguration(
                policy: policy, hashing: .unsafeForTesting(iterations: iterations)))
    }

    static func temporaryDirectory() throws -> URL {
        let url = TemporaryFiles.url("accountstore")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

@Suite("Account registry")
struct AccountRegistryTests {
    let t0 = Fixture.t0

    @Test("SkyScape: register, verify the emailed code, then log in by username or email")
    func skyScapeFlow() throws {
        var rng = SeededGenerator(seed: 11)
        let registry = try Fixture.registry(.skyScapeRegistration)
        let form = RegistrationForm(
            username: "Samantha", email: "samantha123@email.com",
            password: "Sunset#2024", passwordConfirmation: "Sunset#2024")
        guard case .pendingVerification(let delivery) = try registry.register(form, now: t0, using: &rng) else {
            Issue.record("SkyScape must ask for a verification code")
            return
        }
        #expect(delivery.email == "samantha123@email.com")
        #expect(delivery.expiresAt == t0.addingTimeInterval(600))
        #expect(try registry.accountCount() == 0)  // REG1 1.5: account only upon verification

        let wrong = delivery.code == "000000" ? "000001" : "000000"
        #expect(throws: AccountStoreError.verificationCodeIncorrect(attemptsLeft: 4)) {
            try registry.verifyEmail(pendingID: delivery.pendingID, code: wrong, now: t0.addingTimeInterval(30))
        }
        #expect(throws: AccountStoreError.verificationCodeIncorrect(attemptsLeft: 3)) {
            try registry.verifyEmail(pendingID: delivery.pendingID, code: wrong, now: t0.addingTimeInterval(40))
        }
        let account = try registry.verifyEmail(
            pendingID: delivery.pendingID, code: delivery.code, now: t0.addingTimeInterval(60))
        #expect(account.username == "Samantha")
        #expect(account.email == "samantha123@email.com")
        #expect(account.role == .mobileUser)
        #expect(account.createdAt == t0)
        #expect(account.lastSignInAt == nil)
        #expect(UUID(uuidString: account.id) != nil)
        #expect(throws: AccountStoreError.unknownPendingRegistration(delivery.pendingID)) {
            try registry.verifyEmail(pendingID: delivery.pendingID, code: delivery.code, now: t0.addingTimeInterval(61))
        }

        let byName = try registry.login(
            identifier: "samantha", password: "Sunset#2024", now: t0.addingTimeInterval(100), using: &rng)
        #expect(byName.id == account.id)
        #expect(byName.lastSignInAt == t0.addingTimeInterval(100))
        let byEmail = try registry.login(
            identifier: "SAMANTHA123@email.com ", password: "Sunset#2024",
            now: t0.addingTimeInterval(200), using: &rng)
        #expect(byEmail.id == account.id)
        #expect(try registry.account(id: account.id).lastSignInAt == t0.addingTimeInterval(200))
    }

    @Test("Verification codes expire")
    func codeExpiry() throws {
        var rng = SeededGenerator(seed: 12)
        let registry = try Fixture.registry(.skyScapeDataDictionary)
        let form = RegistrationForm(
            username: "stargazer9", email: "star@example.org",
            password: "Golden1hour", passwordConfirmation: "Golden1hour")
        guard case .pendingVerification(let first) = try registry.register(form, now: t0, using: &rng) else {
            Issue.record("expected a pending verification")
            return
        }
        #expect(throws: AccountStoreError.verificationCodeExpired) {
            try registry.verifyEmail(pendingID: first.pendingID, code: first.code, now: t0.addingTimeInterval(600))
        }
    }

    @Test("Usernames and emails are unique regardless of letter case, with the spec's messages")
    func uniqueness() throws {
        var rng = SeededGenerator(seed: 13)
        let registry = try Fixture.registry(.skyScapeRegistration)
        let form = RegistrationForm(
            username: "Samantha", email: "Sam@Example.com", password: "Sunset#2024",
            passwordConfirmation: "Sunset#2024")
        guard case .pendingVerification(let d) = try registry.register(form, now: t0, using: &rng) else {
            Issue.record("expected a pending verification")
            return
        }
        _ = try registry.verifyEmail(pendingID: d.pendingID, code: d.code, now: t0)
        let again = RegistrationForm(
            username: "SAMANTHA", email: "sam@EXAMPLE.com", password: "Sunset#2025",
            passwordConfirmation: "Sunset#2025")
        let result = Result { () throws(AccountStoreError) in try registry.register(again, now: t0, using: &rng) }
        #expect(
            result.failure
                == .registrationRejected(
                    [CredentialPolicy.skyScapeRegistration.rules[5], CredentialPolicy.skyScapeRegistration.rules[6]]
                        .map(CredentialViolation.init(rule:))))
        #expect(
            result.failure?.description == """
                This username is taken. Please enter another username.
                An account with this email address already exists. Please log in or use another email address.
                """)
    }

    @Test("A name or email claimed between sign-up and verification is rejected at verification")
    func raceAtVerification() throws {
        var rng = SeededGenerator(seed: 14)
        let registry = try Fixture.registry(.skyScapeRegistration)
        let form = RegistrationForm(
            username: "twin", email: "twin@example.com", password: "Sunset#2024",
            passwordConfirmation: "Sunset#2024")
        var other = form
        other.email = "other.twin@example.com"
        guard case .pendingVerification(let a) = try registry.register(form, now: t0, using: &rng),
            case .pendingVerification(let b) = try registry.register(other, now: t0, using: &rng)
        else {
            Issue.record("expected two pending verifications")
            return
        }
        _ = try registry.verifyEmail(pendingID: a.pendingID, code: a.code, now: t0)
        #expect(throws: AccountStoreError.self) {
            try registry.verifyEmail(pendingID: b.pendingID, code: b.code, now: t0)
        }
        #expect(try registry.accountCount() == 1)
    }

    @Test("Verification codes per email address are bounded: registrations of one address share 4 codes a day")
    func verificationCodeBudget() throws {
        var rng = SeededGenerator(seed: 16)
        let registry = try Fixture.registry(.skyScapeRegistration)
        let form = RegistrationForm(
            username: "guess", email: "victim@example.com", password: "Sunset#2024",
            passwordConfirmation: "Sunset#2024")
        guard case .pendingVerification(let first) = try registry.register(form, now: t0, using: &rng) else {
            Issue.record("expected a pending verification")
            return
        }
        // A new registration of the address replaces the pending one and spends the same budget.
        var latest = first
        for minute in 1...3 {
            guard
                case .pendingVerification(let next) = try registry.register(
                    form, now: t0.addingTimeInterval(Double(minute) * 60), using: &rng)
            else {
                Issue.record("expected a pending verification")
                return
            }
            latest = next
        }
        #expect(latest.pendingID != first.pendingID)
        #expect(throws: AccountStoreError.unknownPendingRegistration(first.pendingID)) {
            try registry.verifyEmail(pendingID: first.pendingID, code: first.code, now: t0.addingTimeInterval(190))
        }
        #expect(throws: AccountStoreError.verificationCodeLimit(retryAfterSeconds: 86_400 - 300)) {
            try registry.register(form, now: t0.addingTimeInterval(300), using: &rng)
        }
        #expect(
            AccountStoreError.verificationCodeLimit(retryAfterSeconds: 86_100).description
                == "Too many verification codes were sent to this email address. Please try again in 24 hour(s).")
        // A day later the stale registration is gone and the address may start again.
        guard
            case .pendingVerification(let fresh) = try registry.register(
                form, now: t0.addingTimeInterval(86_401), using: &rng)
        else {
            Issue.record("expected a pending verification")
            return
        }
        #expect(
            try registry.verifyEmail(pendingID: fresh.pendingID, code: fresh.code, now: t0.addingTimeInterval(86_402))
                .email
                == "victim@example.com")
    }

    @Test(
        "A username cannot contain '@'; under a policy without usernames none is stored, so email logins cannot be captured"
    )
    func usernamesCannotCaptureEmailLogins() throws {
        var rng = SeededGenerator(seed: 17)
        // BeenThereDoneThat signs in by email: a username in the form is ignored.
        let journal = try Fixture.registry(.beenThereDoneThat)
        guard
            case .created(let ana) = try journal.register(
                RegistrationForm(email: "ana@example.org", password: "journaling"),
                now: t0, using: &rng),
            case .created(let mallory) = try journal.register(
                RegistrationForm(
                    username: "ana@example.org", email: "mallory@x.org",
                    password: "malicious1"), now: t0, using: &rng)
        else {
            Issue.record("expected two accounts")
            return
        }
        #expect(mallory.username == nil)
        #expect(
            try journal.login(identifier: "ana@example.org", password: "journaling", now: t0, using: &rng).id == ana.id)
        // SkyScape has usernames: one with '@' is refused with its own message.
        let sky = try Fixture.registry(.skyScapeRegistration)
        let form = RegistrationForm(
            username: "ana@example.org", email: "m@x.org", password: "Sunset#2024", passwordConfirmation: "Sunset#2024")
        let result = Result { () throws(AccountStoreError) in try sky.register(form, now: t0, using: &rng) }
        #expect(
            result.failure == .registrationRejected([CredentialViolation(rule: CredentialPolicy.usernameIsNotAnEmail)]))
        #expect(result.failure?.description == "Usernames cannot contain '@'.")
    }

    @Test("Failed sign-ins that overlap in time all count towards the lockout")
    func concurrentFailuresAllCount() throws {
        let registry = try Fixture.registry(.beenThereDoneThat)
        var rng = SeededGenerator(seed: 18)
        _ = try registry.register(
            RegistrationForm(email: "target@example.org", password: "journaling"), now: t0, using: &rng)
        let attempts = 4  // fewer than the 5 that lock, so every one is checked against the password
        DispatchQueue.concurrentPerform(iterations: attempts) { k in
            var local = SeededGenerator(seed: UInt64(100 + k))
            _ = try? registry.login(
                identifier: "target@example.org", password: "wrong guess \(k)", now: t0, using: &local)
        }
        let key = registry.index.digest(AccountRegistry.usernameKey("target@example.org"), purpose: "login")
        let failures = try registry.read { db in try AccountRegistry.throttleState(db, key).failures }
        #expect(failures == attempts)
        // One more locks the identifier, even with the right password.
        #expect(throws: AccountStoreError.incorrectCredentials) {
            try registry.login(identifier: "target@example.org", password: "wrong again", now: t0, using: &rng)
        }
        #expect(throws: AccountStoreError.throttled(retryAfterSeconds: 900)) {
            try registry.login(identifier: "target@example.org", password: "journaling", now: t0, using: &rng)
        }
    }

    @Test("BTD-A1: sign-up creates a unique user ID with email, creation date and last sign-in")
    func beenThereDoneThatSignUp() throws {
        var rng = SeededGenerator(seed: 15)
        let registry = try Fixture.registry(.beenThereDoneThat)
        var ids = Set<String>()
        for i in 0..<20 {
            let outcome = try registry.register(
                RegistrationForm(email: "writer\(i)@example.org", password: "journaling"),
                now: t0.addingTimeInterval(Double(i)), using: &rng)
            guard case .created(let account) = outcome else {
                Issue.record("BTD creates at once")
                return
            }
            #expect(account.email == "writer\(i)@example.org")
            #expect(account.createdAt == t0.addingTimeInterval(Double(i)))
            #expect(account.lastSignInAt == nil)
            #expect(account.username == nil)
            ids.insert(account.id)
        }
        #expect(ids.count == 20)
        #expect(throws: AccountStoreError.self) {
            try registry.register(
                RegistrationForm(email: "WRITER3@example.org", password: "journaling"), now: t0, using: &rng)
        }
    }

    @Test("Weather by city: username-only accounts")
    func weatherCitiesAccounts() throws {
        var rng = SeededGenerator(seed: 16)
        let registry = try Fixture.registry(.weatherCities)
        guard
            case .created(let account) = try registry.register(
                RegistrationForm(username: "stormchaser", password: "Forecast1"), now: t0, using: &rng)
        else {
            Issue.record("expected an account")
            return
        }
        #expect(account.email == nil)
        #expect(
            try registry.login(identifier: "StormChaser", password: "Forecast1", now: t0, using: &rng).id == account.id)
    }

    @Test("SKY-A2: the failure message is identical for unknown users and wrong passwords")
    func loginFailureIsUniform() throws {
        var rng = SeededGenerator(seed: 17)
        let registry = try Fixture.registry(.weatherCities)
        _ = try registry.register(
            RegistrationForm(username: "stormchaser", password: "Forecast1"), now: t0, using: &rng)
        var messages: [String] = []
        for (identifier, password) in [
            ("stormchaser", "Forecast2"), ("nobody", "Forecast1"), ("", ""), ("stormchaser", ""),
        ] {
            do {
                _ = try registry.login(identifier: identifier, password: password, now: t0, using: &rng)
                Issue.record("login should fail for \(identifier)")
            } catch {
                #expect(error == .incorrectCredentials)
                messages.append(error.description)
            }
        }
        #expect(Set(messages) == ["Incorrect username or password. Please try again."])
    }

    @Test("Throttling: five failures lock the identifier for 15 minutes, even for the right password")
    func throttling() throws {
        var rng = SeededGenerator(seed: 18)
        let registry = try Fixture.registry(.weatherCities)
        _ = try registry.register(
            RegistrationForm(username: "stormchaser", password: "Forecast1"), now: t0, using: &rng)
        for i in 0..<5 {
            #expect(throws: AccountStoreError.incorrectCredentials) {
                try registry.login(
                    identifier: "stormchaser", password: "guess\(i)", now: t0.addingTimeInterval(Double(i)), using: &rng
                )
            }
        }
        #expect(throws: AccountStoreError.throttled(retryAfterSeconds: 895)) {
            try registry.login(
                identifier: "STORMCHASER", password: "Forecast1", now: t0.addingTimeInterval(9), using: &rng)
        }
        // Unknown identifiers are throttled the same way (no hint that they do not exist).
        for i in 0..<5 {
            _ = try? registry.login(
                identifier: "ghost", password: "x", now: t0.addingTimeInterval(Double(i)), using: &rng)
        }
        #expect(throws: AccountStoreError.throttled(retryAfterSeconds: 896)) {
            try registry.login(identifier: "ghost", password: "x", now: t0.addingTimeInterval(8), using: &rng)
        }
        let account = try registry.login(
            identifier: "stormchaser", password: "Forecast1", now: t0.addingTimeInterval(904), using: &rng)
        #expect(account.username == "stormchaser")
    }

    @Test("A hash made with weaker parameters is upgraded at the next successful login")
    func rehashOnLogin() throws {
        var rng = SeededGenerator(seed: 19)
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("accounts.sqlite").path
        let weak = try Fixture.registry(.weatherCities, path: path, iterations: 1_000)
        _ = try weak.register(RegistrationForm(username: "stormchaser", password: "Forecast1"), now: t0, using: &rng)
        let stronger = try Fixture.registry(.weatherCities, path: path, iterations: 2_000)
        _ = try stronger.login(identifier: "stormchaser", password: "Forecast1", now: t0, using: &rng)
        let stored = try stronger.read { db in try db.fetchValue(String.self, "SELECT password_hash FROM users") }
        #expect(stored?.hasPrefix("$pbkdf2-sha256$i=2000$") == true)
        _ = try stronger.login(identifier: "stormchaser", password: "Forecast1", now: t0, using: &rng)
    }

    @Test("Production cost: registration and login with 600,000 iterations")
    func productionCost() throws {
        var rng = SystemRandomNumberGenerator()
        let registry = try AccountRegistry(
            path: nil, keys: Fixture.keys,
            configuration: AccountRegistryConfiguration(policy: .beenThereDoneThat))
        #expect(registry.configuration.hashing.iterations == 600_000)
        _ = try registry.register(
            RegistrationForm(email: "troy@example.org", password: "journaling"), now: t0, using: &rng)
        let stored = try registry.read { db in try db.fetchValue(String.self, "SELECT password_hash FROM users") }
        #expect(stored?.hasPrefix("$pbkdf2-sha256$i=600000$") == true)
        #expect(
            try registry.login(identifier: "troy@example.org", password: "journaling", now: t0, using: &rng).email
                == "troy@example.org")
    }

    @Test("NAV-F26: only administrators change roles; roles govern congestion-data writes")
    func roles() throws {
        var rng = SeededGenerator(seed: 20)
        let registry = try Fixture.registry(.weatherCities)
        func make(_ name: String, _ role: Role) throws -> String {
            guard
                case .created(let a) = try registry.register(
                    RegistrationForm(username: name, password: "Forecast1"),
                    role: role, now: t0, using: &rng)
            else { return "" }
            return a.id
        }
        let student = try make("student", .mobileUser)
        let agent = try make("agent", .agent)
        let admin = try make("admin", .admin)
        try registry.authorize(userID: student, .read, .congestionData)
        #expect(throws: AccountStoreError.accessDenied(role: .mobileUser, action: .write, resource: .congestionData)) {
            try registry.authorize(userID: student, .write, .congestionData)
        }
        try registry.authorize(userID: agent, .write, .congestionData)
        #expect(throws: AccountStoreError.accessDenied(role: .agent, action: .write, resource: .userRoles)) {
            try registry.setRole(of: student, to: .admin, by: agent)
        }
        try registry.setRole(of: student, to: .agent, by: admin)
        try registry.authorize(userID: student, .write, .congestionData)
        #expect(throws: AccountStoreError.unknownUser("nope")) {
            try registry.authorize(userID: "nope", .read, .congestionData)
        }
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
