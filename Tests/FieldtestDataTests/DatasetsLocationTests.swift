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

/// Where an installed or moved executable finds the bundled data (`make install`).
@Suite("Bundled data look-up order")
struct BundledDataLookupTests {
    static let checkout = URL(fileURLWithPath: "/src/fieldtest")
    static let installed = URL(fileURLWithPath: "/opt/ft/bin/fieldtest")
    static let share = URL(fileURLWithPath: "/opt/ft/share/fieldtest/Datasets")
    static let elsewhere = URL(fileURLWithPath: "/", isDirectory: true)

    func bundled(_ env: [String: String], executable: URL?, existing: [URL]) -> BundledSearch {
        DatasetsLocation.bundledSearch(
            currentDirectory: Self.elsewhere, executable: executable, environment: env,
            buildCheckout: Self.checkout, fileExists: DatasetsLocationTests.exists(existing))
    }

    @Test func anInstalledExecutableFindsItsShareFolderBeforeTheCheckoutItWasBuiltIn() {
        let search = bundled(
            [:], executable: Self.installed, existing: [Self.share, Self.checkout.appendingPathComponent("Datasets")])
        #expect(search.found?.folder.path == Self.share.path)
        #expect(search.found?.source == .installed)
    }

    @Test func anExecutableCopiedAwayFallsBackToTheCheckoutItWasBuiltIn() {
        let search = bundled(
            [:], executable: URL(fileURLWithPath: "/tmp/x/fieldtest"),
            existing: [Self.checkout.appendingPathComponent("Datasets")])
        #expect(search.found?.folder.path == "/src/fieldtest/Datasets")
        #expect(search.found?.source == .buildCheckout)
    }

    @Test func theWorkingDirectoryComesBeforeTheInstalledData() {
        let local = Self.elsewhere.appendingPathComponent("Datasets")
        let search = bundled([:], executable: Self.installed, existing: [local, Self.share])
        #expect(search.found?.source == .workingDirectory)
    }

    @Test func fieldtestDataIsTheOnlyPlaceLookedAtWhenSet() {
        // Either the folder holding Datasets/ (a share folder, a checkout) or the Datasets folder itself.
        let root = URL(fileURLWithPath: "/data/ft")
        let viaRoot = bundled(
            ["FIELDTEST_DATA": "/data/ft"], executable: Self.installed,
            existing: [root.appendingPathComponent("Datasets"), Self.share])
        #expect(viaRoot.found?.folder.path == "/data/ft/Datasets")
        #expect(viaRoot.found?.source == .environment)
        let direct = bundled(["FIELDTEST_DATA": "/data/ft"], executable: Self.installed, existing: [root, Self.share])
        #expect(direct.found?.folder.path == "/data/ft")
        // Set wrong: reported, not silently replaced by the installed data.
        let wrong = bundled(["FIELDTEST_DATA": "/nowhere"], executable: Self.installed, existing: [Self.share])
        #expect(wrong.found == nil)
        #expect(wrong.searched.allSatisfy { $0.source == .environment })
        #expect(wrong.searchedText.contains("/nowhere/Datasets  ($FIELDTEST_DATA)"))
    }

    @Test func nothingFoundListsEveryPlaceLookedAtInOrder() {
        let search = bundled([:], executable: Self.installed, existing: [])
        #expect(search.found == nil)
        let lines = search.searchedText.split(separator: "\n").map { String($0) }
        #expect(lines.first == "  /Datasets  (the working directory)")
        #expect(
            lines.dropFirst().first
                == "  /opt/ft/share/fieldtest/Datasets  (<executable>/../share/fieldtest (make install))")
        #expect(lines.last == "  /src/fieldtest/Datasets  (the checkout the executable was built in)")
        #expect(Set(lines).count == lines.count)
    }

    @Test func aFileIsTakenFromTheTopFolderOfTheOverlayThatHoldsIt() {
        let mine = URL(fileURLWithPath: "/home/me/data")
        let model = "models/m.ftsm"
        let exists: (String) -> Bool = {
            [
                Self.share.appendingPathComponent("MANIFEST.csv").path, Self.share.appendingPathComponent(model).path,
                mine.appendingPathComponent(model).path,
            ].contains($0)
        }
        func folder(_ options: [String], _ path: String = model) -> String {
            DatasetsLocation.folder(
                holding: path, options: options, environment: [:], currentDirectory: Self.elsewhere,
                executable: Self.installed, fileExists: exists
            ).path
        }
        #expect(folder([]) == Self.share.path)
        #expect(folder(["/home/me/data"]) == "/home/me/data")
        // A user folder without the file: the bundled one below still serves it (an overlay, not a replacement).
        #expect(folder(["/home/me/other"]) == Self.share.path)
        // Nowhere: the top user folder is named, where a user would put it.
        #expect(folder(["/home/me/other"], "lexicons") == "/home/me/other")
    }
}
