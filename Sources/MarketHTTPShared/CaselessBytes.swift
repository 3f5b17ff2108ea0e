extension Sequence<UInt8> {
    /// The same bytes, ASCII letters in either case, without lowercasing into new strings per request.
    /// Inlinable, so each caller compares its own kind of bytes rather than through the generic protocol.
    @inlinable
    package func caselessEquals(_ other: some Sequence<UInt8>) -> Bool {
        elementsEqual(other) { asciiLowercased($0) == asciiLowercased($1) }
    }

    @inlinable
    package func caselessStarts(with prefix: some Sequence<UInt8>) -> Bool {
        starts(with: prefix) { asciiLowercased($0) == asciiLowercased($1) }
    }
}

@usableFromInline
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
}
