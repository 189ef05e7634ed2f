import FieldtestCrypto
import Foundation
import Synchronization

/// Parameters of salted PBKDF2-HMAC-SHA256 password hashing (RFC 8018 §5.2).
///
/// The production floor of 600,000 iterations is OWASP's Password Storage Cheat Sheet
/// figure for PBKDF2-HMAC-SHA256 (2023). Salts are 16 bytes (NIST SP 800-132 §5.1 asks for
/// at least 128 bits), the derived hash 32 bytes (one SHA-256 block, so no extra PBKDF2 block).
public struct PasswordHashingParameters: Sendable, Equatable {
    /// The production minimum number of PBKDF2 iterations.
    public static let productionMinimumIterations = 600_000
    /// The largest iteration count accepted from a stored hash (guards against a tampered row
    /// making a single login take minutes).
    public static let maximumIterations = 10_000_000

    /// PBKDF2 iteration count.
    public let iterations: Int
    /// Salt length in bytes.
    public let saltByteCount: Int
    /// Derived hash length in bytes.
    public let hashByteCount: Int

    /// Production parameters: 600,000 iterations, 16-byte salt, 32-byte hash.
    public static let production = PasswordHashingParameters(unchecked: productionMinimumIterations, salt: 16, hash: 32)

    /// Checked parameters for production use.
    /// - Throws: ``AccountStoreError/insecureHashingParameters(_:)`` when iterations are
    ///   below 600,000, the salt is shorter than 16 bytes or the hash shorter than 32 bytes.
    public init(iterations: Int, saltByteCount: Int = 16, hashByteCount: Int = 32) throws(AccountStoreError) {
        guard iterations >= Self.productionMinimumIterations, iterations <= Self.maximumIterations else {
            throw .insecureHashingParameters(
                "\(iterations) PBKDF2 iterations; use \(Self.productionMinimumIterations)–\(Self.maximumIterations)")
        }
        guard saltByteCount >= 16 else {
            throw .insecureHashingParameters("a \(saltByteCount)-byte salt; use at least 16 bytes")
        }
        guard hashByteCount >= 32 else {
            throw .insecureHashingParameters("a \(hashByteCount)-byte hash; use at least 32 bytes")
        }
        self.init(unchecked: iterations, salt: saltByteCount, hash: hashByteCount)
    }

    private init(unchecked iterations: Int, salt: Int, hash: Int) {
        self.iterations = iterations
        saltByteCount = salt
        hashByteCount = hash
    }

    /// Parameters below the production floor, ONLY for tests and scenarios that hash many
    /// passwords. Never use for real accounts. `iterations` is clamped to at least 1.
    public static func unsafeForTesting(iterations: Int) -> PasswordHashingParameters {
        PasswordHashingParameters(unchecked: max(1, iterations), salt: 16, hash: 32)
    }
}

/// A parsed self-describing password hash string:
/// `$pbkdf2-sha256$i=<iterations>$<salt>$<hash>`, salt and hash in unpadded standard
/// Base64 (the layout of the PHC string format, github.com/P-H-C/phc-string-format).
public struct PasswordHash: Sendable, Equatable {
    /// The algorithm identifier; always `pbkdf2-sha256`.
    public static let algorithm = "pbkdf2-sha256"

    /// PBKDF2 iterations.
    public let iterations: Int
    /// The salt.
    public let salt: [UInt8]
    /// The derived key.
    public let hash: [UInt8]

    /// Creates a hash record.
    public init(iterations: Int, salt: [UInt8], hash: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.hash = hash
    }

    /// Parses `encoded`.
    /// - Throws: ``AccountStoreError/malformedPasswordHash(_:)`` naming the faulty part.
    public init(encoded: String) throws(AccountStoreError) {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty else {
            throw .malformedPasswordHash("expected '$pbkdf2-sha256$i=N$salt$hash'")
        }
        guard parts[1] == Self.algorithm else { throw .malformedPasswordHash("unknown algorithm '\(parts[1])'") }
        guard parts[2].hasPrefix("i="), let n = Int(parts[2].dropFirst(2)),
            n >= 1, n <= PasswordHashingParameters.maximumIterations
        else {
            throw .malformedPasswordHash("bad iteration field '\(parts[2])'")
        }
        guard let salt = Self.decode(parts[3]), salt.count >= 8 else { throw .malformedPasswordHash("bad salt") }
        guard let hash = Self.decode(parts[4]), hash.count >= 16 else { throw .malformedPasswordHash("bad hash") }
        self.init(iterations: n, salt: salt, hash: hash)
    }

    /// The self-describing string stored in the database.
    public var encoded: String {
        "$\(Self.algorithm)$i=\(iterations)$\(Self.encode(salt))$\(Self.encode(hash))"
    }

