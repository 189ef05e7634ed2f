import Positioning

/// Wi-Fi fingerprint positioning in-process: train on surveyed scans, then locate a new scan.
/// RSSI in dBm (100: access point not heard, as UJIIndoorLoc writes it); positions in metres.
enum LocateByWiFi: InProcessExample {
    static func run() throws {
        // snippet.train
        // Four surveyed scans of three access points on one floor: two near (0, 0) and two near (30, 0).
        let training = [
            FingerprintSample(rssi: [-45, -80, 100], xMetres: 0, yMetres: 0, floor: 0, building: 0),
            FingerprintSample(rssi: [-50, -78, 100], xMetres: 2, yMetres: 1, floor: 0, building: 0),
            FingerprintSample(rssi: [-82, -47, -70], xMetres: 30, yMetres: 0, floor: 0, building: 0),
            FingerprintSample(rssi: [-85, -44, -72], xMetres: 31, yMetres: 2, floor: 0, building: 0),
        ]
        let locator = try FingerprintLocator(training: training)
        // snippet.end

        // snippet.locate
        // A scan taken near the second pair is placed there: weighted k-nearest neighbours in signal space.
        let estimate = try locator.locate([-84, -46, -71])
        print("x", Int(estimate.xMetres.rounded()), "m, y", Int(estimate.yMetres.rounded()), "m, floor", estimate.floor)
        // snippet.end
    }
}
