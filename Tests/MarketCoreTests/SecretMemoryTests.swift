import Foundation
import Testing

@testable import MarketCore

@Suite struct SecretMemoryTests {
    /// Forty teams' apps send their right secrets all lesson long: none of them is checked by bcrypt again, all at
    /// once, when the ten minutes since it was first checked are over.
    @Test func aSecretInSteadyUseIsRecalledPastItsFirstLifetimeAndForgottenOnceUnused() {
        let memory = SecretMemory(lifetime: 600, capacity: 16)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let steady = memory.tag("stored hash", "right secret")
        let once = memory.tag("stored hash", "sent once")
        memory.remember(steady, at: start)
        memory.remember(once, at: start)
        for minute in stride(from: 5, through: 60, by: 5) {
            #expect(memory.recalls(steady, at: start.addingTimeInterval(Double(minute) * 60)), "minute \(minute)")
        }
        #expect(!memory.recalls(once, at: start.addingTimeInterval(601)))
        #expect(!memory.recalls(steady, at: start.addingTimeInterval(3600 + 601)))
        #expect(!memory.recalls(memory.tag("stored hash", "never sent"), at: start))
    }
}
