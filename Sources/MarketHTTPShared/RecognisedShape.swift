import MarketCore
import Synchronization

/// A shape of request that tells which apps sent it, and so how the market answered it.
package enum RecognisedShape: String, Codable, Sendable {
    /// A 2021 delete whose JSON body names the item's `id`, as the January 2021 apps send it. They
    /// decode `{"id": n}`, not the deleted item (API reference §2.6).
    case january2021Delete
}

/// What a route recognised in the request and why the API refused it, for the inspector's record.
/// The inspector binds `current` around the routes; routes and the API's refusals note into it.
package final class RequestNotes: Sendable {
    @TaskLocal package static var current: RequestNotes?

    private let noted = Mutex<(shape: RecognisedShape?, refusal: (error: MarketError, field: String?)?)>((nil, nil))

    package init() {}

    package var recognised: RecognisedShape? { noted.withLock { $0.shape } }
    /// The market's refusal as the API answered it, the field named as the API spelt it.
    package var refusal: (error: MarketError, field: String?)? { noted.withLock { $0.refusal } }

    package static func recognise(_ recognised: RecognisedShape) { current?.noted.withLock { $0.shape = recognised } }

    package static func refuse(_ error: MarketError, field: String?) {
        current?.noted.withLock { $0.refusal = (error, field) }
    }
}
