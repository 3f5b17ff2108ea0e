import Metrics

/// The market's own measurements, through swift-metrics: whatever backend the process has
/// bootstrapped (Prometheus for `serve`) receives them; without one they cost next to nothing.
public enum MarketTimers {
    public static let imageProcessing = Timer(label: "openmarket_image_processing")
    public static let databaseReads = Timer(label: "openmarket_database", dimensions: [("operation", "read")])
    public static let databaseWrites = Timer(label: "openmarket_database", dimensions: [("operation", "write")])
}
