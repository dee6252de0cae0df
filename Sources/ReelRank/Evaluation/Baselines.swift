import Foundation

/// What every offline model sees: the training part of a split, indexed once.
struct EvalData {
    let split: TrainTestSplit
    /// Every item of the whole log, ascending; its position is the item's dense number.
    let catalogue: [Int64]
    let numberOf: [Int64: Int32]
    /// Per person, their training items (dense numbers) in time order, each once.
    let trainItems: [Int64: [Int32]]
    /// The people with a test, ascending (the order models are asked in).
    let testUsers: [Int64]

    init(log: InteractionLog, split: TrainTestSplit) {
        self.split = split
        catalogue = Set(log.entries.map(\.itemID)).sorted()
        var numberOf: [Int64: Int32] = [:]
        for (number, item) in catalogue.enumerated() { numberOf[item] = Int32(number) }
        self.numberOf = numberOf
        let ordered = split.train.enumerated().sorted {
            $0.element.timestamp != $1.element.timestamp ? $0.element.timestamp < $1.element.timestamp : $0.offset < $1.offset
        }
        var trainItems: [Int64: [Int32]] = [:]
        var seen: [Int64: Set<Int32>] = [:]
        for (_, entry) in ordered {
            let number = numberOf[entry.itemID]!
            if seen[entry.userID, default: []].insert(number).inserted { trainItems[entry.userID, default: []].append(number) }
        }
        self.trainItems = trainItems
        testUsers = split.test.keys.sorted()
    }

    /// The best `k` unseen items by `score` (higher first; ties: lower item id). Items scored
    /// zero or less are not recommended.
    func topUnseen(_ score: [Double], user: Int64, k: Int) -> [Int64] {
        let seen = Set(trainItems[user] ?? [])
        var best: [(number: Int, score: Double)] = []
        for (number, value) in score.enumerated() where value > 0 && !seen.contains(Int32(number)) {
            if best.count == k, let last = best.last, value <= last.score { continue }
            let position = best.firstIndex { value > $0.score } ?? best.count
            best.insert((number, value), at: position)
            if best.count > k { best.removeLast() }
        }
        return best.map { catalogue[$0.number] }
    }
}

/// The reference models every row is compared with.
enum Baselines {
    /// Uniformly random unseen items, seeded (the floor: what knowing nothing scores).
    static func random(_ data: EvalData, k: Int, seed: UInt64) -> [Int64: [Int64]] {
        var generator = SeededGenerator(seed: seed)
        var result: [Int64: [Int64]] = [:]
        for user in data.testUsers {
            let seen = Set(data.trainItems[user] ?? [])
            let unseenCount = data.catalogue.count - seen.count
            var picked: [Int32] = []
            var pickedSet = Set<Int32>()
            while picked.count < min(k, unseenCount) {
                let number = Int32(Int.random(in: 0..<data.catalogue.count, using: &generator))
                if !seen.contains(number), pickedSet.insert(number).inserted { picked.append(number) }
            }
            result[user] = picked.map { data.catalogue[Int($0)] }
        }
        return result
    }

    /// The items most people met in training, the same list for everyone minus what they met.
    static func mostPopular(_ data: EvalData, k: Int) -> [Int64: [Int64]] {
        var count = [Double](repeating: 0, count: data.catalogue.count)
        for items in data.trainItems.values { for item in items { count[Int(item)] += 1 } }
        var result: [Int64: [Int64]] = [:]
        for user in data.testUsers { result[user] = data.topUnseen(count, user: user, k: k) }
        return result
    }

    /// Classic item-kNN: cosine similarity over who met what; an item's score for a person is
    /// the summed similarity to the person's items among the item's `neighbours` most similar.
    static func itemKNN(_ data: EvalData, k: Int, neighbours: Int = 100) -> [Int64: [Int64]] {
        let histories = data.trainItems.keys.sorted().map { data.trainItems[$0]! }
        let cosine = CoVisitation(topK: neighbours, popularityExponent: 0.5, maxHistory: Int.max)
        let lists = cosine.denseNeighbors(histories: histories, itemCount: data.catalogue.count)
        // lists[i] are i's neighbours j; a person's item j lends sim(i, j) to i, so index by j.
        var lendsTo = [[DenseNeighbor]](repeating: [], count: data.catalogue.count)
        for (item, list) in lists.enumerated() {
            for neighbour in list { lendsTo[Int(neighbour.item)].append(DenseNeighbor(item: Int32(item), score: neighbour.score)) }
        }
        var result: [Int64: [Int64]] = [:]
        var score = [Double](repeating: 0, count: data.catalogue.count)
        for user in data.testUsers {
            for index in score.indices { score[index] = 0 }
            for item in data.trainItems[user] ?? [] {
                for target in lendsTo[Int(item)] { score[Int(target.item)] += target.score }
            }
            result[user] = data.topUnseen(score, user: user, k: k)
        }
        return result
    }
}
