/// Namespace of the DeviceEmulation module: an emulated phone for the scenario engine.
///
/// Time is virtual: every call takes seconds (UTC epoch) from the caller; nothing here reads the wall clock.
/// Randomness comes from a caller-supplied `RandomNumberGenerator`; a `Device` gives each component its own
/// named sub-stream ("gps", "network", "wifi", "cell", "imu") of its `RandomStream`, so the same seed gives
/// the same draws and adding a sensor never changes another's.
///
/// Models, their parameters and sources (details on each type):
///
/// | Component | Model | Default parameters | Source |
/// |---|---|---|---|
/// | `ConnectivitySchedule` | disjoint intervals online / offline / wifiOnly / cellularOnly | default state outside | — |
/// | `NetworkLink`, `NetworkLinkPreset` | delays + log-normal jitter + bytes/bandwidth; Bernoulli loss per message; first-byte timeout, retries | edge 240/200 kbit/s 400 ms; 3g 780/330 kbit/s 100 ms; lte 50/10 Mbit/s 50 ms; wifi 40/33 Mbit/s 1 ms; very-bad-network 1 Mbit/s 100 ms 10 % loss; 100%-loss; gsm; hsdpa; full | Apple Network Link Conditioner profiles; Android emulator `-netspeed`/`-netdelay` |
/// | `DevicePermissions`, `WeatherServicePermissions`, `LocationConsent` | rules WXC-P1, WXC-P2, NAV-PR1 | — | weather-cities use cases 3 and 5; NavUP SRS §2.5 (POPI Act) |
/// | `OfflineCache` | SQLite entries with fetch time and TTL; expired data only offline | — | SKY-R1 |
/// | `GPSReceiver`, `GPSEnvironment` | Gauss–Markov error (τ 30 s), outliers, Markov dropouts | open sky median 5 m; urban 10 m; indoor 25 m, 60 % unavailable | gps.gov / van Diggelen & Enge 2015; FAA SPS PAN reports; Zandbergen & Barbeau 2011 |
/// | `WiFiScanner`, `PathLossModel` | log-distance path loss + log-normal shadowing, −100 dBm floor | P₀ −40 dBm @ 1 m, n 3.0, σ 6 dB | Rappaport 2002 §4.9 |
/// | `WiFiFingerprintReplay` | nearest or sequential recorded fingerprints | — | e.g. UJIIndoorLoc (Torres-Sospedra et al. 2014) |
/// | `CellTowerScanner` | Okumura–Hata urban median loss + 8 dB shadowing; serving + ≤ 6 neighbours | 900 MHz, EIRP 43 dBm, floor −113 dBm | Hata 1980; 3GPP TS 45.008 / 27.007 |
/// | `GaitModel` | harmonic walking acceleration, renewal step times, pitch swing, IMU noise | cadence 1.5/1.8/2.1 Hz; MPU-6500 noise | Zijlstra & Hof 2003; Hausdorff 1995; Tudor-Locke 2019; InvenSense MPU-6500 datasheet |
public enum DeviceEmulationModule {}
