import Foundation
import HTTPTypes
import MarketHTTPShared

/// What a resend command needs before it runs: the secret it reads from `$OPENMARKET_SECRET`, and the files it names.
struct CurlNeeds: Codable, Sendable, Equatable {
    enum Secret: String, Codable, Sendable {
        /// The vendor's secret, and a 2021 item's own password.
        case vendor, itemPassword
        /// The delete secret `POST …/secret` issued for one product.
        case deleteSecret
    }

    var secret: Secret?
    var files: [String] = []
}

extension RequestDiagnosis {
    /// A curl command that sends this request again to `base`, and what it needs to run. Secrets are not in it:
    /// each is read from `$OPENMARKET_SECRET` when the command runs, and files from where the names say.
    func curl(base: String, maskedPath: String) -> (line: String, needs: CurlNeeds) {
        var needs = CurlNeeds()
        if maskedPath.contains(secretMask) { needs.secret = .deleteSecret }
        if case .object(let members)? = json, members.contains(where: { $0.key.lowercased() == "password" }) {
            needs.secret = .itemPassword
        }
        var words = ["curl", "-X", head.method.rawValue, Self.withSecrets(base + maskedPath)]
        let multipart = MultipartForm.boundary(in: head.headerFields[.contentType]) != nil
        for field in head.headerFields {
            let name = field.name.canonicalName
            if ["host", "content-length", "connection", "accept-encoding", "user-agent"].contains(name) { continue }
            if multipart && name == "content-type" { continue }
            let masked = Self.masksHeader(name)
            let header = "\(field.name.rawName): \(masked ? "$OPENMARKET_SECRET" : field.value)"
            words += ["-H", masked ? "\"\(header)\"" : Self.shellQuoted(header)]
        }
        if multipart {
            // The JSON the market read is the first `params` part's; any later one is text like any other.
            let params = parts.firstIndex { $0.name == "params" }
            for (index, part) in parts.enumerated() {
                if index == params, let json {
                    words += ["-F", Self.withSecrets("params=" + Self.shownText(of: json) + ";type=application/json")]
                } else if case let sniffed = Sniffed(part.body), sniffed != .text,
                    part.filename != nil || sniffed != .empty
                {
                    // Bytes that are no text are never written out as text: the command names a file.
                    let type = part.declaredType.map { ";type=\($0)" } ?? ""
                    let file = part.filename ?? Self.fileName(part.name, index, sniffed: sniffed)
                    needs.files.append(file)
                    words += ["-F", Self.shellQuoted("\(part.name)=@\(file)\(type)")]
                } else {
                    let value =
                        part.name.namesSecret
                        ? secretMask : Self.maskingSecrets(in: part.body.prefix(Self.shownTextBytes))
                    words += ["-F", Self.withSecrets("\(part.name)=\(value)")]
                }
            }
        } else if let json {
            words += ["--data-raw", Self.withSecrets(Self.shownText(of: json))]
        } else if !body.isEmpty, Sniffed(body) == .text {
            let text = takesSecret ? secretMask : Self.maskingSecrets(in: body.prefix(Self.shownTextBytes))
            words += ["--data-raw", Self.withSecrets(text)]
        } else if !body.isEmpty {
            let file = Self.fileName("body", 0, sniffed: Sniffed(body))
            needs.files.append(file)
            words += ["--data-binary", Self.shellQuoted("@" + file)]
        }
        let line = words.joined(separator: " ")
        if needs.secret == nil, line.contains("$OPENMARKET_SECRET") { needs.secret = .vendor }
        return (line, needs)
    }

    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    /// Quoted for a shell, each masked secret replaced by `$OPENMARKET_SECRET` as it runs.
    static func withSecrets(_ text: String) -> String {
        shellQuoted(text).replacingOccurrences(of: quoted(secretMask), with: #""'"$OPENMARKET_SECRET"'""#)
            .replacingOccurrences(of: secretMask, with: #"'"$OPENMARKET_SECRET"'"#)
    }

    /// A name for bytes sent without one, after what they are: `images1.jpg`, `body1.bin`.
    static func fileName(_ name: String, _ index: Int, sniffed: Sniffed) -> String {
        "\(name)\(index + 1).\(sniffed.fileExtension)"
    }

    static func maskingSecrets(in bytes: Data) -> String { maskingSecrets(in: String(decoding: bytes, as: UTF8.self)) }
}
