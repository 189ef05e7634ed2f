/// Errors raised by the FieldtestGSL wrappers.
///
/// Every message says what is wrong and how to fix it; `description` renders it as a
/// one-line diagnostic suitable for a CLI.
public enum GSLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The caller passed arguments the routine cannot accept (mismatched lengths, unsorted knots,
    /// too few residuals, non-finite values, …). The associated text explains the problem and the fix.
    case invalidInput(String)
    /// GSL itself reported a failure. `code` is the GSL status (`GSL_E…` from `gsl_errno.h`),
    /// `message` is `gsl_strerror(code)` plus context from this wrapper.
    case gsl(code: Int32, message: String)

    /// Human-readable rendering: `error: <what is wrong>; <how to fix it>`.
    public var description: String {
        switch self {
        case .invalidInput(let text):
            return "error: invalid input: \(text)"
        case .gsl(let code, let message):
            return "error: GSL status \(code): \(message)"
        }
    }
}
