import Foundation
import MarketHTTPShared

/// A recorded request as the inspector page's script sends it again from the browser: method,
/// path, headers and JSON body as recorded, masked secrets (`•••`) and all. The script puts the
/// secret the learner types in their place for that one send; the market never sees it apart from
/// the request itself. Requests with multipart bodies are not sent again: their pictures are not kept.
struct ReplayedRequest: Encodable {
    /// Headers a browser sets itself and a script may not.
    static let browsers: Set<String> = [
        "host", "content-length", "connection", "accept-encoding", "user-agent", "transfer-encoding", "expect",
        "cookie", "keep-alive", "te", "trailer", "upgrade", "via", "origin", "referer", "date",
    ]

    let method: String
    let path: String
    let headers: [[String]]
    let body: String?
    let mask = secretMask

    init?(_ request: InspectedRequest) {
        guard request.parts.isEmpty, request.bodyBytes == 0 || request.json != nil else { return nil }
        method = request.method
        path = request.path
        headers = request.headers.filter { !Self.browsers.contains($0.name.lowercased()) }.map { [$0.name, $0.value] }
        body = request.bodyBytes == 0 ? nil : request.json
    }

    /// Something was masked, so the learner must type the secret that stood there.
    var needsSecret: Bool {
        path.contains(mask) || headers.contains { $0[1].contains(mask) } || body?.contains(mask) == true
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }
}
