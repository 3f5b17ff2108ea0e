import Foundation
import MarketHTTPShared
import Testing

/// The answers' JSON is written by hand, and must come out byte for byte as JSONEncoder wrote it
/// before (sorted keys, slashes as they are).
@Suite struct JSONWriterTests {
    static func encoded(_ value: some Encodable) throws -> [UInt8] {
        Array(try JSONEncoder.stable().encode(value))
    }

    @Test func textIsEscapedAsJSONEncoderEscapesIt() throws {
        var awkward = String((0..<0x20).map { Character(Unicode.Scalar($0)!) })
        awkward += "\"\\/ \u{7F} \u{2028}\u{2029} 한국어 é e\u{301} 🛒 <b>&'"
        for text in [awkward, "", "plain", "a\nb\tc\r\n", "\\\"", String(repeating: "x", count: 5000)] {
            var json = JSONWriter()
            json.object { json in
                json.key("text")
                json.string(text)
            }
            #expect(json.bytes == (try Self.encoded(["text": text])), "\(text.debugDescription)")
        }
    }

    @Test func numbersFlagsObjectsAndListsAsJSONEncoderWritesThem() throws {
        struct Shape: Encodable {
            var a: [Int64]
            var b: Bool
            var c: [String: Bool]
            var d: [[String: Int64]]
        }
        let shape = Shape(a: [.min, -1, 0, 1, .max], b: false, c: ["n": true], d: [["x": 1], [:], ["x": 2]])
        var json = JSONWriter()
        json.object { json in
            json.key("a")
            json.array { json in for number in shape.a { json.number(number) } }
            json.key("b")
            json.bool(shape.b)
            json.key("c")
            json.object { json in
                json.key("n")
                json.bool(true)
            }
            json.key("d")
            json.array { json in
                for item in shape.d {
                    json.object { json in
                        for (key, value) in item {
                            json.key(key)
                            json.number(value)
                        }
                    }
                }
            }
        }
        #expect(json.bytes == (try Self.encoded(shape)))
    }
}
