import Foundation
import MarketCore
import MarketModel
import MarketPages

/// The class board: each team's progress, and the class's tallies with no team named, for a projector.
struct ClassBoard: ClassBoardSource {
    let service: MarketService
    let records: RequestRecords

    func teams() async throws -> [TeamProgress] {
        var teams: [TeamProgress] = []
        for vendor in try await service.vendors() where MarketService.isTeam(vendor) {
            let kept = try await records.requests(of: vendor.id)
            let steps = try await records.firstSteps(of: vendor.id)
            teams.append(TeamProgress(vendor: vendor, records: kept, firstSteps: steps))
        }
        return teams
    }

    /// The flows to show: every v2 flow, and the v1 flows only when some team used v1.
    static func flows(for teams: [TeamProgress]) -> [TeamProgress.Flow] {
        let v1: [TeamProgress.Flow] = [.v1ListFirstPage, .v1NextPage, .v1Detail, .v1Register, .v1Edit, .v1Delete]
        let usesV1 = teams.contains { team in v1.contains { team.firstWorked[$0] != nil } }
        return TeamProgress.Flow.allCases.filter { usesV1 || !v1.contains($0) }
    }

    func content(_ strings: Localization) async throws -> PageContent {
        let teams = try await teams()
        let flows = Self.flows(for: teams)
        let rows: [PageContent] = teams.map { team in
            [
                "id": team.vendor.id, "name": team.vendor.name, "requests": String(team.requests),
                "flows": flows.map { flow -> PageContent in
                    [
                        "flow": strings("board.flow.\(flow.rawValue)"),
                        "when": team.firstWorked[flow].map { PageRenderer.time.string(from: $0) },
                    ]
                },
                "refused": strings("board_refused", ["count": String(team.refused)]),
                "commonestRefusal": team.commonestRefusal.map {
                    strings("board_commonest", ["reason": strings.explain($0.refusal), "count": String($0.count)])
                },
                "anyForgiven": !team.forgiven.isEmpty,
                "forgiven": team.forgiven.map {
                    strings("board_times", ["what": strings.explain($0.example), "count": String($0.count)])
                },
                "rehearsals": Self.rehearsals(of: team, strings),
            ]
        }
        return [
            "teams": rows, "noTeams": rows.isEmpty, "flowNames": flows.map { strings("board.flow.\($0.rawValue)") },
            "tallies": Self.tallies(teams, flows: flows, strings),
            "kept": strings("board_kept", ["kept": String(RequestRecords.keptRequests)]),
        ]
    }

    /// What the app did after its rehearsed failures, in a sentence; nil when it met none.
    static func rehearsals(of team: TeamProgress, _ strings: Localization) -> String? {
        guard team.rehearsedFailures > 0 || team.registeredTwice > 0 else { return nil }
        let asked = ["failures": String(team.rehearsedFailures), "again": String(team.askedAgain)]
        var said = [strings("board_askedAgain", asked)]
        if let soonest = team.secondsBeforeAskingAgain.min(), let latest = team.secondsBeforeAskingAgain.max() {
            said.append(strings("board_after", ["soonest": seconds(soonest), "latest": seconds(latest)]))
        }
        if team.registeredTwice > 0 {
            said.append(strings("board_registeredTwice", ["count": String(team.registeredTwice)]))
        }
        return said.joined(separator: " ")
    }

    static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The class's tallies, no team named: how many did each flow, sent each quirk, and so on.
    static func tallies(_ teams: [TeamProgress], flows: [TeamProgress.Flow], _ strings: Localization) -> [String] {
        let total = String(teams.count)
        func tally(_ count: Int, _ what: String) -> String {
            strings("board_tally", ["count": String(count), "total": total, "what": what])
        }
        var tallies = flows.map { flow in
            tally(teams.count { $0.firstWorked[flow] != nil }, strings("board.flow.\(flow.rawValue)"))
        }
        let neverPageTwo = teams.count { $0.firstWorked[.nextPage] == nil && $0.firstWorked[.v1NextPage] == nil }
        tallies.append(strings("board_neverPageTwo", ["count": String(neverPageTwo)]))
        tallies.append(tally(teams.count(where: \.sentPageZero), strings("board_pageZero")))
        var quirks: [String: (example: Quirk, teams: Int)] = [:]
        for team in teams {
            for forgiven in team.forgiven { quirks[forgiven.example.kind, default: (forgiven.example, 0)].teams += 1 }
        }
        for (example, count) in quirks.values.sorted(by: { $0.teams > $1.teams }) {
            tallies.append(tally(count, strings.explain(example)))
        }
        tallies.append(tally(teams.count { $0.askedAgain > 0 }, strings("board_askedAgainTally")))
        tallies.append(tally(teams.count { $0.registeredTwice > 0 }, strings("board_registeredTwiceTally")))
        return tallies
    }

