import MarketModel

/// The inspector's explanations in the page's language. The inspector records them as the API
/// says them, in English (its JSON twin gives them so); as with the market's rules, each one it
/// has is recognised here and said again in the page's language. One this does not know is shown
/// as recorded. The request's and the answer's own bytes are never translated.
extension Words {
    /// Why the market refused a request: the API's reason, naming `field` as the request did.
    func reason(_ reason: String, field: String?) -> String {
        if let field, reason.hasPrefix(field + " ") {
            return said(String(reason.dropFirst(field.count + 1)), field: .sent(field))
        }
        return said(reason) ?? reason
    }

    /// Something the market forgave in a request.
    func quirk(_ english: String) -> String {
        let said: (key: String, values: [String: String])
        if english == "CRLF before the first boundary (ignored)" {
            said = ("quirk.crlfBeforeBoundary", [:])
        } else if let match = english.wholeMatch(of: #/(\d+) bytes before the first boundary \(ignored\)/#) {
            said = ("quirk.bytesBeforeBoundary", ["count": Self.grouped(Int64(match.1) ?? 0)])
        } else if let match = english.wholeMatch(of: #/no closing boundary \((.+)\): the body simply ends/#) {
            said = ("quirk.noClosingBoundary", ["boundary": String(match.1)])
        } else if english == "lines end in LF alone, not CRLF" {
            said = ("quirk.bareLineFeeds", [:])
        } else if english == "no space after Content-Disposition:" {
            said = ("quirk.noSpaceAfterDisposition", [:])
        } else if english == "a part's name is not in quotes" {
            said = ("quirk.unquotedName", [:])
        } else if let match = english.wholeMatch(of: #/file part (.+) has no Content-Type; its bytes are (.+)/#) {
            said = ("quirk.fileWithoutType", ["part": String(match.1), "bytes": bytes(String(match.2))])
        } else if let match = english.wholeMatch(of: #/file part (.+) declares (\S+) but its bytes are (.+)/#) {
            said = (
                "quirk.fileTypeDiffers",
                ["part": String(match.1), "declared": String(match.2), "bytes": bytes(String(match.3))]
            )
        } else if let match = english.wholeMatch(
            of: #/(.+) is JSON a strict parser refuses \(.*\); it was read leniently/#)
        {
            let part = match.1 == "the body" ? self("inspector_theBody") : String(match.1)
            said = ("quirk.lenientJSON", ["part": part])
        } else if let match = english.wholeMatch(of: #/camelCase key (\S+) read as (\S+)/#) {
            said = ("quirk.camelCaseKey", ["key": String(match.1), "read": String(match.2)])
        } else if let match = english.wholeMatch(of: #/(\S+) sent as text "(.*)" and read as a number/#) {
            said = ("quirk.numberAsText", ["key": String(match.1), "text": String(match.2)])
        } else if let match = english.wholeMatch(of: #/(\S+) sent as (\S+) and read as the whole number (\S+)/#) {
            said = ("quirk.wholeNumber", ["key": String(match.1), "sent": String(match.2), "read": String(match.3)])
        } else {
            return english
        }
        return self(said.key, said.values)
    }

    /// The rehearsed failure a request met: "Rehearsed: held back 800 ms; answered 503 …".
    func fault(_ english: String) -> String {
        guard english.hasPrefix("Rehearsed: ") else { return english }
        let effects = english.dropFirst("Rehearsed: ".count).split(separator: "; ").map { effect -> String in
            if let match = effect.wholeMatch(of: #/held back (\d+) ms/#) {
                return self("fault.heldBack", ["milliseconds": Self.grouped(Int64(match.1) ?? 0)])
            } else if let match = effect.wholeMatch(of: #/answered (\d+) without reaching the market/#) {
                return self("fault.answered", ["status": String(match.1)])
            } else if effect == "the connection was dropped without an answer" {
                return self("fault.dropped")
            } else if let match = effect.wholeMatch(of: #/the answer trickled over (\d+) ms/#) {
                return self("fault.trickled", ["milliseconds": Self.grouped(Int64(match.1) ?? 0)])
            }
            return String(effect)
        }
        return self("fault.rehearsed", ["effects": effects.joined(separator: "; ")])
    }

    /// How an answer was broken on purpose, and what that asks of the learner's app.
    func broken(_ english: String) -> String {
        let said: (key: String, values: [String: String])
        if english.hasPrefix("a 200 with an empty body") {
            said = ("broken.emptyBody", [:])
        } else if english.hasPrefix("an HTML error page (502)") {
            said = ("broken.proxyPage", [:])
        } else if let match = english.wholeMatch(of: #/the JSON stops after (\d+) of (\d+) bytes: .+/#) {
            said = (
                "broken.truncated",
                ["kept": Self.grouped(Int64(match.1) ?? 0), "total": Self.grouped(Int64(match.2) ?? 0)]
            )
        } else if let match = english.wholeMatch(of: #/(\S+) was left out: .+/#) {
            said = ("broken.missingKey", ["key": String(match.1)])
        } else if let match = english.wholeMatch(of: #/(\S+) came as null: .+/#) {
            said = ("broken.null", ["key": String(match.1)])
        } else if let match = english.wholeMatch(of: #/(\S+) came as text \("(.*)"\): .+/#) {
            said = ("broken.numberAsText", ["key": String(match.1), "text": String(match.2)])
        } else if let match = english.wholeMatch(of: #/currency came as (\S+), .+/#) {
            said = ("broken.unknownCurrency", ["currency": String(match.1)])
        } else if let match = english.wholeMatch(of: #/an extra key (\S+) came along: .+/#) {
            said = ("broken.extraKey", ["key": String(match.1)])
        } else if let match = english.wholeMatch(of: #/(\S+) came in another format \("(.*)"\): .+/#) {
            said = ("broken.otherDate", ["key": String(match.1), "text": String(match.2)])
        } else {
            return english
        }
        return self(said.key, said.values)
    }

    /// Where a body went wrong so that the market could not find a part.
    func mistake(_ english: String) -> String {
        if let match = english.wholeMatch(
            of:
                #/the body's parts begin with (.+), but Content-Type names boundary=(.+): use one boundary in both places/#
        ) {
            return self("mistake.otherBoundary", ["seen": String(match.1), "boundary": String(match.2)])
        } else if let match = english.wholeMatch(
            of: #/the body has no --(.+) line: each part begins with --.+ and a CRLF/#)
        {
            return self("mistake.noBoundary", ["boundary": String(match.1)])
        } else if let match = english.wholeMatch(of: #/after (.+) came “(.*)” where the line ends: .+/#) {
            return self("mistake.boundaryLineNotEnded", ["boundary": String(match.1), "seen": String(match.2)])
        } else if let match = english.wholeMatch(
            of: #/the head of part (.+) has no blank line after it, so “(.*)” was read as more head: .+/#)
        {
            return self("mistake.headNotEnded", ["part": String(match.1), "seen": String(match.2)])
        }
        return english
    }

    /// What bytes were, as the inspector sniffed them: "a JPEG image", "text", …
    func bytes(_ english: String) -> String {
        let kinds = [
            "empty": "empty", "a JPEG image": "jpeg", "a PNG image": "png", "a GIF image": "gif",
            "a WebP image": "webp", "a HEIC or other ISO media file": "heic", "a PDF document": "pdf",
            "text": "text", "unrecognised bytes": "unknown",
        ]
        return kinds[english].map { self("bytes.\($0)") } ?? english
    }

    /// What a request the market accepts looks like, for the thing the refused request tried.
    func correctShape(_ english: String) -> String {
        let shapes = [
            ("POST /api/products with", "shape.create"), ("PATCH /api/products/", "shape.edit"),
            ("POST /api/products/{id}/secret", "shape.issueSecret"), ("DELETE /api/products/", "shape.delete"),
            ("GET /api/products", "shape.list"), ("See GET /openapi.json", "shape.other"),
        ]
        return shapes.first { english.hasPrefix($0.0) }.map { self($0.1) } ?? english
    }
}
