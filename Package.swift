// swift-tools-version: 6.1
//
// Fieldtest — an evaluation harness that replays recorded weather, crowd-sourced
// location and tweet datasets through sky-scoring, campus-routing, positioning,
// sentiment and account cores, and reports accuracy and latency against the
// requirements of five app specifications.
//
// The folder layout is the architecture: one library module per concept under
// `Sources/`, a thin `fieldtest` executable over them, and tests mirroring the
// modules under `Tests/`.

import PackageDescription

let package = Package(
    name: "Fieldtest",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fieldtest", targets: ["fieldtest"]),
        .executable(name: "fieldtest-bench", targets: ["FieldtestBench"]),
        // The harness and each core, for packages that run scenarios from their own tests.
        .library(name: "ScenarioEngine", targets: ["ScenarioEngine", "MetricReports", "DeviceEmulation"]),
        .library(name: "FieldtestApps", targets: ["FieldtestApps"]),
        .library(name: "RunReports", targets: ["RunReports"]),
        .library(name: "FieldtestData", targets: ["FieldtestData"]),
        .library(name: "SkyScoring", targets: ["SkyScoring"]),
        .library(name: "CampusRouting", targets: ["CampusRouting"]),
        .library(name: "Positioning", targets: ["Positioning"]),
        .library(name: "TweetSentiment", targets: ["TweetSentiment"]),
        .library(name: "AccountStore", targets: ["AccountStore"]),
        // The capabilities (sun, route, locate, sentiment): their protocols, built-in conformances,
        // batch jobs, references and evaluators, and external systems over JSON Lines.
        .library(name: "Capabilities", targets: ["Capabilities"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // `make docs`: DocC archives of the library modules (a command plugin; nothing of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The HTML report is written with Plot's typed DSL, which escapes text.
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        // MARK: System libraries
        .systemLibrary(
            name: "CGSL",
            path: "Sources/Foundations/CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"])]
        ),
        /// The system SQLite, under the on-device stores (accounts, journals, caches) through `SQLiteDatabase`.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/Foundations/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        /// The system OpenSSL libcrypto (3.0 or later), under `FieldtestCrypto`.
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/Foundations/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        /// The system zlib, for the compressed blocks of OSM PBF maps.
        /// Atomic exchange of two files (`renameat2`), for replacing an output without the file
        /// system flushing the new file first.
        .target(name: "CFileExchange", path: "Sources/Foundations/CFileExchange"),
        .systemLibrary(name: "CZlib", path: "Sources/Foundations/CZlib", providers: [.apt(["zlib1g-dev"])]),

        // MARK: Foundations
        /// Swift face of the GNU Scientific Library: seeded random streams,
        /// distributions, quantiles, nonlinear least squares, interpolation.
        .target(name: "FieldtestGSL", dependencies: ["CGSL"], path: "Sources/Foundations/FieldtestGSL"),
        /// Swift face of libcrypto, what Fieldtest uses only: SHA-256, HMAC-SHA256, HKDF-SHA256,
        /// PBKDF2-HMAC-SHA256 and AES-256-GCM (CryptoKit's combined layout), and `SymmetricKey`.
        .target(name: "FieldtestCrypto", dependencies: ["CCrypto"], path: "Sources/Foundations/FieldtestCrypto"),
        /// Dataset manifest, CSV reading and typed, validating loaders; the shared small
        /// concepts: `GeoPoint`/`Geodesy`, `SeededGenerator`, `DamerauLevenshtein`.
        .target(
            name: "FieldtestData",
            dependencies: [
                "CZlib", "CSQLite", "CFileExchange", "FieldtestCrypto",
            ],
            path: "Sources/Foundations/FieldtestData",
            exclude: ["Maps/OSMPBF/fileformat.proto", "Maps/OSMPBF/osmformat.proto"]
        ),

        // MARK: Cores
        /// Solar times, golden-hour quality, calendar, favourites, city weather.
        .target(name: "SkyScoring", dependencies: ["FieldtestData", "FieldtestGSL"], path: "Sources/Cores/SkyScoring"),
        /// Campus graph from OSM, profiles, routing, congestion, venues.
        .target(
            name: "CampusRouting",
            dependencies: ["FieldtestData", .product(name: "Yams", package: "Yams")],
            path: "Sources/Cores/CampusRouting"
        ),
        /// Wi-Fi fingerprinting, GPS/PDR fusion, step counting.
        .target(
            name: "Positioning", dependencies: ["FieldtestData", "FieldtestGSL"], path: "Sources/Cores/Positioning"),
        /// Tweet tokenizer, sentiment models, city mood and word cloud.
        .target(
            name: "TweetSentiment", dependencies: ["FieldtestData"], path: "Sources/Cores/TweetSentiment"),
        /// Accounts, credential policies, encrypted storage, journal and sync.
        .target(
            name: "AccountStore",
            dependencies: ["FieldtestData", "FieldtestCrypto"],
            path: "Sources/Cores/AccountStore"
        ),

        // MARK: Harness
        /// Emulated phone: sensors, connectivity, permissions, offline cache.
        .target(
            name: "DeviceEmulation",
            dependencies: [
                "FieldtestData", "FieldtestGSL",
            ],
            path: "Sources/Harness/DeviceEmulation"
        ),
        /// Metric rows, latency histograms, CSV/JUnit reports, baseline checks.
        .target(
            name: "MetricReports",
            dependencies: [
                "FieldtestData", "FieldtestGSL", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Sources/Harness/MetricReports"
        ),
        /// Scenario files (schema, located diagnostics), the virtual-clock
        /// event engine, sweeps and shards, and run reports.
        .target(
            name: "ScenarioEngine",
            dependencies: [
                "FieldtestData", "FieldtestGSL", "MetricReports",
                .product(name: "Yams", package: "Yams"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            path: "Sources/Harness/ScenarioEngine"
        ),
        /// One self-contained HTML page of run folders: summary, requirement tables, baseline deltas,
        /// sweep plots, latency histograms and trace maps, drawn as inline SVG by its own charting layer.
        .target(
            name: "RunReports",
            dependencies: [
                "ScenarioEngine", "MetricReports", "FieldtestData", .product(name: "Plot", package: "Plot"),
            ],
            path: "Sources/Harness/RunReports"
        ),
        /// fork and exec of an external system, with what must happen between them (process group,
        /// death signal), which neither swift-subprocess nor posix_spawn allows.
        .target(name: "CSystemSpawn", path: "Sources/Harness/CSystemSpawn"),
        // MARK: Capabilities
        /// One folder per capability a system under test offers (`Sun/`, `Route/`, `Locate/`,
        /// `Sentiment/`: its request and answer types, built-in conformance, batch command job,
        /// reference and evaluator) and `Protocol/` (the JSON Lines client, the system protocols,
        /// the capability registry and `fieldtest evaluate`'s runner).
        .target(
            name: "Capabilities",
            dependencies: [
                "FieldtestData", "FieldtestGSL", "ScenarioEngine", "SkyScoring", "CampusRouting", "Positioning",
                "TweetSentiment", "CSystemSpawn", .product(name: "HeapModule", package: "swift-collections"),
                // SHA-256 keys and HMAC secrets of the graph cache.
                "FieldtestCrypto",
            ],
            path: "Sources/Capabilities"
        ),

        // MARK: Apps
        /// The apps under test: drivers that replay a scenario's actions and
        /// feeds through the cores on emulated devices and measure them.
        .target(
            name: "FieldtestApps",
            dependencies: [
                "ScenarioEngine", "FieldtestData", "FieldtestGSL", "SkyScoring", "CampusRouting",
                "Positioning", "TweetSentiment", "AccountStore", "DeviceEmulation", "MetricReports",
                "Capabilities",
            ],
            path: "Sources/Apps"
        ),

        // MARK: Command-line tool
        .executableTarget(
            name: "fieldtest",
            dependencies: [
                "ScenarioEngine", "FieldtestApps", "FieldtestData", "SkyScoring", "CampusRouting",
                "Positioning", "TweetSentiment", "MetricReports", "RunReports", "Capabilities",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Exports none of its 36,000 symbols to the dynamic loader (the toolchain's static-stdlib
            // arguments ask for all): nothing loads this executable's symbols at run time, and the
            // runtime's start-up dladdr scans the whole export table, about a millisecond per command.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]
        ),
        /// `fieldtest-bench`: throughput of the cores and the engine beside Python baselines
        /// (scripts in `Python/`) measured in the same run, and the classification floor kernels.
        .executableTarget(
            name: "FieldtestBench",
            dependencies: [
                "ScenarioEngine", "FieldtestApps", "FieldtestData", "SkyScoring", "CampusRouting", "Positioning",
                "TweetSentiment", "MetricReports", "Capabilities", "AccountStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            path: "Sources/Benchmarks",
            resources: [.copy("Python")]
        ),
        /// `FieldtestExamples NAME`: the library products called in-process, as the DocC articles show
        /// them (`DocArticlesTests` checks each article's code against these files; `ExamplesCLITests`
        /// runs each example).
        .executableTarget(
            name: "FieldtestExamples",
            dependencies: [
                "ScenarioEngine", "FieldtestApps", "FieldtestData", "SkyScoring", "CampusRouting", "Positioning",
                "TweetSentiment", "AccountStore", "MetricReports", "RunReports", "Capabilities",
            ],
            path: "Sources/Examples"
        ),

        // MARK: Tests
        .testTarget(name: "FieldtestGSLTests", dependencies: ["FieldtestGSL"]),
        .testTarget(name: "FieldtestCryptoTests", dependencies: ["FieldtestCrypto"]),
        .testTarget(
            name: "FieldtestDataTests", dependencies: ["FieldtestData", "FieldtestTestSupport"],
            resources: [.copy("Fixtures")]),
        // read through #filePath
        .testTarget(
            name: "SkyScoringTests", dependencies: ["SkyScoring", "FieldtestData"], exclude: ["Fixtures"]),
        .testTarget(
            // read through #filePath
            name: "CampusRoutingTests", dependencies: ["CampusRouting", "FieldtestData"],
            exclude: ["Fixtures"]),
        /// The synthetic Wi-Fi site of the positioning tests, which the capability tests share (test support).
        .target(name: "PositioningTestSupport", dependencies: ["Positioning"], path: "Tests/PositioningTests/Support"),
        .testTarget(
            name: "PositioningTests",
            dependencies: ["Positioning", "PositioningTestSupport", "FieldtestData", "FieldtestGSL"],
            exclude: ["Support"]),
        .testTarget(name: "TweetSentimentTests", dependencies: ["TweetSentiment", "FieldtestData"]),
        /// What several test targets share: `SharedFolder`, the tests' door to `../shared`, and
        /// `TemporaryFiles`, their temporary folder that goes when the test process ends (test support).
        .target(name: "FieldtestTestSupport", path: "Tests/Support"),
        .testTarget(
            name: "AccountStoreTests", dependencies: ["AccountStore", "FieldtestData", "FieldtestTestSupport"]),
        .testTarget(
            name: "DeviceEmulationTests",
            dependencies: ["DeviceEmulation", "FieldtestGSL", "FieldtestData", "FieldtestTestSupport"]),
        // read through #filePath
        .testTarget(
            name: "MetricReportsTests", dependencies: ["MetricReports", "FieldtestGSL", "FieldtestTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "RunReportsTests",
            dependencies: [
                "RunReports", "ScenarioEngine", "FieldtestApps", "MetricReports", "FieldtestData",
                "FieldtestTestSupport",
            ]),
        .testTarget(
            name: "ScenarioEngineTests",
            dependencies: [
                "ScenarioEngine", "FieldtestApps", "MetricReports", "FieldtestData", "FieldtestTestSupport",
                .product(name: "Yams", package: "Yams"),
            ]),
        .testTarget(
            name: "FieldtestAppsTests",
            dependencies: [
                "FieldtestApps", "ScenarioEngine", "MetricReports", "TweetSentiment", "FieldtestData", "Positioning",
                "DeviceEmulation", "CampusRouting", "FieldtestTestSupport",
            ]),
        .testTarget(name: "FieldtestCLITests", dependencies: ["fieldtest", "FieldtestTestSupport"]),
        .testTarget(name: "FieldtestBenchTests", dependencies: ["FieldtestBench", "FieldtestTestSupport"]),
        .testTarget(
            name: "CapabilitiesTests",
            dependencies: [
                "Capabilities", "TweetSentiment", "FieldtestData", "ScenarioEngine", "FieldtestApps", "MetricReports",
                "SkyScoring", "CampusRouting", "Positioning", "PositioningTestSupport", "FieldtestTestSupport",
                "FieldtestCrypto",
            ],
            exclude: ["Fixtures"]),
        /// Seeded mutation fuzzing of every parser; `make fuzz` runs it for longer.
        .testTarget(
            name: "FuzzTests",
            dependencies: [
                "FieldtestData", "CampusRouting", "TweetSentiment", "ScenarioEngine", "MetricReports", "FieldtestApps",
                "Capabilities", "FieldtestTestSupport",
            ],
            path: "Tests/Fuzz",
            exclude: ["corpus", "findings", "README.md"]
        ),
    ]
)

// The test targets compile unoptimised even in the optimised test build (`make test`): optimising them
// was half of that build's CPU time, while what they exercise, the libraries, stays optimised.
for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}
