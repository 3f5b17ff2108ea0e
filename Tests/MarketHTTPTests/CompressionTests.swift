import Foundation
import MarketModel
import MarketTestSupport
import Testing

/// Text goes gzip-compressed to clients that accept it, and comes out of gzip byte for byte as the
/// plain answer; pictures and clients that do not ask are sent as before.
@Suite struct CompressionTests {
    @Test func pagesStylesScriptsAndJSONAreCompressedForClientsThatAcceptIt() async throws {
        try await TestMarket.inProcess { market in
            for index in 1...20 { try await market.addProduct("Lamp \(index)") }
            let page = try await market.send("GET", "/", headers: ["Accept-Language: en"])
            let script = try #require(page.text.firstMatch(of: #/src="(/assets/storefront\.js\?v=\w+)"/#)).1
            for path in ["/", "/assets/storefront.css", String(script), "/api/products?page_no=1&items_per_page=20"] {
                let plain = try await market.send("GET", path, headers: ["Accept-Language: en"])
                let packed = try await market.send(
                    "GET", path, headers: ["Accept-Language: en", "Accept-Encoding: gzip, deflate, br"])
                #expect(plain.header("Content-Encoding") == nil, "\(path)")
                #expect(plain.header("Vary")?.contains("Accept-Encoding") == true, "\(path)")
                #expect(packed.header("Content-Encoding") == "gzip", "\(path)")
                #expect(packed.header("Content-Length") == String(packed.body.count), "\(path)")
                #expect(
                    packed.body.count * 2 < plain.body.count, "\(path): \(packed.body.count) of \(plain.body.count)")
                let unpacked = try await gunzip(packed.body)
                #expect(unpacked.count == plain.body.count, "\(path)")
                if path.hasPrefix("/api") {
                    let json = try JSONSerialization.jsonObject(with: unpacked) as? NSDictionary
                    #expect(json == (try JSONSerialization.jsonObject(with: plain.body) as? NSDictionary))
                }
            }
            let refused = try await market.send("GET", "/", headers: ["Accept-Encoding: gzip;q=0, identity"])
            #expect(refused.header("Content-Encoding") == nil)
            let product = try await market.service.products(.init(number: 1, itemsPerPage: 1)).items[0]
            let picture = try await market.send(
                "GET", "/images/\(product.thumbnailKey)", headers: ["Accept-Encoding: gzip"])
            #expect(picture.status == 200)
            #expect(picture.header("Content-Encoding") == nil, "a JPEG is compressed already")
        }
    }

    private func gunzip(_ data: Data) async throws -> Data {
        let input = Pipe()
        let output = Pipe()
        let process = try ChildProcess(
            "/bin/gzip", ["-dc"], input: input.fileHandleForReading.fileDescriptor,
            output: output.fileHandleForWriting.fileDescriptor)
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        async let result = output.readToEnd()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        #expect(await process.exitStatus() == 0)
        return await result
    }
}
