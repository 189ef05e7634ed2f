import FieldtestData

extension SolarDay {
    /// A day made of events that another calculator gave (e.g. a system under test answering
    /// `sun` requests): UTC seconds since 1970, nil where the event does not happen. Blue hour,
    /// which such an answer does not carry, is left out.
    public init(
        date: CivilDate, sunrise: Double?, sunset: Double?, solarNoon: Double?, civilDawn: Double?,
        civilDusk: Double?, goldenMorning: (start: Double?, end: Double?),
        goldenEvening: (start: Double?, end: Double?),
        dayLengthSeconds: Double?, note: Note
    ) {
        self.init(
            date: date, sunrise: sunrise, sunset: sunset, solarNoon: solarNoon, civilDawn: civilDawn,
            civilDusk: civilDusk, goldenMorning: goldenMorning, goldenEvening: goldenEvening,
            blueMorning: (nil, nil), blueEvening: (nil, nil), dayLengthSeconds: dayLengthSeconds, note: note)
    }
}
