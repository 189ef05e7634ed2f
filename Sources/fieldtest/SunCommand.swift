import ArgumentParser
import FieldtestData
import Foundation
import SkyScoring

/// `fieldtest sun`: sunrise, sunset, noon, twilight and golden hour for a CSV of location-days.
struct SunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sun",
        abstract: "Solar event times (UTC) for each id,latitude,longitude,date,timezone row.",
        discussion: """
            Sunrise/sunset: Sun's centre at −0.833° (NOAA/SPA convention); events are those of the local date. \
            timezone: an IANA name (Europe/Paris, Etc/GMT-5, UTC); abbreviations (EST, IST) and offsets (GMT+5) are errors. \
            day_length_s: seconds the Sun is up within the local date (a sunset just after midnight counts its \
            minutes before it too); 86400 on a polar day, 0 on a polar night. \
            note: polar_day / polar_night when the Sun neither rises nor sets that date; date_skipped (all \
            times and day_length_s empty) when the zone skipped the date (e.g. Pacific/Apia 2011-12-30, or \
            Asia/Manila 1844-12-31); date_repeated when the date lasts more than 26 hours because the zone moved back \
            across the date line (e.g. Pacific/Kwajalein 1969-09-30): its first events are given and day_length_s \
            counts all the time the Sun is up within it.
            """)

    @Option(help: "Input CSV with columns id,latitude,longitude,date,timezone.")
    var input: String
    @OptionGroup var out: OutputCSV

    func run() throws {
        try OutputText.write(try SunBatch.run(file: input, output: out.output), to: out.output)
    }
}
