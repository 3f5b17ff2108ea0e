import Foundation
import MarketCore
import MarketModel
import MarketPages
import Synchronization

/// What one team's app has been seen to do: the flows it completed and when each first did, and, from the
/// requests its inspector keeps, its refusals, what the market forgave, and what it did after rehearsed failures.
struct TeamProgress: Sendable {
    /// A step of an app's life that the market answered as it should.
    enum Flow: String, CaseIterable, Codable, Sendable {
        case listFirstPage = "list_first_page", nextPage = "next_page", detail, pictures, register, edit
        case deleteSecret = "delete_secret", delete
        case v1ListFirstPage = "v1_list_first_page", v1NextPage = "v1_next_page", v1Detail = "v1_detail"
        case v1Register = "v1_register", v1Edit = "v1_edit", v1Delete = "v1_delete"

        static let v1: [Flow] = [.v1ListFirstPage, .v1NextPage, .v1Detail, .v1Register, .v1Edit, .v1Delete]

        /// The flow `request` completed, if it was answered as asked: a 2xx of the market's own,
        /// neither a rehearsed failure nor a broken answer.
        init?(_ request: InspectedRequest) {
            guard (200..<300).contains(request.status), !request.metRehearsedFailure else { return nil }
            let query = Self.query(of: request)
            let page = Int(query["page_no"] ?? query["page-no"] ?? "") ?? 1
            switch InspectorChoice.route(of: request).lowercased() {
            case "get /api/products": self = page > 1 || query["after"] != nil ? .nextPage : .listFirstPage
            case "get /api/products/{id}": self = .detail
            case "get /images/{name}": self = .pictures
            case "post /api/products": self = .register
            case "patch /api/products/{id}": self = .edit
            case "post /api/products/{id}/secret", "post /api/products/{id}/archived": self = .deleteSecret
            case "delete /api/products/{id}/{secret}", "delete /api/products/{secret}",
                "delete /api/products/api/products/{secret}":
                self = .delete
            case "get /items/{id}":
                let number = request.path.split(separator: "?").first?.split(separator: "/").last
                self = number.flatMap { Int($0) } == 1 ? .v1ListFirstPage : .v1NextPage
            case "get /item/{id}": self = .v1Detail
            case "post /item": self = .v1Register
            case "patch /item/{id}": self = .v1Edit
            case "delete /item/{id}": self = .v1Delete
            default: return nil
            }
        }

        /// The request's query fields, decoded as the market reads them.
        static func query(of request: InspectedRequest) -> [String: String] {
            FormSubmission.urlEncodedFields(
                String(request.path.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""))
        }
    }

    /// Refusals of one kind: the first of them, and how many there were.
    struct Refused: Sendable {
        var refusal: InspectedRequest.Refusal
        var count: Int
    }

    var vendor: Vendor
    var requests = 0
    var firstWorked: [Flow: Date] = [:]
    /// The app used the 2021 API: its steps are shown.
    var usesV1 = false
    var refused = 0
    /// The kind of refusal met most often; of kinds met as often, the one met first.
    var commonestRefusal: Refused?
    /// Each kind of quirk the market forgave, with an example and how many requests had it, most often first.
    var forgiven: [(example: Quirk, count: Int)] = []
    var sentPageZero = false
    /// Requests that met a rehearsed failure, and how many of those the app asked again.
    var rehearsedFailures = 0
    var askedAgain = 0
    /// How long the app waited before asking again, each time it did.
    var secondsBeforeAskingAgain: [Double] = []
    /// Registers answered 201 twice with the same JSON within ten seconds: two products.
    var registeredTwice = 0
    /// The last request the market made wait after too many wrong secrets, and when.
    var lastThrottled: (at: Date, refusal: InspectedRequest.Refusal)?
    /// The hard cases its app met; under them, the next pages it asked for again, how often it asked again for the
    /// picture that answers 404, and how many items it was given a second time by a shifting list.
    var hardCasesMet: [HardCase] = []
    var pagesAskedAgain = 0
    var missingPictureAskedAgain = 0
    var repeatedItems = 0

