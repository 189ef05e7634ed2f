/// What in a scenario yields samples for a requirement, in the scenario's own vocabulary: the
/// actions, feeds, device settings and parameters without which the requirement's checked rows
/// would have nothing to measure.
///
/// One value serves two readers: people (`description`, shown by `fieldtest requirements` and in
/// `validate`'s warnings) and the preflight (`holds(in:)`), which warns before a run when a
/// requested requirement cannot be exercised by the scenario as written.
public indirect enum Exercise: Sendable, Equatable, CustomStringConvertible {
    /// An actor performs the action (`actors[].actions[] do: NAME`).
    case action(String)
    /// An actor performs the action with `key` set (to `value` when given): e.g. a `route` with
    /// `profile: wheelchair`.
    case actionWith(String, key: String, value: String?)
    /// A background feed of this kind (`feeds[] kind: NAME`).
    case feed(String)
    /// A device restarts the app (`devices[].restarts`).
    case restart
    /// A device goes offline for a period (`devices[].connectivity` with an `offline` state).
    case offlinePeriod
    /// A device withholds a permission (`devices[].permissions`: NAME `denied` or `ask-deny`).
    case permissionDenied(String)
    /// A device withholds consent to location collection (`devices[].permissions.consent: false`).
    case consentWithheld
    /// The app parameter is set (`parameters.NAME`, or swept).
    case parameter(String)
    /// Every one of these.
    case all([Exercise])
    /// At least one of these.
    case any([Exercise])
    /// Whatever the scenario holds: the app measures it whenever it runs.
    case always

    /// The requirement in the scenario's words, e.g.
    /// `devices[].connectivity offline period + (actors[].actions[] do: route or do: search-venue)`.
    public var description: String { text(nested: false) }

    private func text(nested: Bool) -> String {
        switch self {
        case .action(let name): return "actors[].actions[] do: \(name)"
        case .actionWith(let name, let key, let value):
            return "actors[].actions[] do: \(name) with \(key)\(value.map { ": \($0)" } ?? "")"
        case .feed(let kind): return "feeds[] kind: \(kind)"
        case .restart: return "devices[].restarts"
        case .offlinePeriod: return "devices[].connectivity offline period"
        case .permissionDenied(let name): return "devices[].permissions \(name): denied"
        case .consentWithheld: return "devices[].permissions consent: false"
        case .parameter(let name): return "parameters.\(name)"
        case .always: return "any scenario of the app"
        case .all(let parts):
            let t = parts.map { $0.text(nested: true) }.joined(separator: " + ")
            return nested && parts.count > 1 ? "(\(t))" : t
        case .any(let parts):
            let actions = parts.compactMap { if case .action(let name) = $0 { name } else { nil } }
            if actions.count == parts.count && parts.count > 1 {
                return "actors[].actions[] do: " + actions.dropLast().joined(separator: ", ") + " or " + actions.last!
            }
            let t = parts.map { $0.text(nested: true) }.joined(separator: " or ")
            return nested && parts.count > 1 ? "(\(t))" : t
        }
    }

    /// Whether `scenario` (any case of its sweep) holds what yields samples.
    public func holds(in scenario: Scenario) -> Bool {
        switch self {
        case .always: return true
        case .action(let name):
            return scenario.actors.contains { $0.actions.contains { $0.kind == name } }
        case .actionWith(let name, let key, let value):
            return scenario.actors.contains { actor in
                actor.actions.contains { a in
                    guard a.kind == name, let v = a.parameters[key] else { return false }
                    guard let value else { return true }
                    return v.scalarText == value
                }
            }
        case .feed(let kind): return scenario.feeds.contains { $0.kind == kind }
        case .restart: return scenario.devices.contains { !$0.restarts.isEmpty }
        case .offlinePeriod:
            return scenario.devices.contains { d in d.connectivity.contains { $0.state == "offline" } }
        case .permissionDenied(let name):
            return scenario.devices.contains { ["denied", "ask-deny"].contains($0.permissions[name]) }
        case .consentWithheld: return scenario.devices.contains { !$0.consent }
        case .parameter(let name):
            return scenario.parameters[name] != nil
                || (scenario.sweep?.parameters.contains { $0.name == name || $0.name == "parameters.\(name)" } ?? false)
        case .all(let parts): return parts.allSatisfy { $0.holds(in: scenario) }
        case .any(let parts): return parts.contains { $0.holds(in: scenario) }
        }
    }
}
