import Foundation
import Testing

@testable import Capabilities

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

/// `serve` against hostile input: lines longer than its limit, repeated keys.
@Suite("System server loop, hostile input")
struct SystemServerHostileInputTests {
    /// The answer lines to `text` (written whole, then end of input) with a line limit.
    static func serve(_ text: [UInt8], maxLineBytes: Int) -> [String] {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else { return [] }
        // The writer runs beside the server: the input is larger than a pipe holds.
        let inputEnd = input[1]
        let writer = Thread {
            _ = LineReader.writeAll(text, to: inputEnd)
            close(inputEnd)
        }
        writer.start()
        var core = SystemServerTests.EchoCore()
        let collected = DispatchSemaphore(value: 0)
        final class Lines: @unchecked Sendable { var all: [String] = [] }
        let lines = Lines()
        let outputEnd = output[0]
        let reader = Thread {
            let r = LineReader(fd: outputEnd)
            while let line = try? r.next(deadline: nil, spinNanoseconds: 0) {
                lines.all.append(String(decoding: line, as: UTF8.self))
            }
            collected.signal()
        }
        reader.start()
        SystemServer.serve(
            &core, name: "echo", version: "0", input: input[0], output: output[1], spinMicroseconds: 0,
            maxLineBytes: maxLineBytes)
        close(input[0])
        close(output[1])
        collected.wait()
        close(output[0])
        return lines.all
    }

    @Test func n1ARequestLineOverTheLimitIsAnsweredWithAnErrorAndSkipped() {
        let long =
            Array(#"{"op":"classify","id":"1","text":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 3 << 20)
            + Array("\"}\n".utf8)
        let hello = Array(#"{"op":"hello","protocol":1,"capability":"sentiment","seed":1}"#.utf8) + [10]
        let unended = Array(repeating: UInt8(ascii: "y"), count: 2 << 20)
        let lines = Self.serve(long + hello + unended, maxLineBytes: 1 << 20)
        #expect(lines.count == 3)
        #expect(lines.first?.contains("longer than 1048576 bytes") == true)
        #expect(lines.dropFirst().first == #"{"ok":true,"name":"echo","version":"0"}"#)
        #expect(lines.last?.contains("longer than 1048576 bytes") == true)
    }

    @Test func n33ARequestWithARepeatedKeyIsRefused() {
        let lines = SystemServerTests.serve([#"{"op":"classify","id":"1","text":"a","text":"b"}"#])
        #expect(lines == [#"{"ok":false,"error":"the key 'text' repeats; give each key once"}"#])
    }
}
