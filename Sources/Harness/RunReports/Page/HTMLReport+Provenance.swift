import Foundation
import Plot

/// Where each run came from: tool and commit, command line, machine, systems under test and datasets,
/// all as `run.json` records them.
extension HTMLReport {
    /// What the page says of something `run.json` does not record.
    static let notRecorded = "not recorded"

    /// The provenance of a scenario's runs, one block per run.
    func provenance(_ rs: [ReportRun]) -> Body {
        .div(
            .class("provenance"), .h3("Provenance"),
            .group(rs.map { r in .group(.if(rs.count > 1, .h4(.text(r.label))), provenanceList(r.provenance)) }))
    }

    /// One run's provenance as a definition list.
    func provenanceList(_ p: RunProvenance) -> Body {
        guard p.recorded else {
            return .p(.class("muted"), .text("No run.json beside metrics.csv: provenance \(Self.notRecorded)."))
        }
        let tool = (p.toolVersion.map { "fieldtest " + $0 } ?? "version \(Self.notRecorded)")
        let m = p.machine
        let machine = [
            m["cpu"], m["cores"].map { "\($0) cores" }, m["memory_bytes"].flatMap(Double.init).map { memory($0) },
            m["os"], m["host"].map { "host \($0)" }, m["build"].flatMap { $0.isEmpty ? nil : "\($0) build" },
        ].compactMap { $0 }.joined(separator: ", ")
        var items: [Node<HTML.DescriptionListContext>] = [
            .dt("Tool"),
            .dd(.text(tool + ", commit "), p.toolCommit.map { .code(.text($0)) } ?? .text(Self.notRecorded)),
            .dt("Command line"),
            .dd(p.commandLine.map { .code(.text(Self.shellLine($0))) } ?? .text(Self.notRecorded)),
            .dt("Run"), .dd(.text(p.runID ?? Self.notRecorded)),
        ]
        if let file = p.scenarioFile {
            items += [
                .dt("Scenario file"),
                .dd(
                    .text(file),
                    .if(p.scenarioSHA256 != nil, .group(.text(", SHA-256 "), .code(.text(p.scenarioSHA256 ?? ""))))),
            ]
        }
        items += [
            .dt("Machine"), .dd(.text(machine.isEmpty ? Self.notRecorded : machine)),
            .dt("Systems under test"), systemsItem(p.systems),
            .dt("Datasets"), datasetsItem(p.datasets),
        ]
        return .dl(.group(items))
    }

    /// `bytes` in GiB or MiB.
    func memory(_ bytes: Double) -> String {
        bytes >= Double(1 << 30)
            ? ReportFormat.significant(bytes / Double(1 << 30), 3) + " GiB memory"
            : ReportFormat.significant(bytes / Double(1 << 20), 3) + " MiB memory"
    }

    /// The systems under test; a run.json without any ran the built-in cores.
    func systemsItem(_ systems: [RunProvenance.System]) -> Node<HTML.DescriptionListContext> {
        guard !systems.isEmpty else { return .dd(.text("the built-in cores (no external system)")) }
        return .dd(
            .ul(
                .group(
                    systems.map { s in
                        .li(
                            .text(
                                [
                                    s.capability.isEmpty ? nil : s.capability + ":", s.name.isEmpty ? nil : s.name,
                                    s.version.isEmpty ? "version \(Self.notRecorded)" : "version " + s.version,
                                ]
                                .compactMap { $0 }.joined(separator: " ")),
                            .if(
                                !s.command.isEmpty, .group(.text(", command "), .code(.text(Self.shellLine(s.command))))
                            ),
                            .group(
                                .text(", SHA-256 "), s.sha256.isEmpty ? .text(Self.notRecorded) : .code(.text(s.sha256))
                            ))
                    })))
    }

    /// The datasets with their SHA-256.
    func datasetsItem(_ datasets: [RunProvenance.Dataset]) -> Node<HTML.DescriptionListContext> {
        guard !datasets.isEmpty else { return .dd(.text("none read")) }
        return .dd(
            .ul(
                .group(
                    datasets.map { d in
                        .li(
                            .text(d.name + (d.path.isEmpty ? "" : " (\(d.path))") + ", SHA-256 "),
                            d.sha256.isEmpty ? .text(Self.notRecorded) : .code(.text(d.sha256)))
                    })))
    }

    /// Arguments as one shell line, each quoted when it needs it.
    static func shellLine(_ arguments: [String]) -> String {
        arguments.map { a in
            a.isEmpty || a.contains(where: { !($0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0)) })
                ? "'" + a.replacingOccurrences(of: "'", with: "'\\''") + "'" : a
        }.joined(separator: " ")
    }
}
