import Foundation
import MarketTestSupport
import Testing

/// curl asks `Expect: 100-continue` before every body over 1 MB (a create with photos) and waits a
/// second for the go-ahead unless the server gives it.
@Suite struct ExpectContinueTests {
    @Test func aClientThatExpects100ContinueGetsItBeforeSendingItsBody() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Waiting lamp")
            let vendor = TestMarket.papri
            let body = Data(#"{"stock":7,"secret":"\#(vendor.secret)"}"#.utf8)
            let connection = try await RawConnection(port: market.port)
            try await connection.send(
                Data(
                    """
                    PATCH /api/products/\(product.id) HTTP/1.1\r
                    Host: 127.0.0.1:\(market.port)\r
                    identifier: \(vendor.identifier)\r
                    Content-Type: application/json\r
                    Content-Length: \(body.count)\r
                    Expect: 100-continue\r
                    \r

                    """.utf8))
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
                try await connection.send(
                    Data(
                        """
                        GET \(first) HTTP/1.1\r
                        Host: 127.0.0.1:\(market.port)\r
                        \r
                        PATCH /api/products/\(product.id) HTTP/1.1\r
                        Host: 127.0.0.1:\(market.port)\r
                        identifier: \(vendor.identifier)\r
                        Content-Type: application/json\r
                        Content-Length: \(body.count)\r
                        Expect: 100-continue\r
                        \r

                        """.utf8))
                let answers = try await connection.responses(2)
                #expect(answers.map(\.status) == [200, 100], "\(first)")
                try await connection.send(body)
                #expect(try await connection.response().status == 202, "\(first)")
            }
        }
    }
}
