import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP response as it came off the socket.
public struct RawResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    public var json: [String: Any] {
        get throws {
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw RawHTTPError("the body is not a JSON object: \(text.prefix(200))")
            }
            return object
        }
    }
}

public struct RawHTTPError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Sends exact bytes to a server on 127.0.0.1 and reads the answer: the only way to reproduce what
/// each app really put on the wire, sloppy slashes and malformed multipart included.
public enum RawHTTP {
    /// Connects, sends and reads on one thread: no wait for a free task thread comes between
    /// opening the connection and sending on it, however busy the test process is, so the server's
    /// idle timeout never closes a connection the test has not yet had the chance to use.
    public static func send(_ request: Data, port: Int) async throws -> RawResponse {
        return try await RawConnection.onThread {
            let connection = try RawConnection(connectingTo: port)
            try connection.write(request)
            return try connection.readResponse()
        }
    }
}

/// One TCP connection to 127.0.0.1, for requests sent in pieces. Blocking socket calls run on
/// threads of their own: on a shared pool they would starve the server under test.
public final class RawConnection: Sendable {
    private let socket: Int32
    /// What arrived past the text a `read(until:)` waited for: the start of the next read.
    private let unread = NIOLockedValueBox(Data())

    public convenience init(port: Int) async throws {
        let socket = try await Self.onThread { try Self.connect(port: port) }
        self.init(socket: socket)
    }

    fileprivate convenience init(connectingTo port: Int) throws {
        self.init(socket: try Self.connect(port: port))
    }

    private init(socket: Int32) {
        self.socket = socket
    }

    deinit { close(socket) }

    public func send(_ bytes: Data) async throws {
        try await Self.onThread { try self.write(bytes) }
    }

    fileprivate func write(_ bytes: Data) throws {
        try bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = Glibc.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw RawHTTPError("send() failed after \(sent) bytes") }
                sent += count
            }
        }
    }

    /// Reads and drops what arrives until the server closes the connection (true), or until
    /// `limit` passes without that (false).
    public func closedByServer(within limit: Duration) async throws -> Bool {
        let socket = socket
        return try await Self.onThread {
            var timeout = timeval(tv_sec: Int(limit.components.seconds), tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { return true }
                if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
            }
        }
    }

    /// Sends `bytes` over and over, `count` times in all, until the server stops taking them: no
    /// more fits for `patience` (the server has stopped reading). Returns how many went whole.
    public func sendUntilRefused(_ bytes: Data, count: Int, patience: Duration) async throws -> Int {
        let socket = socket
        return try await Self.onThread {
            var timeout = timeval(tv_sec: Int(patience.components.seconds), tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            return try bytes.withUnsafeBytes { buffer in
                for sent in 0..<count {
                    var offset = 0
                    while offset < buffer.count {
                        let written = Glibc.send(
                            socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                        if written < 0, errno == EAGAIN || errno == EWOULDBLOCK { return sent }
                        guard written > 0 else { throw RawHTTPError("send() failed after \(sent) requests") }
                        offset += written
                    }
                }
                return count
            }
        }
    }

    /// Ends the connection from this side.
    public func hangUp() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Reads until one whole response has arrived; a server that sends nothing for a minute fails
    /// the read instead of hanging the test.
    public func response() async throws -> RawResponse {
        try await Self.onThread { try self.readResponse() }
    }

    fileprivate func readResponse() throws -> RawResponse {
        try receive { received, closed in
            let response = try RawHTTP.parse(received, closed: closed)
            if closed, response == nil {
                throw RawHTTPError("the connection closed before a whole response arrived")
            }
            return response
        }
    }

    /// Reads what arrives, as text, through the end of the server-sent event that holds `text`
    /// (its blank line), or through `text` itself when it ends a line; what came after is where
    /// the next read starts. A minute without it fails the read.
    public func read(until text: String) async throws -> String {
        try await Self.onThread {
            try self.receive { received, closed in
                if let found = received.range(of: Data(text.utf8)),
                    let end = text.hasSuffix("\n")
                        ? found.upperBound : received[found.upperBound...].range(of: Data("\n\n".utf8))?.upperBound
                {
                    self.unread.withLockedValue { $0 = Data(received[end...]) }
                    return String(decoding: received[..<end], as: UTF8.self)
                }
                let read = String(decoding: received, as: UTF8.self)
                guard closed else { return nil }
                // The server ended the stream after the text but before the event's blank line.
                if read.contains(text) { return read }
                throw RawHTTPError("the connection ended before \(text) arrived: \(read)")
            }
        }
    }

    /// Reads until `enough` makes something of what has arrived (and is told when nothing more
    /// will); a minute in which nothing arrives fails the read.
    private func receive<T>(_ enough: (Data, _ closed: Bool) throws -> T?) throws -> T {
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received = unread.withLockedValue { unread in
            defer { unread = Data() }
            return unread
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let made = try enough(received, false) { return made }
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else {
                guard let made = try enough(received, true) else { throw RawHTTPError("nothing more arrived") }
                return made
            }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    /// Reads until `count` whole responses have arrived one after the other (for requests sent
    /// at once, pipelined), in the order they came.
    public func responses(_ count: Int) async throws -> [RawResponse] {
        let socket = socket
        return try await Self.onThread {
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var received = Data()
            var responses: [RawResponse] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while responses.count < count {
                if let (response, length) = try RawHTTP.parseFirst(received) {
                    responses.append(response)
                    received = Data(received.dropFirst(length))
                    continue
                }
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { throw RawHTTPError("the connection ended after \(responses.count) responses") }
                received.append(contentsOf: buffer[0..<count])
            }
            return responses
        }
    }

    private static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw RawHTTPError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw RawHTTPError("cannot connect to port \(port)")
        }
        return socket
    }

    fileprivate static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

extension RawHTTP {
    /// A whole response from `data`, or nil while more bytes are needed.
    static func parse(_ data: Data, closed: Bool = false) throws -> RawResponse? {
        try parseFirst(data, closed: closed)?.response
    }

    /// The first whole response in `data` and how many bytes it took, or nil while more are needed.
    static func parseFirst(_ data: Data, closed: Bool = false) throws -> (response: RawResponse, length: Int)? {
        guard let headEnd = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw RawHTTPError("not an HTTP status line: \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(status: status, headers: headers, body: Data())
        let body = data[headEnd.upperBound...]
        if let length = response.header("Content-Length").flatMap(Int.init) {
            guard body.count >= length else { return nil }
            response.body = Data(body.prefix(length))
        } else if status == 304 || status == 204 || (100..<200).contains(status) {
            return (response, headEnd.upperBound - data.startIndex)
        } else {
            guard closed else { return nil }
            response.body = Data(body)
        }
        return (response, headEnd.upperBound - data.startIndex + response.body.count)
    }
}

/// Builds request bytes from text and binary pieces: `wire("--b\r\n", jpeg, "\r\n--b--")`.
public func wire(_ pieces: WirePiece...) -> Data {
    pieces.reduce(into: Data()) { $0.append($1.data) }
}

public struct WirePiece: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public var data: Data
    public init(stringLiteral value: String) { data = Data(value.utf8) }
    public init(_ data: Data) { self.data = data }
}
