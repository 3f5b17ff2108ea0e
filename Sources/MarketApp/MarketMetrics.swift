import Metrics
import Prometheus

/// The process's metrics in Prometheus' registry. swift-metrics has one backend per process, so
/// `serve` bootstraps it once; the registry is what `/metrics` shows.
public enum MarketMetrics {
    public static let registry = PrometheusCollectorRegistry()

    public static func bootstrap() { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
}
