import HTTPTypes
import Hummingbird
import MarketCore
import NIOCore
import ServiceLifecycle

/// A vendor's requests as server-sent events, for the live inspector page and `openmarket inspect`. An event's id
/// is its record's, so a reconnecting client (EventSource reconnects by itself) resumes after the last one it saw.
package enum LiveEvents {
    /// The longest silence before a comment is sent: it keeps proxies and the client from giving up on the
    /// stream, and finds out when the client has gone.
    static let heartbeat: Duration = .seconds(15)

    /// `vendorID`'s requests as `event` writes each (nil leaves one out); nginx is told not to buffer them.
    /// Ends when the client goes or the server shuts down.
    package static func response(
        to request: Request, _ records: RequestRecords, vendorID: Int64,
        event: @escaping @Sendable (StoredRequestRecord) -> String?
    ) throws -> Response {
        try records.checkRoomToFollow(vendorID)
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        // Where to carry on from: the `Last-Event-ID` a reconnecting client sends, else `after`.
        let after =
            request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { Int64($0) }
            ?? request.uri.queryParameters["after"].flatMap { Int64(String($0)) }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                // A client that hangs up is let go at once, not at the next heartbeat: until then it would hold one
                // of the vendor's places to follow. It is let go between two events, never while one is written,
                // as cancelling the writing task would drop the event in hand.
                let stop = FollowStop()
                do {
                    try await withGracefulShutdownHandler {
                        try await request.body.consumeWithInboundCloseHandler { _ in
                            var spoke = ContinuousClock.now
                            try await records.follow(vendorID, after: after, stop: stop) { records in
                                var text = records.map { Self.text(of: $0, as: event) }.joined()
                                if text.isEmpty {
                                    guard ContinuousClock.now - spoke >= heartbeat else { return }
                                    text = ": still here\n\n"
                                }
                                try await writer.write(ByteBuffer(string: text))
                                spoke = .now
                            }
                        } onInboundClosed: {
                            stop.stop()
                        }
                    } onGracefulShutdown: {
                        stop.stop()
                    }
                } catch  where stop.isStopped {
                    // The client went while an event was on its way: there is nobody to tell.
                    return
                }
                try await writer.finish(nil)
            })
    }

    private static func text(of record: StoredRequestRecord, as event: (StoredRequestRecord) -> String?) -> String {
        let lines = event(record)?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        return "id: \(record.id)\n" + lines.map { "data: \($0)\n" }.joined() + "\n"
    }
}