    /// `requests` oldest first, as `BoardMemory` keeps them; `firstSteps` as the store noted them, outlasting them.
    init(vendor: Vendor, requests: [RequestFacts], firstSteps: [String: Date]) {
        self.vendor = vendor
        for (step, at) in firstSteps { if let flow = Flow(rawValue: step) { firstWorked[flow] = at } }
        self.requests = requests.count
        var refusals: [(kind: String, refused: Refused)] = []
        var quirks: [(kind: String, example: Quirk, count: Int)] = []
        var casesMet: Set<HardCase> = []
        var nextPagesAsked: Set<String> = []
        var missingPictureAsked: [String: Int] = [:]
        for (index, request) in requests.enumerated() {
            casesMet.formUnion(request.hardCases)
            repeatedItems += request.repeatedItems
            if request.isNextPage, !request.hardCases.isEmpty, !nextPagesAsked.insert(request.asked).inserted {
                pagesAskedAgain += 1
            }
            if request.isMissingPicture { missingPictureAsked[request.asked, default: 0] += 1 }
            if let flow = request.flow, firstWorked[flow].map({ $0 > request.at }) ?? true {
                firstWorked[flow] = request.at
            }
            usesV1 = usesV1 || request.usesV1
            sentPageZero = sentPageZero || request.pageZero
            if let refusal = request.refusal {
                refused += 1
                let kind = refusal.kind
                if let known = refusals.firstIndex(where: { $0.kind == kind }) {
                    refusals[known].refused.count += 1
                } else {
                    refusals.append((kind, Refused(refusal: refusal, count: 1)))
                }
                if refusal.error?.kind == .throttled { lastThrottled = (request.at, refusal) }
            }
            for quirk in request.quirks {
                if let known = quirks.firstIndex(where: { $0.kind == quirk.kind }) {
                    quirks[known].count += 1
                } else {
                    quirks.append((quirk.kind, quirk, 1))
                }
            }
            // Asked again: the same method and path (and query) as the failed request, later.
            if request.metRehearsedFailure {
                rehearsedFailures += 1
                if let again = requests[(index + 1)...].first(where: { $0.asked == request.asked }) {
                    askedAgain += 1
                    secondsBeforeAskingAgain.append(again.at.timeIntervalSince(request.at))
                }
            }
            if let json = request.registerJSON,
                let earlier = requests[..<index].last(where: { $0.flow == request.flow }),
                earlier.registerJSON == json, request.at.timeIntervalSince(earlier.at) < 10
            {
                registeredTwice += 1
            }
        }
        usesV1 = usesV1 || Flow.v1.contains { firstWorked[$0] != nil }
        hardCasesMet = HardCase.allCases.filter(casesMet.contains)
        missingPictureAskedAgain = missingPictureAsked.values.reduce(0) { $0 + $1 - 1 }
        // Kinds in the order first met, so that of those met as often the first stays first on every reload.
        commonestRefusal =
            refusals.map(\.refused).enumerated().max {
                ($0.element.count, -$0.offset) < ($1.element.count, -$1.offset)
            }?.element
        forgiven = quirks.enumerated().sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }
            .map { ($0.element.example, $0.element.count) }
    }
}

/// What the class board reads of one kept request, made once per record: records never change, so a board read again
/// decodes only the requests kept since (`BoardMemory`).
struct RequestFacts: Sendable {
    var id: Int64
    var at: Date
    /// The method and the path with its query, as sent: the same asked again is asking again.
    var asked: String
    var flow: TeamProgress.Flow?
    var usesV1: Bool
    var pageZero: Bool
    var refusal: InspectedRequest.Refusal?
    var quirks: [Quirk]
    var metRehearsedFailure: Bool
    /// A register's JSON, to find one sent twice.
    var registerJSON: String?
    var hardCases: [HardCase]
    var repeatedItems: Int
    /// A list's page after the first, in either dialect.
    var isNextPage: Bool
    /// The picture a rehearsed `missing_picture` shows, answered 404.
    var isMissingPicture: Bool

    init?(_ stored: StoredRequestRecord) {
        guard let row = InspectedRow(stored) else { return nil }
        let request = row.request
        (id, at, asked) = (row.id, row.at, "\(request.method) \(request.path)")
        flow = TeamProgress.Flow(request)
        usesV1 = InspectorChoice.route(of: request).hasPrefix("\(request.method) /item")
        let query = TeamProgress.Flow.query(of: request)
        pageZero = (query["page_no"] ?? query["page-no"]) == "0"
        (refusal, quirks, metRehearsedFailure) = (request.refusal, request.quirks, request.metRehearsedFailure)
        registerJSON = flow == .register || flow == .v1Register ? request.json : nil
        hardCases = request.hardCases ?? []
        repeatedItems = request.repeatedItems ?? 0
        isNextPage = flow == .nextPage || flow == .v1NextPage
        isMissingPicture =
            request.status == 404 && hardCases.contains(.missingPicture)
            && InspectorChoice.route(of: request) == "GET /images/{name}"
    }
}

/// The facts of each team's kept requests, read once: a board read again (a projector reads it every few seconds)
/// decodes only the records kept since. Records of one vendor are numbered in the order they were kept.
final class BoardMemory: Sendable {
    private let kept = Mutex<[Int64: [RequestFacts]]>([:])

    /// The vendor's kept requests, oldest first.
    func facts(of vendorID: Int64, in records: RequestRecords) async throws -> [RequestFacts] {
        let known = kept.withLock { $0[vendorID] ?? [] }
        let new = try await records.requests(of: vendorID, after: known.last?.id).reversed().compactMap(
            RequestFacts.init)
        let facts = Array((known + new).suffix(RequestRecords.keptRequests))
        kept.withLock { $0[vendorID] = facts }
        return facts
    }
}

extension InspectedRequest {
    var metRehearsedFailure: Bool { fault?.answered != nil || fault?.dropped == true || broken != nil }
}

extension Quirk {
    /// What kind of quirk this is and, for one of a field's, which field: a price sent as text and a stock sent as
    /// text are tallied apart, each with its own example.
    var kind: String { field.map { "\(name) \($0)" } ?? name }

    /// The field a quirk of one field's took its liberty with.
    var field: String? {
        switch self {
        case .camelCaseKey(let key, _), .numberAsText(let key, _), .wholeNumber(let key, _, _): key
        default: nil
        }
    }

    /// The kind's name, whatever the field and the details.
    var name: String {
        switch self {
        case .crlfBeforeBoundary: "crlfBeforeBoundary"
        case .bytesBeforeBoundary: "bytesBeforeBoundary"
        case .noClosingBoundary: "noClosingBoundary"
        case .bareLineFeeds: "bareLineFeeds"
        case .noSpaceAfterDisposition: "noSpaceAfterDisposition"
        case .unquotedName: "unquotedName"
        case .fileWithoutType: "fileWithoutType"
        case .fileTypeDiffers: "fileTypeDiffers"
        case .lenientJSON: "lenientJSON"
        case .camelCaseKey: "camelCaseKey"
        case .numberAsText: "numberAsText"
        case .wholeNumber: "wholeNumber"
        }
    }
}
