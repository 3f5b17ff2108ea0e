import Foundation
import MarketCore
import MarketImaging
import MarketTestSupport
import Testing

@Suite struct PipelineTests {
    let processor = VipsImageProcessor()

    @Test func shrinksALargeJPEGToTheLongEdgeAndMakesAThumbnail() async throws {
        let image = try await processor.process(try TestImages.jpeg(width: 3000, height: 1500), in: .unbounded)
        #expect((image.original.width, image.original.height) == (2048, 1024))
        #expect((image.thumbnail.width, image.thumbnail.height) == (400, 200))
        #expect(TestImages.size(of: image.original.data)! == (2048, 1024))
        #expect(TestImages.size(of: image.thumbnail.data)! == (400, 200))
    }

    @Test func neverEnlargesASmallImage() async throws {
        let image = try await processor.process(try TestImages.jpeg(width: 300, height: 200), in: .unbounded)
        #expect((image.original.width, image.original.height) == (300, 200))
        #expect((image.thumbnail.width, image.thumbnail.height) == (300, 200))
    }

    @Test func turnsAPhotoUprightByItsEXIFOrientation() async throws {
        let upload = try TestImages.jpegWithOrientationAndGPS(width: 400, height: 200)
        let image = try await processor.process(upload, in: .unbounded)
        #expect((image.original.width, image.original.height) == (200, 400))
        #expect(TestImages.size(of: image.original.data)! == (200, 400))
    }

    @Test func stripsEXIFAndGPSFromOriginalAndThumbnail() async throws {
        let upload = try TestImages.jpegWithOrientationAndGPS()
        #expect(TestImages.hasMetadata(upload))
        let image = try await processor.process(upload, in: .unbounded)
        #expect(!TestImages.hasMetadata(image.original.data))
        #expect(!TestImages.hasMetadata(image.thumbnail.data))
    }

    @Test(arguments: [
        ("PNG", try TestImages.png()), ("WebP", try TestImages.webp()),
    ])
    func acceptsPNGAndWebPAndReencodesThemAsJPEG(kind: String, upload: Data) async throws {
        let image = try await processor.process(upload, in: .unbounded)
        #expect(image.original.format == .jpeg, "\(kind)")
        #expect(image.original.data.starts(with: [0xFF, 0xD8, 0xFF]), "\(kind)")
        #expect((image.original.width, image.original.height) == (320, 240), "\(kind)")
    }

    @Test func keepsTransparencyAsPNG() async throws {
        let image = try await processor.process(TestImages.transparentPNG(width: 8, height: 6), in: .unbounded)
        #expect(image.original.format == .png)
        #expect(image.thumbnail.format == .png)
        #expect(TestImages.size(of: image.original.data)! == (8, 6))
        // Colour type 6 in the IHDR: RGB with alpha.
        #expect([UInt8](image.original.data)[25] == 6)
    }

    @Test func refusesADecompressionBombBeforeDecodingIt() async throws {
        let bomb = try ImageSynthesizer.bomb(width: 10_000, height: 10_000)
        #expect(bomb.count < 1_000_000)
        // Refused by the size its header declares: the reason names the pixel count read there.
        // (The process's memory is no measure here: the rest of the suite runs beside this test.)
        let error = try await #require(throws: ImageRejection.self) {
            try await processor.process(bomb, in: .unbounded)
        }
        #expect(error.isTooLarge)
        #expect(error.rule.english.contains("100000000 pixels"))
    }

    @Test func takesAniPhonesHEICPhotoAndKeepsItAsAJPEG() async throws {
        let upload = try TestImages.heic()
        #expect(UploadKind.sniff(upload) == .heif)
        let image = try await processor.process(upload, in: .unbounded)
        #expect(image.original.format == .jpeg && image.thumbnail.format == .jpeg)
        #expect(image.original.data.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(TestImages.size(of: image.original.data)! == (480, 640))
        #expect(TestImages.size(of: image.thumbnail.data)! == (300, 400))
    }

    @Test func refusesBytesThatAreNoImage() async throws {
        let error = try await #require(throws: ImageRejection.self) {
            try await processor.process(Data("GIF89a is not welcome, nor is text".utf8), in: .unbounded)
        }
        #expect(error.rule == .notAnImage)
    }

    @Test func refusesATruncatedJPEG() async throws {
        let whole = try TestImages.jpeg(width: 800, height: 600)
        let error = try await #require(throws: ImageRejection.self) {
            try await processor.process(whole.prefix(whole.count / 2), in: .unbounded)
        }
        #expect(error.rule == .damaged(format: "JPEG"))
    }

    /// 64 × 64 pixels of data under a header that claims 7000 × 7000: once stored as a grey picture.
    @Test func refusesAJPEGWhoseHeaderClaimsMorePixelsThanItsDataHolds() async throws {
        var bytes = [UInt8](try TestImages.jpeg(width: 64, height: 64))
        let frame = try #require(
            bytes.indices.dropLast(8).first { bytes[$0] == 0xFF && (0xC0...0xC2).contains(bytes[$0 + 1]) })
        bytes.replaceSubrange((frame + 5)..<(frame + 9), with: [0x1B, 0x58, 0x1B, 0x58])
        let error = try await #require(throws: ImageRejection.self) {
            try await processor.process(Data(bytes), in: .unbounded)
        }
        #expect(!error.isTooLarge)
        #expect(
            !error.rule.english.contains("Vips") && !error.rule.english.contains("Corrupt"), "our words, not libvips'")
    }
}
