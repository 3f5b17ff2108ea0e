import Foundation

/// The images in one uploaded file part. One app sends all its images concatenated in a single
/// part; walking each format's own structure finds where every image ends and the next begins.
package enum ImageUploads {
    package static func split(_ data: Data) -> [Data] {
        let bytes = [UInt8](data)
        var images: [Data] = []
        var start = 0
        while let end = imageEnd(in: bytes, from: start) {
            var next = end
            while next < bytes.count, [0x0D, 0x0A, 0x20, 0x09].contains(bytes[next]) { next += 1 }
            // Cut only where another image follows; anything else stays with this one.
            guard next < bytes.count, imageEnd(in: bytes, from: next) != nil else { break }
            images.append(Data(bytes[start..<end]))
            start = next
        }
        // Most parts hold one image: that part's bytes, not a copy of them.
        images.append(start == 0 ? data : Data(bytes[start...]))
        return images
    }

    private static func imageEnd(in bytes: [UInt8], from start: Int) -> Int? {
        let head = bytes[start...]
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return jpegEnd(bytes, start) }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return pngEnd(bytes, start) }
        if head.starts(with: Array("RIFF".utf8)), bytes.count >= start + 12,
            bytes[(start + 8)..<(start + 12)].elementsEqual("WEBP".utf8)
        {
            let size = bytes[(start + 4)..<(start + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            let end = start + 8 + size
            return end <= bytes.count ? end : nil
        }
        return nil
    }

    /// Follows JPEG segments and entropy-coded scans up to the End Of Image marker.
    private static func jpegEnd(_ bytes: [UInt8], _ start: Int) -> Int? {
        var index = start + 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            switch marker {
            case 0xFF: index += 1
            case 0xD9: return index + 2
            case 0x01, 0xD0...0xD7: index += 2
            default:
                guard index + 3 < bytes.count else { return nil }
                index += 2 + Int(bytes[index + 2]) << 8 + Int(bytes[index + 3])
                if marker == 0xDA {
                    // Scan data runs until a marker that is neither a stuffed 0x00 nor a restart.
                    while index + 1 < bytes.count,
                        !(bytes[index] == 0xFF && bytes[index + 1] != 0x00 && !(0xD0...0xD7).contains(bytes[index + 1]))
                    {
                        index += 1
                    }
                }
            }
        }
        return nil
    }

    /// Follows PNG chunks up to and including IEND.
    private static func pngEnd(_ bytes: [UInt8], _ start: Int) -> Int? {
        var index = start + 8
        while index + 8 <= bytes.count {
            let length = bytes[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = bytes[(index + 4)..<(index + 8)]
            index += 12 + length
            if type.elementsEqual("IEND".utf8) { return index <= bytes.count ? index : nil }
        }
        return nil
    }
}
