import Foundation
import Testing

/// The test tiers (CONTRIBUTING.md): `make test` runs the fast tier; `make test-all`, which CI runs,
/// sets `FIELDTEST_TEST_TIER=all` and runs the heavy tests too.
public enum TestTier {
    /// Whether the heavy tier runs.
    public static var all: Bool { ProcessInfo.processInfo.environment["FIELDTEST_TEST_TIER"] == "all" }
}

extension Trait where Self == ConditionTrait {
    /// A heavy test or suite (many runs of the built binary, kills and resumes, whole sweeps, the full
    /// retrain): it runs in `make test-all` and CI, and is skipped, saying so, by `make test`.
    public static var heavy: Self {
        .enabled(if: TestTier.all, "heavy tier: runs in make test-all (FIELDTEST_TEST_TIER=all)")
    }
}
