import FieldtestData
import Foundation

/// The git commit of a checkout, read from its `.git` files without running git or using the
/// network, so it works on a fresh clone, in a container without git and in a linked worktree.
///
/// Fieldtest records the commit of the checkout it was built from (the folder holding its
/// sources, found from `#filePath` at build time) as it is when the tool runs:
/// `FIELDTEST_COMMIT` overrides it (for a build from a source archive, or a binary moved off
/// its checkout), and it is nil when neither is there. A checkout switched to another commit
/// after the build is reported as its new commit: rebuild after switching.
public enum GitRevision {
    /// The file `make install` writes beside the installed data: the commit the binary was built from.
    public static let installedCommitFile = "COMMIT"

    /// `FIELDTEST_COMMIT` when set, else the commit `make install` recorded in `PREFIX/share/fieldtest/COMMIT`
    /// for an `executable` installed as `PREFIX/bin/fieldtest`, else the commit checked out in the git work
    /// tree that holds `sourceFile` (its HEAD followed through a branch's loose or packed ref), else nil.
    public static func current(
        sourceFile: String = #filePath, environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL?.resolvingSymlinksInPath()
    ) -> String? {
        if let given = environment["FIELDTEST_COMMIT"], !given.isEmpty { return given }
        if let executable,
            let text = try? String(
                contentsOf: DatasetsLocation.installedShare(executable: executable)
                    .appendingPathComponent(installedCommitFile), encoding: .utf8)
        {
            let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if isObjectName(line) { return line }
        }
        var folder = URL(fileURLWithPath: sourceFile).deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            let dotGit = folder.appendingPathComponent(".git")
            if FileManager.default.fileExists(atPath: dotGit.path) { return commit(gitEntry: dotGit) }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// The commit HEAD names in the repository of a work tree's `.git` entry: a folder, or in a
    /// linked worktree or submodule a file `gitdir: PATH`.
    public static func commit(gitEntry: URL) -> String? {
        var gitDir = gitEntry
        if let text = try? String(contentsOf: gitEntry, encoding: .utf8), text.hasPrefix("gitdir:") {
            let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            gitDir = URL(fileURLWithPath: path, relativeTo: gitEntry.deletingLastPathComponent()).standardizedFileURL
        }
        // A linked worktree keeps HEAD in its own folder and the refs in the common one.
        var commonDir = gitDir
        if let text = try? String(contentsOf: gitDir.appendingPathComponent("commondir"), encoding: .utf8) {
            let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
            commonDir = URL(fileURLWithPath: path, relativeTo: gitDir.appendingPathComponent("x")).standardizedFileURL
        }
        guard let head = try? String(contentsOf: gitDir.appendingPathComponent("HEAD"), encoding: .utf8) else {
            return nil
        }
        let line = head.trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix("ref:") else { return isObjectName(line) ? line : nil }
        let ref = line.dropFirst("ref:".count).trimmingCharacters(in: .whitespaces)
        for dir in [gitDir, commonDir] {
            if let text = try? String(contentsOf: dir.appendingPathComponent(ref), encoding: .utf8) {
                let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if isObjectName(name) { return name }
            }
        }
        // `git gc` moves refs into packed-refs: lines "<sha> <ref>".
        guard let packed = try? String(contentsOf: commonDir.appendingPathComponent("packed-refs"), encoding: .utf8)
        else { return nil }
        for entry in packed.split(separator: "\n") where !entry.hasPrefix("#") && !entry.hasPrefix("^") {
            let parts = entry.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[1] == ref, isObjectName(String(parts[0])) { return String(parts[0]) }
        }
        return nil
    }

    /// Whether `text` is a full SHA-1 or SHA-256 object name.
    static func isObjectName(_ text: String) -> Bool {
        (text.count == 40 || text.count == 64) && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
