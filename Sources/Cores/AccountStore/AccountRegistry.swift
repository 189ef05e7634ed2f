import FieldtestData
import Foundation

/// Settings of an ``AccountRegistry``.
public struct AccountRegistryConfiguration: Sendable, Equatable {
    /// The credential rules sign-ups must meet.
    public var policy: CredentialPolicy
    /// How new password hashes are made.
    public var hashing: PasswordHashingParameters
    /// Failed-login throttling.
    public var throttle: LoginThrottlePolicy
    /// Verification codes (used when the policy requires email verification).
    public var verification: VerificationCodePolicy
    /// Role-based access rules.
    public var access: AccessPolicy

    /// Creates a configuration; defaults are production values.
    public init(
        policy: CredentialPolicy, hashing: PasswordHashingParameters = .production,
        throttle: LoginThrottlePolicy = .standard, verification: VerificationCodePolicy = .standard,
        access: AccessPolicy = .navUP
    ) {
        self.policy = policy
        self.hashing = hashing
        self.throttle = throttle
        self.verification = verification
        self.access = access
    }
}

/// Accounts in an SQLite database (``SQLiteDatabase``), with every sensitive field encrypted.
///
/// What is stored, per user: a random UUID, the username (not secret: SkyScape lets users
/// find each other by it) with its lower-cased form for case-insensitive uniqueness, the
/// email as AES-256-GCM ciphertext plus a keyed HMAC blind index of its normalised form (for
/// uniqueness and login without plaintext), the PBKDF2 password hash string, the role and
/// the creation and last sign-in times. The key comes
/// from a ``KeyProvider`` and is never stored. All SQL is parameterised. `secure_delete` is
/// on, so deleted rows are overwritten with zeros in the file.
///
/// The registry reads no clock: every operation takes `now`. Randomness comes from the
/// caller's generator (``AccountRandomness``).
public struct AccountRegistry: Sendable {
    /// The settings.
    public let configuration: AccountRegistryConfiguration
    let database: SQLiteDatabase
    let cipher: FieldCipher
    let index: BlindIndex
    let hasher: PasswordHasher

    /// Opens (creating if needed) the registry at `path`, or an in-memory one when `path` is nil.
    /// `durability` `.emulated` stops commits from syncing the host disk (for an emulated phone's
    /// registry in a temporary folder).
    /// - Throws: ``AccountStoreError/keyUnavailable(_:)`` when the database was created with
    ///   another key; ``AccountStoreError/database(_:)`` when SQLite fails.
    public init(
        path: String?, keys: KeyProvider, configuration: AccountRegistryConfiguration,
        durability: HostDurability = .durable
    ) throws(AccountStoreError) {
        self.configuration = configuration
        cipher = FieldCipher(key: keys.fieldEncryptionKey)
        index = BlindIndex(key: keys.indexKey)
        hasher = PasswordHasher(parameters: configuration.hashing)
        let options = SQLiteDatabase.Options(
            pragmas: ["PRAGMA secure_delete = ON"] + (durability.sqlitePragma.map { [$0] } ?? []))
        do {
            if let path { try PrivateFiles.prepareFile(atPath: path) }
            database = try SQLiteDatabase(path: path ?? ":memory:", options: options)
            try database.migrate(Self.migrations)
        } catch {
            throw .database("cannot open account database at \(path ?? ":memory:"): \(error)")
        }
        try write { db in try keys.verifyKeyCheck(in: db, store: "the database") }
    }

