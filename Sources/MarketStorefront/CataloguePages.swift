import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel

/// The catalogue and a product's page: what anyone may see.
extension Storefront {
    @Sendable func catalogue(_ request: Request, context: StorefrontContext) async throws -> Response {
        var visit = context.visit
        let words = visit.words
        let query = request.formQuery
        var view = visit.view
        if let chosen = query["view"].flatMap(CatalogueView.init) {
            view = chosen
            visit.remember(view: chosen)
        }
        let number = min(max(Int(query["page"] ?? "") ?? 1, 1), PageRequest.maximumPageNumber)
        let search = query["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        // The next page continues after the last card shown, so that endless scrolling through a
        // market that changes meanwhile neither skips nor repeats a product.
        let after = query["after"].flatMap { Int64($0) }
        // "My products": the signed-in vendor's own, newest first.
        let mine = query["mine"] == "1"
        let shelf = ShelfChoice(query, searching: !search.isEmpty)
        let origin = Self.origin(of: request)
        let request = PageRequest(number: number, itemsPerPage: Self.pageSize, after: mine ? nil : after)
        let page: Page<ProductSummary>
        if mine {
            guard let session = visit.session else { return signInAgain(&visit, next: "/?mine=1") }
            do {
                page = try await service.products(request, signedInWith: session.token)
            } catch let error as MarketError where error == .sessionEnded {
                return signInAgain(&visit, next: "/?mine=1")
            }
        } else {
            page = try await service.products(
                request, search: search.isEmpty ? nil : search, arranged: shelf.arrangement)
        }
        func link(page: Int?, after: Int64? = nil, view: CatalogueView? = nil, search: String = search) -> String {
            var items: [URLQueryItem] = []
            if mine { items.append(URLQueryItem(name: "mine", value: "1")) }
            if !search.isEmpty, !mine { items.append(URLQueryItem(name: "q", value: search)) }
            if !mine { items += ShelfChoice(query, searching: !search.isEmpty).queryItems }
            if let page { items.append(URLQueryItem(name: "page", value: String(page))) }
            if let after { items.append(URLQueryItem(name: "after", value: String(after))) }
            if let view { items.append(URLQueryItem(name: "view", value: view.rawValue)) }
            var components = URLComponents()
            components.path = "/"
            components.queryItems = items.isEmpty ? nil : items
            return components.string ?? "/"
        }
        let other: CatalogueView = view == .list ? .grid : .list
        let lastPage = max(page.lastPage, 1)
        let beyondLast = page.items.isEmpty && number > lastPage
        var content: [String: TemplateValue] = [
            "heading": .text(words(mine ? "yourProducts" : "productsForSale")),
            "mine": .flag(mine),
            "cards": .objects(page.items.map { ProductCard($0, words: words) }),
            "isGrid": .flag(view == .grid),
            "otherView": .text(other.rawValue),
            "otherViewName": .text(words(other == .grid ? "showAsGrid" : "showAsList")),
            "search": .text(search),
            "summary": .text(
                mine
                    ? (page.totalCount == 0
                        ? words("youSellNothing") : words("forSale", ["count": words.products(page.totalCount)]))
                    : Self.summary(total: page.totalCount, search: search, words: words)),
            "beyondLast": beyondLast
                ? .text(
                    words(
                        "noSuchPage", ["page": Words.grouped(Int64(number)), "last": Words.grouped(Int64(lastPage))]))
                : false,
            "firstPage": .text(link(page: nil)),
            "lastPage": .text(link(page: lastPage)),
            "clearSearch": .text(link(page: nil, search: "")),
            "pageNumber": .number(number),
            // Without products there are no pages to count.
            "pageOf": page.totalCount == 0
                ? false
                : .text(
                    words(
                        "pageOf",
                        ["page": Words.grouped(Int64(min(number, lastPage))), "last": Words.grouped(Int64(lastPage))])),
            "nextPage": page.hasNext
                ? .text(link(page: number + 1, after: mine || !shelf.arrangement.isByAge ? nil : page.items.last?.id))
                : false,
            "shelf": mine ? false : .object(ShelfForm(shelf, words: words)),
            "previousPage": page.hasPrevious && !beyondLast ? .text(link(page: number - 1)) : false,
            "refresh": .text(link(page: nil)),
        ]
        let title =
            mine
            ? words("yourProducts")
            : search.isEmpty ? words("productsForSale") : words("searchTitle", ["search": search])
        if !mine {
            // What a messenger shows for a shared link to this list.
            let thumbnail = page.items.first.map(\.thumbnailKey).flatMap { $0.isEmpty ? nil : "/images/\($0)" }
            content["preview"] = .object([
                "summary": .text(words("catalogueDescription", ["count": words.products(page.totalCount)])),
                "url": .text(origin + link(page: nil)),
                "image": thumbnail.map { .text(origin + $0) } ?? false,
            ])
        }
        return pages.page(
            "catalogue", title: title, visit: visit,
            status: shelf.priceIsWrong && !mine ? .badRequest : .ok, content: content)
    }

    /// The names a search box offers for what a person has typed so far (`q`), as a JSON array.
    @Sendable func suggestions(_ request: Request, context: StorefrontContext) async throws -> Response {
        let typed = request.formQuery["q"] ?? ""
        let names =
            typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            ? [] : try await service.suggestedNames(for: typed)
        return context.visit.finish(
            Response(
                status: .ok, headers: Pages.headers(contentType: "application/json; charset=utf-8"),
                body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(names)))))
    }

    private static func summary(total: Int, search: String, words: Words) -> String {
        let count = words.products(total)
        guard !search.isEmpty else { return total == 0 ? words("nothingForSale") : words("forSale", ["count": count]) }
        return total == 0
            ? words("noMatch", ["search": search]) : words("matches", ["count": count, "search": search])
    }

    /// A product's page. One its operator hid is not there, but its own seller is told why.
    @Sendable func productPage(_ request: Request, context: StorefrontContext) async throws -> Response {
        let id = try context.productID()
        let visit = context.visit
        let product: Product
        do {
            product = try await service.product(id: id)
        } catch let error as MarketError where error.kind == .notFound {
            if let token = visit.session?.token, try await service.isHiddenByOperator(id, signedInWith: token) {
                throw HTTPError(.notFound, message: visit.words("hiddenByOperator", ["id": String(id)]))
            }
            throw error
        }
        return pages.page(
            "product", title: product.name, visit: visit, content: productPage(product, visit: visit, request: request))
    }

    private func productPage(_ product: Product, visit: Visit, request: Request) -> [String: TemplateValue] {
        let sheet = ProductSheet(product, words: visit.words, isOwner: visit.owns(product))
        return [
            "product": .object(sheet), "secretError": false, "preview": .object(preview(of: product, sheet, request)),
        ]
    }

    /// What a messenger shows for a shared link to a product: its name, price and first photo.
    private func preview(of product: Product, _ sheet: ProductSheet, _ request: Request) -> [String: TemplateValue] {
        let origin = Self.origin(of: request)
        let facts = [sheet.tag.salePrice ?? sheet.tag.price, sheet.tag.stock]
        let description = Self.oneLine(product.description, atMost: 160)
        return [
            "title": .text(product.name),
            "summary": .text((facts + (description.isEmpty ? [] : [description])).joined(separator: " · ")),
            "url": .text("\(origin)/products/\(product.id)"),
            "image": .text(origin + (sheet.photos.first?.url ?? "")),
            "amount": .number(product.salePrice),
            "currency": .text(product.currency.rawValue),
        ]
    }
}

extension Storefront {
    /// Where the visitor reached the market, for the absolute addresses a shared link needs.
    static func origin(of request: Request) -> String {
        "\(request.scheme)://\(request.headers[.forwardedHost] ?? request.head.authority ?? "localhost")"
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