    func json() async throws -> Data {
        let teams = try await teams()
        return try JSONEncoder.inspector().encode(
            BoardBody(
                keptRequestsPerTeam: RequestRecords.keptRequests,
                teams: teams.map { team in
                    TeamBody(
                        vendorId: team.vendor.id, name: team.vendor.name, requests: team.requests,
                        firstWorked: Dictionary(uniqueKeysWithValues: team.firstWorked.map { ($0.rawValue, $1) }),
                        refused: team.refused,
                        commonestRefusal: team.commonestRefusal.map { .init(reason: $0.refusal.said, count: $0.count) },
                        forgiven: team.forgiven.map {
                            .init(quirk: Localization.english.explain($0.example), count: $0.count)
                        },
                        sentPageNo0: team.sentPageZero, rehearsedFailures: team.rehearsedFailures,
                        askedAgain: team.askedAgain, secondsBeforeAskingAgain: team.secondsBeforeAskingAgain,
                        registeredTwice: team.registeredTwice)
                }))
    }

    func csv(_ strings: Localization) async throws -> String {
        let teams = try await teams()
        let flows = Self.flows(for: teams)
        let header =
            ["vendor_id", strings("operator_name"), strings("board_requests")]
            + flows.map { strings("board.flow.\($0.rawValue)") }
            + [
                strings("board_refusedColumn"), strings("board_commonestColumn"), strings("board_forgivenColumn"),
                strings("board_rehearsalsColumn"),
            ]
        let rows = teams.map { team in
            [String(team.vendor.id), team.vendor.name, String(team.requests)]
                + flows.map { team.firstWorked[$0].map { PageRenderer.time.string(from: $0) } ?? "" }
                + [
                    String(team.refused), team.commonestRefusal.map { strings.explain($0.refusal) } ?? "",
                    team.forgiven.map { "\(strings.explain($0.example)) ×\($0.count)" }.joined(separator: "; "),
                    Self.rehearsals(of: team, strings) ?? "",
                ]
        }
        return ([header] + rows).map { $0.map(Self.csvField).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    /// A CSV field, quoted where needed. Text that starts like a formula (`=`, `+`, `-`, `@`, tab, CR) gets an
    /// apostrophe first, so that a spreadsheet never runs a team's text.
    static func csvField(_ text: String) -> String {
        let starts = ["=", "+", "-", "@", "\t", "\r"].contains(where: text.hasPrefix)
        let safe = starts && Double(text) == nil ? "'" + text : text
        guard safe.contains(where: { ",\"\r\n".contains($0) }) else { return safe }
        return "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

private struct BoardBody: Encodable {
    var keptRequestsPerTeam: Int
    var teams: [TeamBody]
}

private struct TeamBody: Encodable {
    struct Refusal: Encodable {
        var reason: String
        var count: Int
    }

    struct Forgiven: Encodable {
        var quirk: String
        var count: Int
    }

    var vendorId: Int64
    var name: String
    var requests: Int
    var firstWorked: [String: Date]
    var refused: Int
    var commonestRefusal: Refusal?
    var forgiven: [Forgiven]
    var sentPageNo0: Bool
    var rehearsedFailures: Int
    var askedAgain: Int
    var secondsBeforeAskingAgain: [Double]
    var registeredTwice: Int

    /// Only `sentPageNo0` needs its own name: snake case would write `sent_page_no0`.
    enum CodingKeys: String, CodingKey {
        case vendorId, name, requests, firstWorked, refused, commonestRefusal, forgiven
        case sentPageNo0 = "sent_page_no_0"
        case rehearsedFailures, askedAgain, secondsBeforeAskingAgain, registeredTwice
    }
}
