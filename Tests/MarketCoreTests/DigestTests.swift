import Foundation
import MarketCore
import Testing

/// The digests that name images, tag answers and make tokens: the same bytes give the same text on
/// every server and in every release.
@Suite struct DigestTests {
    @Test func bytesAreWrittenAsTwoLowercaseDigitsEach() {
        #expect(Digest.hex([0x00, 0x09, 0x0a, 0x0f, 0x10, 0xa5, 0xff]) == "00090a0f10a5ff")
        #expect(Digest.hex([UInt8]()) == "")
        #expect(Digest.hex((0..<3).lazy.map { UInt8($0 * 0x7f) }) == "007ffe")
    }

    @Test func aSHA256IsTheStandardOne() {
        #expect(
            Digest.sha256Hex(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
