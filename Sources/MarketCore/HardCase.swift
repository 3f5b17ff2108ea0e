import MarketModel

/// A catalogue that breaks real apps, rehearsed for one team: its reads answer as if the market held it, while
/// the rest of the class and the storefront see the market as it is (`CatalogueRehearsal`).
public enum HardCase: String, CaseIterable, Codable, Sendable {
    /// Nothing on show but what the team registers itself.
    case empty
    /// The last page is half full.
    case halfLastPage = "half_last_page"
    /// A thousand pages, whatever page size the app asks for.
    case thousandPages = "thousand_pages"
    /// Products arrive while the app scrolls: each next page begins with items the previous one ended with.
    case shifting
    /// Names at the longest the market holds and long descriptions: Korean, emoji, line breaks, no spaces.
    case longText = "long_text"
    /// Prices of 0, 1 and a billion, a discount equal to the price, USD, a bargain price that is not price minus
    /// discount.
    case edgePrices = "edge_prices"
    case soldOut = "sold_out"
    /// A thumbnail that answers 404.
    case missingPicture = "missing_picture"
    case slowPicture = "slow_picture"
    /// A picture 6,000 pixels wide.
    case hugePicture = "huge_picture"
    case pngPicture = "png_picture"
    case heicPicture = "heic_picture"
    /// A product the list shows that answers 404 on its detail.
    case vanishing
    case noPictures = "no_pictures"
    case fivePictures = "five_pictures"

    /// The cases these names say, each once, in the order named.
    public static func named(_ names: [String]) throws(MarketError) -> [HardCase] {
        try named(names) { MarketError(.invalid, field: .hardCases, rule: .nameAmong($0, sent: $1)) }
    }

    /// The cases that decide how many products there are and how they are paged.
    var shapesPaging: Bool { [.empty, .halfLastPage, .thousandPages, .shifting].contains(self) }
}
