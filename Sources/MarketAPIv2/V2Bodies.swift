import Foundation
import MarketHTTPShared
import MarketModel

/// A product in the 2022 API's JSON (API reference §3.6), detail form when `product` is set. Amounts go out as
/// integers, which clients decoding `Double` read as well as those decoding `Int`.
struct V2ProductBody: JSONWritable {
    var summary: ProductSummary
    var product: Product?
    var flavor: V2Flavor
    var urls: ImageURLs

    /// The keys in their bytes' order, as clients of this API expect them.
    func write(to json: inout JSONWriter) {
        let day = flavor.day(summary.createdAt)
        json.object { json in
            json.member("bargain_price", summary.salePrice)
            json.member("created_at", day)
            json.member("currency", summary.currency.rawValue)
            json.member("description", summary.description)
            json.member("discounted_price", summary.discount)
            json.member("id", summary.id)
            if let product { writeImages(of: product, to: &json) }
            json.member("issued_at", day)
            json.member("name", summary.name)
            json.member("price", summary.price)
            json.member("stock", summary.stock)
            json.member("thumbnail", urls.thumbnail(for: summary.thumbnailKey))
            if flavor == .openmarket { json.member("vendorName", summary.vendor.name) }
            json.member("vendor_id", summary.vendor.id)
            if let product { writeVendor(of: product, to: &json) }
        }
    }

    private func writeImages(of product: Product, to json: inout JSONWriter) {
        json.key("images")
        json.array { json in
            for image in product.images {
                json.object { json in
                    json.member("id", image.id)
                    json.member("issued_at", flavor.day(image.createdAt))
                    if flavor == .marketTraining { json.member("succeed", true) }
                    json.member("thumbnail_url", urls.url(for: image.thumbnailKey))
                    json.member("url", urls.url(for: image.originalKey))
                }
            }
        }
    }

    private func writeVendor(of product: Product, to json: inout JSONWriter) {
        json.key("vendors")
        json.object { json in
            let created = flavor.day(product.vendor.createdAt)
            if flavor == .marketTraining { json.member("created_at", created) }
            json.member("id", product.vendor.id)
            if flavor == .marketTraining { json.member("issued_at", created) }
            json.member("name", product.vendor.name)
        }
    }
}

/// The list envelope: every key is required by some client, and the two flavours' spellings sort alike.
struct V2PageBody: JSONWritable {
    var page: Page<ProductSummary>
    var flavor: V2Flavor
    var urls: ImageURLs

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member(flavor.key("has_next", "hasNext"), page.hasNext)
            json.member(flavor.key("has_prev", "hasPrev"), page.hasPrevious)
            json.member(flavor.key("items_per_page", "itemsPerPage"), page.request.itemsPerPage)
            json.member(flavor.key("last_page", "lastPage"), page.lastPage)
            json.member("limit", page.request.itemsPerPage)
            json.member("offset", page.request.offset)
            json.member(flavor.key("page_no", "pageNo"), page.request.number)
            json.key("pages")
            json.array { json in
                for item in page.items { V2ProductBody(summary: item, flavor: flavor, urls: urls).write(to: &json) }
            }
            json.member(flavor.key("total_count", "totalCount"), page.totalCount)
        }
    }
}

/// Days as the 2022 clients parse them: the date (in UTC) at midnight. The flavour adds the fraction digits or not.
enum V2Dates {
    static func day(_ date: Date) -> String {
        let (year, month, day) = civilDate(daysSince1970: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))T00:00:00"
    }

    private static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`): plain
    /// integer arithmetic, where a Calendar would cost more than the rest of a list item.
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// The 2022 API's two hosts, market-training and openmarket, differ in their JSON (API reference §3.1); no one
/// answer meets both date formats, so each request is answered in the flavour of the host it names.
public enum V2Flavor: String, Sendable, CaseIterable {
    case marketTraining = "market-training"
    case openmarket

    /// `openmarket.…` and `market-training.…` hosts pick their own flavour; any other host gets `fallback`.
    public static func forHost(_ host: String?, fallback: V2Flavor) -> V2Flavor {
        let name = (host ?? "").lowercased()
        if name.hasPrefix("openmarket.") { return .openmarket }
        if name.hasPrefix("market-training.") { return .marketTraining }
        return fallback
    }

    func key(_ snake: String, _ camel: String) -> String { self == .openmarket ? camel : snake }

    /// A day as the flavour's clients parse it: midnight, with two fraction digits on market-training only.
    func day(_ date: Date) -> String { V2Dates.day(date) + (self == .marketTraining ? ".00" : "") }

    /// The text `/archived` answers: a path to DELETE. openmarket clients either use it whole or
    /// keep what follows the last slash, and `/api/products/{secret}` serves both.
    func deletePath(productID: Int64, secret: String) -> String {
        self == .openmarket ? "/api/products/\(secret)" : "/api/products/\(productID)/\(secret)"
    }
}