    private static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    private static func decode(_ text: Substring) -> [UInt8]? {
        var padded = String(text)
        while padded.count % 4 != 0 { padded.append("=") }
        return Data(base64Encoded: padded).map { [UInt8]($0) }
    }
}

/// Salted PBKDF2-HMAC-SHA256 password hashing with constant-time verification.
///
/// Passwords are normalised to Unicode NFKC before hashing (NIST SP 800-63B §5.1.1.2), so a
/// password typed with a composed or decomposed "é" verifies either way. Cost: O(iterations)
/// HMAC-SHA256 evaluations per hash or verification (about 0.2–0.5 s at 600,000).
public struct PasswordHasher: Sendable, Equatable {
    /// The parameters new hashes are made with.
    public let parameters: PasswordHashingParameters

    /// A hasher making hashes with `parameters`.
    public init(parameters: PasswordHashingParameters = .production) {
        self.parameters = parameters
    }

    /// A new salted hash of `password`, as a self-describing string. The salt comes from `rng`
    /// (pass `SystemRandomNumberGenerator` in production, see ``AccountRandomness``).
    public func hash(_ password: String, using rng: inout some RandomNumberGenerator) throws(AccountStoreError)
        -> String
    {
        let salt = AccountRandomness.bytes(parameters.saltByteCount, using: &rng)
        let derived = try Self.derive(
            password, salt: salt, iterations: parameters.iterations,
            byteCount: parameters.hashByteCount)
        return PasswordHash(iterations: parameters.iterations, salt: salt, hash: derived).encoded
    }

    /// Whether `password` matches `encoded`, compared in constant time.
    /// - Throws: ``AccountStoreError/malformedPasswordHash(_:)`` when `encoded` cannot be parsed.
    public func verify(_ password: String, against encoded: String) throws(AccountStoreError) -> Bool {
        let stored = try PasswordHash(encoded: encoded)
        let derived = try Self.derive(
            password, salt: stored.salt, iterations: stored.iterations,
            byteCount: stored.hash.count)
        return ConstantTime.equals(derived, stored.hash)
    }

    /// Whether `encoded` was made with weaker parameters than this hasher's (rehash on next login).
    public func needsRehash(_ encoded: String) -> Bool {
        guard let stored = try? PasswordHash(encoded: encoded) else { return true }
        return stored.iterations < parameters.iterations || stored.salt.count < parameters.saltByteCount
            || stored.hash.count < parameters.hashByteCount
    }

    /// Runs the same key derivation as ``verify(_:against:)`` against a dummy hash, so a login
    /// for an unknown account costs the same time as one for a known account. Returns `false`.
    public func verifyAgainstDummy(_ password: String) -> Bool {
        let salt = [UInt8](repeating: 0x5A, count: parameters.saltByteCount)
        let derived =
            (try? Self.derive(
                password, salt: salt, iterations: parameters.iterations,
                byteCount: parameters.hashByteCount)) ?? []
        let dummy = [UInt8](repeating: 0, count: parameters.hashByteCount)
        _ = ConstantTime.equals(derived, dummy)
        return false
    }

    /// PBKDF2-HMAC-SHA256 of the NFKC-normalised UTF-8 password (libcrypto's `PKCS5_PBKDF2_HMAC`;
    /// the floor is enforced by ``PasswordHashingParameters``).
    static func derive(_ password: String, salt: [UInt8], iterations: Int, byteCount: Int) throws(AccountStoreError)
        -> [UInt8]
    {
        let started = DispatchTime.now().uptimeNanoseconds
        defer { KDFClock.add(nanoseconds: DispatchTime.now().uptimeNanoseconds &- started) }
        let bytes = Array(password.precomposedStringWithCompatibilityMapping.utf8)
        do {
            return try PBKDF2SHA256.deriveKey(
                password: bytes, salt: salt, iterations: iterations, outputByteCount: byteCount)
        } catch {
            throw .insecureHashingParameters("PBKDF2 failed: \(error)")
        }
    }
}

/// Wall-clock time spent in PBKDF2 by this process, summed over every thread (for `bench sweep`'s
/// breakdown of where a case's time goes).
public enum KDFClock {
    private static let total = Mutex<(calls: Int, nanoseconds: UInt64)>((0, 0))

    static func add(nanoseconds: UInt64) {
        total.withLock {
            $0.calls += 1
            $0.nanoseconds &+= nanoseconds
        }
    }

    /// Derivations so far, and their seconds.
    public static var spent: (calls: Int, seconds: Double) {
        total.withLock { ($0.calls, Double($0.nanoseconds) / 1e9) }
    }
}
