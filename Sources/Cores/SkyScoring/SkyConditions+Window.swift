import FieldtestGSL

extension SkyConditions {
    /// Half-width of the scoring window around a sunrise or sunset, seconds (±1 h covers the
    /// golden hour on the side of the event where colour develops).
    public static let windowHalfWidthSeconds = 3600.0
    /// The window is sampled every this many seconds.
    public static let windowStepSeconds = 900.0
    /// Samples further than this from the window are not used, seconds.
    public static let maximumGapSeconds = 3 * 3600.0

    /// Mean conditions over [t − 1 h, t + 1 h] around `eventUTC`, each field linearly interpolated
    /// (GSL linear interpolation) between the samples that report it, evaluated every 15 min.
    /// A field is nil when no sample within 3 h of the window reports it. `samples` must be sorted
    /// by time. O(log n + m·k) for n samples, m of them near the window, and k fields.
    public static func window(_ samples: [SkySample], around eventUTC: Double) -> SkyConditions? {
        let lo = eventUTC - windowHalfWidthSeconds - maximumGapSeconds
        let hi = eventUTC + windowHalfWidthSeconds + maximumGapSeconds
        var first = 0
        var last = samples.count
        while first < last {
            let mid = (first + last) / 2
            if samples[mid].timeUTC < lo { first = mid + 1 } else { last = mid }
        }
        var end = first
        while end < samples.count, samples[end].timeUTC <= hi { end += 1 }
        let near = samples[first..<end]
        guard !near.isEmpty else { return nil }
        let steps = Int(2 * windowHalfWidthSeconds / windowStepSeconds)
        let times = (0...steps).map { eventUTC - windowHalfWidthSeconds + Double($0) * windowStepSeconds }
        var out = SkyConditions()
        var any = false
        for field in fields {
            var xs: [Double] = []
            var ys: [Double] = []
            for s in near {
                guard let v = s.conditions[keyPath: field], v.isFinite else { continue }
                if let last = xs.last, last == s.timeUTC {
                    ys[ys.count - 1] = v
                    continue
                }
                xs.append(s.timeUTC)
                ys.append(v)
            }
            guard !xs.isEmpty else { continue }
            if xs.count == 1 {
                out[keyPath: field] = ys[0]
            } else if let f = try? Interpolator(x: xs, y: ys, method: .linear) {
                out[keyPath: field] = times.map { f.value(at: $0) }.reduce(0, +) / Double(times.count)
            } else {
                continue
            }
            any = true
        }
        return any ? out : nil
    }
}
