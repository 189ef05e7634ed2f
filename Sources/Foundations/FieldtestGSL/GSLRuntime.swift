import CGSL

/// Process-wide GSL configuration, applied once before the first GSL call.
///
/// GSL's default error handler calls `abort()`; it is switched off so that every routine returns its
/// status code instead, which the wrappers turn into `GSLError`.
enum GSLRuntime {
    /// Lazily evaluated exactly once (Swift globals and statics are initialised atomically).
    private static let configured: Bool = {
        _ = gsl_set_error_handler_off()
        return true
    }()

    /// Ensures the GSL error handler is off. Cheap after the first call.
    static func ensureConfigured() {
        _ = configured
    }

    /// Text of a GSL status code (`gsl_strerror`).
    static func message(for code: Int32) -> String {
        guard let text = gsl_strerror(code) else { return "unknown GSL status" }
        return String(cString: text)
    }
}
