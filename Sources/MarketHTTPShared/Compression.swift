import CZlib
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Sends text (pages, styles, scripts, JSON) gzip-compressed to clients that accept it, which is
/// every browser and every app's URLSession: a catalogue page is a sixth of its size on the wire.
/// Pictures are compressed already and go as they are.
package struct CompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Below this, the gzip header and the work cost more than they save.
    static var smallest: Int { 1024 }

    /// A text answer of `length` bytes goes compressed to a client that accepts gzip.
    static func compresses(_ length: Int, acceptingGzip: Bool) -> Bool {
        acceptingGzip && length >= smallest
    }

    /// A compressed answer's tag: the same validator, but no longer a byte-for-byte one.
    static func weak(_ tag: String) -> String {
        tag.hasPrefix("W/") ? tag : "W/" + tag
    }

    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        let accepts = request.method != .head && Self.acceptsGzip(request.headers[.acceptEncoding])
        guard Self.mayCompress(&response.headers, length: response.body.contentLength, acceptingGzip: accepts),
            let compressed = Gzip.compress(try await BodyCollector.bytes(of: response))
        else { return response }
        Self.compressed(&response.headers, to: compressed)
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    /// Says that a text answer with these fields varies by `Accept-Encoding`, and whether its body of
    /// `length` bytes goes compressed. The front desk finishes its answers with the same steps.
    package static func mayCompress(_ fields: inout HTTPFields, length: Int?, acceptingGzip: Bool) -> Bool {
        guard isText(fields[.contentType]), fields[.contentEncoding] == nil else { return false }
        fields[.vary] = fields[.vary].map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
        guard let length else { return false }
        return compresses(length, acceptingGzip: acceptingGzip)
    }

    /// The fields of an answer whose body went compressed, as `compressed`.
    package static func compressed(_ fields: inout HTTPFields, to compressed: ByteBuffer) {
        fields[.contentEncoding] = "gzip"
        fields[.eTag] = fields[.eTag].map(weak)
        fields[.contentLength] = String(compressed.readableBytes)
    }

    static func isText(_ contentType: String?) -> Bool {
        guard let type = contentType?.utf8 else { return false }
        return ["text/", "application/json", "application/problem+json"].contains { type.caselessStarts(with: $0.utf8) }
    }

    /// `gzip` named with a weight above zero (or `*`).
    package static func acceptsGzip(_ header: String?) -> Bool {
        weightedChoices(header).first { $0.name == "gzip" || $0.name == "*" }.map { $0.weight > 0 } ?? false
    }
}

/// Keeps what a response body writes.
package final class BodyCollector: ResponseBodyWriter {
    private(set) var buffer = ByteBuffer()

    /// The whole body of `response`.
    package static func bytes(of response: Response) async throws -> ByteBuffer {
        let collector = BodyCollector()
        try await response.body.write(collector)
        return collector.buffer
    }

    package func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }

    package func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

package enum Gzip {
    /// `bytes` in gzip's format at zlib's default level, or nil if zlib fails (then the answer goes plain).
    package static func compress(_ bytes: ByteBuffer) -> ByteBuffer? {
        var stream = z_stream()
        // 15 bits of window, plus 16: a gzip header and trailer rather than zlib's.
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(bytes.readableBytes)))
        var output = ByteBuffer()
        var status = Z_STREAM_ERROR
        bytes.withUnsafeReadableBytes { source in
            _ = output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { target in
                // zlib reads the input without changing it, though its pointer is not const.
                stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = UInt32(target.count)
                status = deflate(&stream, Z_FINISH)
                return Int(stream.total_out)
            }
        }
        return status == Z_STREAM_END ? output : nil
    }
}
