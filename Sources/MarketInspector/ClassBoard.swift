import Foundation
import MarketCore
import MarketModel
import MarketPages

/// The class board: each team's progress, and the class's tallies with no team named, for a projector.
struct ClassBoard: ClassBoardSource {
    let service: MarketService
    let records: RequestRecords
    let memory: BoardMemory

    func teams() async throws -> [TeamProgress] {
        var teams: [TeamProgress] = []
        for vendor in try await service.vendors() where vendor.isTeam {
            let kept = try await memory.facts(of: vendor.id, in: records)
            let steps = try await records.firstSteps(of: vendor.id)
            teams.append(TeamProgress(vendor: vendor, requests: kept, firstSteps: steps))
        }
        return teams
    }

    /// The steps to show for `teams`: every 2022 step, and the 2021 ones when one of them used that API.
    static func flows(for teams: [TeamProgress]) -> [TeamProgress.Flow] {
        TeamProgress.Flow.allCases.filter { teams.contains(where: \.usesV1) || !TeamProgress.Flow.v1.contains($0) }
    }

    func content(_ strings: Localization) async throws -> PageContent {
        let teams = try await teams()
        let rows: [PageContent] = teams.map { team in
            [
                "id": team.vendor.id, "name": team.vendor.name, "requests": String(team.requests),
                "flows": Self.flows(for: [team]).map { flow -> PageContent in
                    [
                        "flow": strings("board.flow.\(flow.rawValue)"),
                        "when": team.firstWorked[flow].map(PageRenderer.moment),
                    ]
                },
                "refused": strings("board_refused", ["count": String(team.refused)]),
                "commonestRefusal": team.commonestRefusal.map {
                    strings("board_commonest", ["reason": strings.explainKind($0.refusal), "count": String($0.count)])
                },
                "throttled": team.lastThrottled.map { throttled -> PageContent in
                    var moment = PageRenderer.moment(throttled.at)
                    moment["why"] = strings.explain(throttled.refusal)
                    return moment
                },
                "anyForgiven": !team.forgiven.isEmpty,
                "forgiven": team.forgiven.map {
                    strings("board_times", ["what": strings.explain($0.example), "count": String($0.count)])
                },
                "rehearsals": Self.rehearsals(of: team, strings),
                "hardCases": Self.hardCases(of: team, strings),
            ]
        }
        return [
            "teams": rows, "noTeams": rows.isEmpty, "tallies": Self.tallies(teams, strings),
            "kept": strings("board_kept", ["kept": String(RequestRecords.keptRequests)]),
        ]
    }

    /// What the app did after its rehearsed failures, in a sentence; nil when it met none.
    static func rehearsals(of team: TeamProgress, _ strings: Localization) -> String? {
        guard team.rehearsedFailures > 0 || team.registeredTwice > 0 else { return nil }
        let asked = ["failures": String(team.rehearsedFailures), "again": String(team.askedAgain)]
        var said = [strings("board_askedAgain", asked)]
        if let soonest = team.secondsBeforeAskingAgain.min().map(seconds),
            let latest = team.secondsBeforeAskingAgain.max().map(seconds)
        {
            said.append(
                soonest == latest
                    ? strings("board_afterOnce", ["seconds": soonest])
                    : strings("board_after", ["soonest": soonest, "latest": latest]))
        }
        if team.registeredTwice > 0 {
            said.append(strings("board_registeredTwice", ["count": String(team.registeredTwice)]))
        }
        return said.joined(separator: " ")
    }

    /// The hard cases the app met and what it did under them, in a sentence; nil when it met none.
    static func hardCases(of team: TeamProgress, _ strings: Localization) -> String? {
        guard !team.hardCasesMet.isEmpty else { return nil }
        let names = team.hardCasesMet.map { strings("hardCase.\($0.rawValue)") }.joined(separator: ", ")
        return [
            strings("board_hardCasesMet", ["cases": names]),
            strings("board_pagesAskedAgain", ["count": String(team.pagesAskedAgain)]),
            team.hardCasesMet.contains(.missingPicture)
                ? strings("board_missingPictureAgain", ["count": String(team.missingPictureAskedAgain)]) : nil,
            team.hardCasesMet.contains(.shifting)
                ? strings("board_repeatedItems", ["count": String(team.repeatedItems)]) : nil,
        ].compactMap { $0 }.joined(separator: " ")
    }

