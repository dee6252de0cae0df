import Foundation
import Observation
import ReelKit
import ReelModels

/// Search as the person types: a request 250 ms after the last keystroke, the one in flight
/// cancelled when the text changes (its late answer never shows), results paged, and the
/// recent searches kept on the device.
@Observable @MainActor
public final class SearchModel {
    public static let debounce: TimeInterval = 0.25
    public static let recentLimit = 10

    public private(set) var text = ""
    /// The text the results are for (the view shows "Results for …" from it).
    public private(set) var resultsQuery: String?
    public private(set) var results: PagedList<APIVideo>?
    public private(set) var recent: [String] = []
    /// How many searches were sent to the server (a debounce that works keeps this low).
    public private(set) var requestsSent = 0

    private let context: FeatureContext
    private var pending: Task<Void, Never>?
    private static let recentPath = "recent-searches.json"

    public init(context: FeatureContext) {
        self.context = context
        recent = (try? context.files.read(Self.recentPath)).flatMap { $0 }.flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? []
    }

    /// Every keystroke. The search runs once the text has been still for 250 ms.
    public func textChanged(_ newText: String) {
        text = newText
        pending?.cancel()
        let query = newText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else {
            results = nil
            resultsQuery = nil
            return
        }
        pending = Task { [weak self, clock = context.clock] in
            do { try await clock.sleep(seconds: Self.debounce) } catch { return }
            await self?.run(query)
        }
    }

    /// Return pressed: search now and remember the text.
    public func submit() async {
        pending?.cancel()
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { return }
        remember(query)
        if resultsQuery != query { await run(query) }
    }

    /// A recent search tapped.
    public func search(_ recentText: String) async {
        text = recentText
        await submit()
    }

    /// Waits for the debounced search in flight (tests).
    public func settle() async {
        await pending?.value
    }

    private func run(_ query: String) async {
        guard !Task.isCancelled else { return }
        let client = context.client
        let list = PagedList<APIVideo>(context: context) { cursor throws(ReelAPIError) in
            let page = try await client.search(query, cursor: cursor, limit: 24)
            return (page.items, page.nextCursor)
        }
        requestsSent += 1
        results = list
        resultsQuery = query
        await list.start()
    }

    // MARK: Recent searches

    public func removeRecent(_ query: String) {
        recent.removeAll { $0 == query }
        saveRecent()
    }

    public func clearRecent() {
        recent = []
        saveRecent()
    }

    private func remember(_ query: String) {
        recent.removeAll { $0.caseInsensitiveCompare(query) == .orderedSame }
        recent.insert(query, at: 0)
        if recent.count > Self.recentLimit { recent.removeLast(recent.count - Self.recentLimit) }
        saveRecent()
    }

    private func saveRecent() {
        try? context.files.write(try JSONEncoder().encode(recent), to: Self.recentPath)
    }
}
