import Foundation

/// A proleptic-Gregorian calendar date without a time zone (e.g. a local date).
///
/// Conversions use Howard Hinnant's `days_from_civil` algorithm
/// (<https://howardhinnant.github.io/date_algorithms.html>), O(1), exact for
/// every representable year.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Year (e.g. 2024).
    public var year: Int
    /// Month, 1…12.
    public var month: Int
    /// Day of month, 1…31.
    public var day: Int

    /// Creates a date; returns nil when the day does not exist (e.g. 2023-02-29).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        month = m
        day = d
    }

    /// Parses `YYYY-MM-DD` (or with `/` separators); nil when malformed or nonexistent.
    public init?(iso text: Substring) {
        // Exactly ten ASCII bytes, read without splitting (this runs once per row of large inputs).
        let bytes = text.utf8
        guard bytes.count == 10 else { return nil }
        var digits = (0, 0, 0)
        var index = 0
        for b in bytes {
            switch index {
            case 4, 7:
                guard b == 0x2D || b == 0x2F else { return nil }
            default:
                guard (0x30...0x39).contains(b) else { return nil }
                let v = Int(b - 0x30)
                if index < 4 {
                    digits.0 = digits.0 * 10 + v
                } else if index < 7 {
                    digits.1 = digits.1 * 10 + v
                } else {
                    digits.2 = digits.2 * 10 + v
                }
            }
            index += 1
        }
        self.init(year: digits.0, month: digits.1, day: digits.2)
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `n` days later (earlier when negative).
    public func adding(days n: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + n) }

    /// `YYYY-MM-DD`.
    public var description: String {
        if (0...9999).contains(year) {
            return String(unsafeUninitializedCapacity: 10) { buffer in
                CivilTime.writeDate(year: year, month: month, day: day, into: buffer)
                return 10
            }
        }
        let y = String(year)
        let pad = String(repeating: "0", count: max(0, 4 - y.count))
        return pad + y + "-" + (month < 10 ? "0" : "") + String(month) + "-" + (day < 10 ? "0" : "") + String(day)
    }

    /// Number of days in `month` of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// Parsing of local wall-clock timestamps and conversion to UTC seconds.
public enum CivilTime {
    /// Seconds since 1970-01-01T00:00:00 of the wall-clock time `date hh:mm:ss`
    /// read as if it were UTC. Subtract the UTC offset to get true UTC.
    public static func epochSeconds(_ date: CivilDate, hour: Int, minute: Int, second: Int = 0) -> Int {
        date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS]` (optionally ending in `Z`) into wall-clock epoch seconds.
    public static func parseISODateTime(_ text: String) -> Int? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces))
        if s.hasSuffix("Z") { s = s.dropLast() }
        let halves = s.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count == 2, let date = CivilDate(iso: halves[0]) else { return nil }
        let hms = halves[1].split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 2 || hms.count == 3,
            hms.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let h = Int(hms[0]), let m = Int(hms[1])
        else { return nil }
        let sec = hms.count == 3 ? Int(hms[2]) ?? -1 : 0
        guard (0...23).contains(h), (0...59).contains(m), (0...60).contains(sec) else { return nil }
        return epochSeconds(date, hour: h, minute: m, second: sec)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` for UTC epoch seconds.
    public static func isoUTC(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let rem = seconds - days * 86_400
        let d = CivilDate(daysSinceEpoch: days)
        guard (0...9999).contains(d.year) else {
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            return "\(d)T\(two(rem / 3600)):\(two(rem / 60 % 60)):\(two(rem % 60))Z"
        }
        return String(unsafeUninitializedCapacity: 20) { b in
            writeDate(year: d.year, month: d.month, day: d.day, into: b)
            func two(_ v: Int, at i: Int) {
                b[i] = UInt8(0x30 + v / 10)
                b[i + 1] = UInt8(0x30 + v % 10)
            }
            b[10] = 0x54  // T
            two(rem / 3600, at: 11)
            b[13] = 0x3A
            two(rem / 60 % 60, at: 14)
            b[16] = 0x3A
            two(rem % 60, at: 17)
            b[19] = 0x5A  // Z
            return 20
        }
    }

    /// Appends `isoUTC(seconds)` to `bytes` (the same text, without building a string in between).
    public static func appendISOUTC(_ seconds: Int, to bytes: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let rem = seconds - days * 86_400
        let d = CivilDate(daysSinceEpoch: days)
        guard (0...9999).contains(d.year) else {
            bytes.append(contentsOf: isoUTC(seconds).utf8)
            return
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 10))
        bytes.withUnsafeMutableBufferPointer { all in
            writeDate(
                year: d.year, month: d.month, day: d.day, into: UnsafeMutableBufferPointer(rebasing: all[start...]))
        }
        appendTimeOfDay(rem, to: &bytes)
    }

    /// Appends `THH:MM:SSZ` for `secondsOfDay` (0…86,399): the part of `isoUTC` after the date.
    public static func appendTimeOfDay(_ secondsOfDay: Int, to bytes: inout [UInt8]) {
        let rem = secondsOfDay
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 10))
        bytes.withUnsafeMutableBufferPointer { all in
            let b = UnsafeMutableBufferPointer(rebasing: all[start...])
            b[0] = 0x54  // T
            b[1] = UInt8(0x30 + rem / 36_000)
            b[2] = UInt8(0x30 + rem / 3600 % 10)
            b[3] = 0x3A
            b[4] = UInt8(0x30 + rem / 600 % 6)
            b[5] = UInt8(0x30 + rem / 60 % 10)
            b[6] = 0x3A
            b[7] = UInt8(0x30 + rem % 60 / 10)
            b[8] = UInt8(0x30 + rem % 10)
            b[9] = 0x5A  // Z
        }
    }

    /// Writes `YYYY-MM-DD` (year 0…9999) into the first 10 bytes of `b`.
    static func writeDate(year: Int, month: Int, day: Int, into b: UnsafeMutableBufferPointer<UInt8>) {
        b[0] = UInt8(0x30 + year / 1000)
        b[1] = UInt8(0x30 + year / 100 % 10)
        b[2] = UInt8(0x30 + year / 10 % 10)
        b[3] = UInt8(0x30 + year % 10)
        b[4] = 0x2D
        b[5] = UInt8(0x30 + month / 10)
        b[6] = UInt8(0x30 + month % 10)
        b[7] = 0x2D
        b[8] = UInt8(0x30 + day / 10)
        b[9] = UInt8(0x30 + day % 10)
    }
}
