import Foundation
import MarketModel

/// The 2022 API's JSON shapes (market-training flavour, §3.5–§3.6 of the API reference). Amounts go
/// out as integers: clients that decode `Double` read them as well as those that decode `Int`.
struct V2ProductBody: Encodable {
    var id: Int64
    var vendorID: Int64
    var name: String
    var description: String
    var thumbnail: String
    var currency: String
    var price: Int64
    var bargainPrice: Int64
    var discountedPrice: Int64
    var stock: Int64
    var createdAt: String
    var issuedAt: String
    var images: [V2ImageBody]?
    var vendors: V2VendorBody?

    enum CodingKeys: String, CodingKey {
        case id, name, description, thumbnail, currency, price, stock, images, vendors
        case vendorID = "vendor_id"
        case bargainPrice = "bargain_price"
        case discountedPrice = "discounted_price"
        case createdAt = "created_at"
        case issuedAt = "issued_at"
    }

    init(summary: ProductSummary, urls: ImageURLs) {
        id = summary.id
        vendorID = summary.vendor.id
        name = summary.name
        description = summary.description
        thumbnail = urls.url(for: summary.thumbnailKey)
        currency = summary.currency.rawValue
        price = summary.price
        bargainPrice = summary.salePrice
        discountedPrice = summary.discount
        stock = summary.stock
        createdAt = V2Dates.day(summary.createdAt)
        issuedAt = createdAt
    }

    /// The detail form: with the images in order and the vendor.
    init(product: Product, urls: ImageURLs) {
        self.init(summary: product.summary, urls: urls)
        images = product.images.map { V2ImageBody(image: $0, urls: urls) }
        vendors = V2VendorBody(vendor: product.vendor)
    }
}

struct V2ImageBody: Encodable {
    var id: Int64
    var url: String
    var thumbnailURL: String
    var succeed = true
    var issuedAt: String

    enum CodingKeys: String, CodingKey {
        case id, url, succeed
        case thumbnailURL = "thumbnail_url"
        case issuedAt = "issued_at"
    }

    init(image: ProductImage, urls: ImageURLs) {
        id = image.id
        url = urls.url(for: image.originalKey)
        thumbnailURL = urls.url(for: image.thumbnailKey)
        issuedAt = V2Dates.day(image.createdAt)
    }
}

struct V2VendorBody: Encodable {
    var id: Int64
    var name: String
    var createdAt: String
    var issuedAt: String

    enum CodingKeys: String, CodingKey {
        case id, name
        case createdAt = "created_at"
        case issuedAt = "issued_at"
    }

    init(vendor: VendorSummary) {
        id = vendor.id
        name = vendor.name
        createdAt = V2Dates.day(vendor.createdAt)
        issuedAt = createdAt
    }
}

/// The list envelope; every one of its nine keys is required by some client.
struct V2PageBody: Encodable {
    var pageNumber: Int
    var itemsPerPage: Int
    var totalCount: Int
    var offset: Int
    var limit: Int
    var lastPage: Int
    var hasNext: Bool
    var hasPrevious: Bool
    var pages: [V2ProductBody]

    enum CodingKeys: String, CodingKey {
        case offset, limit, pages
        case pageNumber = "page_no"
        case itemsPerPage = "items_per_page"
        case totalCount = "total_count"
        case lastPage = "last_page"
        case hasNext = "has_next"
        case hasPrevious = "has_prev"
    }

    init(page: Page<ProductSummary>, urls: ImageURLs) {
        pageNumber = page.request.number
        itemsPerPage = page.request.itemsPerPage
        totalCount = page.totalCount
        offset = page.request.offset
        limit = page.request.itemsPerPage
        lastPage = page.lastPage
        hasNext = page.hasNext
        hasPrevious = page.hasPrevious
        pages = page.items.map { V2ProductBody(summary: $0, urls: urls) }
    }
}

/// Dates as the 2022 clients parse them: the day (in UTC), at midnight, with exactly two fraction
/// digits.
enum V2Dates {
    static func day(_ date: Date) -> String {
        let (year, month, day) = civilDate(daysSince1970: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))T00:00:00.00"
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

/// Absolute image URLs for the host a request came to.
struct ImageURLs {
    var base: String

    func url(for key: String) -> String { "\(base)/images/\(key)" }
}
