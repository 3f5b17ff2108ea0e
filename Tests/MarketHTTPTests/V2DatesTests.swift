import Foundation
import Testing

@testable import MarketAPIv2

@Suite struct V2DatesTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.00"),
        (1_652_486_399.9, "2022-05-13T00:00:00.00"),
        (1_652_486_400.0, "2022-05-14T00:00:00.00"),
        (951_782_400.0, "2000-02-29T00:00:00.00"),
        (4_107_542_400.0, "2100-03-01T00:00:00.00"),
        (-86_400.0, "1969-12-31T00:00:00.00"),
    ])
    func daysAreUTCMidnightsWithTwoFractionDigitsOnMarketTraining(seconds: Double, expected: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(V2Flavor.marketTraining.day(date) == expected)
        #expect(V2Flavor.openmarket.day(date) == String(expected.dropLast(3)))
    }

    @Test func agreesWithTheCalendarForEveryDayOfFourHundredYears() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for day in stride(from: -36_524, to: 109_573, by: 1) {
            let date = Date(timeIntervalSince1970: Double(day) * 86_400 + 43_200)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let expected = String(format: "%04d-%02d-%02dT00:00:00", parts.year!, parts.month!, parts.day!)
            if V2Dates.day(date) != expected {
                Issue.record("day \(day): \(V2Dates.day(date)) != \(expected)")
                return
            }
        }
    }
}
