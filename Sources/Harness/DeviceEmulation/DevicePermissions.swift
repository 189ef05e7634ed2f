/// The user's answer to a permission prompt.
public enum PermissionDecision: String, Sendable, Codable, CaseIterable {
    /// The app has not asked yet (treated as not granted).
    case notAsked
    /// The user allowed it.
    case granted
    /// The user refused it.
    case refused

    /// Whether the permission may be used (only when granted).
    public var isGranted: Bool { self == .granted }
}

/// Device-wide permissions of the emulated app (use case 3, "User Permissions", of the weather-cities spec).
///
/// Rules (WXC-P1): cellular data refused → only Wi-Fi is used ([E1]/[E2]); location refused → the app gets
/// no device position ([E3]/[E4]). A permission never asked counts as not granted.
public struct DevicePermissions: Sendable, Equatable, Codable {
    /// Location services permission.
    public var location: PermissionDecision
    /// Cellular (SIM) data permission.
    public var cellularData: PermissionDecision

    /// Creates a permission set (both granted by default).
    public init(location: PermissionDecision = .granted, cellularData: PermissionDecision = .granted) {
        self.location = location
        self.cellularData = cellularData
    }

    /// Whether the app may use mobile data (WXC-P1).
    public var mayUseCellularData: Bool { cellularData.isGranted }

    /// Whether the app may read the device's own position (WXC-P1).
    public var mayReadDevicePosition: Bool { location.isGranted }

    /// Bearers the app may use when connectivity is `state`, Wi-Fi first (WXC-P1).
    public func usableBearers(in state: ConnectivityState) -> [NetworkBearer] {
        var bearers: [NetworkBearer] = []
        if state.hasWiFi { bearers.append(.wifi) }
        if state.hasCellular, mayUseCellularData { bearers.append(.cellular) }
        return bearers
    }

    /// `position` if location is granted, otherwise `nil` (WXC-P1: no device position).
    public func devicePosition<Position>(_ position: Position?) -> Position? {
        mayReadDevicePosition ? position : nil
    }
}
