import Foundation

/// A flag's default from its OPENMARKET_* environment variable.
enum Environment {
    static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func value(_ name: String, default fallback: String) -> String { value(name) ?? fallback }

    static func flag(_ name: String) -> Bool {
        ["1", "true", "yes", "on"].contains(value(name)?.lowercased() ?? "")
    }
}
