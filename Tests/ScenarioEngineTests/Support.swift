import Yams

/// Composes a YAML snippet into a node (test helper).
func Yams_compose(_ text: String) throws -> Node? { try Yams.compose(yaml: text) }
