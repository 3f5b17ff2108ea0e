import CVipsBridge
import Foundation
import MarketCore

/// Draws pictures for the demo catalogue and for tests: a diagonal gradient with a row of dots.
public enum ImageSynthesizer {
    /// Colours are RGB triples from 0 to 255.
    public static func picture(
        width: Int, height: Int, from: [Double], to: [Double], dots: Int = 0, format: ImageFormat = .jpeg
    ) throws -> Data {
        try Vips.encoded { encoded, error in
            from.withUnsafeBufferPointer { from in
                to.withUnsafeBufferPointer { to in
                    omk_synthesize(
                        Int32(width), Int32(height), from.baseAddress, to.baseAddress, Int32(dots), format.vips,
                        encoded, error)
                }
            }
        }.data
    }

    /// A one-bit PNG claiming `width` × `height` pixels in a few kilobytes: a decompression bomb.
    public static func bomb(width: Int, height: Int) throws -> Data {
        try Vips.encoded { omk_blank_bilevel_png(Int32(width), Int32(height), $0, $1) }.data
    }
}
