import Foundation
import HTTPTypes
import Logging
import MarketCore
import MarketHTTPShared
import NIOCore
import Synchronization

/// Turns one finished request into the inspector's record and keeps it for its vendor.
struct Recording: Sendable {
    let records: RequestRecords
    let service: MarketService
    /// Whose request this was; nil for one that named no vendor, kept for the operator.
    let vendorID: Int64?
    let head: HTTPRequest
    let scheme: String
    let started: ContinuousClock.Instant
    let fault: RehearsedEffects?
    /// The teacher's rehearsal for every team shaped it.
    var forEveryTeam: Bool
    var broken: BrokenSaid?
    /// The answer was the vendor's rehearsed failure, not the market's: nothing was refused.
    var failedOnPurpose: Bool
    let logger: Logger
    /// The status answered (0: none, the connection was dropped) and how long that took.
    var status = 0
    var milliseconds = 0.0
    /// What the route recognised in the request, which shaped its answer.
    var recognised: RecognisedShape?
    /// Why the market refused it, as the API said it.
    var refusal: (error: MarketError, field: String?)?

    /// The hard cases that shaped the answer, and how many items it gave again.
    var hardCases: [HardCase] = []
    var repeatedItems = 0

    /// This request, answered with `status` now, and what the route and the rehearsed catalogue noted of it.
    func answered(_ status: Int, notes: RequestNotes? = nil, rehearsal: CatalogueRehearsal? = nil) -> Recording {
        var answered = self
        answered.status = status
        answered.hardCases = rehearsal?.shaped ?? []
        answered.forEveryTeam = forEveryTeam || rehearsal?.shapedForEveryTeam == true
        answered.repeatedItems = rehearsal?.repeatedItems ?? 0
        answered.recognised = notes?.recognised
        answered.refusal = notes?.refusal
        answered.milliseconds = Double((ContinuousClock.now - started) / .microseconds(1)) / 1000
        return answered
    }

    /// Keeps a request that named no vendor for the operator, written out only when they look.
    func keepForOperator(request: BodyCapture, answer: BodyCapture) {
        records.recordAnonymous { (try? JSONEncoder().encode(inspected(request, answer: answer))) ?? Data() }
    }

    /// Keeps a vendor's request for their inspector, and when their app first completed each step for the class board.
    func save(request: BodyCapture, answer: BodyCapture) async {
        guard let vendorID else { return keepForOperator(request: request, answer: answer) }
        let inspected = inspected(request, answer: answer)
        do {
            try await records.record(try JSONEncoder().encode(inspected), vendorID: vendorID)
            if let step = TeamProgress.Flow(inspected) { try await records.noteStep(step.rawValue, vendorID: vendorID) }
        } catch {
            records.countNotKept(vendorID: vendorID)
            logger.warning("the inspector could not keep a request", metadata: ["error": "\(error)"])
        }
    }

    func inspected(_ request: BodyCapture, answer captured: BodyCapture) -> InspectedRequest {
        let diagnosis = RequestDiagnosis(head: head, body: request.bytes)
        let answer = captured.bytes
        let path = (head.path ?? "/").maskingSecrets(sentWith: head.method)
        var text = ""
        var answerBytes: AnswerBytes?
        switch Sniffed(answer) {
        case .text, .empty:
            let shown = RequestDiagnosis.maskingSecrets(
                in: String(decoding: answer.prefix(BodyCapture.keptAnswerBytes), as: UTF8.self))
            // An issued delete secret goes out bare or as a path's last segment: masked as in a request's path.
            text = diagnosis.takesSecret ? shown.maskingSecrets() : shown
        case let sniffed:
            // Bytes that are no text are described, never shown as text: a picture by its header's size.
            let size = service.pictureSize(of: answer)
            answerBytes = AnswerBytes(sniffed: sniffed, bytes: captured.count, width: size?.width, height: size?.height)
        }
        var refused: InspectedRequest.Refusal?
        if status >= 400, !failedOnPurpose {
            // With no refusal of the market's (an address nothing answers), the API's words as they went.
            let said = refusal.map { refusal in refusal.error.message(naming: { _ in refusal.field ?? "" }) }
            refused = InspectedRequest.Refusal(
                error: refusal?.error, said: said ?? Self.reason(in: answer) ?? "the market answered \(status)",
                field: refusal?.field, shape: RequestShape(method: head.method, path: head.path ?? "/"))
        }
        let curl = diagnosis.curl(base: "\(scheme)://\(head.authority ?? "localhost")", maskedPath: path)
        return InspectedRequest(
            method: head.method.rawValue, path: path, status: status, milliseconds: milliseconds,
            headers: diagnosis.headers, bodyBytes: request.count, parts: diagnosis.inspectedParts,
            json: diagnosis.maskedJSON, quirks: diagnosis.quirks, mistakes: diagnosis.mistakes,
            recognised: recognised, answer: text, answerBytes: answerBytes, refusal: refused, fault: fault,
            broken: broken, hardCases: hardCases.isEmpty ? nil : hardCases,
            repeatedItems: repeatedItems == 0 ? nil : repeatedItems, forEveryTeam: forEveryTeam ? true : nil,
            curl: curl.line, curlNeeds: curl.needs)
    }

