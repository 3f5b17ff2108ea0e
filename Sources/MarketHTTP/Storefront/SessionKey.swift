import Crypto
import Foundation

/// The key that seals the storefront's cookies. Kept in a file beside the data, so that sessions
/// outlive a restart and servers sharing the data share it.
public struct SessionKey: Sendable {
    let bytes: Data

    /// A key for one run: its cookies die with the process.
    public static func random() -> SessionKey {
        SessionKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    /// The key in `file`, created (readable by its owner only) when missing.
    private init(bytes: Data) {
        self.bytes = bytes
    }

    public init(storedAt file: URL) throws {
        if let data = try? Data(contentsOf: file), data.count == 32 {
            bytes = data
            return
        }
        bytes = Self.random().bytes
        _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        try bytes.write(to: file)
    }
}
