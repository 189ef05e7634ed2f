import Foundation
import Plot

/// SVG elements as Plot nodes, so charts go into the page through the same typed DSL as the HTML.
/// Plot escapes text but not attribute values, so every attribute goes through `attribute`, which does.
public enum SVG {
    /// A node of the page body (SVG is inline in HTML5).
    public typealias Node = Plot.Node<HTML.BodyContext>

    /// An attribute, its value escaped for a double-quoted attribute.
    public static func attribute(_ name: String, _ value: String) -> Node {
        .attribute(named: name, value: escape(value), ignoreIfValueIsEmpty: false)
    }

    /// `text` with `&`, `<`, `>` and `"` escaped.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// A coordinate with one decimal (a tenth of a pixel is below what a screen shows).
    public static func number(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(format: "%.1f", r)
    }

    /// An element with attributes and children.
    public static func element(_ name: String, _ attributes: [(String, String)], _ children: [Node] = []) -> Node {
        .element(named: name, nodes: attributes.map { attribute($0.0, $0.1) } + children)
    }

    /// The root `<svg>`: scales to its container's width (viewBox), described by `label` for screen readers.
    public static func root(width: Double, height: Double, label: String, _ children: [Node]) -> Node {
        element(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("viewBox", "0 0 \(number(width)) \(number(height))"),
                ("class", "chart"), ("role", "img"), ("aria-label", label),
            ], [element("title", [], [.text(label)])] + children)
    }

    /// A straight line.
    public static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, cls: String) -> Node {
        element(
            "line", [("x1", number(x1)), ("y1", number(y1)), ("x2", number(x2)), ("y2", number(y2)), ("class", cls)])
    }

    /// The `points` attribute of a polyline through `points`.
    public static func pointList(_ points: [(x: Double, y: Double)]) -> String {
        points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
    }

    /// A polyline through `points`.
    public static func polyline(_ points: [(x: Double, y: Double)], cls: String) -> Node {
        element("polyline", [("points", pointList(points)), ("class", cls)])
    }

    /// A closed polygon.
    public static func polygon(_ points: [(x: Double, y: Double)], cls: String, opacity: Double? = nil) -> Node {
        element(
            "polygon",
            [("points", pointList(points)), ("class", cls)] + (opacity.map { [("fill-opacity", number2($0))] } ?? []))
    }

    /// A rectangle.
    public static func rect(x: Double, y: Double, width: Double, height: Double, cls: String, tip: String? = nil)
        -> Node
    {
        element(
            "rect",
            [("x", number(x)), ("y", number(y)), ("width", number(max(0, width))), ("height", number(max(0, height)))]
                + [("class", cls)], tip.map { [element("title", [], [.text($0)])] } ?? [])
    }

    /// A circle.
    public static func circle(x: Double, y: Double, r: Double, cls: String, tip: String? = nil) -> Node {
        element(
            "circle", [("cx", number(x)), ("cy", number(y)), ("r", number(r)), ("class", cls)],
            tip.map { [element("title", [], [.text($0)])] } ?? [])
    }

    /// A text label; `anchor` is `start`, `middle` or `end`.
    public static func text(_ string: String, x: Double, y: Double, anchor: String = "start", cls: String = "")
        -> Node
    {
        element(
            "text",
            [("x", number(x)), ("y", number(y)), ("text-anchor", anchor)] + (cls.isEmpty ? [] : [("class", cls)]),
            [.text(string)])
    }

    /// A value with two decimals (opacities).
    static func number2(_ v: Double) -> String { String(format: "%.2f", min(1, max(0, v))) }
}