    static let migrations = [
        SQLiteMigration(
            "v1-accounts",
            sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                CREATE TABLE users (
                    id TEXT PRIMARY KEY NOT NULL,
                    username TEXT,
                    username_key TEXT UNIQUE,
                    email_cipher BLOB,
                    email_index BLOB UNIQUE,
                    password_hash TEXT NOT NULL,
                    role TEXT NOT NULL,
                    policy_id TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    last_sign_in_at REAL
                );
                CREATE TABLE pending_registrations (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL,
                    username TEXT,
                    username_key TEXT,
                    email_cipher BLOB NOT NULL,
                    email_index BLOB NOT NULL,
                    password_hash TEXT NOT NULL,
                    role TEXT NOT NULL,
                    code_digest BLOB NOT NULL,
                    code_expires_at REAL NOT NULL,
                    attempts_left INTEGER NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE TABLE login_throttle (
                    identifier_index BLOB PRIMARY KEY NOT NULL,
                    failures INTEGER NOT NULL,
                    window_start REAL NOT NULL,
                    locked_until REAL
                );
                """),
        // How many codes the chain of registrations for one email address has been sent, and
        // since when (SkyScape REG1 1.4; bounded so that codes cannot be guessed by registering again).
        SQLiteMigration(
            "v2-verification-budget",
            sql: """
                    ALTER TABLE pending_registrations ADD COLUMN codes_issued INTEGER NOT NULL DEFAULT 1;
                    ALTER TABLE pending_registrations ADD COLUMN budget_start REAL NOT NULL DEFAULT 0;
                    CREATE INDEX pending_registrations_email ON pending_registrations(email_index);
                """),
    ]

    // MARK: Database access with typed errors

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws(AccountStoreError) -> T {
        do { return try database.read(body) } catch let error as AccountStoreError { throw error } catch {
            throw .database("\(error)")
        }
    }

    func write<T>(_ body: (SQLiteConnection) throws -> T) throws(AccountStoreError) -> T {
        do { return try database.write(body) } catch let error as AccountStoreError { throw error } catch {
            throw .database("\(error)")
        }
    }

    // MARK: Keys and lookups

    /// Case-insensitive key of a username: trimmed, NFC, lower-cased.
    static func usernameKey(_ username: String) -> String {
        username.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
    }

    func emailIndex(_ email: String) -> Data {
        index.digest(EmailAddress.normalised(email), purpose: "email")
    }

    func emailContext(userID: String) -> String { "users.email:\(userID)" }

    func decodeAccount(_ row: SQLiteRow) throws -> UserAccount {
        let id: String = try row["id"]
        var email: String?
        if let sealed = try row["email_cipher"] as Data? {
            let bytes = try cipher.open(sealed, context: emailContext(userID: id))
            email = String(decoding: bytes, as: UTF8.self)
        }
        guard let role = Role(rawValue: try row["role"]) else {
            throw AccountStoreError.storageCorrupted("unknown role '\(try row["role"] as String)' for user \(id)")
        }
        let lastSignIn: Double? = try row["last_sign_in_at"]
        return try UserAccount(
            id: id, username: row["username"], email: email, role: role, policyID: row["policy_id"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            lastSignInAt: lastSignIn.map(Date.init(timeIntervalSince1970:)))
    }

    /// The account with user ID `id`.
    /// - Throws: ``AccountStoreError/unknownUser(_:)``.
    public func account(id: String) throws(AccountStoreError) -> UserAccount {
        try read { db in
            guard let row = try db.fetchOne("SELECT * FROM users WHERE id = ?", [id]) else {
                throw AccountStoreError.unknownUser(id)
            }
            return try decodeAccount(row)
        }
    }

    /// Number of accounts.
    public func accountCount() throws(AccountStoreError) -> Int {
        try read { db in try db.fetchValue(Int.self, "SELECT COUNT(*) FROM users") ?? 0 }
    }

    /// Whether an account uses `username`, ignoring case.
    public func isUsernameTaken(_ username: String) throws(AccountStoreError) -> Bool {
        let key = Self.usernameKey(username)
        return try read { db in
            try db.fetchValue(Bool.self, "SELECT EXISTS (SELECT 1 FROM users WHERE username_key = ?)", [key])
                ?? false
        }
    }

    /// Whether an account uses `email`, ignoring case (via the blind index; no decryption).
    public func isEmailTaken(_ email: String) throws(AccountStoreError) -> Bool {
        let key = emailIndex(email)
        return try read { db in
            try db.fetchValue(Bool.self, "SELECT EXISTS (SELECT 1 FROM users WHERE email_index = ?)", [key])
                ?? false
        }
    }
}
