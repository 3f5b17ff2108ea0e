import Synchronization

/// A shape of request that tells which apps sent it, and so how the market answered it.
package enum RecognisedShape: String, Codable, Sendable {
    /// A 2021 delete whose JSON body names the item's `id`, as the January 2021 apps send it. They
    /// decode `{"id": n}`, not the deleted item (API reference §2.6).
    case january2021Delete
}

/// What a route recognised in the request it answered, for the inspector that records it. The
/// inspector binds `current` around the routes; a route that recognises a shape notes it there.
package final class RequestNotes: Sendable {
    @TaskLocal package static var current: RequestNotes?

    private let shape = Mutex<RecognisedShape?>(nil)

    package init() {}

    package var recognised: RecognisedShape? { shape.withLock { $0 } }

    package static func recognise(_ recognised: RecognisedShape) {
        current?.shape.withLock { $0 = recognised }
    }
}
