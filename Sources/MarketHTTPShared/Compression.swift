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

    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard Self.isText(response.headers[.contentType]), response.headers[.contentEncoding] == nil else {
            return response
        }
        response.headers[.vary] = response.headers[.vary].map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
        guard request.method != .head, Self.acceptsGzip(request.headers[.acceptEncoding]),
            let length = response.body.contentLength, length >= Self.smallest,
            let compressed = Gzip.compress(try await BodyCollector.bytes(of: response))
        else { return response }
        response.headers[.contentEncoding] = "gzip"
        // The same validator, but no longer a byte-for-byte one.
        response.headers[.eTag] = response.headers[.eTag].map { $0.hasPrefix("W/") ? $0 : "W/" + $0 }
        response.headers[.contentLength] = String(compressed.readableBytes)
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    static func isText(_ contentType: String?) -> Bool {
        guard let type = contentType?.utf8 else { return false }
        return ["text/", "application/json", "application/problem+json"].contains { type.caselessStarts(with: $0.utf8) }
    }

    /// `gzip` named with a weight above zero (or `*`).
    static func acceptsGzip(_ header: String?) -> Bool {
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
        guard self.buffer.readableBytes > 0 else { return self.buffer = buffer }
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
