import Foundation
import MarketImaging

/// Images the tests make themselves.
public enum TestImages {
    public static func jpeg(width: Int = 640, height: Int = 480, dots: Int = 1) throws -> Data {
        try ImageSynthesizer.picture(width: width, height: height, from: [220, 80, 40], to: [40, 80, 220], dots: dots)
    }

    /// A 480×640 photo in HEIC, as iPhones take them (made by libheif, kept as a file: the market
    /// reads HEIC but never writes it).
    public static func heic() throws -> Data {
        guard let file = Bundle.module.url(forResource: "photo", withExtension: "heic") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: file)
    }

    public static func png(width: Int = 320, height: Int = 240) throws -> Data {
        try ImageSynthesizer.picture(width: width, height: height, from: [0, 160, 0], to: [160, 0, 160], format: .png)
    }

    public static func webp(width: Int = 320, height: Int = 240) throws -> Data {
        try ImageSynthesizer.picture(
            width: width, height: height, from: [0, 0, 160], to: [160, 160, 0], format: .webp)
    }

    /// A PNG with an alpha channel: `width` × `height` half-transparent red pixels, written by hand
    /// (one stored deflate block) since the synthesizer draws only opaque pictures.
    public static func transparentPNG(width: Int = 8, height: Int = 6) -> Data {
        let row = [UInt8(0)] + Array(repeating: [255, 0, 0, 128] as [UInt8], count: width).flatMap { $0 }
        let raw = Array(repeating: row, count: height).flatMap { $0 }
        var zlib: [UInt8] = [0x78, 0x01, 0x01]
        zlib += UInt16(raw.count).littleEndianBytes + (~UInt16(raw.count)).littleEndianBytes + raw
        zlib += adler32(raw).bigEndianBytes
        let header = UInt32(width).bigEndianBytes + UInt32(height).bigEndianBytes + [8, 6, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
                + chunk("IEND", []))
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return UInt32(data.count).bigEndianBytes + typed + crc32(typed).bigEndianBytes
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
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

    var littleEndianBytes: [UInt8] {
        withUnsafeBytes(of: self.littleEndian) { Array($0) }
    }
}

extension Int {
    fileprivate init(bigEndian bytes: [UInt8], at offset: Int) {
        self = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
}
