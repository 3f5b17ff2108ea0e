/// The market's own types that the kit's API speaks in (`VendorCredentials`, `ProductDraft`,
/// `Currency`, `MarketRules`, …) come with `import OpenMarketKit` alone.
@_exported import MarketModel
