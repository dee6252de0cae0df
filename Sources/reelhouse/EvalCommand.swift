import ArgumentParser
import Foundation
import ReelRank

/// `reelhouse eval`: For You's ranking against random, most-popular and item-kNN over an
/// interaction log (MovieLens-100k, or a small generated one). All the work is ReelRank's.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate For You's ranking offline: Recall@10, NDCG@10 and coverage per model and split."
    )

    enum SplitChoice: String, ExpressibleByArgument, CaseIterable {
        case user, global, both

        var protocols: [SplitProtocol] {
            switch self {
            case .user: [.perUser]
            case .global: [.global]
            case .both: [.perUser, .global]
            }
        }
    }

    @Option(name: .long, help: "A RecBole .inter file, e.g. .cache/movielens/ml-100k.inter (make eval fetches it).")
    var movielens: String?

    @Flag(name: .long, help: "Evaluate on a small seeded log of people with latent tastes.")
    var generated = false

    @Option(name: .long, help: "Seed of the generated log (with --generated).")
    var seed: UInt64 = 16

    @Option(name: .long, help: "user (per-user temporal 80/20), global (one time cut) or both.")
    var split: SplitChoice = .both

    func validate() throws {
        if (movielens == nil) == !generated {
            throw ValidationError("give either --movielens PATH or --generated")
        }
    }

    func run() throws {
        let log: InteractionLog
        if let movielens {
            do {
                log = try InteractionLog.readRecBole(path: movielens)
            } catch {
                if case .unreadableLog = error { fail("\(error)") }
                fail("\(movielens): \(error)")
            }
        } else {
            log = GeneratedLog(seed: seed).make()
        }
        print("\(log.entries.count) interactions, \(log.userCount) people, \(log.catalogueSize) items")
        var reports: [SplitReport] = []
        for splitProtocol in split.protocols {
            do {
                let report = try OfflineEvaluation().run(log, split: splitProtocol)
                print("")
                print(report.table)
                reports.append(report)
            } catch {
                fail("\(splitProtocol.rawValue) split: \(error)")
            }
        }
        let goals = generated ? EvalGoal.generated(reports) : EvalGoal.movieLens(reports)
        print("")
        for goal in goals { print("\(goal.holds ? "✓" : "✗") \(goal.statement)") }
        let held = goals.filter(\.holds).count
        print(held == goals.count ? "goals hold (\(held) of \(goals.count))" : "goals NOT met (\(held) of \(goals.count) hold)")
    }

    private func fail(_ line: String) -> Never {
        FileHandle.standardError.write(Data("error: \(line)\n".utf8))
        Self.exit(withError: ExitCode(1))
    }
}
