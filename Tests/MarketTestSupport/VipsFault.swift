import Foundation

/// A fault of libvips' that a real libvips cannot be made to show at will, put into a market process with LD_PRELOAD
/// (Resources/vips-faults.c, built by the toolchain's clang the first time a test asks).
public enum VipsFault: String, CaseIterable, Sendable {
    /// libvips 8.14's idle worker that stops while a task is handed to it, made certain.
    case idleRace = "IDLE_RACE"
    /// An abort while libvips decodes an upload, as glibc aborts on finding its heap corrupted.
    case abort = "ABORT"

    /// The environment that puts the fault into a process started with it.
    public func environment() throws -> [String: String] {
        guard let library = try Self.libraries.get()[self] else { throw CocoaError(.fileNoSuchFile) }
        return ["LD_PRELOAD": library]
    }

    private static let libraries = Result { () throws -> [VipsFault: String] in
        guard let source = Bundle.module.url(forResource: "vips-faults", withExtension: "c") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vips-faults-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try Dictionary(
            uniqueKeysWithValues: allCases.map { fault in
                let library = "\(folder)/\(fault.rawValue).so"
                let compiler = try ChildProcess(
                    "/usr/bin/env",
                    ["clang", "-shared", "-fPIC", "-O1", "-D\(fault.rawValue)", "-o", library, source.path])
                guard compiler.waitForExit() == 0 else { throw RawHTTPError("clang could not build \(source.path)") }
                return (fault, library)
            })
    }
}
