import Foundation
import Testing

/// One way real apps build a list request's URL from their base URL
/// (../shared/reference/open-market-api.md, §5.1 and the apps' table).
public struct URLShape: Sendable, CustomTestStringConvertible {
    public var name: String
    public var build: @Sendable (_ base: String) -> URL?
    public var testDescription: String { name }

    static let query = "page_no=1&items_per_page=10"

    public static let all: [URLShape] = [
        URLShape(name: "base + \"/api/products?…\" (most apps)") { URL(string: $0 + "/api/products?\(query)") },
        URLShape(name: "base + \"//api/products?…\" (ic_5_tiana)") { URL(string: $0 + "//api/products?\(query)") },
        URLShape(name: "base + \"/\" + \"api/products?…\" (aCafela, lingo)") {
            URL(string: $0 + "/" + "api/products?\(query)")
        },
        URLShape(name: "appendingPathComponent, then the query") { base in
            guard let url = URL(string: base)?.appendingPathComponent("api/products") else { return nil }
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.query = query
            return components?.url
        },
        URLShape(name: "URLComponents(string: base), path set (Nala Market)") { base in
            var components = URLComponents(string: base)
            components?.path = "/api/products"
            components?.query = query
            return components?.url
        },
        URLShape(name: "scheme, host and port set apart (4-hoBahk)") { base in
            guard let url = URL(string: base) else { return nil }
            var components = URLComponents()
            (components.scheme, components.host, components.port) = (url.scheme, url.host, url.port)
            components.path = "/api/products"
            components.query = query
            return components.url
        },
        URLShape(name: "URL(string: \"/api/products?…\", relativeTo: base)") {
            URL(string: "/api/products?\(query)", relativeTo: URL(string: $0))?.absoluteURL
        },
    ]
}
