import Foundation
import Observation

/// The product screen: the product, its pictures in order, and which one is showing.
@MainActor @Observable
public final class ProductDetailModel {
    /// Where the product's screen is.
    public enum State: Equatable, Sendable {
        /// The product is on its way.
        case loading
        /// The product has arrived.
        case loaded(ProductDetails)
        /// The product could not be shown, and why, in a sentence for a person.
        case failed(String)
    }

    /// The product this screen shows.
    public let productID: Int64
    /// Where the screen is: loading, loaded or failed.
    public private(set) var state: State = .loading
    /// The carousel's position, kept within the pictures.
    public var currentImageIndex: Int {
        get { shownIndex }
        set { shownIndex = min(max(newValue, 0), max(images.count - 1, 0)) }
    }

    private var shownIndex = 0

    private let client: any OpenMarketAPI

    /// A screen for the product `productID`, read through `client`.
    public init(productID: Int64, client: any OpenMarketAPI) {
        self.productID = productID
        self.client = client
    }

    /// The product once it has arrived.
    public var product: ProductDetails? {
        if case .loaded(let product) = state { return product }
        return nil
    }

    /// The product's pictures in order, cover first; empty until it has arrived.
    public var images: [ProductPhoto] { product?.images ?? [] }

    /// "2 / 5" for the carousel.
    public var imagePosition: String { images.isEmpty ? "" : "\(currentImageIndex + 1) / \(images.count)" }

    /// Reads the product; a cancelled load (the screen went away) changes nothing.
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
