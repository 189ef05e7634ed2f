import FieldtestData
import Foundation

/// One calendar cell: a local date's solar events and golden-hour quality.
public struct CalendarDay: Sendable {
    /// The local date.
    public var date: CivilDate
    /// Solar events of the date.
    public var sun: SolarDay
    /// Sunrise quality, percent (nil without weather for the window).
    public var sunriseQualityPct: Double?
    /// Sunset quality, percent.
    public var sunsetQualityPct: Double?
}

/// What the calendar shows for a selected date (SRS CAL1).
public enum CalendarSelection: Sendable {
    /// The date is inside the window: its cell.
    case day(CalendarDay)
    /// Outside the window: the spec's message.
    case message(String)
}

/// A sunrise/sunset reminder (CAL1 1.4): fires 30 min before the event.
public struct Reminder: Sendable, Equatable {
    /// Which event.
    public var event: String
    /// Event time, UTC seconds.
    public var eventUTC: Double
    /// Notification time, UTC seconds (`eventUTC − 1,800`).
    public var fireUTC: Double
    /// `SkyMessage.lowChance` when the day's quality is below the model's threshold.
    public var warning: String?
}

/// The sunrise/sunset calendar of SkyScape (CAL1): quality for the past 30 and next 7 days,
/// messages outside that window, reminders 30 min before events. Pure: `today` is passed in.
public struct SkyCalendar: Sendable {
    /// Days back that still show information.
    public static let pastDays = 30
    /// Days ahead that have predictions.
    public static let futureDays = 7
    /// Reminder lead time, seconds.
    public static let reminderLeadSeconds = 1800.0

    /// The location.
    public var location: SavedLocation
    /// The calculator.
    public var calculator = SolarCalculator()
    /// The quality model.
    public var model = GoldenHourQuality()

    /// Creates a calendar for `location`.
    public init(location: SavedLocation) { self.location = location }

    /// The cell for `date` given the local `today`, scoring events from `samples` (sorted by time);
    /// dates more than 7 days ahead → "No predictions for the selected date yet!", more than 30 days
    /// ago → "Information expired.".
    public func select(_ date: CivilDate, today: CivilDate, samples: [SkySample]) -> CalendarSelection {
        select(date, today: today, samples: samples) { date in
            let zone = TimeZone(identifier: location.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
            return calculator.day(date: date, latitude: location.latitude, longitude: location.longitude, zone: zone)
        }
    }

    /// `select(_:today:samples:)` with the solar events of a date in the window from `sun` (e.g. a
    /// system under test) instead of `calculator`; `sun` is not asked for a date outside the window.
    public func select(
        _ date: CivilDate, today: CivilDate, samples: [SkySample], sun events: (CivilDate) -> SolarDay
    ) -> CalendarSelection {
        let offset = date.daysSinceEpoch - today.daysSinceEpoch
        if offset > Self.futureDays { return .message(SkyMessage.noPredictionsYet) }
        if offset < -Self.pastDays { return .message(SkyMessage.informationExpired) }
        let sun = events(date)
        func q(_ t: Double?) -> Double? {
            guard let t, let c = SkyConditions.window(samples, around: t) else { return nil }
            return model.score(c).qualityPct
        }
        return .day(
            CalendarDay(date: date, sun: sun, sunriseQualityPct: q(sun.sunrise), sunsetQualityPct: q(sun.sunset)))
    }

    /// Reminders for the selected day's sunrise and sunset (those that happen), 30 min before,
    /// with the low-chance warning when the event's quality is below `model.lowQualityThreshold`.
    public func reminders(for day: CalendarDay) -> [Reminder] {
        [("sunrise", day.sun.sunrise, day.sunriseQualityPct), ("sunset", day.sun.sunset, day.sunsetQualityPct)]
            .compactMap { name, t, q in
                guard let t else { return nil }
                let warn = q.map { $0 < model.lowQualityThreshold } ?? false
                return Reminder(
                    event: name, eventUTC: t, fireUTC: t - Self.reminderLeadSeconds,
                    warning: warn ? SkyMessage.lowChance : nil)
            }
    }
}
