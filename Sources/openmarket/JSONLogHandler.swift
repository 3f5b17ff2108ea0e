import ArgumentParser
import Foundation
import Logging

/// One JSON object per line on standard error, for log shippers: time, level, label, message and
/// the metadata as strings.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
        fields["time"] = Date().formatted(.iso8601)
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        guard
            let line = try? JSONSerialization.data(
                withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        LogOutput.standardError.write(String(decoding: line, as: UTF8.self) + "\n")
    }
}

/// How `serve` writes its log.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json

    func bootstrap() {
        switch self {
        case .text: LoggingSystem.bootstrap { TextLogHandler(label: $0) }
        case .json: LoggingSystem.bootstrap { JSONLogHandler(label: $0) }
        }
    }

    /// Waits until every line logged so far is written.
    func flush() {
        (self == .text ? LogOutput.standardOutput : LogOutput.standardError).flush()
    }
}
