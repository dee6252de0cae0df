import Foundation

/// A small seeded log of people with latent tastes — what `make test` evaluates on (MovieLens is
/// downloaded only by `make eval`).
///
/// Items belong to one of `tastes` kinds and have an appeal that follows a power law (a few hits,
/// a long tail). Each person has a main taste (≈70 % of what they pick), a second one (≈20 %)
/// and wanders at random for the rest; within a taste they pick unseen items by appeal. They rate
/// their main taste 4–5★, their second 3–4★ and the rest 1–3★. People start at different
/// times over `days` and interact a few times a day, so the global split meets new people.
public struct GeneratedLog: Sendable {
    public var users: Int
    public var items: Int
    public var tastes: Int
    public var days: Double
    public var seed: UInt64

    public init(users: Int = 200, items: Int = 400, tastes: Int = 8, days: Double = 90, seed: UInt64 = 16) {
        self.users = users
        self.items = items
        self.tastes = tastes
        self.days = days
        self.seed = seed
    }

    public func make() -> InteractionLog {
        var random = SeededGenerator(seed: seed)
        let tasteOf = (0..<items).map { _ in Int.random(in: 0..<tastes, using: &random) }
        let appeal = (0..<items).map { _ in 1 / pow(Double(Int.random(in: 1...items, using: &random)), 0.8) }
        var itemsOf = [[Int]](repeating: [], count: tastes)
        for item in 0..<items { itemsOf[tasteOf[item]].append(item) }

        let start = 1_700_000_000.0
        var entries: [LogEntry] = []
        for user in 1...users {
            let main = Int.random(in: 0..<tastes, using: &random)
            let second = (main + Int.random(in: 1..<tastes, using: &random)) % tastes
            var time = start + Double.random(in: 0..<(days * 0.8), using: &random) * 86_400
            var seen = Set<Int>()
            for _ in 0..<Int.random(in: 20...60, using: &random) {
                let roll = Double.random(in: 0..<1, using: &random)
                let taste = roll < 0.7 ? main : roll < 0.9 ? second : Int.random(in: 0..<tastes, using: &random)
                guard let item = pick(from: itemsOf[taste].filter { !seen.contains($0) }, appeal: appeal, using: &random) else { continue }
                seen.insert(item)
                let stars = taste == main ? Int.random(in: 4...5, using: &random)
                    : taste == second ? Int.random(in: 3...4, using: &random) : Int.random(in: 1...3, using: &random)
                time += Double.random(in: 600..<(8 * 3_600), using: &random)
                entries.append(LogEntry(userID: Int64(user), itemID: Int64(item + 1), rating: Double(stars), timestamp: time.rounded()))
            }
        }
        return InteractionLog(entries: entries)
    }

    private func pick(from candidates: [Int], appeal: [Double], using random: inout SeededGenerator) -> Int? {
        let total = candidates.reduce(0) { $0 + appeal[$1] }
        guard total > 0 else { return nil }
        var roll = Double.random(in: 0..<total, using: &random)
        for item in candidates {
            roll -= appeal[item]
            if roll < 0 { return item }
        }
        return candidates.last
    }
}
