import HTTPTypes
import Hummingbird
import NIOCore

package final class BodyCollector: ResponseBodyWriter {
    private(set) var buffer = ByteBuffer()

    package static func bytes(of response: Response) async throws -> ByteBuffer {
        let collector = BodyCollector()
        try await response.body.write(collector)
        return collector.buffer
    }

    package func write(_ buffer: ByteBuffer) async throws {
        guard self.buffer.readableBytes > 0 else { return self.buffer = buffer }
        self.buffer.writeImmutableBuffer(buffer)
    }

    package func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
