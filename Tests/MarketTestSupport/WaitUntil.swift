/// Waits for a condition that nothing signals (a server's counters, another process's
/// reconnection): it is asked again every `pause`, for at most `limit`, and the wait fails with
/// `what` when it never holds.
public func waitUntil(
    _ what: String, pause: Duration = .milliseconds(10), limit: Duration = .seconds(60),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw RawHTTPError("never: \(what)") }
        // Nothing signals the condition, so it is asked again after a pause, bounded by `limit`.
        try await Task.sleep(for: pause)
    }
}
