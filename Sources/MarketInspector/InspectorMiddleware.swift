import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import NIOCore

/// Records each request sent through a team's address or naming a vendor in `identifier` for that vendor's inspector,
/// and injects the faults they rehearse; API requests naming no vendor are kept for the operator. Outside the error
/// mapping, it sees each answer as the client gets it; it reads the body only as the route does, so body limits hold.
package struct InspectorMiddleware<Context: ConnectionRequestContext>: RouterMiddleware {
    let service: MarketService
    let records: RequestRecords
    let faults: FaultInjector
    let recorder = Recorder()

    package init(service: MarketService, records: RequestRecords, faults: FaultInjector) {
        (self.service, self.records, self.faults) = (service, records, faults)
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let route = AppPaths.firstSegment(of: request.uri.path)
        guard !route.caselessEquals("inspector".utf8) else { return try await next(request, context) }
        var vendor: Vendor?
        if let team = context.team, !Self.isForAPerson(request, route: route) {
            do {
                guard let found = try await service.vendor(.id(team)) else {
                    throw MarketError(.notFound, .noTeam(team))
                }
                vendor = try await service.teamAddressUsed(by: found)
            } catch let error as MarketError {
                return try APIErrorMiddleware<Context>.response(to: SpelledRefusal(error, fieldName: { $0.wireName }))
            }
        } else if let identifier = request.identifier {
            // A store that cannot tell who this is must not fail the request: the route will say so.
            vendor = try? await service.vendor(.identifier(identifier))
        }
        guard vendor != nil || AppPaths.isAPI(route) else { return try await next(request, context) }
        let started = ContinuousClock.now
        var fault: InjectedFault?
        var context = context
        if let vendor {
            fault = try? await faults.nextFault(for: vendor.id, asTeam: vendor.isTeam)
            context.rehearsal = try? await faults.hardCases(for: vendor.id, asTeam: vendor.isTeam)
        }
        // The operator's ring holds 300 requests that named no vendor: each keeps what the inspector shows of a text.
        let captured = BodyCapture(keeping: vendor == nil ? RequestDiagnosis.shownTextBytes : BodyCapture.keptBytes)
        let notes = RequestNotes()
        var request = request
        request.body = RequestBody(
            asyncSequence: request.body.map { buffer in
                captured.append(buffer)
                return buffer
            })
        if let fault { try await Task.sleep(for: fault.delay) }
        var record = Recording(
            records: records, service: service, vendorID: vendor?.id, head: request.head.asSent, scheme: request.scheme,
            started: started, fault: fault.flatMap(Self.effects), forEveryTeam: fault?.forEveryTeam == true,
            failedOnPurpose: fault?.failsOnPurpose ?? false,
            logger: context.logger)
        var response: Response
        switch fault?.outcome {
        case .fail(let status)?:
            let who = vendor?.name ?? "the vendor"
            let reason = "a failure you rehearse: \(who)'s faults answer \(status) to this request"
            response = try APIErrorMiddleware<Context>.response(status: .init(code: status), reason: reason, field: nil)
        case .drop?:
            // The route never runs.
            recorder.enqueue(record.answered(0), request: captured, answer: BodyCapture())
            try await context.dropConnection()
        case .answer?, .broken?, nil:
            response = try await RequestNotes.$current.withValue(notes) { try await next(request, context) }
        }
        if case .broken(let kinds)? = fault?.outcome,
            let said = try await Self.breaking(&response, ResponseBreaker(kinds: kinds))
        {
            record.broken = said
            record.failedOnPurpose = !(200..<300).contains(response.status.code)
        }
        let answered = record.answered(response.status.code, notes: notes, rehearsal: context.rehearsal)
        // The operator sees only why an anonymous request was refused, not every list it read.
        let answer = BodyCapture(keeping: vendor == nil && response.status.code < 400 ? 0 : BodyCapture.keptAnswerBytes)
        let trickle = fault?.bodyTrickle ?? .zero
        if trickle == .zero, let length = response.body.contentLength, length <= BodyCapture.keptBytes {
            // A body of one buffer stays one, which Hummingbird writes with its head in one go.
            if answer.keeps {
                let bytes = try await BodyCollector.bytes(of: response)
                answer.append(bytes)
                response.body = ResponseBody(byteBuffer: bytes)
            }
            recorder.enqueue(answered, request: captured, answer: answer)
            return response
        }
        let body = response.body
        let recorder = recorder
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(InspectingWriter(inner: writer, capture: answer, trickle: trickle))
            recorder.enqueue(answered, request: captured, answer: answer)
        }
        return response
    }

    /// A page a browser asks for, what the market's own pages ask for (a picture the inspector shows), or the
    /// console's and the sign-in's addresses: a team address or port makes what an app asks the team's, never
    /// what a person opens on it.
    static func isForAPerson(_ request: Request, route: some Sequence<UInt8>) -> Bool {
        request.wantsPage || isFromOwnPage(request)
            || ["operator", "sign-in", "sign-out"].contains { route.caselessEquals($0.utf8) }
    }

    /// A browser names the page that asked in `Referer` (the pages send it to their own address only); apps
    /// send none. The inspector's "send it again" sends none either, so that it counts as the app's request.
    static func isFromOwnPage(_ request: Request) -> Bool {
        guard let referer = request.headers[.referer], let authority = request.head.authority else { return false }
        return ["http://", "https://"].contains { referer.hasPrefix($0 + authority + "/") }
    }

    /// Breaks the market's answer as the vendor rehearses; what was broken, or nil when no chosen
    /// kind fits it (and it leaves as it was).
    static func breaking(_ response: inout Response, _ breaker: ResponseBreaker) async throws -> BrokenSaid? {
        var body: [UInt8]?
        if breaker.needsBody(response) {
            let collected = try await BodyCollector.bytes(of: response)
            body = Array(collected.readableBytesView)
            response.body = ResponseBody(byteBuffer: collected)
        }
        guard let broken = breaker.breaking(response, body: body) else { return nil }
        var headers = response.headers
        for name in [HTTPField.Name.contentLength, .eTag, .lastModified] { headers[name] = nil }
        headers[.contentType] = broken.contentType
        headers[.cacheControl] = "no-store"
        response = Response(
            status: broken.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: broken.body)))
        return broken.said
    }

    /// What a fault does to its request; nil when it lets the request through untouched.
    static func effects(of fault: InjectedFault) -> RehearsedEffects? {
        var effects = RehearsedEffects()
        if fault.delay > .zero { effects.heldBackMilliseconds = Int(fault.delay / .milliseconds(1)) }
        switch fault.outcome {
        case .fail(let status): effects.answered = status
        case .drop: effects.dropped = true
        case .answer, .broken: break
        }
        if fault.bodyTrickle > .zero { effects.trickledMilliseconds = Int(fault.bodyTrickle / .milliseconds(1)) }
        return effects == RehearsedEffects() ? nil : effects
    }
}

/// Passes an answer on, keeping a copy for the inspector, and lets it trickle when a vendor rehearses a slow network.
private struct InspectingWriter: ResponseBodyWriter {
    var inner: any ResponseBodyWriter
    let capture: BodyCapture
    let trickle: Duration

    mutating func write(_ buffer: ByteBuffer) async throws {
        capture.append(buffer)
        guard trickle > .zero, buffer.readableBytes > 1 else { return try await inner.write(buffer) }
        let pieces = 10
        let size = (buffer.readableBytes + pieces - 1) / pieces
        var rest = buffer
        while let piece = rest.readSlice(length: min(size, rest.readableBytes)), piece.readableBytes > 0 {
            try await inner.write(piece)
            try await Task.sleep(for: trickle / pieces)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws { try await inner.finish(trailingHeaders) }
}
