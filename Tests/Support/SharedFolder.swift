import Foundation
import Testing

/// Files beside the repository in `../shared`: data that may not be redistributed and the apps'
/// specifications. CI must have them, so with `CI=true` a test that needs a missing one runs and
/// fails saying which; elsewhere it is skipped, and the skip names the file.
public enum SharedFolder {
    /// `../shared`, beside the repository root.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")

    /// Whether the environment says this is CI (`CI=true`, as CI services and `.ci/run` set it).
    public static var onCI: Bool {
        ["true", "1"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")
    }

    /// The file or folder at `relative` under `../shared`.
    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// Whether `relative` exists under `../shared`.
    public static func has(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: url(relative).path) }

    /// Runs the test when `relative` is there, or on CI (where ``require(_:)`` then fails it); skips
    /// it elsewhere, naming the file.
    public static func needs(_ relative: String) -> ConditionTrait {
        .enabled(
            if: has(relative) || onCI,
            "skipped: needs ../shared/\(relative), which is missing (with CI=true this is a failure)")
    }

    /// The URL of `relative`; fails the test with a message naming it when it is missing.
    @discardableResult
    public static func require(_ relative: String) throws -> URL {
        try #require(
            has(relative),
            """
            ../shared/\(relative) is missing (\(url(relative).path)): CI must check out the shared folder \
            beside the repository
            """)
        return url(relative)
    }
}
