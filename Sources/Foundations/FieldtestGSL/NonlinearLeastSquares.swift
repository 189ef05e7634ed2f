import CGSL

/// Nonlinear least squares: minimise ½ Σᵢ fᵢ(p)² over the parameter vector p.
///
/// Method: GSL `gsl_multifit_nlinear` trust-region solver with the Levenberg–Marquardt step, Moré's
/// diagonal scaling (`gsl_multifit_nlinear_scale_more`) and a QR linear solver; J. J. Moré, "The
/// Levenberg–Marquardt algorithm: implementation and theory", Lecture Notes in Mathematics 630 (1978).
/// Without an analytic Jacobian, GSL uses forward finite differences (step √ε·|pⱼ|).
/// Each iteration costs O(n·p²) for n residuals and p parameters, plus p + 1 residual evaluations when
/// the Jacobian is estimated.
///
/// Convergence tests (`gsl_multifit_nlinear_test`): step size xtol = 1e-10 (relative), gradient
/// gtol = 1e-10, ftol = 0 (unused). Reaching `maxIterations` is not an error: the best point so far is
/// returned with `converged == false`.
public enum NonlinearLeastSquares {
    /// Result of `solve`.
    public struct Solution: Sendable {
        /// Best-fit parameters, same order and units as `initial`.
        public var parameters: [Double]
        /// Final cost ½ Σ fᵢ² (units of the residuals squared).
        public var cost: Double
        /// Number of solver iterations performed.
        public var iterations: Int
        /// `true` when a convergence test was met (or the residuals vanished exactly); `false` when the
        /// solver stopped at `maxIterations` or could not make progress.
        public var converged: Bool
    }

    /// Relative step tolerance.
    static let stepTolerance = 1e-10
    /// Gradient tolerance.
    static let gradientTolerance = 1e-10

    /// Fits parameters p so that the residuals fᵢ(p), i = 0 ..< `residualCount`, are as small as possible
    /// in the least-squares sense.
    ///
    /// - Parameters:
    ///   - initial: starting guess p₀ (its count is the number of parameters).
    ///   - residualCount: number of residuals n; must be ≥ the number of parameters.
    ///   - maxIterations: iteration cap (≥ 1).
    ///   - residuals: fills `f` (pre-sized to `residualCount`, zeroed) with fᵢ(p). Must not change `f.count`
    ///     and must produce finite values.
    ///   - jacobian: optional analytic Jacobian; fills `J[i][j]` = ∂fᵢ/∂pⱼ (pre-sized n × p, zeroed).
    ///     When `nil`, forward finite differences are used.
    /// - Throws: `GSLError.invalidInput` for an empty or non-finite `initial`, fewer residuals than
    ///   parameters, `maxIterations` < 1, or callbacks that resize their output or produce NaN/∞;
    ///   `GSLError.gsl` for other solver failures.
    public static func solve(
        initial: [Double], residualCount: Int, maxIterations: Int = 200,
        residuals: (_ p: [Double], _ f: inout [Double]) -> Void,
        jacobian: ((_ p: [Double], _ J: inout [[Double]]) -> Void)? = nil
    ) throws(GSLError) -> Solution {
        let p = initial.count
        guard p > 0 else {
            throw .invalidInput("nonlinear least squares needs at least one parameter; pass a non-empty initial guess")
        }
        guard residualCount >= p else {
            throw .invalidInput(
                "fewer residuals (\(residualCount)) than parameters (\(p)): the problem is underdetermined; add observations or fix some parameters"
            )
        }
        guard maxIterations >= 1 else {
            throw .invalidInput("maxIterations must be at least 1, got \(maxIterations)")
        }
        if let bad = initial.firstIndex(where: { !$0.isFinite }) {
            throw .invalidInput("initial[\(bad)] = \(initial[bad]) is not finite; start from a finite guess")
        }
        GSLRuntime.ensureConfigured()
        let outcome = withoutActuallyEscaping(residuals) { escapable -> Result<Solution, GSLError> in
            let context = SolverContext(n: residualCount, p: p, residuals: escapable, jacobian: jacobian)
            return Result { () throws(GSLError) -> Solution in
                try run(context: context, initial: initial, maxIterations: maxIterations)
            }
        }
        return try outcome.get()
    }

