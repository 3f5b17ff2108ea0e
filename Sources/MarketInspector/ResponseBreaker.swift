import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import NIOCore

/// Breaks a market answer on purpose, in the first of the vendor's chosen ways that fits, and says how in words a
/// learner can act on. Only successes are broken: a refusal already teaches what it should.
struct ResponseBreaker {
    struct Broken {
        var status: HTTPResponse.Status
        var contentType: String
        var body: [UInt8]
        var said: BrokenSaid
    }

    /// Answers under this size are read whole to be broken; larger ones (pictures) only lose the body or are replaced.
    static let readable = 1 << 20

    let kinds: [BrokenAnswer]

    func needsBody(_ response: Response) -> Bool {
        response.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
            && (response.body.contentLength ?? Self.readable) < Self.readable
            && kinds.contains { $0 != .emptyBody && $0 != .proxyPage }
    }

    /// The answer broken, or nil when no chosen kind fits it. Only the body breaks: a 201 or a 202 keeps its
    /// status, save for the proxy's page, which is a 502 of its own.
    func breaking(_ response: Response, body: [UInt8]?) -> Broken? {
        guard (200..<300).contains(response.status.code) else { return nil }
        let type = response.headers[.contentType] ?? "application/octet-stream"
        for kind in kinds {
            if let broken = Self.breaking(body, status: response.status, type: type, as: kind) { return broken }
        }
        return nil
    }

    private static func breaking(
        _ body: [UInt8]?, status: HTTPResponse.Status, type: String, as kind: BrokenAnswer
    ) -> Broken? {
        switch kind {
        case .emptyBody: return Broken(status: status, contentType: type, body: [], said: .emptyBody)
        case .proxyPage:
            return Broken(status: .badGateway, contentType: "text/html", body: Array(proxyPage.utf8), said: .proxyPage)
        case .truncated:
            guard let body, body.count > 1 else { return nil }
            return Broken(
                status: status, contentType: type, body: Array(body.prefix(body.count / 2)),
                said: .truncated(kept: body.count / 2, total: body.count))
        default:
            guard let body, var json = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
                let said = Self.editingProduct(in: &json, { Self.breaking(&$0, as: kind) }),
                let edited = try? JSONSerialization.data(
                    withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return nil }
            return Broken(status: status, contentType: type, body: Array(edited), said: said)
        }
    }

    /// Breaks one product's keys; nil when the product has none of the keys this kind breaks.
    private static func breaking(_ product: inout [String: Any], as kind: BrokenAnswer) -> BrokenSaid? {
        switch kind {
        case .missingKey:
            product["price"] = nil
            return .missingKey("price")
        case .null:
            guard let key = ["name", "title"].first(where: { product[$0] != nil }) else { return nil }
            product[key] = NSNull()
            return .null(key)
        case .numberAsText:
            guard let price = product["price"] as? NSNumber else { return nil }
            product["price"] = price.stringValue
            return .numberAsText("price", text: price.stringValue)
        case .unknownCurrency:
            guard product["currency"] != nil else { return nil }
            product["currency"] = "BTC"
            return .unknownCurrency("BTC")
        case .extraKey:
            product["delivery_fee"] = 3000
            return .extraKey("delivery_fee")
        case .otherDate:
            guard let key = ["created_at", "registration_date"].first(where: { product[$0] != nil }),
                let date = Self.date(product[key])
            else { return nil }
            let other = Self.otherFormat.string(from: date)
            product[key] = other
            return .otherDate(key, text: other)
        case .truncated, .emptyBody, .proxyPage: return nil
        }
    }

    /// Edits the product an answer is about, or the first one on a page of them.
    private static func editingProduct(
        in answer: inout [String: Any], _ edit: (inout [String: Any]) -> BrokenSaid?
    ) -> BrokenSaid? {
        if answer["price"] != nil { return edit(&answer) }
        for key in answer.keys.sorted() {
            guard var products = answer[key] as? [Any], var first = products.first as? [String: Any],
                first["price"] != nil, let said = edit(&first)
            else { continue }
            products[0] = first
            answer[key] = products
            return said
        }
        return nil
    }

    /// A date as either dialect sends it: seconds since 1970, or `2022-01-04T00:00:00.00`.
    private static func date(_ value: Any?) -> Date? {
        if let seconds = value as? NSNumber { return Date(timeIntervalSince1970: seconds.doubleValue) }
        guard let text = value as? String else { return nil }
        return dialectFormat.date(from: String(text.prefix(19)))
    }

    private static let dialectFormat = formatter("yyyy-MM-dd'T'HH:mm:ss")
    private static let otherFormat = formatter("yyyy/MM/dd HH:mm:ss")

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    private static let proxyPage = """
        <html>
        <head><title>502 Bad Gateway</title></head>
        <body>
        <center><h1>502 Bad Gateway</h1></center>
        <hr><center>nginx</center>
        </body>
        </html>

        """
}
