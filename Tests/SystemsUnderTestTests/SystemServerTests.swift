import Foundation
import Testing

@testable import SystemsUnderTest

/// The server loop `fieldtest serve` runs, driven in process through pipes.
@Suite("System server loop")
struct SystemServerTests {
    /// Echoes each row's `text` back as its label, and refuses a row without one.
    struct EchoCore: ServedCore {
        let capability = SystemCapability.sentiment
        mutating func load(path: String, format: String) throws { throw ServedCoreError("no setup") }
        func answer(_ rows: [JSONObject]) -> [Result<[(String, JSONField)], ServedCoreError>] {
            rows.map { row in
                guard let text = row["text"]?.stringValue else { return .failure(ServedCoreError("'text' needed")) }
                return .success([("label", .string(text))])
            }
        }
    }

    /// The answer lines the server writes to `requests` (written whole, then end of input).
    static func serve(_ requests: [String], spin: Int = 0) -> [String] {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else { return [] }
        let text = requests.map { $0 + "\n" }.joined()
        _ = LineReader.writeAll(Array(text.utf8), to: input[1])
        close(input[1])
        var core = EchoCore()
        SystemServer.serve(
            &core, name: "echo", version: "0", input: input[0], output: output[1], spinMicroseconds: spin)
        close(input[0])
        close(output[1])
        let reader = LineReader(fd: output[0])
        var lines: [String] = []
        while let line = try? reader.next(
            deadline: DispatchTime.now().uptimeNanoseconds + 1_000_000_000, spinNanoseconds: 0)
        {
            lines.append(String(decoding: line, as: UTF8.self))
        }
        close(output[0])
        return lines
    }

    @Test(arguments: [0, 50])
    func answersEachRequestInOrderUntilTheEndOfInput(spin: Int) {
        let lines = Self.serve(
            [
                #"{"op":"hello","protocol":1,"capability":"sentiment","seed":1}"#,
                #"{"op":"classify","id":"1","text":"a \"quoted\" word"}"#,
                #"{"op":"classify","id":"b","rows":[{"id":"2","text":"x"},{"id":"3"}]}"#,
                "not json", "[1,2]",
                #"{"op":"classify","id":"c","rows":[{"id":"4","text":"x"},7]}"#,
                #"{"op":"mood","id":"d"}"#,
            ], spin: spin)
        #expect(
            lines == [
                #"{"ok":true,"name":"echo","version":"0"}"#,
                #"{"id":"1","label":"a \"quoted\" word"}"#,
                #"{"id":"b","rows":[{"id":"2","label":"x"},{"id":"3","ok":false,"error":"'text' needed"}]}"#,
                #"{"ok":false,"error":"not JSON at byte 0: expected null"}"#,
                #"{"ok":false,"error":"not a JSON object"}"#,
                #"{"id":"c","ok":false,"error":"each of 'rows' must be an object"}"#,
                #"{"id":"d","ok":false,"error":"unknown op 'mood'; use hello, load or classify"}"#,
            ])
    }
}
