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
            for (index, part) in parts.enumerated() {
                if part.name == "params", let json {
                    words += [
                        "-F", Self.withSecrets("params=" + Self.text(of: Self.masked(json)) + ";type=application/json"),
                    ]
                } else if case let sniffed = Self.sniff(part.body), sniffed != "text",
                    part.filename != nil || sniffed != "empty"
                {
                    // Bytes that are no text are never written out as text: the command names a file.
                    let type = part.declaredType.map { ";type=\($0)" } ?? ""
                    let file = part.filename ?? Self.fileName(part.name, index, sniffed: sniffed)
                    words += ["-F", Self.shellQuoted("\(part.name)=@\(file)\(type)")]
                } else {
                    words += ["-F", Self.withSecrets("\(part.name)=\(Self.maskingSecrets(in: part.body))")]
                }
            }
        } else if let json {
            words += ["--data-raw", Self.withSecrets(Self.text(of: Self.masked(json)))]
        } else if !body.isEmpty, Self.sniff(body) == "text" {
            words += ["--data-raw", Self.withSecrets(Self.maskingSecrets(in: body.prefix(64 * 1024)))]
        } else if !body.isEmpty {
            words += ["--data-binary", Self.shellQuoted("@" + Self.fileName("body", 0, sniffed: Self.sniff(body)))]
        }
        return words.joined(separator: " ")
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Quoted for a shell, each masked secret replaced by `$OPENMARKET_SECRET` as it runs.
    static func withSecrets(_ text: String) -> String {
        shellQuoted(text).replacingOccurrences(of: quoted(mask), with: #""'"$OPENMARKET_SECRET"'""#)
            .replacingOccurrences(of: mask, with: #"'"$OPENMARKET_SECRET"'"#)
    }

    /// A name for bytes sent without one, after what they are: `images1.jpg`, `body1.bin`.
    static func fileName(_ name: String, _ index: Int, sniffed: String) -> String {
        let extensions = [
            "a JPEG image": "jpg", "a PNG image": "png", "a GIF image": "gif", "a WebP image": "webp",
            "a HEIC or other ISO media file": "heic", "a PDF document": "pdf",
        ]
        return "\(name)\(index + 1).\(extensions[sniffed] ?? "bin")"
    }

    /// Bytes that were meant as text, with every secret in them masked.
    static func maskingSecrets(in bytes: Data) -> String {
        maskingSecrets(in: String(decoding: bytes, as: UTF8.self))
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
                and one to five parts named images, each a JPEG, PNG, WebP or HEIC file of at most 10 MB.
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
