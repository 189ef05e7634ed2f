import Foundation
import Testing

@testable import FieldtestData
@testable import SkyScoring

/// A provider over hand-made observations.
struct FixedProvider: WeatherProvider {
    let name = "fixed"
    let observations: [WeatherObservation]
    let station: (latitude: Double, longitude: Double)? = (40.85, -96.75)
}

private let datasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Datasets").standardizedFileURL

@Suite("Replayed weather (SKY-X1, SKY-D2, MIC-30)")
struct WeatherProviderTests {
    let t0 = 1_674_223_200.0  // 2023-01-20T14:00:00Z

    func provider() -> FixedProvider {
        FixedProvider(observations: [
            WeatherObservation(
                timeUTC: t0, sky: SkyConditions(cloudLowPct: 20, humidityPct: 60, precipProbabilityPct: 100),
                temperatureC: -2, presentWeather: "-SN"),
            WeatherObservation(
                timeUTC: t0 + 3600, sky: SkyConditions(cloudLowPct: 80, precipProbabilityPct: 0),
                temperatureC: 2),
        ])
    }

    @Test func continuousFieldsAreInterpolatedAndEventsHeld() throws {
        let o = try #require(provider().observation(at: t0 + 900))
        #expect(abs((o.sky.cloudLowPct ?? 0) - 35) < 1e-9)  // 20 + 60 × 0.25
        #expect(abs((o.temperatureC ?? 0) - -1) < 1e-9)  // −2 + 4 × 0.25
        #expect(o.sky.humidityPct == 60)  // no later humidity: held
        #expect(o.sky.precipProbabilityPct == 100)  // events are held, not blended
        #expect(o.presentWeather == "-SN")
        #expect(o.timeUTC == t0 + 900)
        let later = try #require(provider().observation(at: t0 + 3600))
        #expect(later.sky.cloudLowPct == 80 && later.sky.precipProbabilityPct == 0)
    }

    @Test func outsideTheRecordingThereIsNoWeather() {
        #expect(provider().observation(at: t0 - 1) == nil)
        #expect(provider().observation(at: t0 + 3600 + 3 * 3600 + 1) == nil)  // more than 3 h after the last
        #expect(provider().observation(at: t0 + 3600 + 3 * 3600) != nil)
    }

    @Test func reportUsesOpenWeatherMapVocabulary() throws {
        let snow = try #require(provider().report(latitude: 0, longitude: 0, at: t0 + 60))
        #expect(snow.symbol == "13d" && snow.description == "light snow")  // 14:00Z is 08:00 in Nebraska: day
        #expect(snow.isComplete)
        let clouds = WeatherReport(
            WeatherObservation(
                timeUTC: t0 + 12 * 3600, sky: SkyConditions(cloudTotalPct: 50),
                temperatureC: 1), latitude: 40.85, longitude: -96.75)
        #expect(clouds.symbol == "03n" && clouds.description == "scattered clouds")  // 02:00Z: night
        let unknownSky = WeatherReport(WeatherObservation(timeUTC: t0, sky: SkyConditions()), latitude: 0, longitude: 0)
        #expect(unknownSky.symbol == nil && !unknownSky.isComplete)
        let tmyRain = WeatherReport(
            WeatherObservation(
                timeUTC: t0, sky: SkyConditions(cloudTotalPct: 100, precipProbabilityPct: 100),
                temperatureC: 5), latitude: 40.85, longitude: -96.75)
        #expect(tmyRain.symbol == "10d" && tmyRain.description == "rain")
    }

