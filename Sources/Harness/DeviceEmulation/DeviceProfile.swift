/// The fixed description of one emulated phone, as named in a scenario's `devices:` section.
public struct DeviceProfile: Sendable, Equatable, Codable {
    /// Profile name (e.g. "budget-android").
    public var name: String
    /// GPS surroundings at the start (the engine may change them as the user moves).
    public var gpsEnvironment: GPSEnvironment
    /// Interval between GPS fixes, seconds.
    public var gpsFixIntervalSeconds: Double
    /// Link used over cellular data.
    public var cellularPreset: NetworkLinkPreset
    /// Link used over Wi-Fi.
    public var wifiPreset: NetworkLinkPreset
    /// Request timeout and retries.
    public var retry: RetryPolicy
    /// Device-wide permissions (location, cellular data).
    public var permissions: DevicePermissions
    /// Where the phone is carried (for the inertial sensors).
    public var placement: PhonePlacement
    /// Accelerometer and gyroscope sample rate, Hz.
    public var inertialSampleRateHz: Double
    /// Accelerometer and gyroscope noise.
    public var inertialNoise: InertialSensorNoise

    /// Creates a profile; times in seconds, rates in Hz.
    public init(
        name: String,
        gpsEnvironment: GPSEnvironment = .openSky,
        gpsFixIntervalSeconds: Double = 1,
        cellularPreset: NetworkLinkPreset = .lte,
        wifiPreset: NetworkLinkPreset = .wifi,
        retry: RetryPolicy = RetryPolicy(),
        permissions: DevicePermissions = DevicePermissions(),
        placement: PhonePlacement = .hand,
        inertialSampleRateHz: Double = 100,
        inertialNoise: InertialSensorNoise = .mpu6500
    ) {
        self.name = name
        self.gpsEnvironment = gpsEnvironment
        self.gpsFixIntervalSeconds = gpsFixIntervalSeconds
        self.cellularPreset = cellularPreset
        self.wifiPreset = wifiPreset
        self.retry = retry
        self.permissions = permissions
        self.placement = placement
        self.inertialSampleRateHz = inertialSampleRateHz
        self.inertialNoise = inertialNoise
    }
}
