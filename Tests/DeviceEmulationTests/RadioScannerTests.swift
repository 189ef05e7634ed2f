import FieldtestGSL
import Foundation
import Testing

@testable import DeviceEmulation

@Suite("Wi-Fi and cell scanners")
struct RadioScannerTests {
    @Test("path loss: mean −70 dBm at 10 m and shadowing σ = 6 dB recovered from 20k scans")
    func shadowingRecovered() throws {
        let scanner = try WiFiScanner(accessPoints: [
            AccessPoint(bssid: "ap", position: LocalPosition(east: 10, north: 0))
        ])
        var rng = RandomStream(seed: 21)
        let values = (0..<20_000).compactMap { _ in
            scanner.scan(at: 0, from: LocalPosition(east: 0, north: 0), using: &rng).rssi(of: "ap").map(Double.init)
        }
        #expect(values.count == 20_000)
        // −40 − 30 log10(10) = −70 dBm; standard error of the mean 6/√20000 ≈ 0.04 dB.
        #expect(abs(Stats.mean(values) + 70) < 0.15)
        // Rounding to whole dBm adds 1/12 dB² of variance: √(36 + 0.083) ≈ 6.007 dB; tolerance 2 %.
        #expect(abs(Stats.standardDeviation(values) - 6.007) / 6.007 < 0.02)
    }

    @Test("path-loss exponent recovered by least squares over distance")
    func exponentRecovered() throws {
        var rng = RandomStream(seed: 22)
        var xs: [Double] = []
        var ys: [Double] = []
        for distance in stride(from: 2.0, through: 40.0, by: 2.0) {
            let scanner = try WiFiScanner(accessPoints: [
                AccessPoint(bssid: "ap", position: LocalPosition(east: distance, north: 0))
            ])
            for _ in 0..<500 {
                if let rssi = scanner.scan(at: 0, from: LocalPosition(east: 0, north: 0), using: &rng).rssi(of: "ap") {
                    xs.append(10 * log10(distance))
                    ys.append(Double(rssi))
                }
            }
        }
        let mx = Stats.mean(xs)
        let my = Stats.mean(ys)
        let slope =
            zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        // Slope = −n = −3; 10 000 readings, σ 6 dB → standard error ≈ 0.03.
        #expect(abs(slope + 3) < 0.12)
    }

    @Test("readings below −100 dBm are not detected")
    func detectionFloor() throws {
        // Mean power −100 dBm at 100 m: detected when the rounded value ≥ −100, i.e. power ≥ −100.5 dBm,
        // with probability Φ(0.5/6) ≈ 0.533.
        let scanner = try WiFiScanner(accessPoints: [
            AccessPoint(bssid: "edge", position: LocalPosition(east: 100, north: 0)),
            AccessPoint(bssid: "far", position: LocalPosition(east: 1000, north: 0)),
        ])
        var rng = RandomStream(seed: 23)
        var detected = 0
        var far = 0
        for _ in 0..<20_000 {
            let scan = scanner.scan(at: 0, from: LocalPosition(east: 0, north: 0), using: &rng)
            if let rssi = scan.rssi(of: "edge") {
                detected += 1
                #expect(rssi >= -100)
            }
            if scan.rssi(of: "far") != nil { far += 1 }
        }
        #expect(abs(Double(detected) / 20_000 - 0.533) < 0.015)
        // −130 dBm mean is 5 σ below the floor.
        #expect(far == 0)
    }

    @Test("scans are sorted strongest first and reproducible from the seed")
    func orderAndDeterminism() throws {
        let scanner = try WiFiScanner(
            accessPoints: (0..<20).map {
                AccessPoint(
                    bssid: String(format: "WAP%03d", $0), position: LocalPosition(east: Double($0) * 5, north: 3, up: 4)
                )
            })
        var a = RandomStream(seed: 24)
        var b = RandomStream(seed: 24)
        let first = scanner.scan(at: 5, from: LocalPosition(east: 12, north: 0), using: &a)
        let second = scanner.scan(at: 5, from: LocalPosition(east: 12, north: 0), using: &b)
        #expect(first == second)
        #expect(zip(first.readings, first.readings.dropFirst()).allSatisfy { $0.rssiDbm >= $1.rssiDbm })
    }

