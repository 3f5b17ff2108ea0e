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

    func bootstrap() {
        LoggingSystem.bootstrap { ServeLogHandler(label: $0, format: self) }
    }

    /// Waits until every line logged so far is written.
    func flush() {
        output.flush()
    }

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
            var shown = ""
            for (key, value) in fields.count > 1 ? fields.sorted(by: { $0.key < $1.key }) : Array(fields) {
                shown += " \(key)=\(value)"
            }
            let (time, message) = (Self.time(), event.message.description)
            // "\(time) \(level) \(label):\(shown) [\(source)] \(message)\n", appended part by part.
            format.output.write { line in
                func add(_ part: String, then separator: String) {
                    line.append(contentsOf: part.utf8)
                    line.append(contentsOf: separator.utf8)
                }
                add(time, then: " ")
                add(event.level.rawValue, then: " ")
                add(label, then: ":")
                add(shown, then: " [")
                add(event.source, then: "] ")
                add(message, then: "\n")
            }
        case .json:
            var object = fields.mapValues { "\($0)" }
            object["time"] = Date().formatted(.iso8601)
            object["level"] = event.level.rawValue
            object["label"] = label
            object["message"] = "\(event.message)"
            guard
                let line = try? JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return }
            format.output.write(String(decoding: line, as: UTF8.self) + "\n")
        }
    }
}

extension ServeLogHandler {
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
