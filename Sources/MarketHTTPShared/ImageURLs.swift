import Foundation

/// Absolute image URLs for the host a request came to.
package struct ImageURLs {
    package var base: String

    package func url(for key: String) -> String { "\(base)/images/\(key)" }

    /// A product's thumbnail; a 2021 item posted without pictures shows the placeholder.
    package func thumbnail(for key: String) -> String { url(for: key.isEmpty ? Placeholder.key : key) }
}

/// The picture shown for a 2021 item posted without pictures.
package enum Placeholder {
    package static let key = "placeholder.png"
    package static let data = Bundle.module.url(forResource: "placeholder", withExtension: "png").flatMap {
        try? Data(contentsOf: $0)
    }
}
