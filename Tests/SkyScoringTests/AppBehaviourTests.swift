import FieldtestData
import Foundation
import Testing

@testable import SkyScoring

private let singapore = SavedLocation(
    id: 1, name: "Singapore", latitude: 1.3521, longitude: 103.8198, timeZone: "Asia/Singapore")
private let kl = SavedLocation(
    id: 2, name: "Kuala Lumpur", latitude: 3.139, longitude: 101.6869, timeZone: "Asia/Kuala_Lumpur")
private let jakarta = SavedLocation(
    id: 3, name: "Jakarta", latitude: -6.2088, longitude: 106.8456, timeZone: "Asia/Jakarta")

@Suite("Favourites (SKY-F1, SKY-S1)")
struct FavouritesTests {
    @Test func addDuplicateAndMultiDelete() {
        var f = Favourites()
        #expect(f.add(singapore) == nil)
        #expect(f.add(kl) == nil)
        #expect(f.add(singapore) == "Location already added!")
        #expect(f.add(jakarta) == nil)
        #expect(f.remove(ids: [1, 3]) == 2)
        #expect(f.locations == [kl])
    }

    @Test func sortMessages() {
        var f = Favourites()
        #expect(f.sorted(by: .quality) == .message("No location to be sorted!"))
        f.add(kl)
        #expect(f.sorted(by: .quality) == .message(SkyMessage.needTwoToSort))
    }

    @Test func sortByQualityAndDistanceWithAlphabeticalTies() {
        var f = Favourites()
        for l in [singapore, kl, jakarta] { f.add(l) }
        #expect(f.sorted(by: .quality, quality: [1: 50, 2: 80, 3: 50]) == .sorted([kl, jakarta, singapore]))
        // From Singapore: Singapore (0 km), Kuala Lumpur (~316 km), Jakarta (~890 km).
        #expect(f.sorted(by: .distance(latitude: 1.3521, longitude: 103.8198)) == .sorted([singapore, kl, jakarta]))
        var twins = Favourites()
        let a = SavedLocation(id: 10, name: "Beta", latitude: 0, longitude: 0, timeZone: "UTC")
        let b = SavedLocation(id: 11, name: "Alpha", latitude: 0, longitude: 0, timeZone: "UTC")
        twins.add(a)
        twins.add(b)
        #expect(twins.sorted(by: .distance(latitude: 1, longitude: 1)) == .sorted([b, a]))
    }
}

@Suite("City search (WXC-D1)")
struct CitySearchTests {
    static let places: [Place] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Datasets/places/us_cities_geonames_cities500.csv")
        return (try? PlacesLoader.loadUSCities(url: url).records) ?? []
    }()

    @Test func exactNamesHitTopOne() throws {
        let places = Self.places
        try #require(places.count == 21_783)
        let index = CitySearch(places: places)
        // Every 50th city; a hit = the top result has the same folded name (names are not unique:
        // the most populous "Springfield" is the expected answer for "Springfield").
        let sample = stride(from: 0, to: places.count, by: 50).map { places[$0] }
        let hits = sample.filter { p in
            index.search(p.name, limit: 1).first.map { CitySearch.fold($0.name) == CitySearch.fold(p.name) } ?? false
        }
        let rate = Double(hits.count) / Double(sample.count)
        #expect(rate >= 0.95, "top-1 exact-name hit rate \(rate)")
    }

    @Test func prefixRankedByPopulationAndTypos() throws {
        let index = CitySearch(places: Self.places)
        #expect(index.search("New Y", limit: 1).first?.name == "New York City")
        #expect(index.search("los angles", limit: 1).first?.name == "Los Angeles")  // missing letter
        #expect(index.search("Chicgao", limit: 1).first?.name == "Chicago")  // transposition
        #expect(index.search("São Paulo-ish nowhere").isEmpty)
        #expect(index.search("").isEmpty)
    }
}

@Suite("Calendar and reminders (SKY-C1, SKY-M1)")
struct SkyCalendarTests {
    @Test func windowMessages() throws {
        let cal = SkyCalendar(location: singapore)
        let today = try #require(CivilDate(year: 2024, month: 3, day: 20))
        guard case .message(let later) = cal.select(today.adding(days: 8), today: today, samples: []) else {
            Issue.record()
            return
        }
        #expect(later == "No predictions for the selected date yet!")
        guard case .message(let older) = cal.select(today.adding(days: -31), today: today, samples: []) else {
            Issue.record()
            return
        }
        #expect(older == "Information expired.")
        guard case .day = cal.select(today.adding(days: 7), today: today, samples: []) else {
            Issue.record()
            return
        }
        guard case .day = cal.select(today.adding(days: -30), today: today, samples: []) else {
            Issue.record()
            return
        }
    }

    @Test func remindersThirtyMinutesBeforeWithLowChanceWarning() throws {
        let cal = SkyCalendar(location: singapore)
        let today = try #require(CivilDate(year: 2024, month: 3, day: 20))
        // Overcast low cloud all day → low quality → warning.
        let samples = (0...30).map {
            SkySample(timeUTC: Double(1_710_864_000 + $0 * 3600), conditions: SkyConditions(cloudLowPct: 100))
        }
        guard case .day(let d) = cal.select(today, today: today, samples: samples) else {
            Issue.record()
            return
        }
        let r = cal.reminders(for: d)
        #expect(r.count == 2)
        for x in r {
            #expect(abs(x.eventUTC - x.fireUTC - 1800) < 1e-9)
            #expect(x.warning == SkyMessage.lowChance)
        }
        let clear = (0...30).map {
            SkySample(
                timeUTC: Double(1_710_864_000 + $0 * 3600), conditions: SkyConditions(cloudLowPct: 0, cloudHighPct: 50))
        }
        guard case .day(let good) = cal.select(today, today: today, samples: clear) else {
            Issue.record()
            return
        }
        #expect(cal.reminders(for: good).allSatisfy { $0.warning == nil })
    }
}
