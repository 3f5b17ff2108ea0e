import Foundation
import MarketHTTPShared
import MarketModel

/// A product in the 2022 API's JSON (API reference §3.6), list form or, with `product`, detail
/// form. Amounts go out as integers: clients that decode `Double` read them as well as those that
/// decode `Int`.
struct V2ProductBody: Encodable {
    var summary: ProductSummary
    var product: Product?
    var flavor: V2Flavor
    var urls: ImageURLs

    init(summary: ProductSummary, flavor: V2Flavor, urls: ImageURLs) {
        self.summary = summary
        self.flavor = flavor
        self.urls = urls
    }

    init(product: Product, flavor: V2Flavor, urls: ImageURLs) {
        self.init(summary: product.summary, flavor: flavor, urls: urls)
        self.product = product
    }

    func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: JSONKey.self)
        let day = flavor.day(summary.createdAt)
        try json.encode(summary.id, forKey: "id")
        try json.encode(summary.vendor.id, forKey: "vendor_id")
        try json.encode(summary.name, forKey: "name")
        try json.encode(summary.description, forKey: "description")
        try json.encode(urls.thumbnail(for: summary.thumbnailKey), forKey: "thumbnail")
        try json.encode(summary.currency.rawValue, forKey: "currency")
        try json.encode(summary.price, forKey: "price")
        try json.encode(summary.salePrice, forKey: "bargain_price")
        try json.encode(summary.discount, forKey: "discounted_price")
        try json.encode(summary.stock, forKey: "stock")
        try json.encode(day, forKey: "created_at")
        try json.encode(day, forKey: "issued_at")
        if flavor == .openmarket { try json.encode(summary.vendor.name, forKey: "vendorName") }
        guard let product else { return }
        var images = json.nestedUnkeyedContainer(forKey: "images")
        for image in product.images {
            var item = images.nestedContainer(keyedBy: JSONKey.self)
            try item.encode(image.id, forKey: "id")
            try item.encode(urls.url(for: image.originalKey), forKey: "url")
            try item.encode(urls.url(for: image.thumbnailKey), forKey: "thumbnail_url")
            try item.encode(flavor.day(image.createdAt), forKey: "issued_at")
            if flavor == .marketTraining { try item.encode(true, forKey: "succeed") }
        }
        var vendor = json.nestedContainer(keyedBy: JSONKey.self, forKey: "vendors")
        try vendor.encode(product.vendor.id, forKey: "id")
        try vendor.encode(product.vendor.name, forKey: "name")
        if flavor == .marketTraining {
            try vendor.encode(flavor.day(product.vendor.createdAt), forKey: "created_at")
            try vendor.encode(flavor.day(product.vendor.createdAt), forKey: "issued_at")
        }
    }
}

/// The list envelope; every one of its nine keys is required by some client.
struct V2PageBody: Encodable {
    var page: Page<ProductSummary>
    var flavor: V2Flavor
    var urls: ImageURLs

    func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: JSONKey.self)
        try json.encode(page.request.number, forKey: flavor.key("page_no", "pageNo"))
        try json.encode(page.request.itemsPerPage, forKey: flavor.key("items_per_page", "itemsPerPage"))
        try json.encode(page.totalCount, forKey: flavor.key("total_count", "totalCount"))
        try json.encode(page.request.offset, forKey: "offset")
        try json.encode(page.request.itemsPerPage, forKey: "limit")
        try json.encode(page.lastPage, forKey: flavor.key("last_page", "lastPage"))
        try json.encode(page.hasNext, forKey: flavor.key("has_next", "hasNext"))
        try json.encode(page.hasPrevious, forKey: flavor.key("has_prev", "hasPrev"))
        try json.encode(
            page.items.map { V2ProductBody(summary: $0, flavor: flavor, urls: urls) }, forKey: "pages")
    }
}

/// Days as the 2022 clients parse them: the date (in UTC) at midnight. The flavour adds the
/// fraction digits or not.
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
