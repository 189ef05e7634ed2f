/// Namespace of the DeviceEmulation module: an emulated phone for the scenario engine.
///
/// The module models, on a virtual clock (seconds, UTC epoch, passed in by the caller — nothing here
/// reads the wall clock):
/// - connectivity over time and network links (`ConnectivitySchedule`, `NetworkLink`),
/// - permissions and consent (`DevicePermissions`, `WeatherServicePermissions`, `LocationConsent`),
/// - an on-device SQLite offline cache (`OfflineCache`),
/// - sensors (`GPSReceiver`, `WiFiScanner`, `CellTowerScanner`, `GaitModel`),
/// - and a `Device` that bundles them, each drawing from its own named random sub-stream.
///
/// All randomness comes from a caller-supplied `RandomNumberGenerator`; the same seed gives the same draws.
public enum DeviceEmulationModule {}
