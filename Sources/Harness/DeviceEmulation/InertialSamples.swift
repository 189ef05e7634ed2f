/// One accelerometer reading in the phone's body frame (Android/iOS convention: x to the right of the
/// screen, y to the top of the screen, z out of the screen), including gravity: a phone lying flat and still
/// reads about (0, 0, +9.81).
public struct AccelerometerSample: Sendable, Equatable, Codable {
    /// Sample time, seconds (UTC epoch, virtual clock).
    public var time: Double
    /// Specific force along the body x axis, m/s².
    public var x: Double
    /// Specific force along the body y axis, m/s².
    public var y: Double
    /// Specific force along the body z axis, m/s².
    public var z: Double

    /// Creates a sample; `time` in seconds, components in m/s².
    public init(time: Double, x: Double, y: Double, z: Double) {
        self.time = time
        self.x = x
        self.y = y
        self.z = z
    }

    /// Euclidean norm of the reading, m/s² (about 9.81 at rest).
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

/// One gyroscope reading in the phone's body frame (same axes as `AccelerometerSample`), rad/s,
/// positive counter-clockwise about each axis (right-hand rule).
public struct GyroscopeSample: Sendable, Equatable, Codable {
    /// Sample time, seconds (UTC epoch, virtual clock).
    public var time: Double
    /// Angular rate about the body x axis, rad/s.
    public var x: Double
    /// Angular rate about the body y axis, rad/s.
    public var y: Double
    /// Angular rate about the body z axis, rad/s.
    public var z: Double

    /// Creates a sample; `time` in seconds, components in rad/s.
    public init(time: Double, x: Double, y: Double, z: Double) {
        self.time = time
        self.x = x
        self.y = y
        self.z = z
    }
}

/// Standard gravity, m/s² (CGPM 1901 conventional value).
public let standardGravity: Double = 9.80665
