/// Noise of a MEMS accelerometer and gyroscope: white noise from the datasheet noise density, plus a
/// constant bias per axis drawn once per trace.
///
/// Defaults follow the InvenSense MPU-6500 product specification (rev. 1.1, 2014), a common phone IMU:
/// accelerometer noise density 300 µg/√Hz and gyroscope rate-noise density 0.01 °/s/√Hz. The per-sample
/// standard deviation is density × √(bandwidth), with bandwidth taken as the Nyquist frequency (rate / 2):
/// at 100 Hz about 0.021 m/s² and 0.0012 rad/s. Biases are the residual after the phone's own calibration
/// (assumed: σ 0.05 m/s² and 0.5 °/s), far below the datasheet's uncalibrated ±60 mg / ±5 °/s.
public struct InertialSensorNoise: Sendable, Equatable, Codable {
    /// Accelerometer white-noise density, (m/s²)/√Hz.
    public var accelerometerNoiseDensity: Double
    /// Gyroscope white-noise density, (rad/s)/√Hz.
    public var gyroscopeNoiseDensity: Double
    /// Standard deviation of the constant accelerometer bias per axis, m/s².
    public var accelerometerBiasStandardDeviation: Double
    /// Standard deviation of the constant gyroscope bias per axis, rad/s.
    public var gyroscopeBiasStandardDeviation: Double

    /// Creates a noise model; densities in (unit)/√Hz, biases in m/s² and rad/s.
    public init(
        accelerometerNoiseDensity: Double,
        gyroscopeNoiseDensity: Double,
        accelerometerBiasStandardDeviation: Double,
        gyroscopeBiasStandardDeviation: Double
    ) {
        self.accelerometerNoiseDensity = accelerometerNoiseDensity
        self.gyroscopeNoiseDensity = gyroscopeNoiseDensity
        self.accelerometerBiasStandardDeviation = accelerometerBiasStandardDeviation
        self.gyroscopeBiasStandardDeviation = gyroscopeBiasStandardDeviation
    }

    /// MPU-6500-like phone IMU (see the type's documentation for the numbers and their source).
    public static let mpu6500 = InertialSensorNoise(
        accelerometerNoiseDensity: 300e-6 * standardGravity,
        gyroscopeNoiseDensity: 0.01 * .pi / 180.0,
        accelerometerBiasStandardDeviation: 0.05,
        gyroscopeBiasStandardDeviation: 0.5 * .pi / 180.0
    )

    /// An ideal sensor: no noise, no bias (for tests of the deterministic signal).
    public static let none = InertialSensorNoise(
        accelerometerNoiseDensity: 0,
        gyroscopeNoiseDensity: 0,
        accelerometerBiasStandardDeviation: 0,
        gyroscopeBiasStandardDeviation: 0
    )

    /// Per-sample accelerometer noise standard deviation at `sampleRateHz`, m/s².
    public func accelerometerSampleStandardDeviation(sampleRateHz: Double) -> Double {
        accelerometerNoiseDensity * (sampleRateHz / 2).squareRoot()
    }

    /// Per-sample gyroscope noise standard deviation at `sampleRateHz`, rad/s.
    public func gyroscopeSampleStandardDeviation(sampleRateHz: Double) -> Double {
        gyroscopeNoiseDensity * (sampleRateHz / 2).squareRoot()
    }
}
