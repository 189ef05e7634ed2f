import Foundation

/// What a system under test does, by name: one capability a scenario can hand to another system.
///
/// The name is used everywhere: in a scenario's `systems:` block, on the command line
/// (`--system sentiment=…`), in the protocol's handshake and in `run.json`. Each capability's folder
/// declares its own (`SystemCapability.sun`, `.route`, `.locate`, `.sentiment`); the parts behind it
/// are its `CapabilityDefinition`.
public struct SystemCapability: Sendable, Hashable, CustomStringConvertible {
    /// The capability name (`sun`, `route`, `locate`, `sentiment`).
    public let name: String
    /// The request `op` of this capability's queries (`sun`, `route`, `locate`, `classify`).
    public let operation: String

    /// A capability named `name` whose queries are requests of op `operation`.
    public init(name: String, operation: String) {
        self.name = name
        self.operation = operation
    }

    /// The capability name.
    public var description: String { name }

    /// The capability named `text` in `registry`, or an error that lists the names.
    public static func named(_ text: String, in registry: CapabilityRegistry = .bundled) throws(SystemError)
        -> SystemCapability
    {
        try registry.named(text).capability
    }
}

/// Everything one capability is, collected in one value as an app's `AppDefinition` is: its name and
/// request op, its evaluator (`fieldtest evaluate <name>`: the reference it scores against and the
/// options it reads) and its built-in system served over the protocol (`fieldtest serve <name>`).
/// Its request and answer types, built-in conformance, batch job and reference live in its folder
/// (`Sources/Capabilities/<Capability>/`); adding a capability is that folder and one line in
/// `CapabilityRegistry.bundled`.
public struct CapabilityDefinition: Sendable {
    /// The name and request op.
    public var capability: SystemCapability
    /// `fieldtest evaluate <name>`: how a system is scored.
    public var evaluation: Evaluation
    /// `fieldtest serve <name>`: serves the built-in system on standard input and output until end of
    /// input; arguments are the datasets folder, the handshake's name and version, and the longest
    /// request line in bytes.
    public var serveBuiltin:
        @Sendable (_ datasets: URL, _ name: String, _ version: String, _ maxLineBytes: Int) throws -> Void

    /// The capability name.
    public var name: String { capability.name }
    /// The request op.
    public var operation: String { capability.operation }

    /// A definition.
    public init(
        capability: SystemCapability, evaluation: Evaluation,
        serveBuiltin: @escaping @Sendable (URL, String, String, Int) throws -> Void
    ) {
        self.capability = capability
        self.evaluation = evaluation
        self.serveBuiltin = serveBuiltin
    }

    /// How `fieldtest evaluate <name>` scores a system on a labelled file.
    public struct Evaluation: Sendable {
        /// `--help`'s one-line summary.
        public var abstract: String
        /// `--help`'s description of the inputs (the options it reads).
        public var inputs: String
        /// Whether it reads several `--input` files (else exactly one).
        public var readsManyInputs = false
        /// Whether it needs the map (`--graph`).
        public var needsGraph = false
        /// Whether it needs training files (`--train`).
        public var needsTraining = false
        /// Feeds the request's rows to the chosen system and scores its answers: the system's name
        /// in the report and the figures.
        public var run: @Sendable (SystemEvaluation.Request, SystemChoice) throws -> (String, [SystemEvaluation.Figure])

        /// An evaluation.
        public init(
            abstract: String, inputs: String, readsManyInputs: Bool = false, needsGraph: Bool = false,
            needsTraining: Bool = false,
            run:
                @escaping @Sendable (SystemEvaluation.Request, SystemChoice) throws -> (
                    String, [SystemEvaluation.Figure]
                )
        ) {
            self.abstract = abstract
            self.inputs = inputs
            self.readsManyInputs = readsManyInputs
            self.needsGraph = needsGraph
            self.needsTraining = needsTraining
            self.run = run
        }
    }
}

/// The registered capabilities: the catalogue `--system`, `serve`, `evaluate` and the scenario
/// language's `systems:` block ask, as `AppRegistry` is for apps.
public struct CapabilityRegistry: Sendable {
    /// The capabilities, in registration order (the order help texts and the schema list them).
    public let capabilities: [CapabilityDefinition]

    /// A registry of `capabilities`; names and ops must be distinct.
    public init(_ capabilities: [CapabilityDefinition]) {
        precondition(Set(capabilities.map(\.name)).count == capabilities.count, "a capability is registered twice")
        precondition(
            Set(capabilities.map(\.operation)).count == capabilities.count, "two capabilities share a request op")
        self.capabilities = capabilities
    }

    /// The names, in registration order.
    public var names: [String] { capabilities.map(\.name) }

    /// The capability named `name`, if registered.
    public func definition(_ name: String) -> CapabilityDefinition? { capabilities.first { $0.name == name } }

    /// The capability named `text`, or an error that lists the registered names.
    public func named(_ text: String) throws(SystemError) -> CapabilityDefinition {
        guard let definition = definition(text) else {
            throw .usage("unknown capability '\(text)'; use one of \(names.joined(separator: ", "))")
        }
        return definition
    }

    /// `fieldtest evaluate --help`'s list: each capability's name and what its evaluation measures.
    public var evaluationList: String {
        "fieldtest evaluate <capability> --input LABELLED [--system COMMAND]; the capabilities:\n"
            + capabilities.map { "  \($0.name)  \($0.evaluation.abstract)" }.joined(separator: "\n")
    }

    /// `fieldtest evaluate <capability> --help`'s description: the inputs of each capability but
    /// those named in `excluded` (which have their own command), then the `--system` options.
    public func evaluationHelp(excluding excluded: [String]) -> String {
        capabilities.filter { !excluded.contains($0.name) }
            .map { "\($0.name): \($0.evaluation.abstract) \($0.evaluation.inputs)" }
            .joined(separator: "\n") + "\n" + SystemEvaluation.systemHelp
    }

    /// The four bundled capabilities: sun times, campus routing, Wi-Fi positioning, tweet sentiment.
    public static let bundled = CapabilityRegistry([.sun, .route, .locate, .sentiment])
}

/// The version of the JSON Lines protocol (`docs/system-protocol.md`) this harness speaks;
/// sent in the handshake as `protocol`.
public let systemProtocolVersion = 1
