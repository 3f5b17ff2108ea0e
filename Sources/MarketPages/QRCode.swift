/// A QR code (ISO/IEC 18004) for a short text such as a URL: byte mode, level L, the smallest of versions 1 to 5 that
/// holds it (up to 106 bytes, one Reed–Solomon block each) and mask 0, which all readers take; for a terminal or SVG.
public struct QRCode: Sendable {
    /// Data and error-correction codewords of versions 1…5 at level L.
    private static let capacity: [(data: Int, ec: Int)] = [(19, 7), (34, 10), (55, 15), (80, 20), (108, 26)]

    public let size: Int
    public private(set) var modules: [[Bool]]
    private var isFunction: [[Bool]]

    /// Nil when the text is longer than version 5 holds.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let version = Self.capacity.indices.first(where: { Self.capacity[$0].data - 2 >= bytes.count }) else {
            return nil
        }
        size = 17 + 4 * (version + 1)
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = modules
        drawFunctionPatterns(version: version + 1)
        let (dataCount, ecCount) = Self.capacity[version]
        let data = Self.dataCodewords(bytes, count: dataCount)
        place(data + Self.reedSolomon(data, ecCount: ecCount))
        applyMask()
        drawFormatBits()
    }

    // MARK: Codewords

    private static func dataCodewords(_ bytes: [UInt8], count: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ length: Int) {
            for shift in stride(from: length - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, 8)
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, count * 8 - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        while codewords.count < count { codewords.append(codewords.count % 2 == (bits.count / 8) % 2 ? 0xEC : 0x11) }
        return codewords
    }

    /// Multiplication in GF(2⁸) modulo x⁸ + x⁴ + x³ + x² + 1.
    private static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var product = 0
        for bit in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= ((Int(y) >> bit) & 1) * Int(x)
        }
        return UInt8(product)
    }

    private static func reedSolomon(_ data: [UInt8], ecCount: Int) -> [UInt8] {
        var divisor = Array(repeating: UInt8(0), count: ecCount)
        divisor[ecCount - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<ecCount {
            for index in divisor.indices {
                divisor[index] = multiply(divisor[index], root)
                if index + 1 < divisor.count { divisor[index] ^= divisor[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        var remainder = Array(repeating: UInt8(0), count: ecCount)
        for byte in data {
            let factor = byte ^ remainder.removeFirst()
            remainder.append(0)
            for index in remainder.indices { remainder[index] ^= multiply(divisor[index], factor) }
        }
        return remainder
    }

    // MARK: Modules

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    private mutating func drawFunctionPatterns(version: Int) {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        if version > 1 {
            let center = 4 * version + 10
            for dy in -2...2 {
                for dx in -2...2 { set(center + dx, center + dy, max(abs(dx), abs(dy)) != 1) }
            }
        }
        drawFormatBits()
    }

    /// Level L and mask 0, BCH-coded and masked (the standard's 111011111000100), in both copies, and the dark module.
    private mutating func drawFormatBits() {
        let bits = 0b111011111000100
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// The codewords' bits in the zigzag of column pairs from the bottom right, around the patterns.
    private mutating func place(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let y = (right + 1) & 2 == 0 ? size - 1 - vertical : vertical
                    guard !isFunction[y][x], index < codewords.count * 8 else { continue }
                    modules[y][x] = (codewords[index >> 3] >> (7 - index & 7)) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    private mutating func applyMask() {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] && (x + y) % 2 == 0 { modules[y][x].toggle() }
        }
    }

    // MARK: Drawing

    /// Light modules as blocks for a terminal with a dark background, in a four-module quiet zone; two rows per line.
    public var terminalText: String {
        let border = 4
        func light(_ x: Int, _ y: Int) -> Bool { !((0..<size).contains(x) && (0..<size).contains(y) && modules[y][x]) }
        return stride(from: -border, to: size + border, by: 2).map { y in
            String(
                (-border..<(size + border)).map { x in
                    switch (light(x, y), light(x, y + 1)) {
                    case (true, true): "█"
                    case (true, false): "▀"
                    case (false, true): "▄"
                    case (false, false): " "
                    }
                })
        }.joined(separator: "\n")
    }

    /// Dark modules on white as an SVG image that scales to its box, within a four-module quiet
    /// zone; `label` is what a screen reader says of it.
    public func svg(label: String) -> String {
        let border = 4
        let side = size + 2 * border
        var path = ""
        for y in 0..<size {
            for x in 0..<size where modules[y][x] { path += "M\(x + border) \(y + border)h1v1h-1z" }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" role="img" \
            aria-label="\(label.htmlEscaped)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
