import Foundation
import Glibc

/// Debian's nginx as the balancer in front of several servers, configured with the
/// market's own `deploy/nginx/openmarket.conf`, on a free port of 127.0.0.1.
public final class LoadBalancer: @unchecked Sendable {
    public let port: Int
    private let process: ChildProcess
    private let folder: URL

    private init(port: Int, process: ChildProcess, folder: URL) {
        self.port = port
        self.process = process
        self.folder = folder
    }

    /// The repository's own files, found from this source file's place in it.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    public static func start(before ports: [Int]) async throws -> LoadBalancer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // nginx's workers run as an unprivileged user when it is started as root.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let port = try FreePort.pick()
        let shipped = try String(
            contentsOf: repository.appendingPathComponent("deploy/nginx/openmarket.conf"), encoding: .utf8)
        let servers = ports.map { "    server 127.0.0.1:\($0) max_fails=1 fail_timeout=5s;" }.joined(separator: "\n")
        let site =
            shipped
            .replacing(/(?m)^    server 127\.0\.0\.1:\d+ .*\n/, with: "")
            .replacing("upstream openmarket {\n", with: "upstream openmarket {\n\(servers)\n")
            .replacing("listen 80;", with: "listen 127.0.0.1:\(port);")
            .replacing("/var/cache/nginx/openmarket", with: "\(folder.path)/cache")
        try site.write(to: folder.appendingPathComponent("openmarket.conf"), atomically: true, encoding: .utf8)
        // nginx reads the site's `include snippets/…` beside its own nginx.conf.
        try FileManager.default.copyItem(
            at: repository.appendingPathComponent("deploy/nginx/snippets"),
            to: folder.appendingPathComponent("snippets"))
        let path = folder.path
        try """
        daemon off;
        worker_processes 1;
        pid \(path)/nginx.pid;
        error_log \(path)/error.log;
        events { worker_connections 512; }
        http {
            access_log off;
            client_body_temp_path \(path)/body;
            proxy_temp_path \(path)/proxy;
            fastcgi_temp_path \(path)/fastcgi;
            uwsgi_temp_path \(path)/uwsgi;
            scgi_temp_path \(path)/scgi;
            include \(path)/openmarket.conf;
        }
        """.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let process = try ChildProcess(
            "/usr/sbin/nginx", ["-p", path, "-c", "\(path)/nginx.conf"], output: STDOUT_FILENO, errors: STDERR_FILENO)
        let balancer = LoadBalancer(port: port, process: process, folder: folder)
        try await FreePort.waitUntilListening(port, while: { process.isRunning }) {
            let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            return "nginx did not start: \(log)"
        }
        return balancer
    }

    public func stop() async {
        process.signal(SIGTERM)
        _ = await process.exitStatus()
        try? FileManager.default.removeItem(at: folder)
    }
}

public enum FreePort {
    /// A port of 127.0.0.1 that nothing listens on just now.
    public static func pick() throws -> Int {
        let (socket, port) = try bind()
        close(socket)
        return port
    }

    /// A socket bound to a free port of 127.0.0.1, and that port.
    static func bind() throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw RawHTTPError("no free port")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Waits until something accepts connections on `port`, for as long as `alive` holds and at
    /// most thirty seconds (on a CI machine running every test at once, nginx once had not
    /// answered after ten). nginx signals nothing when it listens (no log line, no file): the
    /// condition itself, a connection being accepted, is asked again shortly.
    public static func waitUntilListening(
        _ port: Int, while alive: () -> Bool, failure: () -> String
    ) async throws {
        do {
            try await waitUntil("port \(port) listening", pause: .milliseconds(20), limit: .seconds(30)) {
                guard alive() else { throw RawHTTPError("exited") }
                return (try? await RawConnection(port: port)) != nil
            }
        } catch {
            throw RawHTTPError(failure())
        }
    }
}

/// A port of 127.0.0.1 that takes connections and never answers, as a hung server does.
public final class SilentListener: Sendable {
    public let port: Int
    private let socket: Int32

    public init() throws {
        (socket, port) = try FreePort.bind()
        guard listen(socket, 16) == 0 else { throw RawHTTPError("listen() failed") }
    }

    deinit { close(socket) }
}
