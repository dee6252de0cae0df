/// What `GET /api/v1/browse` sorts by. Ties always break on the post id, in the same direction.
public enum BrowseSort: String, Sendable, CaseIterable, Codable {
    /// A–Z by `TitleSortKey`.
    case title
    /// Date added.
    case newest
    /// Date posted (posts without one sort as the earliest).
    case posted
    /// Seconds (images count as 0).
    case duration
    /// The viewer's rating (unrated counts as 0).
    case rating

    /// The direction a person expects when they pick the sort without one.
    public var descendingByDefault: Bool {
        switch self {
        case .title, .duration: false
        case .newest, .posted, .rating: true
        }
    }
}
