import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import TweetSentiment

extension MiCityDriver {
    /// MIC-12: stream positions up to the last one classified that were never classified, plus
    /// positions classified more than once. Pages still owed when the run ends (`outstandingPages`:
    /// requeued after a lost request, or answered and still on their way) are not skipped.
    static func skippedOrDuplicated(_ indices: [Int], outstandingPages: [Int], pageSize: Int) -> Int {
        guard let last = indices.max() else { return 0 }
        var seen = [Int](repeating: 0, count: last + 1)
        for i in indices where i >= 0 { seen[i] += 1 }
        var owed = [Bool](repeating: false, count: last + 1)
        for page in outstandingPages where page <= last {
            for i in max(page, 0)..<min(page + pageSize, last + 1) { owed[i] = true }
        }
        var failures = 0
        for i in 0...last { failures += seen[i] == 0 ? (owed[i] ? 0 : 1) : seen[i] - 1 }
        return failures + indices.filter { $0 < 0 }.count
    }

    /// Records the run's summary rows and removes the run's files.
    public func finish(_ run: RunContext) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        SystemSelection.finish(externalSentiment, run: run)
        if let failure { throw failure }
        let m = run.metrics
        let feed = run.scenario.feeds.first { $0.kind == "tweet-batch" }
        let period = feed?.every ?? 80

        // MIC-12: batch size, period between fetches, no tweet lost or fetched twice. The one page
        // cut short by the end of the recorded stream is checked against what the recording held.
        m.exact(
            Metric.batchesNot(requestedSize),
            failures: batchSizes.filter { $0.delivered != $0.available }.count,
            checks: batchSizes.count)
        let indices = classified.compactMap { Int($0.id) }
        m.exact(
            Metric.tweetsSkippedOrDuplicated,
            failures: Self.skippedOrDuplicated(
                indices, outstandingPages: missingPages + pagesInFlight, pageSize: requestedSize),
            checks: indices.count)
        let periods = zip(fetchStarts.dropFirst(), fetchStarts).map { $0 - $1 }.sorted()
        if !periods.isEmpty {
            m.expect(
                Metric.fetchPeriodP50, periods[periods.count / 2], samples: periods.count, threshold: period)
            m.expect(Metric.fetchPeriodMax, periods[periods.count - 1], samples: periods.count)
        }
        m.expect(Metric.tweetsClassified, Double(classified.count), samples: batchSizes.count)
        if let ended = recordingEndedAt {
            // The replay ran out of recorded tweets: later fetches were not sent (use a longer
            // dataset or a shorter scenario to measure the whole run).
            m.expect(Metric.recordingUsedUpAt, ended - run.scenario.start, samples: fetchesAfterRecordingEnd)
        }

        // MIC-14: the system under test on the replayed labelled tweets it never trained on (`TweetScoring`).
        if binaryTotal > 0 {
            m.expect(Metric.posnegAccuracy, Double(binaryRight) / Double(binaryTotal), samples: binaryTotal)
        }
        if confusion.total > 0 {
            m.expect(Metric.accuracy, confusion.accuracy, samples: confusion.total)
            m.expect(Metric.macroF1, confusion.macroF1, samples: confusion.total)
            m.expect(Metric.macroRecall, confusion.macroRecall, samples: confusion.total)
        }

        Self.checkGameMapping(m)
        recordIngestLatency(m)

        // MIC-NF6: requests received by the API per window (answered or refused), against the limit.
        if let api {
            let windows = api.requestsPerWindow.count
            let requests = api.requestsPerWindow.values.reduce(0, +)
            let refused = api.rejectionsPerWindow.values.reduce(0, +)
            m.expect(
                Metric.maxRequestsPerWindow, Double(api.maxRequestsInAnyWindow), samples: windows,
                threshold: Double(api.requestLimit))
            m.expect(Metric.answers429, Double(refused), samples: requests)
            m.expect(Metric.fetchesDeferred, Double(fetchesDeferred), samples: fetchStarts.count)
            m.expect(Metric.fetchesPaced, Double(fetchesPaced), samples: fetchStarts.count)
            m.expect(Metric.burstRequestsRefused, Double(burstDenied), samples: fetchStarts.count)
            m.expect(Metric.fetchesOffline, Double(fetchesOffline), samples: fetchStarts.count)
            m.expect(Metric.fetchesLost, Double(fetchesLost), samples: fetchStarts.count)
        }
    }

    /// MIC-55: the documented mapping is monotone over the whole mood range: a happier city (higher net
    /// polarity) gives a strictly easier game and a strictly larger points multiplier (GameDifficulty).
    static func checkGameMapping(_ m: MetricCollector) {
        var previous = (GameDifficulty.difficulty(netPolarity: -1), GameDifficulty.pointsMultiplier(netPolarity: -1))
        for i in 1...200 {
            let p = -1 + Double(i) / 100
            let current = (GameDifficulty.difficulty(netPolarity: p), GameDifficulty.pointsMultiplier(netPolarity: p))
            m.check(Metric.difficultyNotMonotone, current.0 < previous.0 && current.1 > previous.1)
            previous = current
        }
    }

    /// MIC-NF1: p95 with the ingest running vs without it (each action's wait for the main thread
    /// worked out now that every batch's merge is known).
    func recordIngestLatency(_ m: MetricCollector) {
        var latencyWith = LatencyRecorder()
        var latencyWithout = LatencyRecorder()
        for a in actionTimes {
            let wait = Self.mainThreadWait(at: a.at, busy: mainThreadBusy)
            m.sample(Metric.actionsWaitingForMainThread, wait > 0 ? 1 : 0)
            m.latency(Metric.actionLatencyWithIngest, seconds: a.network + wait + a.compute)
            m.latency(Metric.actionLatencyWithoutIngest, seconds: a.network + a.compute)
            latencyWith.record(seconds: a.network + wait + a.compute)
            latencyWithout.record(seconds: a.network + a.compute)
        }
        let with = latencyWith.seconds(atPercentile: 95)
        let without = latencyWithout.seconds(atPercentile: 95)
        if without > 0 {
            m.expect(Metric.p95RatioWithVsWithout, with / without, samples: actionTimes.count)
        }
        m.declareLatency(Metric.query)
    }
}
