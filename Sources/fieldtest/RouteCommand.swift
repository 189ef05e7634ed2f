import ArgumentParser
import CampusRouting
import FieldtestData
import Foundation

/// `fieldtest route`: batch routing over an OSM XML or GeoJSON map.
struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Route a batch of queries (id,from_lat,from_lon,to_lat,to_lon,profile) over a campus map.",
        discussion: """
            Output columns: id,status,length_m,duration_s,node_ids,path,from_snap_m,to_snap_m. Each end is \
            projected onto the nearest usable path (fragments lose to the main network unless much closer); \
            status is ok, no_route or no_snap (no usable path within 200 m). Profiles: walk, wheelchair and the others of the built-in \
            profile YAML (see --print-profiles), or your own with --profiles.
            """
    )

    @Option(help: "Map: OSM XML (.osm) or GeoJSON LineStrings (.geojson).")
    var graph: String?
    @Option(help: "Queries CSV: id,from_lat,from_lon,to_lat,to_lon,profile.")
    var queries: String?
    @Option(help: "Congestion CSV: latitude,longitude,density_per_m2 (persons/m², matched to the nearest edge).")
    var congestion: String?
    @OptionGroup var out: OutputCSV
    @Option(help: "Profiles YAML replacing the built-in ones.")
    var profiles: String?
    @Flag(help: "Print the built-in profiles YAML (the documented schema) to --output or standard output and exit.")
    var printProfiles = false

    func validate() throws {
        if !printProfiles && (graph == nil || queries == nil) {
            throw ValidationError("--graph and --queries are required")
        }
        if printProfiles && (graph != nil || queries != nil || congestion != nil || profiles != nil) {
            throw ValidationError(
                "--print-profiles prints the built-in profiles and routes nothing; drop --graph, --queries, --congestion and --profiles, or --print-profiles"
            )
        }
    }

    func run() throws {
        if printProfiles {
            try OutputText.write(RoutingProfiles.defaultYAML + "\n", to: out.output)
            return
        }
        guard let graph, let queries else { throw ValidationError("--graph and --queries are required") }
        let text = try RouteBatch.run(
            graph: graph, queries: queries, congestion: congestion, profiles: profiles, output: out.output)
        try OutputText.write(text, to: out.output)
    }
}
