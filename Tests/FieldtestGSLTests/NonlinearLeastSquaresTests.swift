import FieldtestGSL
import Foundation
import Testing

@Suite("NonlinearLeastSquares")
struct NonlinearLeastSquaresTests {
    /// Data of GSL's documented nonlinear-fit example: yᵢ = 1 + 5·exp(−0.1·tᵢ) + N(0, 0.1²), tᵢ = i,
    /// i = 0 … 39, noise from `gsl_ran_gaussian` on the default generator (MT19937, seed 4357),
    /// regenerated with GSL 2.7 and printed with 17 significant digits.
    static let exampleY: [Double] = [
        6.0133918608118675, 5.5153769909966535, 5.2610946060152868, 4.7774552141378468, 4.4513526933383982,
        3.9049030904628901, 3.5043866521968114, 3.4149985024841265, 3.2427356887427492, 3.1222038532550775,
        2.8376324263982333, 2.5346997276126655, 2.4391730089601467, 2.3808298430008619, 2.3160898987421015,
        2.0608259536024662, 1.9456794397039368, 1.9141264734332157, 1.7595090716701738, 1.6650668629744805,
        1.7379264192191157, 1.5755233002491333, 1.5250664508997627, 1.4096067515325541, 1.3952092205672399,
        1.4168865221353637, 1.3760422770490113, 1.2609548658319478, 1.2896270443896201, 1.422672179974223,
        1.2282874443473226, 1.1991762840802609, 1.1899892227027464, 0.9300761153010404, 1.2246082034725991,
        1.1473759308009162, 1.1140013554205372, 1.1951178540646112, 1.2695805479349596, 1.0619821710802808,
    ]

    static func expResiduals(_ p: [Double], _ f: inout [Double]) {
        for i in 0..<exampleY.count {
            let t = Double(i)
            f[i] = p[0] * exp(-p[1] * t) + p[2] - exampleY[i]
        }
    }

    static func expJacobian(_ p: [Double], _ J: inout [[Double]]) {
        for i in 0..<exampleY.count {
            let t = Double(i)
            let e = exp(-p[1] * t)
            J[i][0] = e
            J[i][1] = -t * p[0] * e
            J[i][2] = 1
        }
    }

    /// GSL's manual prints A = 5.04536, λ = 0.10405, b = 1.01925 for this data; scipy's least_squares
    /// gives 5.04535791, 0.10404908, 1.01924896 with cost 0.148184246. Tolerances cover the printed digits.
    @Test("GSL documented exponential fit: A = 5.04536, λ = 0.10405, b = 1.01925", arguments: [false, true])
    func exponentialFit(analyticJacobian: Bool) throws {
        var jacobian: (([Double], inout [[Double]]) -> Void)?
        if analyticJacobian { jacobian = Self.expJacobian }
        let solution = try NonlinearLeastSquares.solve(
            initial: [1, 0, 0], residualCount: Self.exampleY.count,
            residuals: { p, f in Self.expResiduals(p, &f) },
            jacobian: jacobian)
        #expect(solution.converged)
        #expect(solution.iterations > 0 && solution.iterations < 200)
        #expect(abs(solution.parameters[0] - 5.04536) < 1e-5)
        #expect(abs(solution.parameters[1] - 0.10405) < 1e-5)
        #expect(abs(solution.parameters[2] - 1.01925) < 1e-5)
        #expect(abs(solution.cost - 0.148184246) < 1e-8)
    }

    @Test("noise-free exponential data gives the true parameters")
    func exactExponential() throws {
        let t = (0..<50).map { Double($0) * 0.1 }
        let y = t.map { 2.5 * exp(-1.3 * $0) + 0.4 }
        let solution = try NonlinearLeastSquares.solve(initial: [1, 1, 0], residualCount: t.count) { p, f in
            for i in t.indices { f[i] = p[0] * exp(-p[1] * t[i]) + p[2] - y[i] }
        }
        #expect(solution.converged)
        #expect(abs(solution.parameters[0] - 2.5) < 1e-8)
        #expect(abs(solution.parameters[1] - 1.3) < 1e-8)
        #expect(abs(solution.parameters[2] - 0.4) < 1e-8)
        #expect(solution.cost < 1e-20)
    }