    /// Allocates the GSL workspace, runs the driver and reads the result.
    private static func run(context: SolverContext, initial: [Double], maxIterations: Int) throws(GSLError) -> Solution
    {
        let n = context.n
        let p = context.p
        var parameters = gsl_multifit_nlinear_default_parameters()
        parameters.trs = fieldtest_nlinear_trs_lm()
        parameters.scale = fieldtest_nlinear_scale_more()
        parameters.solver = fieldtest_nlinear_solver_qr()

        guard let workspace = gsl_multifit_nlinear_alloc(fieldtest_nlinear_trust(), &parameters, n, p) else {
            throw .gsl(
                code: Int32(GSL_ENOMEM),
                message: "gsl_multifit_nlinear_alloc failed for n = \(n), p = \(p) (out of memory)")
        }
        defer { gsl_multifit_nlinear_free(workspace) }
        guard let start = gsl_vector_alloc(p) else {
            throw .gsl(code: Int32(GSL_ENOMEM), message: "gsl_vector_alloc failed (out of memory)")
        }
        defer { gsl_vector_free(start) }
        for (j, value) in initial.enumerated() {
            fieldtest_vector_set(start, j, value)
        }

        var fdf = gsl_multifit_nlinear_fdf()
        fdf.f = residualCallback
        fdf.df = context.jacobian == nil ? nil : jacobianCallback
        fdf.fvv = nil
        fdf.n = n
        fdf.p = p
        fdf.params = Unmanaged.passUnretained(context).toOpaque()

        let status: Int32 = withExtendedLifetime(context) {
            var info: Int32 = 0
            let initStatus = gsl_multifit_nlinear_init(start, &fdf, workspace)
            guard initStatus == GSL_SUCCESS else { return initStatus }
            return gsl_multifit_nlinear_driver(
                maxIterations, stepTolerance, gradientTolerance, 0, nil, nil, &info, workspace)
        }
        if let failure = context.failure {
            throw failure
        }

        let iterations = Int(gsl_multifit_nlinear_niter(workspace))
        var solution = [Double](repeating: 0, count: p)
        if let position = gsl_multifit_nlinear_position(workspace) {
            for j in 0..<p {
                solution[j] = fieldtest_vector_get(position, j)
            }
        }
        var sumOfSquares = 0.0
        if let residualVector = gsl_multifit_nlinear_residual(workspace) {
            _ = gsl_blas_ddot(residualVector, residualVector, &sumOfSquares)
        }
        let cost = 0.5 * sumOfSquares

        switch status {
        case Int32(GSL_SUCCESS):
            return Solution(parameters: solution, cost: cost, iterations: iterations, converged: true)
        case Int32(GSL_EMAXITER), Int32(GSL_ENOPROG):
            // No progress is possible when the residuals are already exactly zero: that is convergence.
            return Solution(parameters: solution, cost: cost, iterations: iterations, converged: cost == 0)
        default:
            throw .gsl(code: status, message: "nonlinear least squares failed: \(GSLRuntime.message(for: status))")
        }
    }
}

/// Carries the Swift callbacks and scratch buffers into GSL's C callbacks through `params`.
private final class SolverContext {
    let n: Int
    let p: Int
    let residuals: (_ p: [Double], _ f: inout [Double]) -> Void
    let jacobian: ((_ p: [Double], _ J: inout [[Double]]) -> Void)?
    /// First error raised inside a callback; reported by `solve` instead of GSL's generic status.
    var failure: GSLError?

    init(
        n: Int, p: Int, residuals: @escaping (_ p: [Double], _ f: inout [Double]) -> Void,
        jacobian: ((_ p: [Double], _ J: inout [[Double]]) -> Void)?
    ) {
        self.n = n
        self.p = p
        self.residuals = residuals
        self.jacobian = jacobian
    }

    /// Copies a GSL parameter vector into a Swift array.
    func parameters(from vector: UnsafePointer<gsl_vector>) -> [Double] {
        (0..<p).map { fieldtest_vector_get(vector, $0) }
    }

    /// Records the first callback failure and returns the status GSL should see.
    func fail(_ error: GSLError) -> Int32 {
        if failure == nil { failure = error }
        return Int32(GSL_EBADFUNC)
    }
}

/// `gsl_multifit_nlinear_fdf.f`: evaluates the residual vector.
private let residualCallback:
    @convention(c) (
        UnsafePointer<gsl_vector>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<gsl_vector>?
    ) -> Int32 = { x, params, f in
        guard let x, let params, let f else { return Int32(GSL_EFAULT) }
        let context = Unmanaged<SolverContext>.fromOpaque(params).takeUnretainedValue()
        let p = context.parameters(from: x)
        var values = [Double](repeating: 0, count: context.n)
        context.residuals(p, &values)
        guard values.count == context.n else {
            return context.fail(
                .invalidInput(
                    "the residual callback changed the residual count from \(context.n) to \(values.count); fill the given array in place"
                ))
        }
        for (i, value) in values.enumerated() {
            guard value.isFinite else {
                return context.fail(
                    .invalidInput(
                        "residual f[\(i)] = \(value) at parameters \(p) is not finite; guard the model against this region or start closer to the solution"
                    ))
            }
            fieldtest_vector_set(f, i, value)
        }
        return Int32(GSL_SUCCESS)
    }

/// `gsl_multifit_nlinear_fdf.df`: evaluates the analytic Jacobian.
private let jacobianCallback:
    @convention(c) (
        UnsafePointer<gsl_vector>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<gsl_matrix>?
    ) -> Int32 = { x, params, jacobianMatrix in
        guard let x, let params, let jacobianMatrix else { return Int32(GSL_EFAULT) }
        let context = Unmanaged<SolverContext>.fromOpaque(params).takeUnretainedValue()
        guard let jacobian = context.jacobian else { return Int32(GSL_EFAULT) }
        let p = context.parameters(from: x)
        var rows = [[Double]](repeating: [Double](repeating: 0, count: context.p), count: context.n)
        jacobian(p, &rows)
        guard rows.count == context.n, rows.allSatisfy({ $0.count == context.p }) else {
            return context.fail(
                .invalidInput(
                    "the Jacobian callback must keep J at \(context.n) rows × \(context.p) columns; fill the given array in place"
                ))
        }
        for (i, row) in rows.enumerated() {
            for (j, value) in row.enumerated() {
                guard value.isFinite else {
                    return context.fail(
                        .invalidInput(
                            "Jacobian J[\(i)][\(j)] = \(value) at parameters \(p) is not finite; check the derivative formula"
                        ))
                }
                fieldtest_matrix_set(jacobianMatrix, i, j, value)
            }
        }
        return Int32(GSL_SUCCESS)
    }
