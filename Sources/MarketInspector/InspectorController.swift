import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// The inspector's JSON twin for scripts and apps; every route needs the vendor's `identifier` and `secret` headers.
package struct InspectorController<Context: ConnectionRequestContext> {
    let service: MarketService
    let records: RequestRecords
    let faults: FaultInjector
    let teamAddresses: TeamAddresses

    package init(service: MarketService, records: RequestRecords, faults: FaultInjector, teamAddresses: TeamAddresses) {
        (self.service, self.records, self.faults, self.teamAddresses) = (service, records, faults, teamAddresses)
    }

    package func addRoutes(to router: Router<Context>) {
        let inspector = router.group("inspector")
        inspector.get("requests", use: requests)
        inspector.get("requests/live", use: liveRequests)
        inspector.get("faults", use: faults)
        inspector.put("faults", use: setFaults)
        inspector.delete("faults", use: clearFaults)
        inspector.delete("products", use: deleteProducts)
        inspector.get("team", use: team)
    }

    /// `{"address": "http://…/teams/82"}`: the team address of the vendor the headers prove, on the
    /// host this request came to, and `port_address` (`http://…:8182`) when the market has team ports.
    @Sendable func team(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request, context)
        var addresses = ["address": TeamAddress.url(of: vendor.id, on: request.origin)]
        if let port = teamAddresses.port(of: vendor, on: request.origin) {
            addresses[port.url == nil ? "port_missing" : "port_address"] = port.english
        }
        return try Self.json(addresses)
    }

    @Sendable func requests(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request, context)
        let limit = try request.queryFields["limit"].map { text throws(MarketError) in
            guard let limit = Int(text), (1...RequestRecords.keptRequests).contains(limit) else {
                throw MarketError(.invalid, field: .sent("limit"), rule: .between(1, RequestRecords.keptRequests))
            }
            return limit
        }
        let kept = try await records.requests(of: vendor.id, limit: limit ?? RequestRecords.keptRequests)
            .compactMap { InspectedRow($0).map(RecordBody.init) }
        return try Self.json(KeptRequests(requests: kept, notKept: records.notKept(of: vendor.id)))
    }

    /// Each new request as a server-sent event whose data is the record as `requests` gives it.
    @Sendable func liveRequests(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request, context)
        let encoder = JSONEncoder.inspector()
        return try LiveEvents.response(to: request, records, vendorID: vendor.id) { stored in
            InspectedRow(stored).flatMap { try? String(decoding: encoder.encode(RecordBody($0)), as: UTF8.self) }
        }
    }

    /// `{"faults": {…}}`, or `{"faults": null}` when none are set, as `setFaults` and `clearFaults` answer too.
    @Sendable func faults(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request, context)
        return try Self.json(["faults": try await faults.faults(of: vendor.id)])
    }

    /// `{"latency_ms":800,"jitter_ms":400,"fail_percent":10,"status":503,"seed":7}`; what is left out is off.
    @Sendable func setFaults(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request, context)
        let body = try await request.collectAPIBody()
        let settings: FaultSettings
        do {
            settings = try JSONDecoder().decode(FaultSettings.self, from: body)
        } catch {
            throw error as? MarketError ?? MarketError(.invalid, .notFaultsJSON)
        }
        try await faults.setFaults(settings, vendorID: vendor.id)
        return try Self.json(["faults": try await faults.faults(of: vendor.id)])
    }

    @Sendable func clearFaults(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request, context)
        try await faults.setFaults(nil, vendorID: vendor.id)
        return try Self.json(["faults": FaultSettings?.none])
    }

    @Sendable func deleteProducts(_ request: Request, context: Context) async throws -> Response {
        let deleted = try await service.deleteAllProducts(
            of: credentials(of: request), from: context.sender(of: request))
        return try Self.json(["deleted": deleted])
    }

    private func vendor(of request: Request, _ context: Context) async throws -> Vendor {
        try await service.authenticate(credentials(of: request), from: context.sender(of: request), use: .signIn)
    }

    private func credentials(of request: Request) -> VendorCredentials {
        VendorCredentials(
            identifier: request.identifier ?? "", secret: request.headers[HTTPField.Name("secret")!] ?? "")
    }

    static func json(_ value: some Encodable) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder.inspector().encode(value))))
    }
}

extension JSONEncoder {
    /// The inspector's JSON and the class board's: snake_case keys and ISO 8601 dates, in `stable()`'s order.
    static func inspector() -> JSONEncoder {
        let encoder = JSONEncoder.stable()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

/// `{"requests": […], "not_kept": 0}`: the records, and how many requests this server could not keep.
private struct KeptRequests: Encodable {
    var requests: [RecordBody]
    var notKept: Int
}

struct RecordBody: Encodable {
    var id: Int64
    var at: Date
    var request: InspectedRequest.Twin

    init(_ row: InspectedRow) { (id, at, request) = (row.id, row.at, row.request.twin) }
}