    /// Exact ranges from a point to four anchors at the corners of a 40 m × 30 m room.
    @Test("2-D trilateration recovers the point within 1e-6 m", arguments: [false, true])
    func trilateration(analyticJacobian: Bool) throws {
        let anchors: [(Double, Double)] = [(0, 0), (40, 0), (40, 30), (0, 30)]
        let truth = (12.34, 21.07)
        let ranges = anchors.map { ($0.0 - truth.0, $0.1 - truth.1) }.map { ($0.0 * $0.0 + $0.1 * $0.1).squareRoot() }
        let residuals: ([Double], inout [Double]) -> Void = { p, f in
            for (i, a) in anchors.enumerated() {
                f[i] = ((p[0] - a.0) * (p[0] - a.0) + (p[1] - a.1) * (p[1] - a.1)).squareRoot() - ranges[i]
            }
        }
        let jacobian: ([Double], inout [[Double]]) -> Void = { p, J in
            for (i, a) in anchors.enumerated() {
                let d = ((p[0] - a.0) * (p[0] - a.0) + (p[1] - a.1) * (p[1] - a.1)).squareRoot()
                J[i][0] = (p[0] - a.0) / d
                J[i][1] = (p[1] - a.1) / d
            }
        }
        let solution = try NonlinearLeastSquares.solve(
            initial: [20, 15], residualCount: anchors.count,
            residuals: residuals, jacobian: analyticJacobian ? Optional(jacobian) : nil)
        #expect(solution.converged)
        #expect(abs(solution.parameters[0] - truth.0) < 1e-6)
        #expect(abs(solution.parameters[1] - truth.1) < 1e-6)
        #expect(solution.cost < 1e-12)
    }

    @Test("starting at the exact solution reports convergence")
    func startAtSolution() throws {
        let solution = try NonlinearLeastSquares.solve(initial: [3, -2], residualCount: 3) { p, f in
            f[0] = p[0] - 3
            f[1] = p[1] + 2
            f[2] = p[0] + p[1] - 1
        }
        #expect(solution.converged)
        #expect(abs(solution.parameters[0] - 3) < 1e-12)
        #expect(abs(solution.parameters[1] + 2) < 1e-12)
        #expect(solution.cost < 1e-24)
    }

    @Test("reaching maxIterations is reported, not thrown")
    func iterationCap() throws {
        let solution = try NonlinearLeastSquares.solve(
            initial: [1, 0, 0], residualCount: Self.exampleY.count, maxIterations: 1,
            residuals: { p, f in Self.expResiduals(p, &f) })
        #expect(!solution.converged)
        #expect(solution.iterations == 1)
    }

    @Test("fewer residuals than parameters is rejected")
    func underdetermined() {
        #expect(
            throws: GSLError.invalidInput(
                "fewer residuals (2) than parameters (3): the problem is underdetermined; add observations or fix some parameters"
            )
        ) {
            try NonlinearLeastSquares.solve(initial: [1, 2, 3], residualCount: 2) { _, f in
                f[0] = 0
                f[1] = 0
            }
        }
        #expect(
            throws: GSLError.invalidInput(
                "nonlinear least squares needs at least one parameter; pass a non-empty initial guess")
        ) {
            try NonlinearLeastSquares.solve(initial: [], residualCount: 2) { _, _ in }
        }
        #expect(throws: GSLError.invalidInput("initial[1] = nan is not finite; start from a finite guess")) {
            try NonlinearLeastSquares.solve(initial: [1, .nan], residualCount: 2) { _, _ in }
        }
    }

    @Test("misbehaving callbacks surface as errors, not crashes")
    func badCallbacks() {
        #expect(
            throws: GSLError.invalidInput(
                "the residual callback changed the residual count from 3 to 4; fill the given array in place")
        ) {
            try NonlinearLeastSquares.solve(initial: [1], residualCount: 3) { _, f in f.append(0) }
        }
        #expect(
            throws: GSLError.invalidInput(
                "residual f[0] = nan at parameters [1.0] is not finite; guard the model against this region or start closer to the solution"
            )
        ) {
            try NonlinearLeastSquares.solve(initial: [1], residualCount: 2) { _, f in f[0] = .nan }
        }
        #expect(
            throws: GSLError.invalidInput(
                "the Jacobian callback must keep J at 2 rows × 1 columns; fill the given array in place")
        ) {
            try NonlinearLeastSquares.solve(
                initial: [1], residualCount: 2,
                residuals: { p, f in
                    f[0] = p[0] - 1
                    f[1] = p[0] - 2
                },
                jacobian: { _, J in J.removeLast() })
        }
    }
}
