import Foundation

/// Sky cover code of one reported cloud layer (METAR / NOAA LCD `HourlySkyConditions`).
public enum SkyCoverCode: String, Sendable, CaseIterable {
    /// Clear: no clouds below 12,000 ft (automated stations).
    case clear = "CLR"
    /// Few: 1–2 oktas.
    case few = "FEW"
    /// Scattered: 3–4 oktas.
    case scattered = "SCT"
    /// Broken: 5–7 oktas.
    case broken = "BKN"
    /// Overcast: 8 oktas.
    case overcast = "OVC"
    /// Vertical visibility: sky obscured (fog, precipitation); the height is the vertical visibility.
    case verticalVisibility = "VV"
}

/// One cloud layer: cover code, eighths of sky covered and base height.
public struct SkyLayer: Sendable, Equatable {
    /// The cover code.
    public var code: SkyCoverCode
    /// Sky fraction in oktas (0…8); 9 = obscured (counted as 8 when deriving fractions).
    public var oktas: Int
    /// Base height above ground in feet; nil for `CLR` (no layer).
    public var baseFeet: Double?
    /// Whether NOAA flagged the layer as suspect (trailing `s`).
    public var suspect: Bool
}

/// Cloud cover split into the three standard WMO étages by base height.
///
/// Fractions are percentages 0…100 of the sky. Layers are assigned by base height:
/// low < 6,500 ft (≈2 km), mid 6,500–20,000 ft, high > 20,000 ft (≈6 km), the WMO
/// cloud-étage boundaries for mid-latitudes. A layer's percentage is its oktas × 12.5;
/// within an étage the maximum layer is used (METAR layers report cumulative
/// cover up to that level, so the largest is the étage total).
public struct CloudCover: Sendable, Equatable {
    /// Low cloud, % of sky (bases below 6,500 ft).
    public var lowPct: Double
    /// Mid cloud, % of sky (bases 6,500–20,000 ft).
    public var midPct: Double
    /// High cloud, % of sky (bases above 20,000 ft).
    public var highPct: Double
    /// Total cover, % of sky: the largest reported layer (METAR cover is cumulative).
    public var totalPct: Double

    /// Creates a cover from its parts (percent).
    public init(lowPct: Double, midPct: Double, highPct: Double, totalPct: Double) {
        self.lowPct = lowPct
        self.midPct = midPct
        self.highPct = highPct
        self.totalPct = totalPct
    }
}

/// A parsed `HourlySkyConditions` cell: up to several layers.
public struct SkyCondition: Sendable, Equatable {
    /// Layers in file order (lowest first).
    public var layers: [SkyLayer]

    /// Creates a condition from its layers.
    public init(layers: [SkyLayer]) { self.layers = layers }

    /// Low/mid/high/total cover derived from the layers (see `CloudCover`).
    public var cover: CloudCover {
        var low = 0.0
        var mid = 0.0
        var high = 0.0
        var total = 0.0
        for l in layers {
            let pct = Double(min(l.oktas, 8)) * 12.5
            total = max(total, pct)
            guard let h = l.baseFeet else { continue }
            if h < 6500 {
                low = max(low, pct)
            } else if h <= 20000 {
                mid = max(mid, pct)
            } else {
                high = max(high, pct)
            }
        }
        return CloudCover(lowPct: low, midPct: mid, highPct: high, totalPct: total)
    }

    /// Unit of the base heights in a layout.
    public enum HeightUnit: Sendable {
        /// Hundreds of feet (NOAA LCD v1, METAR).
        case hundredsOfFeet
        /// Hundreds of metres (NOAA LCD v2 metric files).
        case hundredsOfMetres
    }

    /// Parses a cell such as `FEW:02 40 SCT:04 250`, `CLR:00`, `BKN:07 33.53s`; bare numbers
    /// outside a layer (SYNOP rows, e.g. `8` or `BKN:07 25 8`) are skipped.
    ///
    /// Returns nil for a blank cell or one with no layer; throws a reason string for anything malformed
    /// (unknown code, oktas outside 0…10, missing or negative height).
    public static func parse(_ text: String, unit: HeightUnit) throws(SkyParseError) -> SkyCondition? {
        let tokens = text.split(whereSeparator: { $0 == " " })
        guard !tokens.isEmpty else { return nil }
        var layers: [SkyLayer] = []
        var i = 0
        while i < tokens.count {
            let tok = tokens[i]
            let parts = tok.split(separator: ":", omittingEmptySubsequences: false)
            // SYNOP (FM-12) rows carry bare numbers besides or instead of layers; they are not
            // layers and say nothing of the layers' heights, so they are passed over.
            if parts.count == 1, Double(tok.hasSuffix("s") ? tok.dropLast() : tok) != nil {
                i += 1
                continue
            }
            guard parts.count == 2 else { throw SkyParseError(reason: "expected CODE:oktas, found '\(tok)'") }
            guard let code = SkyCoverCode(rawValue: String(parts[0])) else {
                throw SkyParseError(
                    reason: "unknown sky cover code '\(parts[0])' (expected CLR, FEW, SCT, BKN, OVC or VV)")
            }
            var okText = parts[1]
            var suspect = false
            if okText.hasSuffix("s") {
                okText = okText.dropLast()
                suspect = true
            }
            guard let oktas = Int(okText), (0...10).contains(oktas) else {
                throw SkyParseError(reason: "oktas '\(parts[1])' must be 00…10")
            }
            i += 1
            var base: Double?
            if code != .clear {
                guard i < tokens.count, !tokens[i].contains(":") else {
                    throw SkyParseError(reason: "layer '\(tok)' has no base height")
                }
                var h = tokens[i]
                if h.hasSuffix("s") {
                    h = h.dropLast()
                    suspect = true
                }
                guard let v = Double(h), v.isFinite, v >= 0 else {
                    throw SkyParseError(reason: "base height '\(tokens[i])' is not a non-negative number")
                }
                base = unit == .hundredsOfFeet ? v * 100 : v * 100 / 0.3048
                i += 1
            }
            layers.append(SkyLayer(code: code, oktas: oktas, baseFeet: base, suspect: suspect))
        }
        return layers.isEmpty ? nil : SkyCondition(layers: layers)
    }
}

/// Why a sky-condition cell could not be parsed.
public struct SkyParseError: Error, Sendable, Equatable {
    /// What is wrong with the cell.
    public var reason: String
}
