import Foundation
import HTTPTypes
import Logging
import MarketCore
import MarketHTTPShared

/// Turns one finished request into the inspector's record and keeps it for its vendor.
struct Recording: Sendable {
    let rehearsals: Rehearsals
    /// Whose request this was; nil for one that named no vendor, kept for the operator.
    let vendorID: Int64?
    let head: HTTPRequest
    let scheme: String
    let started: ContinuousClock.Instant
    let fault: String?
    /// How the answer was broken on purpose, when the vendor rehearses broken answers.
    var broken: String?
    /// The answer was the vendor's rehearsed failure, not the market's: nothing was refused.
    var failedOnPurpose: Bool
    let logger: Logger
    /// The status answered (0: none, the connection was dropped) and how long that took.
    var status = 0
    var milliseconds = 0.0
    /// What the route recognised in the request, which shaped its answer.
    var recognised: RecognisedShape?

    init(
        rehearsals: Rehearsals, vendorID: Int64?, head: HTTPRequest, scheme: String, started: ContinuousClock.Instant,
        fault: String?, failedOnPurpose: Bool = false, logger: Logger
    ) {
        self.rehearsals = rehearsals
        self.vendorID = vendorID
        self.head = head
        self.scheme = scheme
        self.started = started
        self.fault = fault
        self.failedOnPurpose = failedOnPurpose
        self.logger = logger
    }

    /// This request, answered with `status` now.
    func answered(_ status: Int, recognised: RecognisedShape? = nil) -> Recording {
        var answered = self
        answered.status = status
        answered.recognised = recognised
        answered.milliseconds = Double((ContinuousClock.now - started) / .microseconds(1)) / 1000
        return answered
    }

    func save(request: BodyCapture, answer: BodyCapture) async {
        let (body, bodyBytes, answer) = (request.bytes, request.count, answer.bytes)
        guard let vendorID else {
            rehearsals.recordAnonymous {
                (try? JSONEncoder().encode(inspected(body: body, bodyBytes: bodyBytes, answer: answer))) ?? Data()
            }
            return
        }
        do {
            try await rehearsals.record(
                try JSONEncoder().encode(inspected(body: body, bodyBytes: bodyBytes, answer: answer)),
                vendorID: vendorID)
        } catch {
            logger.warning("the inspector could not keep a request", metadata: ["error": "\(error)"])
        }
    }

    func inspected(body: Data, bodyBytes: Int, answer: Data) -> InspectedRequest {
        let diagnosis = RequestDiagnosis(head: head, body: body)
        let path = (head.path ?? "/").maskingSecrets
        let text = RequestDiagnosis.maskingSecrets(in: String(decoding: answer.prefix(16 * 1024), as: UTF8.self))
        var refusal: InspectedRequest.Refusal?
        if status >= 400, !failedOnPurpose {
            let reply = (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any]
            refusal = InspectedRequest.Refusal(
                rule: reply?["reason"] as? String ?? "the market answered \(status)", field: reply?["field"] as? String,
                correctShape: CorrectShape.of(method: head.method, path: head.path ?? "/"))
        }
        return InspectedRequest(
            method: head.method.rawValue, path: path, status: status, milliseconds: milliseconds,
            headers: diagnosis.headers, bodyBytes: bodyBytes, parts: diagnosis.inspectedParts,
            json: diagnosis.maskedJSON,
            quirks: diagnosis.quirks, mistakes: diagnosis.mistakes.isEmpty ? nil : diagnosis.mistakes,
            recognised: recognised, answer: text, refusal: refusal, fault: fault, broken: broken,
            curl: diagnosis.curl(base: "\(scheme)://\(head.authority ?? "localhost")", maskedPath: path))
    }
}

/// API requests that named no vendor, kept for the operator.
enum AnonymousReads {
    /// A path whose first segment is this names the API (`api`, or 2021's `item` and `items`), in either case.
    static func isAPI(_ segment: some Sequence<UInt8>) -> Bool {
        ["api", "item", "items"].contains { segment.caselessEquals($0.utf8) }
    }
}
