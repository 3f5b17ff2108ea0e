import Foundation
import MarketImaging
import Testing

@Suite struct SynthesizerTests {
    @Test func drawsAJPEGWithDots() throws {
        let data = try ImageSynthesizer.picture(
            width: 300, height: 200, from: [200, 40, 40], to: [40, 40, 200], dots: 3)
        #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
    }

    @Test func drawsAPNGWithoutDots() throws {
        let data = try ImageSynthesizer.picture(
            width: 300, height: 200, from: [200, 40, 40], to: [40, 40, 200], format: .png)
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
