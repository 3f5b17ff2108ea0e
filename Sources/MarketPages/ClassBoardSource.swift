import Foundation

/// The teacher's class board, from the requests each team's inspector keeps: as page values, JSON and CSV.
package protocol ClassBoardSource: Sendable {
    /// The board's values for `class-board.mustache`: every team's row and the class's tallies.
    func content(_ strings: Localization) async throws -> PageContent
    func json() async throws -> Data
    func csv(_ strings: Localization) async throws -> String
}
