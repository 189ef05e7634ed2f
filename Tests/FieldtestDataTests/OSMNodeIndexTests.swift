import FieldtestData
import Testing

/// `OSMNodeIndex` answers as a dictionary of each id's first position would.
@Suite("OSM node index")
struct OSMNodeIndexTests {
    @Test("first positions of repeated, consecutive, negative and extreme ids; absent ids are nil")
    func matchesADictionary() {
        var rng = SeededGenerator(seed: 9)
        for count in [0, 1, 2, 7, 8, 9, 1000, 40_000] {
            var ids: [Int64] = []
            var next = Int64.random(in: 1...10_000_000_000, using: &rng)
            for _ in 0..<count {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: ids.append(ids.randomElement(using: &rng) ?? 0)  // a repeat
                case 1: ids.append(Int64.random(in: Int64.min...Int64.max, using: &rng))
                case 2: ids.append(-Int64.random(in: 1...1_000, using: &rng))  // editor-made, not yet uploaded
                default:
                    next += Int64.random(in: 1...3, using: &rng)  // OSM ids come in runs
                    ids.append(next)
                }
            }
            if count > 2 {
                ids[1] = .min
                ids[2] = .max
            }
            var expected: [Int64: Int] = [:]
            for (i, id) in ids.enumerated() where expected[id] == nil { expected[id] = i }
            let index = OSMNodeIndex(ids)
            for id in ids { #expect(index[id] == expected[id], "\(id)") }
            for _ in 0..<1000 {
                let probe = Int64.random(in: Int64.min...Int64.max, using: &rng)
                #expect(index[probe] == expected[probe])
                #expect(index[next + Int64.random(in: 1...1000, using: &rng)] == nil)
            }
        }
    }
}
