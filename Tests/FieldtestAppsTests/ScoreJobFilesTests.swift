import FieldtestApps
import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

/// `score`'s job declares its weather file, so the scores cannot replace it.
@Suite("Command jobs: score files")
struct ScoreJobFilesTests {
    @Test func theWeatherFileIsAnInputAndTheScoresAnOutput() throws {
        let folder = TemporaryFiles.url("score-job")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let weather = folder.appendingPathComponent("w.csv").path
        try "location_id\n".write(toFile: weather, atomically: true, encoding: .utf8)
        let job = WeatherProviders.ScoreJob(
            weather: weather, dataset: nil, year: 2021, datasetFolders: [],
            output: folder.appendingPathComponent("s.csv").path)
        #expect(try job.files.inputs.map(\.option) == ["--weather"])
        #expect(try job.files.outputs.map(\.option) == ["--output"])
        let over = WeatherProviders.ScoreJob(
            weather: weather, dataset: nil, year: 2021, datasetFolders: [], output: weather)
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try over.files.check() }
    }

    @Test func scoreUsageProblems() {
        func job(_ weather: String?, _ dataset: String?, year: Int = 2021) -> WeatherProviders.ScoreJob {
            .init(weather: weather, dataset: dataset, year: year, datasetFolders: [], output: nil)
        }
        #expect(job("w.csv", nil).usageProblem == nil)
        #expect(job(nil, "tmy3-x").usageProblem == nil)
        #expect(job(nil, nil).usageProblem == "give exactly one of --weather FILE.csv or --dataset NAME")
        #expect(job("w.csv", "tmy3-x").usageProblem == "give exactly one of --weather FILE.csv or --dataset NAME")
        #expect(job("w.csv", nil, year: 2200).usageProblem?.hasPrefix("--year 2200: error: outside the years") == true)
    }
}
