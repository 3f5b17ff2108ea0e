import Foundation
import MarketImaging

/// Images the tests make themselves.
public enum TestImages {
    public static func jpeg(width: Int = 640, height: Int = 480, dots: Int = 1) throws -> Data {
        try ImageSynthesizer.picture(width: width, height: height, from: [220, 80, 40], to: [40, 80, 220], dots: dots)
    }

    public static func png(width: Int = 320, height: Int = 240) throws -> Data {
        try ImageSynthesizer.picture(width: width, height: height, from: [0, 160, 0], to: [160, 0, 160], format: .png)
    }

    public static func webp(width: Int = 320, height: Int = 240) throws -> Data {
        try ImageSynthesizer.picture(
            width: width, height: height, from: [0, 0, 160], to: [160, 160, 0], format: .webp)
    }

    /// A JPEG whose EXIF says "rotate 90° clockwise to view" (orientation 6) and carries a GPS
    /// position, as phones write them.
    public static func jpegWithOrientationAndGPS(width: Int = 400, height: Int = 200) throws -> Data {
        let plain = try jpeg(width: width, height: height)
        var app1 = Data([0xFF, 0xE1])
        let payload = Data("Exif\0\0".utf8) + exifTIFF()
        app1.append(contentsOf: UInt16(payload.count + 2).bigEndianBytes)
        app1.append(payload)
        // Right after Start Of Image.
        return plain.prefix(2) + app1 + plain.dropFirst(2)
    }

    /// The TIFF structure inside an EXIF segment: IFD0 with Orientation and a GPS IFD pointer, and
    /// a GPS IFD with latitude 37° 33' 12.34" N.
    private static func exifTIFF() -> Data {
        var tiff = Data("MM".utf8) + Data([0x00, 0x2A]) + UInt32(8).bigEndianBytes
        let gpsOffset: UInt32 = 8 + 2 + 2 * 12 + 4
        let rationalsOffset: UInt32 = gpsOffset + 2 + 2 * 12 + 4
        tiff.append(contentsOf: UInt16(2).bigEndianBytes)
        tiff.append(entry(tag: 0x0112, type: 3, count: 1, value: Data([0x00, 0x06, 0x00, 0x00])))
        tiff.append(entry(tag: 0x8825, type: 4, count: 1, value: Data(gpsOffset.bigEndianBytes)))
        tiff.append(contentsOf: UInt32(0).bigEndianBytes)
        tiff.append(contentsOf: UInt16(2).bigEndianBytes)
        tiff.append(entry(tag: 0x0001, type: 2, count: 2, value: Data("N\0\0\0".utf8)))
        tiff.append(entry(tag: 0x0002, type: 5, count: 3, value: Data(rationalsOffset.bigEndianBytes)))
        tiff.append(contentsOf: UInt32(0).bigEndianBytes)
        for (numerator, denominator): (UInt32, UInt32) in [(37, 1), (33, 1), (1234, 100)] {
            tiff.append(contentsOf: numerator.bigEndianBytes + denominator.bigEndianBytes)
        }
        return tiff
    }

    private static func entry(tag: UInt16, type: UInt16, count: UInt32, value: Data) -> Data {
        Data(tag.bigEndianBytes + type.bigEndianBytes + count.bigEndianBytes) + value
    }

    /// Whether JPEG bytes carry an EXIF (APP1) segment or any GPS text.
    public static func hasMetadata(_ jpeg: Data) -> Bool {
        jpeg.firstRange(of: Data("Exif".utf8)) != nil || jpeg.firstRange(of: Data([0xFF, 0xE1])) != nil
    }

    /// The pixel size a JPEG's or PNG's header declares.
    public static func size(of image: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](image)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return (Int(bigEndian: bytes, at: 16), Int(bigEndian: bytes, at: 20))
        }
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 + Int(bytes[index + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[index + 5]) << 8 + Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 + Int(bytes[index + 8])
                return (width, height)
            }
            index += 2 + length
        }
        return nil
    }
}

extension FixedWidthInteger {
    var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: self.bigEndian) { Array($0) }
    }
}

extension Int {
    fileprivate init(bigEndian bytes: [UInt8], at offset: Int) {
        self = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
}