    static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The class's tallies, no team named: how many did each step, sent each quirk, and so on, each in the same
    /// place on every reload.
    static func tallies(_ teams: [TeamProgress], _ strings: Localization) -> [PageContent] {
        let total = String(teams.count)
        func tally(_ count: Int, _ what: String) -> PageContent {
            ["count": strings("board_tally", ["count": String(count), "total": total]), "what": what]
        }
        var tallies = flows(for: teams).map { flow in
            tally(teams.count { $0.firstWorked[flow] != nil }, strings("board.flow.\(flow.rawValue)"))
        }
        let neverPageTwo = teams.count { $0.firstWorked[.nextPage] == nil && $0.firstWorked[.v1NextPage] == nil }
        tallies.append(
            ["count": strings("board_teams", ["count": String(neverPageTwo)]), "what": strings("board_neverPageTwo")])
        tallies.append(tally(teams.count(where: \.sentPageZero), strings("board_pageZero")))
        // Each kind of quirk once, in the order the class first sent it; the most widespread first.
        var quirks: [(example: Quirk, teams: Int)] = []
        for team in teams {
            for forgiven in team.forgiven {
                if let known = quirks.firstIndex(where: { $0.example.kind == forgiven.example.kind }) {
                    quirks[known].teams += 1
                } else {
                    quirks.append((forgiven.example, 1))
                }
            }
        }
        let widespread = quirks.enumerated().sorted { ($0.element.teams, -$0.offset) > ($1.element.teams, -$1.offset) }
        for (_, quirk) in widespread {
            tallies.append(
                tally(quirk.teams, strings("quirkKind.\(quirk.example.name)", ["key": quirk.example.field ?? ""])))
        }
        tallies.append(tally(teams.count { $0.askedAgain > 0 }, strings("board_askedAgainTally")))
        tallies.append(tally(teams.count { $0.registeredTwice > 0 }, strings("board_registeredTwiceTally")))
        tallies.append(tally(teams.count { $0.lastThrottled != nil }, strings("board_throttledTally")))
        tallies.append(tally(teams.count { !$0.hardCasesMet.isEmpty }, strings("board_hardCasesTally")))
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
                        commonestRefusal: team.commonestRefusal.map {
                            .init(reason: $0.refusal.kindSaid, count: $0.count)
                        },
                        forgiven: team.forgiven.map {
                            .init(quirk: Localization.english.explain($0.example), count: $0.count)
                        },
                        sentPageNo0: team.sentPageZero, rehearsedFailures: team.rehearsedFailures,
                        askedAgain: team.askedAgain, secondsBeforeAskingAgain: team.secondsBeforeAskingAgain,
                        registeredTwice: team.registeredTwice, uses2021API: team.usesV1,
                        lastThrottled: team.lastThrottled.map {
                            .init(at: $0.at, why: Localization.english.explain($0.refusal))
                        },
                        hardCasesMet: team.hardCasesMet, pagesAskedAgain: team.pagesAskedAgain,
                        missingPictureAskedAgain: team.missingPictureAskedAgain, repeatedItems: team.repeatedItems)
                }))
    }

    func csv(_ strings: Localization) async throws -> String {
        let teams = try await teams()
        let flows = Self.flows(for: teams)
        let header =
            [strings("board_vendorIDColumn"), strings("operator_name"), strings("board_requestsColumn")]
            + flows.map { strings("board.flow.\($0.rawValue)") }
            + [
                strings("board_refusedColumn"), strings("board_commonestColumn"), strings("board_forgivenColumn"),
                strings("board_rehearsalsColumn"), strings("board_throttledColumn"), strings("board_hardCasesColumn"),
            ]
        let rows = teams.map { team -> [String] in
            // Moments as a spreadsheet reads them: ISO 8601 in UTC.
            let steps: [String] = flows.map { team.firstWorked[$0]?.formatted(.iso8601) ?? "" }
            let forgiven = team.forgiven.map { "\(strings.explain($0.example)) ×\($0.count)" }
            let throttled = team.lastThrottled.map { $0.at.formatted(.iso8601) + " " + strings.explain($0.refusal) }
            return [String(team.vendor.id), team.vendor.name, String(team.requests)] + steps + [
                String(team.refused), team.commonestRefusal.map { strings.explainKind($0.refusal) } ?? "",
                forgiven.joined(separator: "; "), Self.rehearsals(of: team, strings) ?? "", throttled ?? "",
                Self.hardCases(of: team, strings) ?? "",
            ]
        }
        // Every heading as a heading, whatever the phrase: "List, page 1", not "list, page 1" beside "Name".
        let headings = header.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return ([headings] + rows).map { $0.map(Self.csvField).joined(separator: ",") }.joined(separator: "\r\n")
            + "\r\n"
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

    struct Throttled: Encodable {
        var at: Date
        var why: String
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
    var uses2021API: Bool
    var lastThrottled: Throttled?
    var hardCasesMet: [HardCase]
    var pagesAskedAgain: Int
    var missingPictureAskedAgain: Int
    var repeatedItems: Int

    /// These need names of their own: snake case would write `sent_page_no0` and `uses2021_api`.
    enum CodingKeys: String, CodingKey {
        case vendorId, name, requests, firstWorked, refused, commonestRefusal, forgiven
        case sentPageNo0 = "sent_page_no_0"
        case rehearsedFailures, askedAgain, secondsBeforeAskingAgain, registeredTwice
        case uses2021API = "uses_2021_api"
        case lastThrottled, hardCasesMet, pagesAskedAgain, missingPictureAskedAgain, repeatedItems
    }
}
