import Logging
import MarketCore
import ServiceLifecycle

/// Every `interval`, removes the image blobs that no product names and nobody has put for `grace` (see
/// `MarketService.sweepImages`). Every server may run one: their sweeps are safe beside each other and any writer.
struct ImageSweeper: Service {
    let service: MarketService
    let interval: Duration
    let grace: Duration
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while true {
                do { try await Task.sleep(for: interval) } catch { return }
                do {
                    let removed = try await service.sweepImages(unusedFor: grace)
                    if removed > 0 { logger.info("removed \(removed) image blobs no product uses") }
                } catch {
                    logger.warning("the image sweep failed; it tries again later: \(error)")
                }
            }
        }
    }
}
