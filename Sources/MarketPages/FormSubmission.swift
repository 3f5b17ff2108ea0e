import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// A submitted HTML form, URL-encoded or multipart: its text fields and its files.
package struct FormSubmission {
    private var fields: [String: String] = [:]
    /// The pictures of the `images` file input, the only one the storefront's forms have.
    package private(set) var images: [Data] = []

    package static func read(_ request: Request, strings: Localization) async throws -> FormSubmission {
        let body: Data
        do {
            body = try await request.collectAPIBody()
        } catch let error as MarketError where error.kind == .tooLarge {
            let count = String(MarketRules.imagesPerProduct.upperBound)
            let size = String(MarketRules.maximumImageBytes / 1024 / 1024)
            throw HTTPError(.contentTooLarge, message: strings("tooMuchAtOnce", ["count": count, "size": size]))
        }
        if let boundary = MultipartForm.boundary(in: request.headers[.contentType]) {
            var form = FormSubmission(fields: [:])
            for part in try MultipartForm(body: body, boundary: boundary).parts {
                if part.name == "images" {
                    // A file input left empty still sends a part with no bytes.
                    if !part.body.isEmpty { form.images.append(part.body) }
                } else if form.fields[part.name] == nil {
                    form.fields[part.name] = String(decoding: part.body, as: UTF8.self)
                }
            }
            return form
        }
        return FormSubmission(fields: Self.urlEncodedFields(String(decoding: body, as: UTF8.self)))
    }

    package subscript(_ name: String) -> String { fields[name] ?? "" }

    /// Fields as a form encodes them, in a body or a query: `+` is a space, the first of a name wins.
    package static func urlEncodedFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }
}

extension Request {
    /// The query as the storefront's forms send it: `q=film+camera` searches for "film camera".
    package var formQuery: [String: String] { FormSubmission.urlEncodedFields(uri.query ?? "") }
}
