import Foundation
import Testing

@testable import FieldtestData

/// How commands find the datasets folder: option, environment, working directory,
/// then the checkout the executable was built in.
@Suite("Datasets location")
struct DatasetsLocationTests {
    static let checkout = URL(fileURLWithPath: "/src/fieldtest")
    static let executable = checkout.appendingPathComponent(".build/x86_64-unknown-linux-gnu/release/fieldtest")
    static let elsewhere = URL(fileURLWithPath: "/home/user/work", isDirectory: true)

    /// A file system holding exactly `manifests` (datasets folders).
    static func exists(_ manifests: [URL]) -> (String) -> Bool {
        let paths = Set(manifests.map { $0.appendingPathComponent("MANIFEST.csv").path })
        return { paths.contains($0) }
    }

    @Test func optionWinsAndIsTakenRelativeToTheWorkingDirectory() {
        let url = DatasetsLocation.resolve(
            option: "data/../mine", environment: ["FIELDTEST_DATASETS": "/env"], currentDirectory: Self.elsewhere,
            executable: Self.executable, fileExists: Self.exists([Self.checkout.appendingPathComponent("Datasets")]))
        #expect(url.path == "/home/user/work/mine")
    }

    @Test func environmentComesBeforeAnyFolderOnDisk() {
        let url = DatasetsLocation.resolve(
            option: nil, environment: ["FIELDTEST_DATASETS": "/env/data"], currentDirectory: Self.elsewhere,
            executable: Self.executable, fileExists: Self.exists([Self.elsewhere.appendingPathComponent("Datasets")]))
        #expect(url.path == "/env/data")
        let empty = DatasetsLocation.resolve(
            option: nil, environment: ["FIELDTEST_DATASETS": ""], currentDirectory: Self.elsewhere,
            executable: nil, fileExists: Self.exists([]))
        #expect(empty.path == "/home/user/work/Datasets")
    }

    @Test func workingDirectoryDatasetsComeBeforeTheCheckout() {
        let local = Self.elsewhere.appendingPathComponent("Datasets")
        let url = DatasetsLocation.resolve(
            option: nil, environment: [:], currentDirectory: Self.elsewhere, executable: Self.executable,
            fileExists: Self.exists([local, Self.checkout.appendingPathComponent("Datasets")]))
        #expect(url.path == local.path)
    }

    @Test func theCheckoutOfTheExecutableIsFoundFromAnyDirectory() {
        let url = DatasetsLocation.resolve(
            option: nil, environment: [:], currentDirectory: Self.elsewhere, executable: Self.executable,
            fileExists: Self.exists([Self.checkout.appendingPathComponent("Datasets")]))
        #expect(url.path == "/src/fieldtest/Datasets")
    }

    @Test func withoutAnyDatasetsFolderErrorsNameTheWorkingDirectory() {
        // A folder named Datasets without a manifest does not count; nor does one beyond the search depth.
        let deep = URL(fileURLWithPath: "/a/b/c/d/e/f/g/h/fieldtest")
        let url = DatasetsLocation.resolve(
            option: nil, environment: [:], currentDirectory: Self.elsewhere, executable: deep,
            fileExists: Self.exists([URL(fileURLWithPath: "/a/Datasets")]))
        #expect(url.path == "/home/user/work/Datasets")
        let none = DatasetsLocation.resolve(
            option: nil, environment: [:], currentDirectory: Self.elsewhere,
            executable: URL(fileURLWithPath: "/fieldtest"),
            fileExists: Self.exists([]))
        #expect(none.path == "/home/user/work/Datasets")
    }
}
