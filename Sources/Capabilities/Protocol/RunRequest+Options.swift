import ScenarioEngine

extension RunRequest {
    /// Sets the shard and the systems from their option texts, then checks the whole request
    /// (`validate()`): `shard` as `I/N` (nil: every case), `systems` as `CAPABILITY=COMMAND` options.
    /// - Throws: `RunError.usage` for a malformed shard or a combination that cannot work, `SystemError`
    ///   for a malformed `--system`.
    public mutating func parse(shard: String?, systems: [String]) throws {
        if let shard {
            guard let parsed = Shard(parsing: shard) else {
                throw RunError.usage("--shard must be I/N with 0 ≤ I < N, e.g. 0/4")
            }
            self.shard = parsed
        }
        self.systems = try SystemSettings.parse(systems)
        try validate()
    }
}