    static func reason(in answer: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: answer)) as? [String: Any])?["reason"] as? String
    }
}

/// The first bytes of a body as it streams past, kept for the inspector; the rest is only counted.
final class BodyCapture: Sendable {
    static let keptBytes = 12 * 1024 * 1024
    /// An answer is shown by its first 16 KB; a refusal's JSON is far shorter.
    static let keptAnswerBytes = 16 * 1024

    private let limit: Int
    private let state = Mutex((kept: Data(), total: 0))

    init(keeping limit: Int = keptBytes) { self.limit = limit }

    func append(_ buffer: ByteBuffer) {
        state.withLock { state in
            state.total += buffer.readableBytes
            let room = limit - state.kept.count
            if room > 0 { state.kept.append(contentsOf: buffer.readableBytesView.prefix(room)) }
        }
    }

    var keeps: Bool { limit > 0 }

    var bytes: Data { state.withLock { $0.kept } }
    var count: Int { state.withLock { $0.total } }
    var keptCount: Int { state.withLock { $0.kept.count } }
}

/// Records finished requests one at a time, in order, off the connections' path: a request of megabytes takes a while
/// to read. The backlog is bounded by bytes (`RequestRecords.backlogBytes`): a class's thumbnails are all kept, uploads
/// beyond it are counted as not kept.
final class Recorder: Sendable {
    private let queue: AsyncStream<(Recording, BodyCapture, BodyCapture, weight: Int)>.Continuation
    /// Bytes waiting; shared with the task that records, which `self` must not be kept alive by.
    private let waiting = WaitingBytes()

    init() {
        let (stream, queue) = AsyncStream.makeStream(of: (Recording, BodyCapture, BodyCapture, weight: Int).self)
        self.queue = queue
        Task { [waiting] in
            for await (record, request, answer, weight) in stream {
                await record.save(request: request, answer: answer)
                waiting.bytes.subtract(weight, ordering: .relaxed)
            }
        }
    }

    deinit { queue.finish() }

    func enqueue(_ record: Recording, request: BodyCapture, answer: BodyCapture) {
        guard let vendorID = record.vendorID else { return record.keepForOperator(request: request, answer: answer) }
        let weight = Self.weight(record, request, answer)
        guard waiting.bytes.add(weight, ordering: .relaxed).newValue <= record.records.backlogBytes else {
            waiting.bytes.subtract(weight, ordering: .relaxed)
            record.records.countNotKept(vendorID: vendorID)
            return record.logger.notice("the inspector skipped a request: it is still reading earlier ones")
        }
        queue.yield((record, request, answer, weight))
    }

    /// What a waiting request holds in memory: its head, the bodies kept, and a little more.
    private static func weight(_ record: Recording, _ request: BodyCapture, _ answer: BodyCapture) -> Int {
        let head = record.head.headerFields.reduce(record.head.path?.utf8.count ?? 0) {
            $0 + $1.name.rawName.utf8.count + $1.value.utf8.count
        }
        return head + request.keptCount + answer.keptCount + 1024
    }

    private final class WaitingBytes: Sendable { let bytes = Atomic<Int>(0) }
}
