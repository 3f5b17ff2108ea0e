import ArgumentParser
import Foundation
import MarketApp
import MarketCore
import MarketHTTPShared
import MarketInspector

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow one vendor's requests as the market receives them, in the terminal.",
        discussion: """
            Shows the vendor's last few requests, then each new one as it arrives, with why a \
            refused one was refused and what a rehearsal did to it, until Ctrl-C. Reads the \
            market's own storage (--data-dir or --database), or asks a running market at --url \
            with the vendor's secret.

            Examples:
              openmarket inspect --identifier YOUR-IDENTIFIER --data-dir ./data
              export OPENMARKET_SECRET=YOUR-SECRET
              openmarket inspect --identifier YOUR-IDENTIFIER \\
                --url http://127.0.0.1:8080
            """)

    @OptionGroup var storage: MarketOptions

    @Option(help: "The vendor's identifier (OPENMARKET_IDENTIFIER).")
    var identifier: String = Environment.value("OPENMARKET_IDENTIFIER", default: "")

    @Option(help: "Follow a running market at this address instead of reading its storage.")
    var url: String?

    @Option(help: "With --url: the vendor's secret (OPENMARKET_SECRET).")
    var secret: String = Environment.value("OPENMARKET_SECRET", default: "")

    @Option(help: "How many of the vendor's past requests to show first.")
    var last = 5

    func validate() throws {
        guard !identifier.isEmpty else { throw ValidationError("give the vendor's --identifier") }
        guard (0...RequestRecords.keptRequests).contains(last) else {
            throw ValidationError("--last must be from 0 to \(RequestRecords.keptRequests)")
        }
        if url != nil, secret.isEmpty {
            throw ValidationError("with --url, give the vendor's --secret (or OPENMARKET_SECRET)")
        }
    }

    func run() async throws {
        if let url {
            try await LiveRequestStream.follow(url: url, identifier: identifier, secret: secret, last: last)
        } else {
            try await storage.withMarket { market in
                let vendor = try await market.vendor(identifiedBy: identifier)
                let past = try await market.records.requests(of: vendor.id, limit: max(last, 1))
                InspectedLines.show(past.prefix(last).reversed())
                InspectedLines.following(vendor.name)
                try await market.records.follow(vendor.id, after: past.first?.id ?? 0) { InspectedLines.show($0) }
            }
        }
    }
}

/// Recorded requests as terminal lines: one for what was asked and answered, one more per thing the inspector noticed.
enum InspectedLines {
    static func show(_ records: some Sequence<StoredRequestRecord>) {
        for record in records {
            guard let request = try? JSONDecoder().decode(InspectedRequest.self, from: record.detail) else { continue }
            show(request.twin, at: record.at)
        }
    }

    static func show(_ request: InspectedRequest.Twin, at date: Date) {
        let head =
            "\(time.string(from: date))  \(request.status)  \(request.method) \(request.path)  "
            + String(format: "%.1f ms", request.milliseconds)
        var notes: [String] = []
        if let refusal = request.refusal { notes.append("refused: \(refusal.rule)") }
        notes += (request.mistakes ?? []).map { "mistake: \($0)" }
        if let fault = request.fault { notes.append(fault) }
        if let broken = request.broken { notes.append("broken on purpose: \(broken)") }
        notes += request.quirks.map { "forgiven: \($0)" }
        write(([head] + notes.map { "          " + $0 }).joined(separator: "\n") + "\n")
    }

    static func following(_ vendor: String) {
        write("— following \(vendor)'s requests as they arrive; Ctrl-C to stop —\n")
    }

    /// Written at once, not when a buffer fills: a pipe would otherwise hold the lines back.
    private static func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }

    private static let time: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter
    }()
}

/// A running market's live inspector events, read with URLSession as they arrive.
final class LiveRequestStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let chunks: AsyncThrowingStream<Data, any Error>.Continuation
    private var status = 0
    private var refusal = Data()

    private init(_ chunks: AsyncThrowingStream<Data, any Error>.Continuation) { self.chunks = chunks }

    static func follow(url: String, identifier: String, secret: String, last: Int) async throws {
        guard let base = URL(string: url), base.scheme != nil else {
            throw ValidationError("--url needs an address such as http://127.0.0.1:8080, not \(url)")
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        let reader = LiveRequestStream(continuation)
        let session = URLSession(configuration: .default, delegate: reader, delegateQueue: nil)
        defer { session.invalidateAndCancel() }

        func request(_ path: String, _ query: String) -> URLRequest {
            var request = URLRequest(url: URL(string: base.appendingPathComponent(path).absoluteString + query)!)
            request.setValue(identifier, forHTTPHeaderField: "identifier")
            request.setValue(secret, forHTTPHeaderField: "secret")
            // The market says it is still there at least every 15 s.
            request.timeoutInterval = 60
            return request
        }
        let (data, response) = try await session.data(for: request("inspector/requests", "?limit=\(max(last, 1))"))
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw refused(data, url: url) }
        let records = try decoder.decode(Records.self, from: data).requests
        for record in records.prefix(last).reversed() { InspectedLines.show(record.request, at: record.at) }
        InspectedLines.following(identifier)
        let live = request("inspector/requests/live", "?after=\(records.first?.id ?? 0)")
        session.dataTask(with: live).resume()
        var pending = ""
        for try await chunk in stream {
            pending += String(decoding: chunk, as: UTF8.self)
            while let end = pending.range(of: "\n\n") {
                let event = pending[..<end.lowerBound]
                pending = String(pending[end.upperBound...])
                let data = event.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) }
                guard !data.isEmpty,
                    let record = try? decoder.decode(Record.self, from: Data(data.joined(separator: "\n").utf8))
                else { continue }
                InspectedLines.show(record.request, at: record.at)
            }
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        status = (response as? HTTPURLResponse)?.statusCode ?? 0
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if status == 200 { chunks.yield(data) } else { refusal.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            chunks.finish(throwing: CommandFailure("the market stopped answering: \(error.localizedDescription)"))
        } else if status != 200 {
            chunks.finish(throwing: Self.refused(refusal, url: task.originalRequest?.url?.absoluteString ?? ""))
        } else {
            chunks.finish()
        }
    }

    private static func refused(_ body: Data, url: String) -> CommandFailure {
        let reason = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["reason"] as? String
        return CommandFailure(reason.map { "the market at \(url) says: \($0)" } ?? "the market at \(url) refused")
    }

    private struct Record: Decodable {
        var id: Int64
        var at: Date
        var request: InspectedRequest.Twin
    }

    private struct Records: Decodable {
        var requests: [Record]
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
