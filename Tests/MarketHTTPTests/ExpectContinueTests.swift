import Foundation
import MarketTestSupport
import Testing

/// curl asks `Expect: 100-continue` before every body over 1 MB (a create with photos) and waits a
/// second for the go-ahead unless the server gives it.
@Suite struct ExpectContinueTests {
    /// The head of an edit of `id` whose JSON body of `length` bytes waits for the go-ahead.
    static func waitingEdit(of id: Int64, length: Int, port: Int) -> String {
        """
        PATCH /api/products/\(id) HTTP/1.1\r
        Host: 127.0.0.1:\(port)\r
        identifier: \(TestMarket.papri.identifier)\r
        Content-Type: application/json\r
        Content-Length: \(length)\r
        Expect: 100-continue\r
        \r

        """
    }

    @Test func aClientThatExpects100ContinueGetsItBeforeSendingItsBody() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Waiting lamp")
            let vendor = TestMarket.papri
            let body = Data(#"{"stock":7,"secret":"\#(vendor.secret)"}"#.utf8)
            let connection = try await RawConnection(port: market.port)
            try await connection.send(
                Data(Self.waitingEdit(of: product.id, length: body.count, port: market.port).utf8))
            let goAhead = try await connection.response()
            #expect(goAhead.status == 100)
            try await connection.send(body)
            let answer = try await connection.response()
            #expect(answer.status == 202)
            #expect(try answer.json["stock"] as? Int == 7)
        }
    }

    /// A request that expects `100 Continue` behind another one on the same connection gets it only
    /// after the answer to the one before: answers, interim ones too, keep the requests' order.
    @Test func aPipelinedRequestGetsItsGoAheadOnlyAfterTheAnswerBeforeIt() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Queued lamp")
            let vendor = TestMarket.papri
            let body = Data(#"{"stock":3,"secret":"\#(vendor.secret)"}"#.utf8)
            for first in ["/api/products/\(product.id)", "/healthChecker", "/api/products?page_no=1&items_per_page=5"] {
                let connection = try await RawConnection(port: market.port)
                let read = "GET \(first) HTTP/1.1\r\nHost: 127.0.0.1:\(market.port)\r\n\r\n"
                try await connection.send(
                    Data((read + Self.waitingEdit(of: product.id, length: body.count, port: market.port)).utf8))
                let answers = try await connection.responses(2)
                #expect(answers.map(\.status) == [200, 100], "\(first)")
                try await connection.send(body)
                #expect(try await connection.response().status == 202, "\(first)")
            }
        }
    }
}
