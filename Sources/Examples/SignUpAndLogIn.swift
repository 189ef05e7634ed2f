import AccountStore
import Foundation

/// Accounts in-process: register a user under an app's credential policy, then sign in.
/// Passwords are hashed with PBKDF2-SHA256; e-mail addresses and usernames are encrypted at rest.
enum SignUpAndLogIn: InProcessExample {
    static func run() throws {
        // snippet.register
        // A throw-away store: nil path keeps the database in memory. A real store takes a file and a 32-byte
        // key from a key file or a secrets manager (`KeyProvider.parse`).
        var rng = SystemRandomNumberGenerator()
        let keys = try KeyProvider(keyBytes: AccountRandomness.bytes(32, using: &rng))
        let registry = try AccountRegistry(
            path: nil, keys: keys,
            configuration: AccountRegistryConfiguration(policy: CredentialPolicy.named("beentheredonethat")!))
        // BeenThereDoneThat's policy: sign-up and sign-in by e-mail address, no username.
        let form = RegistrationForm(email: "ana@example.org", password: "correct horse battery")
        if case .created(let account) = try registry.register(form, now: Date(), using: &rng) {
            print("registered", account.email ?? "", "as", account.role)
        }
        // snippet.end

        // snippet.login
        // A wrong password is an error that says why; after too many the store throttles sign-ins.
        do {
            _ = try registry.login(identifier: "ana@example.org", password: "wrong horse", now: Date(), using: &rng)
        } catch {
            print("refused:", error)
        }
        let account = try registry.login(
            identifier: "ana@example.org", password: "correct horse battery", now: Date(), using: &rng)
        print("signed in", account.email ?? "", "at", account.lastSignInAt.map { $0.formatted(.iso8601) } ?? "")
        // snippet.end
    }
}
