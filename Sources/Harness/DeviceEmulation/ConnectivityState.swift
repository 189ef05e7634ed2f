/// Which network bearers the emulated phone can reach at a moment.
public enum ConnectivityState: String, Sendable, Codable, CaseIterable {
    /// Both Wi-Fi and cellular are reachable.
    case online
    /// No network at all (airplane mode, no coverage).
    case offline
    /// Only Wi-Fi is reachable (no cellular coverage, or cellular switched off).
    case wifiOnly
    /// Only cellular is reachable (no known Wi-Fi in range).
    case cellularOnly

    /// Whether a Wi-Fi network is reachable.
    public var hasWiFi: Bool { self == .online || self == .wifiOnly }
    /// Whether a cellular network is reachable.
    public var hasCellular: Bool { self == .online || self == .cellularOnly }
}

/// A network bearer a request travels over.
public enum NetworkBearer: String, Sendable, Codable, CaseIterable {
    /// Wireless LAN.
    case wifi
    /// Mobile (cellular) data.
    case cellular
}
