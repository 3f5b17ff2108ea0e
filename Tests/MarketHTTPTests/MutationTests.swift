import Foundation
import MarketTestSupport
import Testing

/// Damaged requests, made by mutating good ones with a fixed seed: whatever arrives, the answer is
/// never a 5xx and the server keeps serving.
@Suite struct MutationTests {
    struct Mutator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }

        /// Flips, drops, duplicates or cuts bytes of the body.
        mutating func damage(_ body: Data) -> Data {
            var bytes = [UInt8](body)
            for _ in 0..<Int.random(in: 1...8, using: &self) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &self)
                switch Int.random(in: 0..<4, using: &self) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &self)
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 16)], at: at)
                default: bytes.removeLast(bytes.count - at)
                }
            }
            return Data(bytes)
        }
    }

    @Test func damagedCreatesAndPatchesNeverFailTheServer() async throws {
        try await TestMarket.inProcess { market in
            let papri = TestMarket.papri
            let product = try await market.addProduct("Target")
            let b = "MUTATION"
            let create = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n",
                #"{"name":"Mutant","descriptions":"d","price":100,"discounted_price":1,"currency":"KRW","stock":2,"secret":"\#(papri.secret)"}"#,
                "\r\n--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(try TestImages.jpeg(width: 64, height: 48)), "\r\n--\(b)--\r\n")
            let patch = Data(#"{"name":"Changed","price":200,"thumbnail_id":"1","secret":"\#(papri.secret)"}"#.utf8)
            var mutator = Mutator(state: 20_221_122)
            for round in 0..<150 {
                let response = try await market.send(
                    "POST", "/api/products",
                    headers: ["identifier: \(papri.identifier)", "Content-Type: multipart/form-data; boundary=\(b)"],
                    body: mutator.damage(create))
                #expect(response.status < 500, "create round \(round): \(response.text)")
                let patched = try await market.send(
                    "PATCH", "/api/products/\(product.id)", headers: ["identifier: \(papri.identifier)"],
                    body: mutator.damage(patch))
                #expect(patched.status < 500, "patch round \(round): \(patched.text)")
            }
            let health = try await market.send("GET", "/healthChecker")
            #expect(health.status == 200)
        }
    }
}
