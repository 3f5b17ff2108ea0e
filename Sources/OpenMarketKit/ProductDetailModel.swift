import Foundation
import Observation

/// The product screen: the product, its pictures in order, and which one is showing.
@MainActor @Observable
public final class ProductDetailModel {
    public enum State: Equatable, Sendable {
        case loading
        case loaded(ProductDetails)
        case failed(String)
    }

    public let productID: Int64
    public private(set) var state: State = .loading
    /// The carousel's position, kept within the pictures.
    public var currentImageIndex: Int {
        get { shownIndex }
        set { shownIndex = min(max(newValue, 0), max(images.count - 1, 0)) }
    }

    private var shownIndex = 0

    private let client: any OpenMarketAPI

    public init(productID: Int64, client: any OpenMarketAPI) {
        self.productID = productID
        self.client = client
    }

    public var product: ProductDetails? {
        if case .loaded(let product) = state { return product }
        return nil
    }

    public var images: [ProductPhoto] { product?.images ?? [] }

    /// "2 / 5" for the carousel.
    public var imagePosition: String { images.isEmpty ? "" : "\(currentImageIndex + 1) / \(images.count)" }

    public func load() async {
        do {
            state = .loaded(try await client.product(id: productID))
            currentImageIndex = 0
        } catch is CancellationError {
            // The screen went away; it loads again when it comes back.
        } catch {
            state = .failed(error.localizedDescription)
        }
    }
}
