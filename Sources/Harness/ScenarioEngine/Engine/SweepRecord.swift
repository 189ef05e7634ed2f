/// What a run's `run.json` records of its sweep: enough to list every case of the
/// whole sweep (label and seed, in sweep order) without the scenario file, so
/// `merge` can tell which cases its shards lack or hold twice.
///
/// The values are kept as written in the file (the text that goes into the case
/// labels); seeds are kept as runs of consecutive seeds, so a range of 100,000
/// seeds costs a few bytes.
public struct SweepRecord: Codable, Sendable, Equatable {
    /// One swept parameter: its name and its values as written, in file order.
    public struct Parameter: Codable, Sendable, Equatable {
        /// An app parameter name, or `devices.<device>.<gps|network|placement>`.
        public var name: String
        /// The values as written in the scenario file.
        public var values: [String]

        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }
    }

    /// A run of consecutive seeds `from`, `from + 1`, …, `from + count − 1`.
    public struct SeedRun: Codable, Sendable, Equatable {
        /// The first seed.
        public var from: UInt64
        /// How many seeds (at least 1).
        public var count: Int

        public init(from: UInt64, count: Int) {
            self.from = from
            self.count = count
        }
    }

    /// One case of the sweep as the reports name it.
    public struct Case: Sendable, Hashable {
        /// Position in the expanded sweep (what `--shard I/N` takes modulo N).
        public var index: Int
        /// The case label (the `scenario` column of its rows).
        public var label: String
        /// The case's seed (the `seed` column of its rows).
        public var seed: UInt64

        public init(index: Int, label: String, seed: UInt64) {
            self.index = index
            self.label = label
            self.seed = seed
        }
    }

    /// The swept parameters in file order (empty for a plain scenario).
    public var parameters: [Parameter]
    /// The seeds of every parameter combination, in order, as runs of consecutive seeds.
    public var seeds: [SeedRun]

    public init(parameters: [Parameter], seeds: [UInt64]) {
        self.parameters = parameters
        self.seeds = Self.runs(of: seeds)
    }

    /// The record of `scenario`'s sweep; a plain scenario (or a sweep without
    /// seeds) runs under the scenario seed.
    public init(_ scenario: Scenario) {
        let sweep = scenario.sweep
        let seeds = sweep.map { $0.seeds.isEmpty ? [scenario.seed] : $0.seeds } ?? [scenario.seed]
        self.init(
            parameters: (sweep?.parameters ?? []).map { Parameter(name: $0.name, values: $0.texts) }, seeds: seeds)
    }

    /// The seeds, one by one.
    public var seedList: [UInt64] {
        seeds.flatMap { run in (0..<UInt64(max(0, run.count))).map { run.from &+ $0 } }
    }

    /// How many cases the sweep has: the product of the value counts times the seeds;
    /// `Int.max` when that overflows (a record not written by `run`), nil for a negative count.
    public var caseCount: Int? {
        var total = 0
        for run in seeds {
            guard run.count >= 0 else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(run.count)
            if overflow { return Int.max }
            total = sum
        }
        for p in parameters {
            let (product, overflow) = total.multipliedReportingOverflow(by: p.values.count)
            if overflow { return Int.max }
            total = product
        }
        return total
    }

    /// Every case of the sweep of scenario `name`, in sweep order (parameters in file
    /// order, the last varying fastest, then the seeds): the order `ScenarioRunner.cases(of:)` runs them in.
    public func cases(scenario name: String) -> [Case] {
        var combos: [[(name: String, text: String)]] = [[]]
        for p in parameters {
            combos = combos.flatMap { c in p.values.map { c + [(p.name, $0)] } }
        }
        let seedList = self.seedList
        var out: [Case] = []
        out.reserveCapacity(combos.count * seedList.count)
        for combo in combos {
            for seed in seedList {
                out.append(
                    Case(
                        index: out.count,
                        label: Self.label(
                            scenario: name, parameters: combo, seed: seed,
                            severalSeeds: seedList.count > 1),
                        seed: seed))
            }
        }
        return out
    }

    /// A case label: the scenario name plus the case's parameters as written, and its
    /// seed when the sweep has several (`micity-day[rate_limit=10,seed=2]`), so the cases
    /// of a sweep have distinct labels while a one-seed label stays as it was.
    public static func label(
        scenario name: String, parameters: [(name: String, text: String)], seed: UInt64,
        severalSeeds: Bool
    ) -> String {
        let params = parameters.map { "\($0.name)=\($0.text)" } + (severalSeeds ? ["seed=\(seed)"] : [])
        return params.isEmpty ? name : "\(name)[\(params.joined(separator: ","))]"
    }

    /// `seeds` as runs of consecutive seeds, in order.
    static func runs(of seeds: [UInt64]) -> [SeedRun] {
        var out: [SeedRun] = []
        for seed in seeds {
            if let last = out.last, case let next = last.from.addingReportingOverflow(UInt64(last.count)),
                !next.overflow, next.partialValue == seed
            {
                out[out.count - 1].count += 1
            } else {
                out.append(SeedRun(from: seed, count: 1))
            }
        }
        return out
    }
}
