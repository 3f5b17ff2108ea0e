import Logging

/// One line of text per event on standard output, as swift-log's own stream handler writes it
/// (time, level, label, metadata, source, message), through `LogOutput`.
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        let shown = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        LogOutput.standardOutput.write(
            "\(LogClock.shared.now()) \(event.level) \(label):\(shown) [\(event.source)] \(event.message)\n")
    }
}
