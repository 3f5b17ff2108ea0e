import ArgumentParser
import Foundation

/// A flag's default from its OPENMARKET_* environment variable; an option's is read as the option reads its value.
enum Environment {
    static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func value<T: ExpressibleByArgument>(_ name: String, default fallback: T) -> T {
        value(name).flatMap(T.init(argument:)) ?? fallback
    }

    static func flag(_ name: String) -> Bool { ["1", "true", "yes", "on"].contains(value(name)?.lowercased() ?? "") }
}
