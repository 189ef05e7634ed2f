import CGSL

/// One-dimensional interpolation of tabulated y(x) over strictly increasing x (GSL `gsl_interp`).
///
/// Methods: piecewise linear; natural cubic spline (`gsl_interp_cspline`, C² with zero second derivative
/// at the ends); Steffen's monotone cubic (`gsl_interp_steffen`, M. Steffen, "A simple method for monotonic
/// interpolation in one dimension", A&A 239 (1990)), which never overshoots the data and keeps monotone
/// data monotone. Units are those of the data.
///
/// Outside the data range, `value(at:)` returns the nearest end value (constant extrapolation) rather
/// than extrapolating the end piece. Construction is O(n); each evaluation is O(log n) (binary search).
/// The value is immutable and safe to share between tasks: GSL evaluation reads the precomputed
/// coefficients only and no shared accelerator is used.
public struct Interpolator: Sendable {
    /// Interpolation method.
    public enum Method: String, Sendable, CaseIterable {
        /// Piecewise linear (needs ≥ 2 points).
        case linear
        /// Natural cubic spline (needs ≥ 3 points).
        case cubicSpline
        /// Steffen's monotonicity-preserving cubic (needs ≥ 3 points).
        case steffen

        /// Minimum number of knots GSL needs for this method.
        public var minimumPointCount: Int {
            switch self {
            case .linear: return 2
            case .cubicSpline, .steffen: return 3
            }
        }
    }

    /// The knot abscissae, strictly increasing.
    public let x: [Double]
    /// The knot ordinates, one per `x`.
    public let y: [Double]
    /// The interpolation method.
    public let method: Method
    private let state: InterpolationState

    /// Builds an interpolator over the knots (`x[i]`, `y[i]`).
    /// - Throws: `GSLError.invalidInput` when the arrays differ in length, have fewer points than the method
    ///   needs, contain NaN or infinite values, or when `x` is not strictly increasing (duplicates included);
    ///   `GSLError.gsl` if GSL fails to initialise.
    public init(x: [Double], y: [Double], method: Method = .linear) throws(GSLError) {
        guard x.count == y.count else {
            throw .invalidInput(
                "interpolation needs one y per x, but got \(x.count) x values and \(y.count) y values; pass arrays of equal length"
            )
        }
        guard x.count >= method.minimumPointCount else {
            throw .invalidInput(
                "\(method.rawValue) interpolation needs at least \(method.minimumPointCount) points, got \(x.count); add points or use a simpler method"
            )
        }
        if let bad = x.firstIndex(where: { !$0.isFinite }) {
            throw .invalidInput("x[\(bad)] = \(x[bad]) is not finite; remove or fix that point")
        }
        if let bad = y.firstIndex(where: { !$0.isFinite }) {
            throw .invalidInput("y[\(bad)] = \(y[bad]) is not finite; remove or fix that point")
        }
        for i in 1..<x.count where !(x[i] > x[i - 1]) {
            let kind = x[i] == x[i - 1] ? "duplicate x" : "x not increasing"
            throw .invalidInput(
                "\(kind) at index \(i): x[\(i - 1)] = \(x[i - 1]), x[\(i)] = \(x[i]); x must be strictly increasing (sort the points and merge duplicates)"
            )
        }
        self.x = x
        self.y = y
        self.method = method
        self.state = try InterpolationState(x: x, y: y, method: method)
    }

    /// The closed interval [x first, x last] covered by the data.
    public var domain: ClosedRange<Double> {
        // init guarantees at least two strictly increasing finite knots.
        (x.first ?? 0)...(x.last ?? 0)
    }

    /// The interpolated value at `x`. Values of `x` outside `domain` are clamped to it, so the result is the
    /// nearest end value y first / y last. A NaN `x` returns NaN.
    public func value(at x: Double) -> Double {
        guard !x.isNaN else { return .nan }
        let clamped = min(max(x, domain.lowerBound), domain.upperBound)
        return state.evaluate(at: clamped)
    }
}

/// Owns the GSL interpolation object and the knot arrays it was initialised with.
/// `@unchecked Sendable`: immutable after `init`; `gsl_interp_eval` with a NULL accelerator only reads it.
private final class InterpolationState: @unchecked Sendable {
    private let interp: UnsafeMutablePointer<gsl_interp>
    private let x: [Double]
    private let y: [Double]

    init(x: [Double], y: [Double], method: Interpolator.Method) throws(GSLError) {
        GSLRuntime.ensureConfigured()
        let type: UnsafePointer<gsl_interp_type>
        switch method {
        case .linear: type = fieldtest_interp_linear()
        case .cubicSpline: type = fieldtest_interp_cspline()
        case .steffen: type = fieldtest_interp_steffen()
        }
        guard let interp = gsl_interp_alloc(type, x.count) else {
            throw .gsl(
                code: Int32(GSL_ENOMEM), message: "gsl_interp_alloc failed for \(x.count) points (out of memory)")
        }
        let status = x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                gsl_interp_init(interp, xs.baseAddress, ys.baseAddress, x.count)
            }
        }
        guard status == GSL_SUCCESS else {
            gsl_interp_free(interp)
            throw .gsl(code: status, message: "gsl_interp_init: \(GSLRuntime.message(for: status))")
        }
        self.interp = interp
        self.x = x
        self.y = y
    }

    deinit {
        gsl_interp_free(interp)
    }

    /// Evaluates at a point inside the domain.
    func evaluate(at point: Double) -> Double {
        x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                gsl_interp_eval(interp, xs.baseAddress, ys.baseAddress, point, nil)
            }
        }
    }
}