    /// A typical year replays only in the years the solar and zone tables cover; outside them
    /// (a year past 2100 used to overflow or lose events) the provider says which years work.
    @Test func typicalYearOutsideTheSupportedYearsIsRejected() throws {
        let file = try TMY3Loader.load(
            url: datasets.appendingPathComponent("weather/703165TY.csv"), displayName: "703165TY.csv")
        for year in [1899, 2101, 50_000, 100_000_000_000_000, -5] {
            #expect(throws: TMYWeatherProvider.ReplayError.unsupportedYear(year)) {
                try TMYWeatherProvider(file: file, format: "tmy3", year: year)
            }
        }
        #expect(try TMYWeatherProvider(file: file, format: "tmy3", year: 2100).observations.count == 8760)
    }

    /// Rota's LCD file (layout v1) carries no coordinates; NOAA's station history places it
    /// (USAF 084490, WBAN 13025: +36.650, −6.350).
    @Test func lcdStationWithoutCoordinatesIsPlacedByTheStationHistory() throws {
        let rota = LCDWeatherProvider(
            file: try NOAALCDLoader.load(
                url: datasets.appendingPathComponent("weather/LCD_08449013025_Rota_2018.csv"),
                displayName: "rota.csv", utcOffsetSeconds: 3600))
        #expect(rota.station == nil && rota.stationID == "08449013025")
        let history = try ISDHistoryLoader.load(url: datasets.appendingPathComponent("weather/isd-history.csv")).records
        let placed = try #require(rota.located(in: history).station)
        #expect(placed.latitude == 36.65 && placed.longitude == -6.35)
        #expect(rota.located(in: []).station == nil)
    }

    @Test func twoSourceFormatsBehindOneProtocol() throws {
        let lcd = LCDWeatherProvider(
            file: try NOAALCDLoader.load(
                url: datasets.appendingPathComponent("weather/LCD_USW00014939_Lincoln_2023JanFeb.csv"),
                displayName: "lincoln.csv", utcOffsetSeconds: -21_600))
        let tmy = try TMYWeatherProvider(
            file: try TMY3Loader.load(
                url: datasets.appendingPathComponent("weather/703165TY.csv"),
                displayName: "703165TY.csv"), format: "tmy3", year: 2021)
        let providers: [any WeatherProvider] = [lcd, tmy]
        for p in providers {
            #expect(zip(p.observations, p.observations.dropFirst()).allSatisfy { $0.timeUTC <= $1.timeUTC })
            #expect(p.station != nil)
        }
        #expect(tmy.observations.count == 8760)
        let first = try #require(tmy.observations.first)
        let last = try #require(tmy.observations.last)
        #expect(CivilTime.isoUTC(Int(first.timeUTC)).hasPrefix("2021-01-01"))
        #expect(
            CivilTime.isoUTC(Int(last.timeUTC)).hasPrefix("2022-01-01")
                || CivilTime.isoUTC(Int(last.timeUTC)).hasPrefix("2021-12-31"))
        // Lincoln, 2023-01-20 14:00Z: the LCD report gives every field miCity shows.
        let r = try #require(lcd.report(latitude: 40.81, longitude: -96.70, at: t0))
        #expect(r.isComplete)
    }

    @Test func forecastErrorGrowsWithLeadTimeAndIsRepeatable() throws {
        // A flat 50 % sky for ten days, hourly.
        let flat = FixedProvider(
            observations: (0..<240).map {
                WeatherObservation(
                    timeUTC: t0 + Double($0) * 3600, sky: SkyConditions(cloudLowPct: 50, cloudMidPct: 50))
            })
        let forecast = WeatherForecast(truth: flat, growthPctPerDay: 8, seed: 11)
        let issued = t0
        #expect(forecast.observation(at: t0 + 3600, issuedAt: t0 + 7200)?.sky.cloudLowPct == 50)  // past: the truth
        func spread(leadDays: Double) -> Double {
            let errors = (0..<100).compactMap { k -> Double? in
                let issue = issued + Double(k) * 3600  // a new forecast each hour, same lead
                return forecast.observation(at: issue + leadDays * 86_400, issuedAt: issue)
                    .flatMap { $0.sky.cloudLowPct }.map { $0 - 50 }
            }
            return (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        }
        let oneDay = spread(leadDays: 1)
        let threeDays = spread(leadDays: 3)
        #expect(oneDay > 6 && oneDay < 10, "1-day spread \(oneDay) (model: 8)")
        #expect(threeDays > 19 && threeDays < 29, "3-day spread \(threeDays) (model: 24)")
        let a = forecast.observation(at: t0 + 2 * 86_400, issuedAt: t0)
        let b = forecast.observation(at: t0 + 2 * 86_400, issuedAt: t0)
        #expect(a == b)
        #expect(WeatherForecast(truth: flat, seed: 12).observation(at: t0 + 2 * 86_400, issuedAt: t0) != a)
    }

    @Test func locationDetailsListWhatIsMissing() throws {
        let d = try #require(CivilDate(year: 2023, month: 1, day: 20))
        let day = SolarCalculator().day(
            date: d, latitude: 40.81, longitude: -96.70, zone: try #require(TimeZone(identifier: "America/Chicago")))
        let full = WeatherObservation(
            timeUTC: t0,
            sky: SkyConditions(
                cloudLowPct: 10, cloudMidPct: 20, cloudHighPct: 30,
                humidityPct: 70, precipProbabilityPct: 0, visibilityKm: 16),
            temperatureC: -3, windSpeedMps: 4)
        let complete = LocationDetails(day: day, weather: full, qualityPct: 55)
        #expect(complete.missingFields.isEmpty)
        #expect(abs((complete.airQuality ?? -1) - 0) < 1e-9)  // 16 km visibility: no haze
        let noWeather = LocationDetails(day: day, weather: nil, qualityPct: nil)
        #expect(
            noWeather.missingFields == [
                "cloud_low", "cloud_mid", "cloud_high", "rain_probability", "humidity",
                "air_quality", "wind", "quality",
            ])
        let polar = SolarCalculator().day(
            date: try #require(CivilDate(year: 2024, month: 6, day: 21)), latitude: 69.65,
            longitude: 18.96, zone: try #require(TimeZone(identifier: "Europe/Oslo")))
        #expect(LocationDetails(day: polar, weather: full, qualityPct: nil).missingFields.isEmpty)
    }
}

/// Rain from typical-year files: TMY3 precipitation depths over their periods, TMY2 present
/// weather.
@Suite("TMY rain")
struct TMYRainTests {
    static let datasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Datasets")

    /// Sand Point's file gives depths over 1, 3, 6 and 24 h: every hour a depth covers has a
    /// rain value, wet or dry, and the wet share is plausible for the Aleutians.
    @Test func tmy3DepthsBecomeRainHours() throws {
        let file = try TMY3Loader.load(url: Self.datasets.appendingPathComponent("weather/703165TY.csv"))
        let tmy = try TMYWeatherProvider(file: file, format: "tmy3", year: 2021)
        let rain = tmy.observations.compactMap(\.sky.precipProbabilityPct)
        let reported = file.hours.filter { $0.precipitationMm != nil }.count
        #expect(rain.count > reported)  // periods longer than an hour cover the hours before them
        let wet = rain.filter { $0 == 100 }.count
        #expect(wet > 0 && wet < rain.count / 2)
        #expect(rain.allSatisfy { $0 == 0 || $0 == 100 })
    }

    /// Miami's TMY2 file observes present weather every hour (indicator digit 0); it rains in a
    /// few percent of them, not in all (the indicator is not a weather element).
    @Test func tmy2PresentWeatherBecomesRainHours() throws {
        let file = try TMY2Loader.load(url: Self.datasets.appendingPathComponent("weather/12839.tm2"))
        #expect(file.hours.allSatisfy { $0.presentWeatherObserved })
        let tmy = try TMYWeatherProvider(file: file, format: "tmy2", year: 2021)
        let rain = tmy.observations.compactMap(\.sky.precipProbabilityPct)
        #expect(rain.count == 8760)
        let wetShare = Double(rain.filter { $0 == 100 }.count) / Double(rain.count)
        #expect(wetShare > 0.01 && wetShare < 0.15)
    }

    /// A shorter dry period inside a longer wet one keeps its hours dry.
    @Test func shorterPeriodsOverrideLongerOnes() {
        func hour(_ depth: Double?, _ period: Int?) -> TMYHour {
            var h = TMYHour(startUTC: 0, visibilityUnlimited: false)
            h.precipitationMm = depth
            h.precipitationPeriodHours = period
            return h
        }
        // Hours 0…5: a 6-hour wet total at hour 5, dry single hours at 1 and 2, nothing else.
        let hours = [hour(nil, nil), hour(0, 1), hour(0, 1), hour(nil, nil), hour(nil, nil), hour(2.5, 6)]
        #expect(TMYWeatherProvider.rainPct(hours, fromPresentWeather: false) == [100, 0, 0, 100, 100, 100])
        var tmy2 = hours
        for i in 0..<5 { tmy2[i].presentWeatherObserved = true }
        tmy2[3].precipitationReported = true
        #expect(TMYWeatherProvider.rainPct(tmy2, fromPresentWeather: true) == [0, 0, 0, 100, 0, nil])
    }
}
