import ArgumentParser
import Foundation
import Logging
import MarketCore
import Synchronization

/// How `serve` writes its log: text lines on standard output as swift-log's stream handler writes them, or one JSON
/// object per line on standard error for log shippers. Both go through `LogOutput`, off the request threads.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json

    var output: LogOutput { self == .text ? .standardOutput : .standardError }
}

struct ServeLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        switch format {
        case .text:
            let shown = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            let parts = [
                Self.time(), " ", event.level.rawValue, " ", label, ":", shown, " [", event.source, "] ",
                event.message.description, "\n",
            ]
            format.output.write { line in for part in parts { line.append(contentsOf: part.utf8) } }
        case .json:
            var object = fields.mapValues { "\($0)" }
            object["time"] = Date().formatted(.iso8601)
            object["level"] = event.level.rawValue
            object["label"] = label
            object["message"] = "\(event.message)"
            let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
            guard let line = try? JSONSerialization.data(withJSONObject: object, options: options) else { return }
            format.output.write(String(decoding: line, as: UTF8.self) + "\n")
        }
    }

    /// The time as log lines show it, local: `2026-11-22T23:58:43+0000`. Made once a second and
    /// kept: formatting a time costs more than the rest of a request's line.
    static func time() -> String {
        let now = Foundation.time(nil)
        return madeThisSecond.withLock { made in
            guard made.second != now else { return made.text }
            var time = now
            var local = tm()
            localtime_r(&time, &local)
            var buffer = [CChar](repeating: 0, count: 64)
            strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
            made = (now, String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
            return made.text
        }
    }

    private static let madeThisSecond = Mutex((second: time_t(-1), text: ""))
}
