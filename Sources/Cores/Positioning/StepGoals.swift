/// A step or distance goal (NAV-F29), set by the user or by an administrator with a prize.
public struct StepGoal: Sendable, Equatable {
    /// What the goal counts.
    public enum Measure: String, Sendable, Equatable {
        /// Number of steps.
        case steps
        /// Distance in metres.
        case distanceMetres
    }

    /// Goal identifier.
    public var id: String
    /// What is counted.
    public var measure: Measure
    /// Target value (steps, or metres).
    public var target: Double
    /// Window start, UNIX seconds (UTC), inclusive.
    public var startSeconds: Double
    /// Window end, UNIX seconds (UTC), exclusive.
    public var endSeconds: Double
    /// Whether an administrator set the goal (for everyone), rather than the user.
    public var setByAdministrator: Bool
    /// Prize for completing an administrator goal, if any.
    public var prize: String?

    /// Creates a goal over [startSeconds, endSeconds).
    public init(
        id: String, measure: Measure, target: Double, startSeconds: Double, endSeconds: Double,
        setByAdministrator: Bool = false, prize: String? = nil
    ) {
        self.id = id
        self.measure = measure
        self.target = target
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.setByAdministrator = setByAdministrator
        self.prize = prize
    }
}

/// A completion notice: the goal was reached at `timeSeconds`.
public struct GoalNotice: Sendable, Equatable {
    /// The completed goal's id.
    public var goalID: String
    /// UNIX time (seconds, UTC) of the step that reached the target.
    public var timeSeconds: Double
    /// The prize won, if the goal has one.
    public var prize: String?
}

/// Progress, completion notices and rankings for step goals. All O(n) in steps
/// (rankings O(u log u) in users).
public enum StepGoals {
    /// Progress towards `goal` (0…1, capped) from `events` inside the goal's window.
    public static func progress(_ goal: StepGoal, events: [StepEvent]) -> Double {
        guard goal.target > 0 else { return 1 }
        return min(1, achieved(goal, events: events) / goal.target)
    }

    /// Steps or metres achieved inside the goal's window.
    public static func achieved(_ goal: StepGoal, events: [StepEvent]) -> Double {
        events.filter { $0.timeSeconds >= goal.startSeconds && $0.timeSeconds < goal.endSeconds }
            .reduce(0) { $0 + (goal.measure == .steps ? 1 : $1.lengthMetres) }
    }

    /// One notice per completed goal, at the time of the step that reached its target;
    /// notices are ordered by time, then goal id.
    public static func notices(goals: [StepGoal], events: [StepEvent]) -> [GoalNotice] {
        let sorted = events.sorted { $0.timeSeconds < $1.timeSeconds }
        var out: [GoalNotice] = []
        for g in goals {
            var sum = 0.0
            for e in sorted where e.timeSeconds >= g.startSeconds && e.timeSeconds < g.endSeconds {
                sum += g.measure == .steps ? 1 : e.lengthMetres
                if sum >= g.target {
                    out.append(GoalNotice(goalID: g.id, timeSeconds: e.timeSeconds, prize: g.prize))
                    break
                }
            }
        }
        return out.sorted { ($0.timeSeconds, $0.goalID) < ($1.timeSeconds, $1.goalID) }
    }

    /// One participant's result in a ranking.
    public struct Entry: Sendable, Equatable {
        /// Participant id.
        public var user: String
        /// Score (steps or metres; larger is better).
        public var score: Double
        /// Time to complete the goal in seconds (smaller is better); nil if not completed.
        public var completionSeconds: Double?
        /// Rank, 1 = best; equal results share a rank ("1224" competition ranking).
        public var rank: Int = 0

        /// Creates an entry (rank is assigned by `rank(_:by:)`).
        public init(user: String, score: Double, completionSeconds: Double? = nil) {
            self.user = user
            self.score = score
            self.completionSeconds = completionSeconds
        }
    }

    /// How a ranking orders participants.
    public enum RankingOrder: Sendable {
        /// Higher score first.
        case score
        /// Faster completion first; participants who did not complete come last.
        case time
    }

    /// Ranks `entries`; ties share a rank and are listed by user id.
    public static func rank(_ entries: [Entry], by order: RankingOrder) -> [Entry] {
        func key(_ e: Entry) -> Double {
            switch order {
            case .score: return -e.score
            case .time: return e.completionSeconds ?? .infinity
            }
        }
        var sorted = entries.sorted { (key($0), $0.user) < (key($1), $1.user) }
        for i in sorted.indices {
            sorted[i].rank = i > 0 && key(sorted[i]) == key(sorted[i - 1]) ? sorted[i - 1].rank : i + 1
        }
        return sorted
    }
}
