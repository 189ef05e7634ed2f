import FieldtestData
import Foundation

extension AccountRegistry {
    /// Signs in with a username or email address and a password (SkyScape LOG1,
    /// BeenThereDoneThat 5.2.2.3–5.2.2.5).
    ///
    /// Any failure — unknown account, wrong password, empty field, unreadable stored hash —
    /// throws ``AccountStoreError/incorrectCredentials``, whose message is exactly
    /// "Incorrect username or password. Please try again." (LOG1-AF-S1/S2). For an unknown
    /// account the key derivation still runs against a dummy hash, so the response time
    /// does not tell whether the account exists. Repeated failures for one identifier are
    /// throttled (``LoginThrottlePolicy``), keyed by an HMAC of the identifier whether or not
    /// it exists. A success records `now` as the last sign-in and upgrades a hash made with
    /// weaker parameters.
    public func login(
        identifier: String, password: String, now: Date, using rng: inout some RandomNumberGenerator
    ) throws(AccountStoreError) -> UserAccount {
        let normalised = Self.usernameKey(identifier)
        let throttleKey = index.digest(normalised, purpose: "login")
        let policy = configuration.throttle
        let state: LoginThrottleState = try read { db in try Self.throttleState(db, throttleKey) }
        try state.admit(now: now)

        // An identifier with '@' is an email address, any other a username (usernames cannot hold '@').
        let isEmail = identifier.contains("@")
        let emailKey = emailIndex(identifier)
        let found: (id: String, hash: String)? = try read { db in
            let row =
                isEmail
                ? try db.fetchOne("SELECT id, password_hash FROM users WHERE email_index = ?", [emailKey])
                : try db.fetchOne("SELECT id, password_hash FROM users WHERE username_key = ?", [normalised])
            return try row.map { (try $0["id"], try $0["password_hash"]) }
        }
        let matches: Bool
        if let found, !password.isEmpty {
            matches = (try? hasher.verify(password, against: found.hash)) ?? false
        } else {
            matches = hasher.verifyAgainstDummy(password)
        }
        guard matches, let found else {
            try write { db in
                // The state as it is now: other attempts may have failed while the password was
                // being checked, and each of them must count.
                var next = try Self.throttleState(db, throttleKey)
                next.recordFailure(now: now, policy: policy)
                // Rows whose window and lockout are both over say nothing any more.
                try db.execute(
                    """
                    DELETE FROM login_throttle WHERE window_start < ? AND (locked_until IS NULL OR locked_until < ?)
                    """, [now.timeIntervalSince1970 - policy.windowSeconds, now.timeIntervalSince1970])
                try db.execute(
                    """
                    INSERT INTO login_throttle (identifier_index, failures, window_start, locked_until) VALUES (?, ?, ?, ?)
                    ON CONFLICT(identifier_index) DO UPDATE SET failures = excluded.failures,
                        window_start = excluded.window_start, locked_until = excluded.locked_until
                    """,
                    [
                        throttleKey, next.failures, next.windowStart.timeIntervalSince1970,
                        next.lockedUntil?.timeIntervalSince1970,
                    ])
            }
            throw .incorrectCredentials
        }
        let upgraded = hasher.needsRehash(found.hash) ? try hasher.hash(password, using: &rng) : nil
        return try write { db in
            try db.execute("DELETE FROM login_throttle WHERE identifier_index = ?", [throttleKey])
            try db.execute("UPDATE users SET last_sign_in_at = ? WHERE id = ?", [now.timeIntervalSince1970, found.id])
            if let upgraded {
                try db.execute("UPDATE users SET password_hash = ? WHERE id = ?", [upgraded, found.id])
            }
            guard let row = try db.fetchOne("SELECT * FROM users WHERE id = ?", [found.id]) else {
                throw AccountStoreError.unknownUser(found.id)
            }
            return try decodeAccount(row)
        }
    }

    /// The throttle state stored for `key` (a fresh one when there is none).
    static func throttleState(_ db: SQLiteConnection, _ key: Data) throws -> LoginThrottleState {
        guard
            let row = try db.fetchOne("SELECT * FROM login_throttle WHERE identifier_index = ?", [key])
        else {
            return LoginThrottleState()
        }
        let locked: Double? = try row["locked_until"]
        return try LoginThrottleState(
            failures: row["failures"], windowStart: Date(timeIntervalSince1970: row["window_start"]),
            lockedUntil: locked.map(Date.init(timeIntervalSince1970:)))
    }

    // MARK: Roles (NAV-F26)

    /// Throws ``AccountStoreError/accessDenied(role:action:resource:)`` unless the account's
    /// role may perform `action` on `resource` under the configured ``AccessPolicy``.
    public func authorize(userID: String, _ action: AccessAction, _ resource: ProtectedResource)
        throws(AccountStoreError)
    {
        let role = try account(id: userID).role
        try configuration.access.authorize(role, action, resource)
    }

    /// Changes the role of `userID` to `role`; `actorID` must be allowed to write user roles.
    public func setRole(of userID: String, to role: Role, by actorID: String) throws(AccountStoreError) {
        try authorize(userID: actorID, .write, .userRoles)
        _ = try account(id: userID)
        try write { db in
            try db.execute("UPDATE users SET role = ? WHERE id = ?", [role.rawValue, userID])
        }
    }
}
