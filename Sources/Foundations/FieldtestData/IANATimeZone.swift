import Foundation

/// The rule for time-zone names in command options and scenario files: IANA
/// names only, so a zone means the same thing wherever it is written.
public enum IANATimeZone {
    /// The IANA time zone named `name` (`Area/Location` such as `Europe/Paris`, `Asia/Kolkata`,
    /// `Etc/GMT+5`, or `UTC`/`GMT`); nil for any other name, including the abbreviations and
    /// offsets Foundation would also accept (`EST`, `IST`, `GMT+5`, `UTC+5` — the last two
    /// meaning UTC+5, the opposite sign of IANA's `Etc/GMT+5`). A name is accepted when it is
    /// in `TimeZone.knownTimeZoneIdentifiers`, or contains `/` and the time-zone database
    /// knows it by exactly that name (the known list omits current names such as
    /// `Asia/Kolkata` on some platforms).
    public static func zone(named name: String) -> TimeZone? {
        if name == "UTC" || name == "GMT" { return TimeZone(identifier: name) }
        guard knownIdentifiers.contains(name) || name.contains("/"),
            let zone = TimeZone(identifier: name), zone.identifier == name
        else { return nil }
        return zone
    }

    private static let knownIdentifiers = Set(TimeZone.knownTimeZoneIdentifiers)
}
