// swift-tools-version: 6.1
//
// An example of a Swift sentiment system measured by Fieldtest in process: it depends on this
// repository by path, conforms to `SentimentSystem`, and runs a bundled miCity scenario from its
// own `swift test` (`make example-package` in the repository builds and tests it).

import PackageDescription

let package = Package(
    name: "SwiftSentimentSystem",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Fieldtest", path: "../..")],
    targets: [
        .target(
            name: "KeywordSentiment",
            dependencies: [.product(name: "Capabilities", package: "Fieldtest")]),
        .testTarget(
            name: "KeywordSentimentTests",
            dependencies: [
                "KeywordSentiment",
                .product(name: "Capabilities", package: "Fieldtest"),
                .product(name: "ScenarioEngine", package: "Fieldtest"),
                .product(name: "FieldtestApps", package: "Fieldtest"),
                .product(name: "FieldtestData", package: "Fieldtest"),
            ]),
    ]
)
