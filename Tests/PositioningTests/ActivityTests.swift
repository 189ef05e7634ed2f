import Foundation
import Testing

@testable import Positioning

@Suite("Step statistics, goals, history and reminders")
struct ActivityTests {
    // 2026-11-20T00:00:00Z = 1_795_132_800 s (20,776 days × 86,400 s).
    static let day0 = 1_795_132_800.0

    static func steps(_ count: Int, from start: Double, every interval: Double = 0.5, length: Double = 0.7)
        -> [StepEvent]
    {
        (0..<count).map { StepEvent(timeSeconds: start + Double($0) * interval, lengthMetres: length) }
    }

    @Test("daily statistics include empty days and pick the best day")
    func statistics() throws {
        let events = Self.steps(100, from: Self.day0 + 3600) + Self.steps(300, from: Self.day0 + 2 * 86_400 + 60)
        let s = StepStatistics(events: events)
        #expect(s.periods.count == 3)
        #expect(s.periods.map(\.steps) == [100, 0, 300])
        #expect(abs(s.periods[0].startSeconds - Self.day0) < 1e-6)
        #expect(s.totalSteps == 400)
        // 400 × 0.7 m; sums of 0.7 accumulate ~1e-13 m of rounding.
        #expect(abs(s.totalDistanceMetres - 280) < 1e-9)
        #expect(abs(s.meanStepsPerPeriod - 400.0 / 3) < 1e-12)
        #expect(s.bestPeriod?.steps == 300)
        let hourly = StepStatistics(events: events, periodSeconds: 3600)
        #expect(hourly.periods.first?.steps == 100)
        #expect(StepStatistics(events: []).periods.isEmpty)
    }

    @Test("goal progress, one notice when the target is crossed, admin prize")
    func goals() {
        let events = Self.steps(1000, from: Self.day0)
        let daily = StepGoal(
            id: "daily", measure: .steps, target: 600, startSeconds: Self.day0, endSeconds: Self.day0 + 86_400)
        let distance = StepGoal(
            id: "km", measure: .distanceMetres, target: 1000, startSeconds: Self.day0,
            endSeconds: Self.day0 + 86_400, setByAdministrator: true, prize: "coffee")
        #expect(abs(StepGoals.progress(daily, events: events) - 1) < 1e-12)
        #expect(abs(StepGoals.progress(distance, events: events) - 0.7) < 1e-9)
        let n = StepGoals.notices(goals: [daily, distance], events: events)
        #expect(n.count == 1)
        // The 600th step is at index 599: 599 × 0.5 s after the start.
        #expect(n.first?.goalID == "daily")
        #expect(abs((n.first?.timeSeconds ?? 0) - (Self.day0 + 299.5)) < 1e-6)
        let more = StepGoals.notices(
            goals: [daily, distance], events: events + Self.steps(500, from: Self.day0 + 1000))
        #expect(more.map(\.goalID) == ["daily", "km"])
        #expect(more.last?.prize == "coffee")
    }

    @Test("rankings by score and by time share ranks on ties")
    func rankings() {
        let entries = [
            StepGoals.Entry(user: "b", score: 900, completionSeconds: 3000),
            StepGoals.Entry(user: "a", score: 900, completionSeconds: 2500),
            StepGoals.Entry(user: "c", score: 1200, completionSeconds: nil),
            StepGoals.Entry(user: "d", score: 100, completionSeconds: 2500),
        ]
        let byScore = StepGoals.rank(entries, by: .score)
        #expect(byScore.map(\.user) == ["c", "a", "b", "d"])
        #expect(byScore.map(\.rank) == [1, 2, 2, 4])
        let byTime = StepGoals.rank(entries, by: .time)
        #expect(byTime.map(\.user) == ["a", "d", "b", "c"])
        #expect(byTime.map(\.rank) == [1, 1, 3, 4])
    }

    @Test("events by preference, expired ones hidden; reminders before the start")
    func reminders() {
        let now = Self.day0 + 10 * 3600
        let events = [
            CampusEvent(
                id: "talk", category: "lecture", placeID: "IT 4-1", startSeconds: now + 1800, endSeconds: now + 5400),
            CampusEvent(
                id: "old", category: "lecture", placeID: "IT 4-1", startSeconds: now - 7200, endSeconds: now - 3600),
            CampusEvent(id: "now", category: "lecture", placeID: "HB", startSeconds: now - 600, endSeconds: now + 600),
            CampusEvent(id: "soon", category: "lecture", placeID: "HB", startSeconds: now + 300, endSeconds: now + 900),
            CampusEvent(
                id: "match", category: "sport", placeID: "field", startSeconds: now + 900, endSeconds: now + 9000),
        ]
        let prefs = UserPreferences(categories: ["lecture"], reminderLeadSeconds: 900)
        #expect(
            EventReminders.upcoming(events, preferences: prefs, nowSeconds: now, horizonSeconds: 3600).map(\.id) == [
                "now", "soon", "talk",
            ])
        let r = EventReminders.reminders(events, preferences: prefs, nowSeconds: now)
        #expect(r.map(\.eventID) == ["soon", "talk"])
        #expect(abs(r[0].dueSeconds - now) < 1e-9)  // lead time already past: remind now
        #expect(abs(r[1].dueSeconds - (now + 900)) < 1e-9)  // 1800 − 900 s
    }
}
