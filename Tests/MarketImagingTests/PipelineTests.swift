import Foundation
import MarketCore
import MarketImaging
import Testing

@Suite struct PipelineTests {
    let processor = VipsImageProcessor()

    @Test func shrinksALargeJPEGAndMakesAThumbnail() async throws {
        let upload = try ImageSynthesizer.picture(width: 3000, height: 1500, from: [10, 200, 10], to: [200, 10, 10])
        let image = try await processor.process(upload)
        #expect(image.original.width == 2048)
        #expect(image.original.height == 1024)
        #expect(image.original.format == .jpeg)
        #expect(image.thumbnail.width == 400)
        #expect(image.thumbnail.height == 200)
    }
}
