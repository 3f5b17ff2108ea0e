import Foundation

/// Files that hold secrets (the session key, a snapshot with every secret's hash) are created
/// readable by their owner only, from the first byte: never written first and narrowed after.
public enum OwnerOnlyFile {
    /// Creates the file at `path` with mode 0600 and writes `contents`; an existing file is refused.
    public static func create(atPath path: String, contents: Data = Data()) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let underlying = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: underlying])
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: contents)
        try handle.close()
    }
}
