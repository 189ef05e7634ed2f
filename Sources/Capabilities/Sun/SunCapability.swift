import Foundation

extension SystemCapability {
    /// Sunrise, sunset, twilight and golden-hour times (`fieldtest sun`'s columns).
    public static let sun = SystemCapability(name: "sun", operation: "sun")
}

extension CapabilityDefinition {
    /// Sun times: the solar calculator (`SunTimesSystem`), the `sun`/`score` batch jobs (`SunBatch`,
    /// `ScoreBatch`), the NREL SPA reference (`SunReference`) and its evaluator (`SunTimesEvaluation`).
    public static let sun = CapabilityDefinition(
        capability: .sun,
        evaluation: Evaluation(
            abstract: "Score a sun-times system against labelled times or the SPA reference (errors in seconds).",
            inputs: "--input: fieldtest sun's input (id,latitude,longitude,date,timezone), optionally with labelled "
                + "event columns (sunrise, sunset, … as YYYY-MM-DDTHH:MM:SSZ) that replace the SPA reference.",
            run: { r, choice in try SunTimesEvaluation.run(r, choice: choice) }),
        serveBuiltin: { _, name, version, maxLineBytes in
            var core = ServedSun()
            SystemServer.serve(&core, name: name, version: version, maxLineBytes: maxLineBytes)
        })
}
