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
            var line = try? JSONSerialization.data(
                withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }
}

/// How `serve` writes its log.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json

    func bootstrap() {
        guard self == .json else { return }
        LoggingSystem.bootstrap { JSONLogHandler(label: $0) }
    }
}
