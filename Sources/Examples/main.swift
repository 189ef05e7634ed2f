/// `FieldtestExamples NAME`: runs one of the in-process examples the DocC articles show (each
/// article's code is a `snippet.<slice>` of one of these files, checked by `DocArticlesTests`).
import Foundation

protocol InProcessExample {
    static func run() throws
}

let examples: [String: any InProcessExample.Type] = [
    "ClassifyTweets": ClassifyTweets.self,
    "EvaluateSunTimes": EvaluateSunTimes.self,
    "LocateByWiFi": LocateByWiFi.self,
    "RouteOnCampus": RouteOnCampus.self,
    "RunScenario": RunScenario.self,
    "SignUpAndLogIn": SignUpAndLogIn.self,
    "SunTimes": SunTimes.self,
]

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let name = arguments.first, let example = examples[name] else {
    FileHandle.standardError.write(
        Data("usage: FieldtestExamples NAME, one of \(examples.keys.sorted().joined(separator: ", "))\n".utf8))
    exit(2)
}
do {
    try example.run()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
