/// The report's style sheet: readable from a phone's width up, printable, colour-blind-safe series
/// colours (Okabe–Ito), and pass/fail shown by word as well as colour. It holds no `<`, `>` or `&`,
/// which the page's text escaping would change.
enum ReportStyle {
    static let css = """
        :root { --pass: #1a7f37; --fail: #c62828; --info: #57606a; --line: #d0d7de; --bg-soft: #f6f8fa; }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 1100px; padding: 12px 16px 40px; font: 15px/1.45 system-ui, -apple-system,
          "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #fff; }
        h1 { font-size: 1.6em; margin: 0.4em 0 0.2em; }
        h2 { font-size: 1.3em; margin: 1.6em 0 0.3em; padding-top: 0.6em; border-top: 2px solid var(--line);
          overflow-wrap: anywhere; }
        h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; overflow-wrap: anywhere; }
        p, li, dd, figcaption { overflow-wrap: anywhere; }
        a { color: #0b5cad; }
        .lead { font-size: 1.1em; margin-top: 0; }
        .muted { color: var(--info); }
        .tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(120px, 1fr)); gap: 8px; margin: 8px 0; }
        .tile { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; background: var(--bg-soft);
          display: flex; flex-direction: column; min-width: 0; }
        .tile-value { font-size: 1.4em; font-weight: 600; overflow-wrap: anywhere; }
        .tile.pass .tile-value { color: var(--pass); }
        .tile.fail { border-color: var(--fail); }
        .tile.fail .tile-value { color: var(--fail); }
        .scroll { overflow-x: auto; margin: 6px 0 10px; -webkit-overflow-scrolling: touch; }
        table { border-collapse: collapse; width: 100%; font-size: 0.92em; }
        th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { background: var(--bg-soft); font-weight: 600; white-space: nowrap; }
        td.metric { overflow-wrap: anywhere; min-width: 8em; }
        .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
        tr.fail td, tr.fail { background: #fff1f0; }
        .badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 0.78em; font-weight: 700;
          letter-spacing: 0.03em; color: #fff; background: var(--info); vertical-align: middle; }
        .badge.pass { background: var(--pass); }
        .badge.fail { background: var(--fail); }
        .badge.not_measured { background: #8a5a00; }
        .badge.regression { background: #8e1b5a; }
        tr.regression td, td.regression { background: #fbeff5; }
        .note.regressed { color: #8e1b5a; font-weight: 600; }
        .all-clear { color: var(--pass); font-weight: 600; }
        table.confusion { width: auto; }
        table.confusion th { white-space: normal; }
        table.confusion td.right { background: #e6f4ea; color: #0f5323; font-weight: 600; }
        table.confusion td.wrong { background: #fdecea; color: #8a1c1c; font-weight: 600; }
        #failures td.metric, #failures td.where { min-width: 6em; overflow-wrap: anywhere; }
        .narrow-only { display: none; }
        details.fold > summary { cursor: pointer; margin: 1.6em 0 0.3em; padding-top: 0.6em;
          border-top: 2px solid var(--line); }
        details.fold > summary h2 { display: inline; margin: 0; padding: 0; border: 0; }
        .fold-counts { display: block; color: var(--info); font-size: 0.92em; margin-left: 1.1em; }
        .provenance dd code { overflow-wrap: anywhere; word-break: break-all; font-size: 0.92em; }
        .provenance h4 { margin: 0.6em 0 0.2em; font-size: 0.95em; overflow-wrap: anywhere; }
        tr.not_measured td { background: #fff8e6; }
        .note { color: var(--info); font-size: 0.9em; }
        .delta { font-weight: 600; white-space: nowrap; }
        .delta.worse { color: var(--fail); }
        .delta.better { color: var(--pass); }
        .delta.same, .delta.moved { color: var(--info); font-weight: 400; }
        .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 460px), 1fr)); gap: 14px; }
        .figures.maps { grid-template-columns: minmax(0, 1fr); max-width: 820px; }
        figure { margin: 0; padding: 8px; border: 1px solid var(--line); border-radius: 6px; min-width: 0; }
        figcaption { font-size: 0.88em; color: var(--info); margin-top: 4px; }
        svg.chart { width: 100%; height: auto; display: block; font-size: 12px; }
        svg .grid { stroke: #eaeef2; }
        svg .axis { stroke: #57606a; }
        svg .tick { fill: #57606a; font-size: 11px; }
        svg .label { fill: #1f2328; font-size: 12px; }
        svg .threshold { stroke: var(--fail); stroke-width: 1.5; stroke-dasharray: 6 4; }
        svg .threshold-label { fill: var(--fail); font-size: 11px; font-weight: 600; }
        svg .marker { stroke: #1f2328; stroke-width: 1.5; }
        svg .marker-label { fill: #1f2328; font-size: 11px; }
        svg .bar { fill: #56b4e9; stroke: #0072b2; stroke-width: 0.5; }
        svg.errorbar { width: 80px; height: 14px; vertical-align: middle; margin-left: 6px; }
        svg.errorbar .ci { stroke: #57606a; stroke-width: 1.5; }
        svg.errorbar .ci-threshold { stroke: var(--fail); stroke-width: 2; }
        svg.errorbar .ci-value { fill: #1f2328; }
        .ci-text { display: block; color: var(--info); font-size: 0.85em; white-space: nowrap; }
        .margin { color: #8a5a00; }
        svg .zero { stroke: #1f2328; stroke-width: 1.5; }
        svg .ci { stroke-width: 2.5; }
        svg .ci.better, svg .point.better { stroke: var(--pass); fill: var(--pass); }
        svg .ci.worse, svg .point.worse { stroke: var(--fail); fill: var(--fail); }
        svg .ci.same, svg .point.same { stroke: #57606a; fill: #57606a; }
        svg .series { fill: none; stroke-width: 2; }
        .s0 { stroke: #0072b2; fill: #0072b2; background: #0072b2; }
        .s1 { stroke: #e69f00; fill: #e69f00; background: #e69f00; }
        .s2 { stroke: #009e73; fill: #009e73; background: #009e73; }
        .s3 { stroke: #cc79a7; fill: #cc79a7; background: #cc79a7; }
        .s4 { stroke: #56b4e9; fill: #56b4e9; background: #56b4e9; }
        .s5 { stroke: #d55e00; fill: #d55e00; background: #d55e00; }
        .s6 { stroke: #999933; fill: #999933; background: #999933; }
        .s7 { stroke: #000000; fill: #000000; background: #000000; }
        svg .series.s0, svg .series.s1, svg .series.s2, svg .series.s3, svg .series.s4, svg .series.s5,
        svg .series.s6, svg .series.s7 { fill: none; }
        svg .map-bg { fill: #fbfcfd; }
        svg .campus { fill: none; stroke: #b8c0c8; stroke-width: 1; }
        svg .route { fill: none; stroke: #0072b2; stroke-width: 2; stroke-opacity: 0.7; }
        svg .route.offline { stroke: #cc79a7; stroke-dasharray: 6 4; stroke-opacity: 0.9; }
        svg .evacuation { fill: none; stroke: #d55e00; stroke-width: 2.5; }
        svg .map-key { fill: #fff; fill-opacity: 0.9; stroke: #d0d7de; }
        svg .true-track { fill: none; stroke: #1f2328; stroke-width: 2; }
        svg .gps-track { fill: #e69f00; stroke: none; }
        svg .fused-track { fill: none; stroke: #009e73; stroke-width: 2; }
        svg .heat { fill: #cc3311; stroke: none; }
        svg .exit { fill: #009e73; stroke: #fff; stroke-width: 1; }
        svg circle.end { stroke: #fff; stroke-width: 0.8; }
        svg .scale-bar { stroke: #1f2328; stroke-width: 2; }
        .legend { list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 4px 14px;
          font-size: 0.85em; }
        .legend li { display: flex; align-items: center; gap: 5px; min-width: 0; }
        .swatch { display: inline-block; width: 14px; height: 4px; flex: none; }
        .swatch.campus { background: #b8c0c8; }
        .swatch.route { background: #0072b2; }
        .swatch.route.offline { background: repeating-linear-gradient(90deg, #cc79a7 0 5px, transparent 5px 8px); }
        .swatch.evacuation { background: #d55e00; }
        .swatch.true-track { background: #1f2328; }
        .swatch.gps-track { background: #e69f00; height: 6px; width: 6px; border-radius: 3px; }
        .swatch.fused-track { background: #009e73; }
        .swatch.heat { background: #cc3311; opacity: 0.6; height: 10px; width: 10px; }
        .swatch.exit { background: #009e73; height: 8px; width: 8px; border-radius: 4px; }
        .req-text { border-left: 3px solid var(--line); padding: 0 0 0 10px; margin: 10px 0; }
        .req-text:target { border-left-color: #0b5cad; background: #f0f6ff; }
        .req-text h3 { margin: 0.2em 0; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 4px 0; font-size: 0.92em; }
        dt { font-weight: 600; color: var(--info); }
        dd { margin: 0; min-width: 0; }
        footer { margin-top: 2em; color: var(--info); font-size: 0.85em; }
        @media (max-width: 560px) {
          body { padding: 8px 10px 30px; font-size: 14px; }
          dl { grid-template-columns: 1fr; }
          th, td { padding: 4px 5px; }
          .wide { display: none; }
          table.cards thead { display: none; }
          table.cards, table.cards tbody { display: block; }
          table.cards tr { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 0 8px; padding: 5px 2px;
            align-items: baseline;
            border-bottom: 1px solid var(--line); }
          table.cards td { display: block; border: 0; padding: 0; background: none; min-width: 0; }
          table.cards td.req { grid-column: 1; grid-row: 1; }
          table.cards td.metric { grid-column: 2; grid-row: 1; font-weight: 600; }
          table.cards td.status { grid-column: 3; grid-row: 1; text-align: right; }
          table.cards td.value { grid-column: 1 / 3; grid-row: 2; text-align: left; }
          table.cards td.thr { grid-column: 3; grid-row: 2; text-align: right; }
          table.cards td.extra { grid-column: 1 / -1; grid-row: 3; text-align: left; }
          table.cards td:empty, table.cards .delta.same { display: none; }
          table.cards td.status { max-width: 12em; }
          table.cards td.status .regressed { display: block; white-space: normal; }
          table.failures thead { display: none; }
          table.failures, table.failures tbody { display: block; }
          table.failures tr { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 0 8px;
            padding: 5px 2px; border-bottom: 1px solid var(--line); }
          table.failures td { display: block; border: 0; padding: 0; min-width: 0; background: none; }
          table.failures td.where { grid-column: 1 / -1; grid-row: 1; color: var(--info); }
          table.failures td.req { grid-column: 1; grid-row: 2; }
          table.failures td.metric { grid-column: 2; grid-row: 2; font-weight: 600; min-width: 0; }
          table.failures td.status { grid-column: 3; grid-row: 2; text-align: right; }
          table.failures td.value { grid-column: 1 / 3; grid-row: 3; text-align: left; }
          table.failures td.thr { grid-column: 3; grid-row: 3; }
          table.failures td.base { grid-column: 1 / -1; grid-row: 4; text-align: left; }
          table.failures td:empty { display: none; }
          .narrow-only { display: inline; }
          svg.errorbar { display: block; width: 100%; max-width: 80px; margin: 2px 0 0; }
          .ci-text { white-space: normal; }
          svg .tick { font-size: 13px; }
          svg .label, svg .threshold-label, svg .marker-label { font-size: 14px; }
        }
        @media print {
          body { max-width: none; padding: 0; font-size: 11pt; }
          .scroll { overflow: visible; }
          section.scenario { break-before: page; }
          figure, tr, .req-text { break-inside: avoid; }
          a { color: inherit; text-decoration: none; }
          .figures { grid-template-columns: 1fr 1fr; }
          tr.fail td { background: none; }
          .badge, .swatch, .tile { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        }
        """
}
