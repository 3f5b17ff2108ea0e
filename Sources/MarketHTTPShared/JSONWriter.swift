/// JSON written straight into bytes, the bytes JSONEncoder writes with sorted keys and unescaped slashes, for catalogue
/// reads, where its boxes cost more than the rest of the answer. Keys must come in UTF-8 order (checked in debug).
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// A value was written last: the next member or element needs a comma first.
    private var afterValue = false
    #if DEBUG
        /// The last key given in each open object, innermost last, to check their order.
        private var lastKeys: [String?] = []
    #endif

    package init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    package mutating func object(_ members: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        #if DEBUG
            lastKeys.append(nil)
            defer { lastKeys.removeLast() }
        #endif
        members(&self)
        close(UInt8(ascii: "}"))
    }

    package mutating func array(_ elements: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        elements(&self)
        close(UInt8(ascii: "]"))
    }

    package mutating func key(_ key: String) {
        #if DEBUG
            let last = lastKeys.indices.last!
            precondition(
                lastKeys[last].map { $0.utf8.lexicographicallyPrecedes(key.utf8) } ?? true, "\(key) out of order")
            lastKeys[last] = key
        #endif
        separate()
        append(quoted: key)
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func string(_ text: String) {
        separate()
        append(quoted: text)
        afterValue = true
    }

    package mutating func number(_ number: some BinaryInteger) {
        separate()
        bytes.append(contentsOf: String(number).utf8)
        afterValue = true
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        afterValue = true
    }

    package mutating func member(_ key: String, _ value: String) { self.key(key); string(value) }
    package mutating func member(_ key: String, _ value: some BinaryInteger) { self.key(key); number(value) }
    package mutating func member(_ key: String, _ value: Bool) { self.key(key); bool(value) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        afterValue = true
    }

    private mutating func separate() {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
        afterValue = false
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Quote, backslash and the control characters escaped; everything else as it is.
    private mutating func append(quoted text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices where utf8[index] < 0x20 || utf8[index] == 0x22 || utf8[index] == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(UInt8(ascii: "\\"))
                switch utf8[index] {
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x22, 0x5C: bytes.append(utf8[index])
                default:
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(Self.hex[Int(utf8[index] >> 4)])
                    bytes.append(Self.hex[Int(utf8[index] & 15)])
                }
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

package protocol JSONWritable {
    func write(to json: inout JSONWriter)
}
