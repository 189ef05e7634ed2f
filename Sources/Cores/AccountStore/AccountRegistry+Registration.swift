import FieldtestData
import Foundation

extension AccountRegistry {
    /// Registers a new account under the configured policy.
    ///
    /// Every rule of the policy is checked and every violation reported at once
    /// (``AccountStoreError/registrationRejected(_:)``). The password is hashed once
    /// (PBKDF2, about 0.2–0.5 s at production cost). Under a policy that requires email
    /// verification (SkyScape REG1 1.4) the account is created only by
    /// ``verifyEmail(pendingID:code:now:)``; the returned delivery stands for the email.
    /// - Parameters:
    ///   - form: the submitted fields.
    ///   - role: the role of the new account (NAV-F26); mobile user unless seeding agents or admins.
    ///   - now: the current time (UTC), recorded as the creation date.
    ///   - rng: source of the user ID, salt, nonces and code (``AccountRandomness``).
    public func register(
        _ form: RegistrationForm, role: Role = .mobileUser, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws(AccountStoreError) -> RegistrationOutcome {
        let policy = configuration.policy
        var usernameTaken = false
        var emailTaken = false
        if policy.uses(.username), let username = form.username, !username.isEmpty {
            usernameTaken = try isUsernameTaken(username)
        }
        if let email = form.email, !email.isEmpty { emailTaken = try isEmailTaken(email) }
        var violations = policy.violations(
            in: form, isUsernameTaken: { _ in usernameTaken }, isEmailTaken: { _ in emailTaken })
        let usesUsername = policy.uses(.username)
        if usesUsername,
            let v = CredentialPolicy(
                id: "", name: "", rules: [CredentialPolicy.usernameIsNotAnEmail],
                requiresEmailVerification: false
            ).violations(in: form).first
        {
            violations.append(v)
        }
        guard violations.isEmpty else { throw .registrationRejected(violations) }

        let userID = AccountRandomness.uuid(using: &rng).uuidString
        // A policy without usernames (BeenThereDoneThat: sign-in by email) stores none, whatever the form holds.
        let username =
            usesUsername
            ? form.username.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
            : nil
        let email = form.email.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        let passwordHash = try hasher.hash(form.password, using: &rng)
        let emailCipher = try email.map { (e: String) throws(AccountStoreError) -> Data in
            try cipher.seal(Array(e.utf8), context: emailContext(userID: userID), using: &rng)
        }
        let record = NewAccount(
            id: userID, username: username, usernameKey: username.map(Self.usernameKey),
            emailCipher: emailCipher, emailIndex: email.map(emailIndex), passwordHash: passwordHash,
            role: role, createdAt: now)

        if policy.requiresEmailVerification, let email, let emailCipher {
            return .pendingVerification(
                try storePending(record, email: email, emailCipher: emailCipher, role: role, now: now, using: &rng))
        }
        let account = try write { db in try insertAccount(record, db: db) }
        return .created(account)
    }

    /// Keeps `record` pending until its e-mail `email` is confirmed: stores it with a fresh code's digest
    /// (replacing a pending registration of the same address, within its budget of codes) and returns
    /// the code to deliver.
    private func storePending(
        _ record: NewAccount, email: String, emailCipher: Data, role: Role, now: Date,
        using rng: inout some RandomNumberGenerator
    ) throws(AccountStoreError) -> VerificationDelivery {
        let passwordHash = record.passwordHash
        let userID = record.id
        let pendingID = AccountRandomness.uuid(using: &rng).uuidString
        let code = configuration.verification.makeCode(using: &rng)
        let expiresAt = now.addingTimeInterval(configuration.verification.lifetimeSeconds)
        let digest = codeDigest(code, pendingID: pendingID)
        let verification = configuration.verification
        try write { db in
            try purgeStalePendingRegistrations(db, now: now)
            // A new registration of the same address replaces the pending one (its code stops
            // working) and spends the same budget of codes.
            let budget = try db.fetchOne(
                """
                SELECT MAX(codes_issued) AS issued, MIN(budget_start) AS start FROM pending_registrations WHERE email_index = ?
                """, [record.emailIndex])
            let issued = try budget?["issued"] as Int? ?? 0
            let start = try budget?["start"] as Double? ?? now.timeIntervalSince1970
            if issued >= verification.maxCodesPerEmail {
                throw AccountStoreError.verificationCodeLimit(
                    retryAfterSeconds: start + verification.codeBudgetSeconds - now.timeIntervalSince1970)
            }
            try db.execute("DELETE FROM pending_registrations WHERE email_index = ?", [record.emailIndex])
            try db.execute(
                """
                INSERT INTO pending_registrations (id, user_id, username, username_key, email_cipher, email_index,
                    password_hash, role, code_digest, code_expires_at, attempts_left, created_at, codes_issued, budget_start)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    pendingID, userID, record.username, record.usernameKey, emailCipher,
                    record.emailIndex, passwordHash, role.rawValue, digest,
                    expiresAt.timeIntervalSince1970, verification.maxAttempts,
                    now.timeIntervalSince1970, issued + 1, issued == 0 ? now.timeIntervalSince1970 : start,
                ])
        }
        return VerificationDelivery(pendingID: pendingID, email: email, code: code, expiresAt: expiresAt)
    }

    /// Confirms a pending registration with the code the user received, creating the account
    /// (SkyScape REG1 1.4.3–1.5). A wrong code uses one attempt.
    /// - Throws: ``AccountStoreError/verificationCodeIncorrect(attemptsLeft:)``,
    ///   ``AccountStoreError/verificationCodeExpired``, ``AccountStoreError/verificationAttemptsExhausted``,
    ///   ``AccountStoreError/unknownPendingRegistration(_:)``, or a rejection if the username
    ///   or email was taken meanwhile.
    public func verifyEmail(pendingID: String, code: String, now: Date) throws(AccountStoreError) -> UserAccount {
        let submitted = codeDigest(code.trimmingCharacters(in: .whitespacesAndNewlines), pendingID: pendingID)
        // The write commits the decremented attempt count even when the code is wrong, so
        // the outcome is returned from the transaction and thrown afterwards.
        let outcome: Result<UserAccount, AccountStoreError> = try write { db in
            guard
                let row = try db.fetchOne("SELECT * FROM pending_registrations WHERE id = ?", [pendingID])
            else {
                return .failure(.unknownPendingRegistration(pendingID))
            }
            var state = try VerificationState(
                codeDigest: [UInt8](row["code_digest"] as Data),
                expiresAt: Date(timeIntervalSince1970: row["code_expires_at"]), attemptsLeft: row["attempts_left"])
            do throws(AccountStoreError) {
                try state.check(submittedDigest: [UInt8](submitted), now: now)
            } catch {
                try db.execute(
                    "UPDATE pending_registrations SET attempts_left = ? WHERE id = ?", [state.attemptsLeft, pendingID])
                return .failure(error)
            }
            guard let role = Role(rawValue: try row["role"]) else {
                throw AccountStoreError.storageCorrupted("unknown role in pending registration \(pendingID)")
            }
            let record = try NewAccount(
                id: row["user_id"], username: row["username"], usernameKey: row["username_key"],
                emailCipher: row["email_cipher"], emailIndex: row["email_index"], passwordHash: row["password_hash"],
                role: role, createdAt: Date(timeIntervalSince1970: row["created_at"]))
            let account = try insertAccount(record, db: db)
            try db.execute("DELETE FROM pending_registrations WHERE id = ?", [pendingID])
            return .success(account)
        }
        return try outcome.get()
    }

    /// Deletes pending registrations whose budget window is over (they hold a password hash and
    /// an encrypted email, and are of no use once no code can be sent for them).
    func purgeStalePendingRegistrations(_ db: SQLiteConnection, now: Date) throws {
        try db.execute(
            "DELETE FROM pending_registrations WHERE budget_start <= ? AND code_expires_at <= ?",
            [
                now.timeIntervalSince1970 - configuration.verification.codeBudgetSeconds,
                now.timeIntervalSince1970,
            ])
    }

    func codeDigest(_ code: String, pendingID: String) -> Data {
        index.digest(code, purpose: "verification:\(pendingID)")
    }

    /// Inserts an account after re-checking uniqueness inside the transaction.
    func insertAccount(_ record: NewAccount, db: SQLiteConnection) throws -> UserAccount {
        var clashes: [CredentialViolation] = []
        let rules = configuration.policy.rules
        if let key = record.usernameKey,
            try db.fetchValue(Bool.self, "SELECT EXISTS (SELECT 1 FROM users WHERE username_key = ?)", [key])
                == true
        {
            clashes.append(
                rules.first { $0.check == .uniqueUsername }.map(CredentialViolation.init(rule:))
                    ?? CredentialViolation(rule: Self.fallbackUsernameRule))
        }
        if let emailIndex = record.emailIndex,
            try db.fetchValue(Bool.self, "SELECT EXISTS (SELECT 1 FROM users WHERE email_index = ?)", [emailIndex])
                == true
        {
            clashes.append(
                rules.first { $0.check == .uniqueEmail }.map(CredentialViolation.init(rule:))
                    ?? CredentialViolation(rule: Self.fallbackEmailRule))
        }
        guard clashes.isEmpty else { throw AccountStoreError.registrationRejected(clashes) }
        try db.execute(
            """
            INSERT INTO users (id, username, username_key, email_cipher, email_index, password_hash, role, policy_id,
                created_at, last_sign_in_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
            """,
            [
                record.id, record.username, record.usernameKey, record.emailCipher, record.emailIndex,
                record.passwordHash, record.role.rawValue, configuration.policy.id,
                record.createdAt.timeIntervalSince1970,
            ])
        guard let row = try db.fetchOne("SELECT * FROM users WHERE id = ?", [record.id]) else {
            throw AccountStoreError.database("account \(record.id) vanished after insertion")
        }
        return try decodeAccount(row)
    }

    static let fallbackUsernameRule = CredentialRule(
        id: "fieldtest-unique-username", field: .username, check: .uniqueUsername,
        requirement: "Usernames identify accounts, so no two accounts may share one (Fieldtest).",
        requirementSource: "fieldtest", message: "This username is already taken. Please choose another username.",
        messageSource: .fieldtest)

    static let fallbackEmailRule = CredentialRule(
        id: "fieldtest-unique-email", field: .email, check: .uniqueEmail,
        requirement: "Email addresses identify accounts, so no two accounts may share one (Fieldtest).",
        requirementSource: "fieldtest", message: "An account with this email address already exists.",
        messageSource: .fieldtest)
}

/// A row about to be inserted into `users`.
struct NewAccount {
    let id: String
    let username: String?
    let usernameKey: String?
    let emailCipher: Data?
    let emailIndex: Data?
    let passwordHash: String
    let role: Role
    let createdAt: Date
}
