extension Sequence<UInt8> {
    /// The same bytes, ASCII letters in either case: how paths and header values are compared
    /// without lowercasing them into new strings on every request.
    package func caselessEquals(_ other: some Sequence<UInt8>) -> Bool {
        elementsEqual(other) { lower($0) == lower($1) }
    }

    /// Begins with `prefix`, ASCII letters in either case.
    package func caselessStarts(with prefix: some Sequence<UInt8>) -> Bool {
        starts(with: prefix) { lower($0) == lower($1) }
    }
}

private func lower(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
}
