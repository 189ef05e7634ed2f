/// Namespace of the AccountStore module: accounts with per-specification credential
/// policies, salted slow password hashes, AES-GCM field encryption at rest, and roles,
/// and the offline-first journal with its idempotent synchronisation.
///
/// Every operation that needs the current time takes it as a `Date` parameter (UTC), and
/// every operation that needs randomness takes an `inout RandomNumberGenerator`, so the
/// scenario engine can drive the module on a virtual clock with a seeded generator.
/// Production callers must pass `SystemRandomNumberGenerator()` (a CSPRNG); see
/// ``AccountRandomness``.
public enum AccountStoreModule {}
