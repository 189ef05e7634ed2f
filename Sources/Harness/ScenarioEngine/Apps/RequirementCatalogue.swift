import FieldtestData
import MetricReports

/// The requirement catalogue of an `AppRegistry`, for people and tools: every requirement of every
/// app with its metrics, thresholds and what in a scenario exercises it (`fieldtest requirements`,
/// and `docs/requirements.md`, generated from it). The app definitions are the one source.
public struct RequirementCatalogue: Sendable {
    /// The formats `render` writes.
    public enum Format: String, Sendable, CaseIterable {
        case text, csv, json, md
    }

    /// One metric of one requirement: a line of the catalogue.
    public struct Entry: Sendable, Equatable {
        /// Requirement ID, e.g. `NAV-F2`.
        public var id: String
        /// The app that reports it.
        public var app: String
        /// What the specification asks.
        public var summary: String
        /// Section of the source specification.
        public var specRef: String
        /// The metric's name in the `metric` column (a latency series: its checked `_p95` row); empty
        /// when the requirement declares no metric (its rows are recorded with every field spelt out).
        public var metric: String
        /// `<=`, `>=`, `==`, or empty for an informational metric.
        public var comparator: String
        /// The default threshold in `unit` (nil: informational, or derived from the run).
        public var threshold: Double?
        /// Unit of the value and threshold.
        public var unit: String
        /// What in a scenario yields samples for it, in the scenario's words.
        public var exercisedBy: String
    }

    /// The columns of the CSV, in order.
    public static let columns = [
        "id", "app", "summary", "spec_ref", "metric", "comparator", "threshold", "unit", "exercised_by",
    ]

    /// The entries, app by app in registration order, requirement by requirement, metric by metric.
    public var entries: [Entry]
    /// The apps whose requirements are listed.
    public var apps: [String]

    /// The catalogue of `registry`, or of its app called `app`.
    public init(registry: AppRegistry, app: String? = nil) {
        var entries: [Entry] = []
        var apps: [String] = []
        for a in registry.apps where app == nil || a.name == app {
            apps.append(a.name)
            for r in a.requirements {
                let base = Entry(
                    id: r.id, app: a.name, summary: r.summary, specRef: r.source, metric: "", comparator: "",
                    threshold: nil, unit: "", exercisedBy: r.exercisedBy.description)
                if r.metrics.isEmpty { entries.append(base) }
                for m in r.metrics {
                    var e = base
                    e.metric = m.isSeries ? m.name + "_p95" : m.name
                    e.comparator = m.comparator.rawValue
                    e.threshold = m.threshold
                    e.unit = m.unit
                    entries.append(e)
                }
            }
        }
        self.entries = entries
        self.apps = apps
    }

    /// The requirement IDs listed, each once, in order.
    public var requirementIDs: [String] {
        var seen = Set<String>()
        return entries.map(\.id).filter { seen.insert($0).inserted }
    }

    /// The catalogue in `format`.
    public func render(_ format: Format) -> String {
        switch format {
        case .csv: return csv()
        case .json: return json()
        case .md: return markdown()
        case .text: return text()
        }
    }

    func csv() -> String {
        var w = CSVWriter()
        w.row(Self.columns)
        for e in entries {
            w.row([
                e.id, e.app, e.summary, e.specRef, e.metric, e.comparator,
                e.threshold.map { CSVWriter.exactNumber($0) } ?? "", e.unit, e.exercisedBy,
            ])
        }
        return w.text
    }

    func json() -> String {
        func string(_ s: String) -> String { TraceFiles.json(s) }
        let items = entries.map { e in
            "  {\"id\": \(string(e.id)), \"app\": \(string(e.app)), \"summary\": \(string(e.summary)), "
                + "\"spec_ref\": \(string(e.specRef)), \"metric\": \(string(e.metric)), "
                + "\"comparator\": \(string(e.comparator)), "
                + "\"threshold\": \(e.threshold.map { CSVWriter.exactNumber($0) } ?? "null"), "
                + "\"unit\": \(string(e.unit)), \"exercised_by\": \(string(e.exercisedBy))}"
        }
        return "[\n" + items.joined(separator: ",\n") + "\n]\n"
    }

    /// Requirements grouped as they are defined: one block each, its metrics indented.
    func grouped() -> [(id: String, entries: [Entry])] {
        var out: [(id: String, entries: [Entry])] = []
        for e in entries {
            if out.last?.id == e.id { out[out.count - 1].entries.append(e) } else { out.append((e.id, [e])) }
        }
        return out
    }

    static func check(_ e: Entry) -> String {
        guard !e.comparator.isEmpty else { return "informational" }
        guard let t = e.threshold else { return "\(e.comparator) (threshold from the run)" }
        return "\(e.comparator) \(FieldtestNumber.format(t)) \(e.unit)"
    }

    func text() -> String {
        var out = ""
        for (id, es) in grouped() {
            let e = es[0]
            out += "\(id)  [\(e.app), spec \(e.specRef)]  \(e.summary)\n"
            out += "  exercised by: \(e.exercisedBy)\n"
            for m in es where !m.metric.isEmpty {
                out += "  \(m.metric)  \(Self.check(m))\n"
            }
        }
        return out
    }

    func markdown() -> String {
        var out = "# Requirements\n\n"
        out += "<!-- Generated by `fieldtest requirements --format md` from the app definitions; "
        out += "a test fails when this file differs. -->\n\n"
        out += "Every requirement Fieldtest measures, app by app: what the specification asks, the metrics "
        out += "it reports with their default thresholds, and what in a scenario exercises it (without it, "
        out += "the requirement's checked rows are `not_measured` and `validate` warns). "
        out += "`fieldtest requirements [APP] --format text|csv|json|md` prints the same.\n"
        for app in apps {
            out += "\n## \(app)\n"
            for (id, es) in grouped() where es[0].app == app {
                let e = es[0]
                out += "\n### \(id) — \(Self.escapeMarkdown(e.summary))\n\n"
                out += "Spec: \(Self.escapeMarkdown(e.specRef)). Exercised by: `\(e.exercisedBy)`.\n"
                let metrics = es.filter { !$0.metric.isEmpty }
                guard !metrics.isEmpty else { continue }
                out += "\n| metric | check | unit |\n|---|---|---|\n"
                for m in metrics {
                    out +=
                        "| `\(m.metric)` | \(Self.escapeMarkdown(Self.check(m))) | \(Self.escapeMarkdown(m.unit)) |\n"
                }
            }
        }
        return out
    }

    static func escapeMarkdown(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "*", with: "\\*")
    }
}