    @Test("replay returns the nearest recorded fingerprint (same floor) or the next in order")
    func replay() throws {
        let prints = [
            RecordedFingerprint(
                position: LocalPosition(east: 0, north: 0), floor: 0, readings: [WiFiReading(bssid: "A", rssiDbm: -50)]),
            RecordedFingerprint(
                position: LocalPosition(east: 10, north: 0), floor: 0, readings: [WiFiReading(bssid: "B", rssiDbm: -60)]
            ),
            RecordedFingerprint(
                position: LocalPosition(east: 1, north: 0), floor: 1, readings: [WiFiReading(bssid: "C", rssiDbm: -70)]),
        ]
        var replay = try WiFiFingerprintReplay(fingerprints: prints)
        #expect(replay.scan(at: 1, nearest: LocalPosition(east: 8, north: 1)).readings == prints[1].readings)
        #expect(replay.scan(at: 1, nearest: LocalPosition(east: 1.2, north: 0)).readings == prints[2].readings)
        #expect(
            replay.scan(at: 1, nearest: LocalPosition(east: 1.2, north: 0), floor: 0).readings == prints[0].readings)
        #expect(
            replay.scan(at: 1, nearest: LocalPosition(east: 1.2, north: 0), floor: 7).readings == prints[2].readings)
        let order = (0..<4).map { replay.nextScan(at: Double($0)).readings[0].bssid }
        #expect(order == ["A", "B", "C", "A"])
        #expect(throws: DeviceEmulationError.emptyFingerprintReplay) { try WiFiFingerprintReplay(fingerprints: []) }
    }

    @Test("cell towers: Hata mean at 1 km, σ = 8 dB, nearest serves, at most six neighbours")
    func cellTowers() throws {
        let near = CellTower(cellID: "near", position: LocalPosition(east: 1000, north: 0, up: 30))
        let scanner = try CellTowerScanner(towers: [near])
        // Hata urban, 900 MHz, h_b 30 m, h_m 1.5 m, 1 km: L ≈ 126.4 dB → 43 − 126.4 = −83.4 dBm.
        #expect(abs(scanner.meanPowerDbm(tower: near, distanceMetres: 1000) + 83.42) < 0.05)
        // 35.2 dB per decade of distance at h_b = 30 m.
        let decade =
            scanner.meanPowerDbm(tower: near, distanceMetres: 1000)
            - scanner.meanPowerDbm(tower: near, distanceMetres: 10_000)
        #expect(abs(decade - (44.9 - 6.55 * log10(30))) < 1e-9)

        var rng = RandomStream(seed: 25)
        let values = (0..<20_000).compactMap { _ in
            scanner.scan(at: 0, from: LocalPosition(east: 0, north: 0), using: &rng).serving.map { Double($0.rssiDbm) }
        }
        #expect(abs(Stats.standardDeviation(values) - 8.005) / 8.005 < 0.02)

        let towers = (0..<10).map { index in
            CellTower(cellID: "c\(index)", position: LocalPosition(east: 300 + Double(index) * 400, north: 0, up: 30))
        }
        let many = try CellTowerScanner(towers: towers)
        var servedByNearest = 0
        for _ in 0..<2000 {
            let scan = many.scan(at: 0, from: LocalPosition(east: 0, north: 0), using: &rng)
            if scan.serving?.cellID == "c0" { servedByNearest += 1 }
            #expect(scan.neighbours.count <= 6)
            if let serving = scan.serving { #expect(scan.neighbours.allSatisfy { $0.rssiDbm <= serving.rssiDbm }) }
        }
        // c0 at 300 m is ≈ 10.7 dB stronger than c1 at 700 m; with σ 8 dB on each it wins most of the time.
        #expect(servedByNearest > 1400)
        let remote = many.scan(at: 0, from: LocalPosition(east: -200_000, north: 0), using: &rng)
        #expect(remote.serving == nil && remote.neighbours.isEmpty)
        #expect(throws: DeviceEmulationError.self) { try CellTowerScanner(towers: [], frequencyMHz: 2600) }
    }
}
