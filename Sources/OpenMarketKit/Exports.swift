/// The market's own types the kit speaks in (`VendorCredentials`, `Currency`, …) come with `import OpenMarketKit`.
@_exported import MarketModel
