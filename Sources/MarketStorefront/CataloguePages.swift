import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketPages

/// The catalogue and a product's page: what anyone may see.
extension Storefront {
    @Sendable func catalogue(_ request: Request, context: PageRequestContext) async throws -> Response {
        var browser = context.browser
        let strings = browser.strings
        let query = request.formQuery
        var view = browser.view
        if let chosen = query["view"].flatMap(CatalogueView.init) {
            view = chosen
            browser.remember(view: chosen)
        }
        let number = min(max(Int(query["page"] ?? "") ?? 1, 1), PageRequest.maximumPageNumber)
        let typed = query["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        // A term longer than the box takes (pasted, or typed into the address) is cut to it and
        // said so, rather than searched for and echoed in full.
        let searchTooLong = typed.count > Self.searchLimit
        let search = String(typed.prefix(Self.searchLimit))
        // The next page continues after the last card shown, so that endless scrolling through a
        // market that changes meanwhile neither skips nor repeats a product.
        let after = query["after"].flatMap { Int64($0) }
        // "My products": the signed-in vendor's own, newest first.
        let mine = query["mine"] == "1"
        let filter = CatalogueFilter(query, searching: !search.isEmpty)
        let origin = request.origin
        let request = PageRequest(number: number, itemsPerPage: Self.pageSize, after: mine ? nil : after)
        let page: Page<ProductSummary>
        if mine {
            guard let session = browser.session else { return website.signInAgain(&browser, next: "/?mine=1") }
            do {
                page = try await service.products(request, signedInWith: session.token)
            } catch let error as MarketError where error == .sessionEnded {
                return website.signInAgain(&browser, next: "/?mine=1")
            }
        } else {
            page = try await service.products(
                request, search: search.isEmpty ? nil : search, arranged: filter.arrangement)
        }
        func link(page: Int?, after: Int64? = nil, search: String = search) -> String {
            var items: [URLQueryItem] = []
            if mine { items.append(URLQueryItem(name: "mine", value: "1")) }
            if !search.isEmpty, !mine { items.append(URLQueryItem(name: "q", value: search)) }
            if !mine { items += CatalogueFilter(query, searching: !search.isEmpty).queryItems }
            if let page { items.append(URLQueryItem(name: "page", value: String(page))) }
            if let after { items.append(URLQueryItem(name: "after", value: String(after))) }
            var components = URLComponents()
            components.path = "/"
            components.queryItems = items.isEmpty ? nil : items
            return components.string ?? "/"
        }
        let other: CatalogueView = view == .list ? .grid : .list
        let lastPage = max(page.lastPage, 1)
        let beyondLast = page.items.isEmpty && number > lastPage
        let heading = strings(mine ? "yourProducts" : "productsForSale")
        let last = strings.number(lastPage)
        let thumbnail = page.items.first.map(\.thumbnailKey).flatMap { $0.isEmpty ? nil : "/images/\($0)" }
        let content: PageContent = [
            "heading": heading,
            "mine": mine,
            "cards": page.items.map { Self.card($0, strings: strings) },
            "isGrid": view == .grid,
            "otherView": other.rawValue,
            "otherViewName": strings(other == .grid ? "showAsGrid" : "showAsList"),
            "search": search,
            "searchLimit": Self.searchLimit,
            "searchError": searchTooLong ? strings("searchTooLong", ["limit": String(Self.searchLimit)]) : nil,
            "summary": Self.summary(total: page.totalCount, search: Self.echo(search), mine: mine, strings: strings),
            "beyondLast": beyondLast ? strings("noSuchPage", ["page": strings.number(number), "last": last]) : nil,
            "firstPage": link(page: nil),
            "lastPage": link(page: lastPage),
            "clearSearch": link(page: nil, search: ""),
            "pageNumber": number,
            // Without products there are no pages to count.
            "pageOf": page.totalCount == 0
                ? nil : strings("pageOf", ["page": strings.number(min(number, lastPage)), "last": last]),
            "nextPage": page.hasNext
                ? link(page: number + 1, after: mine || !filter.arrangement.isByAge ? nil : page.items.last?.id)
                : nil,
            "filter": mine ? nil : filter.content(strings),
            "previousPage": page.hasPrevious && !beyondLast ? link(page: number - 1) : nil,
            "refresh": link(page: nil),
            // What a messenger shows for a shared link to this list.
            "preview": mine
                ? nil
                : [
                    "summary": strings("catalogueDescription", ["count": strings.products(page.totalCount)]),
                    "url": origin + link(page: nil),
                    "image": thumbnail.map { origin + $0 },
                ] as PageContent,
        ]
        let title = mine || search.isEmpty ? heading : strings("searchTitle", ["search": Self.echo(search)])
        return renderer.page(
            "catalogue", title: title, browser: browser,
            status: (filter.priceIsWrong || searchTooLong) && !mine ? .badRequest : .ok, content: content)
    }

    /// The most characters the search box takes.
    static let searchLimit = 100

    /// A search term as a title or a summary repeats it: a long one is cut, with an ellipsis.
    private static func echo(_ search: String) -> String { search.count > 30 ? search.prefix(30) + "…" : search }

    /// The names a search box offers for what a person has typed so far (`q`), as a JSON array.
    @Sendable func suggestions(_ request: Request, context: PageRequestContext) async throws -> Response {
        let typed = request.formQuery["q"] ?? ""
        let names =
            typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            ? [] : try await service.suggestedNames(for: typed)
        let headers = PageRenderer.headers(contentType: "application/json; charset=utf-8")
        let body = ByteBuffer(bytes: try JSONEncoder().encode(names))
        return context.browser.finish(Response(status: .ok, headers: headers, body: .init(byteBuffer: body)))
    }

    /// A product in the catalogue. Its thumbnail says nothing the link's text does not: the name is read once.
    private static func card(_ product: ProductSummary, strings: Localization) -> PageContent {
        [
            "id": product.id, "name": product.name,
            "thumbnail": "/images/\(product.thumbnailKey.isEmpty ? Placeholder.key : product.thumbnailKey)",
            "tag": PriceTag(product.facts, strings: strings).content,
        ]
    }

    private static func summary(total: Int, search: String, mine: Bool, strings: Localization) -> String {
        let count = strings.products(total)
        guard !search.isEmpty, !mine else {
            let none = mine ? "youSellNothing" : "nothingForSale"
            return total == 0 ? strings(none) : strings("forSale", ["count": count])
        }
        let phrase = total == 0 ? "noMatch" : total == 1 ? "oneMatch" : "matches"
        return strings(phrase, ["count": count, "search": search])
    }

    /// A product's page. One its operator hid is not there, but its own seller is told why.
    @Sendable func productPage(_ request: Request, context: PageRequestContext) async throws -> Response {
        let id = try context.productID()
        let browser = context.browser
        let product = try await service.product(
            id: id, for: browser.session.map { .signedIn(token: $0.token) } ?? .anyone)
        let sheet = ProductSheet(product, strings: browser.strings, isOwner: browser.owns(product))
        return renderer.page(
            "product", title: product.name, browser: browser,
            content: ["product": sheet.content, "secretError": false, "preview": preview(of: product, sheet, request)])
    }

    /// What a messenger shows for a shared link to a product: its name, price and first photo.
    private func preview(of product: Product, _ sheet: ProductSheet, _ request: Request) -> PageContent {
        let origin = request.origin
        let facts = [sheet.tag.pays, sheet.tag.stock]
        let description = Self.oneLine(product.description, atMost: 160)
        return [
            "title": product.name,
            "summary": (facts + (description.isEmpty ? [] : [description])).joined(separator: " · "),
            "url": "\(origin)/products/\(product.id)",
            "image": origin + sheet.firstPhoto,
            "amount": product.salePrice,
            "currency": product.currency.rawValue,
        ]
    }

    /// A text on one line, cut after a word near `limit` characters: what a link's card has room for.
    static func oneLine(_ text: String, atMost limit: Int) -> String {
        var (line, length) = ("", 0)  // `line.count`, kept: counting walks every character again
        for word in text.split(whereSeparator: \.isWhitespace) {
            let wordLength = word.count
            guard length + wordLength + 1 <= limit else {
                return (line.isEmpty ? String(word.prefix(limit)) : line) + "…"
            }
            line += line.isEmpty ? String(word) : " " + word
            length += length == 0 ? wordLength : wordLength + 1
        }
        return line
    }
}
