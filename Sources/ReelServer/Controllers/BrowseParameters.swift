import Foundation
import Hummingbird
import ReelModels
import ReelStore

/// `GET /api/v1/browse`'s query parameters as a `BrowseQuery`. A value that makes no sense is
/// a 400 `bad_request` naming the parameter; an empty value means the parameter is absent.
enum BrowseParameters {
    static let maxListItems = 20
    static let maxNameLength = 100

    static func query(_ parameters: Parameters) throws(APIError) -> BrowseQuery {
        func value(_ name: String) -> String? {
            guard let text = parameters[Substring(name)], !text.isEmpty else { return nil }
            return String(text)
        }
        var sort = BrowseSort.title
        if let text = value("sort") {
            guard let parsed = BrowseSort(rawValue: text) else {
                throw APIError.badRequest("sort must be one of \(BrowseSort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            sort = parsed
        }
        var descending: Bool?
        if let text = value("order") {
            switch text {
            case "asc": descending = false
            case "desc": descending = true
            default: throw APIError.badRequest("order must be asc or desc")
            }
        }
        var filter = CatalogFilter()
        filter.tags = try list(value("tags"), name: "tags")
        filter.excludeTags = try list(value("exclude_tags"), name: "exclude_tags")
        filter.uploaders = try list(value("uploader"), name: "uploader")
        if let text = value("kind") {
            for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let kind = PostKind(rawValue: String(piece)) else {
                    throw APIError.badRequest("kind must be a comma-separated list of video, image, carousel")
                }
                if !filter.kinds.contains(kind) { filter.kinds.append(kind) }
            }
        }
        filter.minDuration = try seconds(value("min_duration"), name: "min_duration")
        filter.maxDuration = try seconds(value("max_duration"), name: "max_duration")
        if let minimum = filter.minDuration, let maximum = filter.maxDuration, minimum > maximum {
            throw APIError.badRequest("min_duration must not be more than max_duration")
        }
        filter.favoritesOnly = try flag(value("favorites"), name: "favorites") ?? false
        if let text = value("min_rating") {
            guard let rating = Int(text), (1...5).contains(rating) else { throw APIError.badRequest("min_rating must be an integer from 1 to 5") }
            filter.minRating = rating
        }
        filter.seen = try flag(value("seen"), name: "seen")
        return BrowseQuery(sort: sort, descending: descending, filter: filter)
    }

    /// The query in one canonical line, which its cursors are sealed with: the same filters in
    /// another spelling (order of a list, case of a tag) give the same line.
    static func canonical(_ query: BrowseQuery) -> String {
        let filter = query.filter
        func sorted(_ names: [String]) -> String { names.map { $0.lowercased() }.sorted().joined(separator: ",") }
        return [
            "browse", query.sort.rawValue, query.descending ? "desc" : "asc",
            sorted(filter.tags), sorted(filter.excludeTags), sorted(filter.uploaders),
            filter.kinds.map(\.rawValue).sorted().joined(separator: ","),
            filter.minDuration.map { "\($0)" } ?? "", filter.maxDuration.map { "\($0)" } ?? "",
            filter.favoritesOnly ? "1" : "0", filter.minRating.map(String.init) ?? "", filter.seen.map { $0 ? "1" : "0" } ?? "",
        ].joined(separator: ";")
    }

    /// A comma-separated list of names: surrounding spaces trimmed, empty pieces dropped.
    static func list(_ text: String?, name: String) throws(APIError) -> [String] {
        guard let text else { return [] }
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard names.count <= maxListItems else { throw APIError.badRequest("\(name) lists at most \(maxListItems) names") }
        guard names.allSatisfy({ $0.count <= maxNameLength }) else {
            throw APIError.badRequest("each name in \(name) is at most \(maxNameLength) characters")
        }
        return names
    }

    static func seconds(_ text: String?, name: String) throws(APIError) -> Double? {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw APIError.badRequest("\(name) must be a number of seconds, 0 or more")
        }
        return value
    }

    static func flag(_ text: String?, name: String) throws(APIError) -> Bool? {
        switch text {
        case nil: nil
        case "true", "1": true
        case "false", "0": false
        default: throw APIError.badRequest("\(name) must be true or false")
        }
    }
}
