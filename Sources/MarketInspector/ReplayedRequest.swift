import Foundation
import MarketHTTPShared

/// A recorded request for the inspector page's script to send again, masked secrets (`•••`) and all: the script
/// fills in the secret the learner types. Multipart requests are not sent again: their pictures are not kept.
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

    var json: String { (try? String(decoding: JSONEncoder.stable().encode(self), as: UTF8.self)) ?? "{}" }
}
