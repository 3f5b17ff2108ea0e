import Foundation
import HTTPTypes
import MarketHTTPShared

extension RequestDiagnosis {
    /// A curl command that sends this request again to `base`. Secrets are not in it: each is read
    /// from `$OPENMARKET_SECRET` when the command runs, and files from where the names say.
    package func curl(base: String, maskedPath: String) -> String {
        var words = ["curl", "-X", head.method.rawValue, Self.shellQuoted(base + maskedPath)]
        let multipart = MultipartForm.boundary(in: head.headerFields[.contentType]) != nil
        for field in head.headerFields {
            let name = field.name.canonicalName
            if ["host", "content-length", "connection", "accept-encoding", "user-agent"].contains(name) { continue }
            if multipart && name == "content-type" { continue }
            words += [
                "-H",
                Self.maskedHeaders.contains(name)
                    ? "\"\(field.name.rawName): $OPENMARKET_SECRET\""
                    : Self.shellQuoted("\(field.name.rawName): \(field.value)"),
            ]
        }
        if multipart {
            for part in parts {
                if part.name == "params", let json {
                    words += [
                        "-F", Self.withSecrets("params=" + Self.text(of: Self.masked(json)) + ";type=application/json"),
                    ]
                } else if let filename = part.filename, Self.sniff(part.body) != "text" {
                    let type = part.declaredType.map { ";type=\($0)" } ?? ""
                    words += ["-F", Self.shellQuoted("\(part.name)=@\(filename)\(type)")]
                } else {
                    words += ["-F", Self.shellQuoted("\(part.name)=\(String(decoding: part.body, as: UTF8.self))")]
                }
            }
        } else if let json {
            words += ["--data-raw", Self.withSecrets(Self.text(of: Self.masked(json)))]
        } else if !body.isEmpty {
            words += ["--data-raw", Self.shellQuoted(String(decoding: body.prefix(64 * 1024), as: UTF8.self))]
        }
        return words.joined(separator: " ")
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Quoted for a shell, each masked secret replaced by `$OPENMARKET_SECRET` as it runs.
    static func withSecrets(_ text: String) -> String {
        shellQuoted(text).replacingOccurrences(of: quoted(mask), with: #""'"$OPENMARKET_SECRET"'""#)
    }
}

/// What a request the market accepts looks like, for each thing an app does: shown beside a
/// refused request, so that a learner sees the nearest shape that works.
enum CorrectShape {
    static func of(method: HTTPRequest.Method, path: String) -> String {
        let segments = path.split(separator: "?").first.map { $0.lowercased().split(separator: "/") } ?? []
        switch (method, segments.count > 2 ? Array(segments.prefix(2)) : segments) {
        case (.post, ["api", "products"]) where segments.count == 2:
            return """
                POST /api/products with the header identifier: YOUR-IDENTIFIER and a multipart/form-data body:
                a part named params holding JSON such as
                {"name": "Film camera", "description": "Works well.", "price": 240000, "currency": "KRW",
                 "discounted_price": 40000, "stock": 1, "secret": "YOUR-SECRET"}
                and one to five parts named images, each a JPEG, PNG or WebP file of at most 10 MB.
                """
        case (.patch, ["api", "products"]):
            return """
                PATCH /api/products/{id} with the header identifier: YOUR-IDENTIFIER, Content-Type: application/json
                and a JSON body with the fields to change and your secret, such as
                {"price": 200000, "discounted_price": 0, "secret": "YOUR-SECRET"}
                """
        case (.post, ["api", "products"]):
            return """
                POST /api/products/{id}/secret with the header identifier: YOUR-IDENTIFIER and the JSON body
                {"secret": "YOUR-SECRET"}; the answer is the product's delete secret, as text.
                """
        case (.delete, ["api", "products"]):
            return """
                DELETE /api/products/{id}/{product_secret} with the header identifier: YOUR-IDENTIFIER and no
                body, where product_secret is what POST /api/products/{id}/secret answered.
                """
        case (.get, ["api", "products"]):
            return
                "GET /api/products?page_no=1&items_per_page=20 (page_no from 1; items_per_page from 1 to 200), or GET /api/products/{id}."
        default:
            return "See GET /openapi.json for every request this market takes and its exact shape."
        }
    }
}
