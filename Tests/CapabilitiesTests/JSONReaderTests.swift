import Foundation
import Testing

@testable import Capabilities

/// The single-pass reader the protocol's lines are parsed with, and the decoder over its values.
@Suite("JSON reader")
struct JSONReaderTests {
    static func parse(_ text: String) throws -> JSONField { try JSONReader.parse(Array(text.utf8)) }

    @Test func readsAnAnswerLine() throws {
        let value = try Self.parse(#"{"id":"17","label":"positive","score":0.62,"probabilities":[0.1,0.28,0.62]}"#)
        #expect(value["id"] == .string("17"))
        #expect(value["label"]?.stringValue == "positive")
        #expect(value["score"] == .number(0.62))
        #expect(value["probabilities"] == .array([.number(0.1), .number(0.28), .number(0.62)]))
        #expect(value["missing"] == nil)
    }

    @Test(arguments: [
        (
            #"  {"a" : [ 1 , -2 , true , false , null , {} , [] ] }  "#,
            JSONField.object([
                ("a", .array([.int(1), .int(-2), .bool(true), .bool(false), .null, .object([]), .array([])]))
            ])
        ),
        (#""tab\there \"q\" \\ \/ \u00e9 \ud83d\ude00""#, .string("tab\there \"q\" \\ / é 😀")),
        ("1e3", .number(1000)),
        ("-0.000123", .number(-0.000123)),
        ("12345678901234567890", .number(12_345_678_901_234_567_168)),  // the nearest Double
        ("-9007199254740993", .int(-9_007_199_254_740_993)),
    ])
    func readsValues(text: String, expected: JSONField) throws {
        #expect(try Self.parse(text) == expected)
    }

    @Test func numbersMatchTheStandardLibrarysParsing() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let d = Double.random(in: -1e7...1e7, using: &generator)
            for text in [String(d), String(format: "%.6f", d), String(format: "%.3e", d)] {
                let parsed = try Self.parse(text)
                #expect(parsed.doubleValue == Double(text), "\(text)")
            }
        }
    }

    @Test(arguments: [
        "this is not json", "", "{", #"{"a":1,}"#, #"{"a" 1}"#, "[1 2]", "01", "1.", "-", "1e", #""open"#,
        "\"ctrl\u{1}\"", #"{"a":1} x"#, #""\x""#, #""\u12""#, "tru", #""\ud800 lone""#, #""\udc00""#,
        #""\ud800\u0041""#, "1e999", "-1e400",
    ])
    func refusesWhatIsNotOneJSONText(text: String) {
        #expect(throws: JSONReadError.self) { try Self.parse(text) }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONReadError.self) { try Self.parse(deep) }
        #expect(throws: Never.self) {
            try Self.parse(String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
        }
    }

    @Test func decodesAnswersAndRejectsWrongTypes() throws {
        let good = try JSONFieldDecoder.decode(
            SentimentAnswer.self, from: Self.parse(#"{"id":"1","label":"negative","score":-1,"probabilities":null}"#))
        #expect(good == SentimentAnswer(label: .negative, score: -1))
        for wrong in [
            #"{"label":7,"score":0}"#, #"{"label":"negative"}"#, #"{"label":"meh","score":0}"#,
            #"{"label":"neutral","score":"0"}"#, #"{"label":"neutral","score":2}"#,
            #"{"label":"neutral","score":0,"probabilities":[1,0]}"#, "[]",
        ] {
            #expect(throws: (any Error).self, "\(wrong)") {
                try JSONFieldDecoder.decode(SentimentAnswer.self, from: Self.parse(wrong))
            }
        }
    }

    @Test func decodesRoutesWithNestedArraysAndIntegers() throws {
        let answer = try JSONFieldDecoder.decode(
            RouteAnswer.self,
            from: Self.parse(
                #"{"status":"ok","length_m":12.5,"duration_s":9,"node_ids":[1,9007199254740993],"path":[[-0.2,-78.5],[-0.3,-78.4]]}"#
            ))
        #expect(answer.nodeIDs == [1, 9_007_199_254_740_993])
        #expect(answer.durationSeconds == 9)
        #expect(answer.path.map(\.latitude) == [-0.2, -0.3])
        #expect(throws: (any Error).self) {
            try JSONFieldDecoder.decode(RouteAnswer.self, from: Self.parse(#"{"status":"ok","node_ids":[1.5]}"#))
        }
    }

    @Test func writtenStringsReadBackUnchanged() throws {
        for text in ["plain", "quote \" back \\ nl \n tab \t cr \r bell \u{7}", "naïve 😀", ""] {
            var out: [UInt8] = []
            JSONField.writeString(text, into: &out)
            #expect(try JSONReader.parse(out) == .string(text))
        }
    }
}
