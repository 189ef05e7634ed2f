import FieldtestGSL
import Testing

@Suite("Interpolator")
struct InterpolatorTests {
    static let x: [Double] = [0, 1, 2.5, 4, 5]
    static let y: [Double] = [1, 3, 2, 5, 4]

    @Test("every method is exact at the knots", arguments: Interpolator.Method.allCases)
    func exactAtKnots(method: Interpolator.Method) throws {
        let f = try Interpolator(x: Self.x, y: Self.y, method: method)
        for (xi, yi) in zip(Self.x, Self.y) {
            #expect(abs(f.value(at: xi) - yi) < 1e-12)
        }
        #expect(f.domain == 0...5)
    }

    @Test("linear interpolation hits midpoints")
    func linearMidpoints() throws {
        let f = try Interpolator(x: Self.x, y: Self.y)
        #expect(abs(f.value(at: 0.5) - 2) < 1e-12)
        #expect(abs(f.value(at: 1.75) - 2.5) < 1e-12)
        #expect(abs(f.value(at: 4.25) - 4.75) < 1e-12)
    }

    @Test(
        "natural cubic spline matches scipy CubicSpline(bc_type: natural)",
        arguments: [
            (0.5, 2.2963235294117648), (1.7, 2.5086152505446626), (3.3, 3.6325263616557733), (4.9, 4.184829411764706),
        ])
    func cubicSpline(at point: Double, expected: Double) throws {
        let f = try Interpolator(x: Self.x, y: Self.y, method: .cubicSpline)
        #expect(abs(f.value(at: point) - expected) < 1e-12)
    }

    @Test("outside the domain the nearest end value is returned", arguments: Interpolator.Method.allCases)
    func clampOutside(method: Interpolator.Method) throws {
        let f = try Interpolator(x: Self.x, y: Self.y, method: method)
        #expect(f.value(at: -10) == 1)
        #expect(f.value(at: 99) == 4)
        #expect(f.value(at: .nan).isNaN)
    }

    @Test("steffen keeps monotone data monotone and within bounds; the spline overshoots")
    func steffenMonotone() throws {
        // A step-like monotone profile: a natural spline overshoots around the jump.
        let x: [Double] = [0, 1, 2, 3, 4, 5, 6]
        let y: [Double] = [0, 0, 0, 1, 1, 1, 1]
        let steffen = try Interpolator(x: x, y: y, method: .steffen)
        let spline = try Interpolator(x: x, y: y, method: .cubicSpline)
        var previous = -Double.infinity
        var splineOutside = false
        for i in 0...600 {
            let t = Double(i) / 100
            let v = steffen.value(at: t)
            #expect(v >= previous - 1e-15)
            #expect(v >= -1e-15 && v <= 1 + 1e-15)
            previous = v
            let s = spline.value(at: t)
            if s < -1e-3 || s > 1 + 1e-3 { splineOutside = true }
        }
        #expect(splineOutside)
    }

    @Test("invalid knots are rejected with a clear message")
    func errors() {
        #expect(
            throws: GSLError.invalidInput(
                "duplicate x at index 2: x[1] = 1.0, x[2] = 1.0; x must be strictly increasing (sort the points and merge duplicates)"
            )
        ) {
            try Interpolator(x: [0, 1, 1, 2], y: [0, 1, 2, 3])
        }
        #expect(
            throws: GSLError.invalidInput(
                "x not increasing at index 1: x[0] = 2.0, x[1] = 1.0; x must be strictly increasing (sort the points and merge duplicates)"
            )
        ) {
            try Interpolator(x: [2, 1, 3], y: [0, 1, 2])
        }
        #expect(
            throws: GSLError.invalidInput(
                "interpolation needs one y per x, but got 3 x values and 2 y values; pass arrays of equal length")
        ) {
            try Interpolator(x: [0, 1, 2], y: [0, 1])
        }
        #expect(
            throws: GSLError.invalidInput(
                "cubicSpline interpolation needs at least 3 points, got 2; add points or use a simpler method")
        ) {
            try Interpolator(x: [0, 1], y: [0, 1], method: .cubicSpline)
        }
        #expect(throws: GSLError.invalidInput("y[1] = nan is not finite; remove or fix that point")) {
            try Interpolator(x: [0, 1], y: [0, .nan])
        }
    }

    @Test("error description says what is wrong")
    func description() {
        let error = GSLError.invalidInput("x[0] = inf is not finite; remove or fix that point")
        #expect(error.description == "error: invalid input: x[0] = inf is not finite; remove or fix that point")
    }
}
