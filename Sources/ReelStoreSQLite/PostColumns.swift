import GRDB
import ReelStore

/// Where each column a post (and a feed query's viewer state) is read from sits in a query's
/// rows: looked up once per query, not by name for every value of every row.
///
/// GRDB finds a column by name with a case-insensitive scan of the row's columns, and a post
/// reads about twenty of them from rows of thirty: profiling the feed put that scan at a
/// noticeable share of a page. All rows of one query share their columns, so the first row
/// tells where everything is.
struct PostColumns {
    let id, folderName, kind, status, description, uploader, username, shortcode, datePosted: Int
    let sourceURL, dateAdded, contentHash, mediaJSON, failureReason, filter, createdBy, preparation, libraryID: Int
    /// The `viewer_…` columns of a feed query; nil when the query selected none.
    let viewer: ViewerColumns?
    /// `revision`; nil when the query did not select it.
    let revision: Int?
    /// `trim_start`/`trim_duration`; nil when the query selected neither (listings of
    /// published posts need not: only the transcode reads a post's trim).
    let trim: (start: Int, duration: Int)?

    struct ViewerColumns {
        let favoritedAt, rating, position, seenAt: Int
    }

    init(_ row: Row) throws {
        var indexes: [String: Int] = [:]
        for (index, name) in row.columnNames.enumerated() where indexes[name] == nil {
            indexes[name] = index
        }
        func at(_ name: String) throws -> Int {
            guard let index = indexes[name] else { throw StoreError.corrupt("a post query did not select \(name)") }
            return index
        }
        id = try at("id")
        folderName = try at("folder_name")
        kind = try at("kind")
        status = try at("status")
        description = try at("description")
        uploader = try at("uploader")
        username = try at("username")
        shortcode = try at("shortcode")
        datePosted = try at("date_posted")
        sourceURL = try at("source_url")
        dateAdded = try at("date_added")
        contentHash = try at("content_hash")
        mediaJSON = try at("media_json")
        failureReason = try at("failure_reason")
        filter = try at("filter")
        createdBy = try at("created_by")
        preparation = try at("preparation")
        libraryID = try at("library_id")
        revision = indexes["revision"]
        if let start = indexes["trim_start"] {
            trim = (start, try at("trim_duration"))
        } else {
            trim = nil
        }
        if let favoritedAt = indexes["viewer_favorited_at"] {
            viewer = ViewerColumns(
                favoritedAt: favoritedAt, rating: try at("viewer_rating"), position: try at("viewer_position"),
                seenAt: try at("viewer_seen_at")
            )
        } else {
            viewer = nil
        }
    }
}
