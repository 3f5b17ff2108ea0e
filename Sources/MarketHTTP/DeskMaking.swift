import Foundation
import HTTPTypes
import MarketHTTPShared
import NIOCore
import Synchronization

/// Under what the desk keeps an answer: the request's path, and everything else the answer
/// depends on (`variant`: the host, scheme, language, cookies and compression).
struct DeskKey: Sendable {
    var path: String
    var variant: String
    var gzip: Bool

    init(_ head: HTTPRequest) {
        path = head.path ?? ""
        gzip = CompressionMiddleware<MarketRequestContext>.acceptsGzip(head.headerFields[.acceptEncoding])
        // Kept apart from the router's own answers: these are the answers as they left, compressed
        // or not as the client accepts.
        variant = (gzip ? "desk gzip" : "desk") + AnswerCache.variant(of: head)
    }

    var text: String { variant + "\n" + path }
}

/// The reads the desk may answer itself (`DeskRead`), found by path as the router finds routes:
/// segment by segment, letters in either case, empty segments and the query ignored.
struct DeskRoutes: Sendable {
    private let reads: [(segments: [Substring], read: DeskRead)]

    init(_ reads: [DeskRead]) {
        self.reads = reads.map { ($0.route.split(separator: "/"), $0) }
    }

    func has(route: String) -> Bool { reads.contains { $0.read.route == route } }

    /// The read whose route `path` names, with the path's parameters in order.
    func match(_ path: String) -> (read: DeskRead, parameters: [Substring])? {
        let end = path.utf8.firstIndex(of: UInt8(ascii: "?")) ?? path.endIndex
        let segments = path[..<end].split(separator: "/")
        search: for (template, read) in reads where template.count == segments.count {
            var parameters: [Substring] = []
            for (expected, segment) in zip(template, segments) {
                if expected.first == "{" {
                    parameters.append(segment)
                } else if !expected.utf8.elementsEqual(segment.utf8, by: { Self.lower($0) == Self.lower($1) }) {
                    continue search
                }
            }
            return (read, parameters)
        }
        return nil
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

/// The heads the router gave the answers of the desk's routes, by route and variant of request
/// (`DeskKey`), plain and compressed: the head of an answer the desk makes itself is the router's
/// for a request like it, with its own length and tag. Bounded: a visitor's cookies make a variant
/// of their own.
final class DeskShapes: Sendable {
    struct Shape: Sendable {
        var plain: HTTPFields?
        var compressed: HTTPFields?
    }

    private let capacity: Int
    private let shapes = Mutex<[String: Shape]>([:])

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// Learns from a whole answer the router gave, with its length, to a request with this variant.
    func learn(route: String, variant: String, head fields: HTTPFields) {
        guard fields[.contentLength] != nil, fields[.eTag] != nil else { return }
        let compressed = fields[.contentEncoding] == "gzip"
        shapes.withLock { shapes in
            if shapes.count >= capacity { shapes = [:] }
            let key = route + "\n" + variant
            if compressed {
                shapes[key, default: Shape()].compressed = fields
            } else {
                shapes[key, default: Shape()].plain = fields
            }
        }
    }

    func shape(route: String, variant: String) -> Shape? {
        shapes.withLock { $0[route + "\n" + variant] }
    }
}

/// An answer the desk can make: the read that makes its body, with the request's parameters, and
/// the head the router gave a request like it.
struct DeskMaking: Sendable {
    var read: DeskRead
    var parameters: [Substring]
    var shape: DeskShapes.Shape
}

extension FrontDesk {
    /// How the desk can make the answer to this request itself, once it has read the catalogue's
    /// version; nil when it has no read for its route, or no head for a request like it yet.
    func making(_ key: DeskKey) -> DeskMaking? {
        guard let (read, parameters) = routes.match(key.path),
            let shape = shapes.shape(route: read.route, variant: key.variant)
        else { return nil }
        return DeskMaking(read: read, parameters: parameters, shape: shape)
    }

    /// The answer to this request at `version`, made as its route makes it from what the store
    /// reads, with the head the router gave a request like it; kept to be given again. Nil when
    /// only the router can answer.
    func made(_ making: DeskMaking, _ key: DeskKey, for head: HTTPRequest, at version: Int64) -> Next? {
        switch making.read.make(head, making.parameters) {
        case .routerOnly: return nil
        case .body(let body): return answer(body, making, key, head, version).map(Next.answer)
        case .later(let start):
            return .later { [self] loop, deliver in
                start(loop) { body in deliver(body.flatMap { self.answer($0, making, key, head, version) }) }
            }
        }
    }

    private func answer(
        _ body: ByteBuffer, _ making: DeskMaking, _ key: DeskKey, _ head: HTTPRequest, _ version: Int64
    ) -> Answer? {
        typealias Compression = CompressionMiddleware<MarketRequestContext>
        let tag = AnswerCache.tag(of: body)
        let compressed = Compression.compresses(body.readableBytes, acceptingGzip: key.gzip)
        guard var fields = compressed ? making.shape.compressed : making.shape.plain,
            let sent = compressed ? Gzip.compress(body) : body
        else { return nil }
        fields[.contentLength] = String(sent.readableBytes)
        fields[.eTag] = compressed ? Compression.weak(tag) : tag
        // The router's answers the desk may give again set no cookie but a new visitor's form token.
        let made = AnswerCache.Answer(
            version: version, headers: fields, body: sent, route: making.read.route,
            newToken: fields[.setCookie] != nil)
        answers.keep(made, for: key.text)
        return given(made, to: head)
    }
}
