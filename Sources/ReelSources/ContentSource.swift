import Foundation

/// An outside catalogue that can fill a library: it lists items page by page, for a search or
/// for its own "popular" selection, and downloads an item's file. Pexels is the one adapter
/// today; the seam keeps the staging and import code independent of any one catalogue.
public protocol ContentSource: Sendable {
    /// The catalogue's name as attribution shows it ("Pexels").
    var name: String { get }

    /// The largest page the catalogue serves.
    var maxPerPage: Int { get }

    /// One page (1-based) of at most `perPage` items. A listed item whose files are all
    /// unusable (only 4K renditions, no MP4) is left out with a line in `warnings`.
    func page(_ query: SourceQuery, page: Int, perPage: Int) async throws(SourceError) -> SourcePage

    /// Writes the item's file to `file`; nothing is left at `file` when it fails. A file the
    /// catalogue lists but no longer serves is `.fileMissing`.
    func download(_ item: SourceItem, to file: URL) async throws(SourceError)
}

public enum SourceMediaKind: String, Sendable, Codable, CaseIterable {
    case video
    case photo
}

public enum SourceOrientation: String, Sendable, Codable, CaseIterable {
    case portrait
    case landscape
    case square
}

/// What to list: videos or photos, searched or the catalogue's own selection.
public struct SourceQuery: Sendable, Equatable {
    public var kind: SourceMediaKind
    /// Words to search for; nil lists the catalogue's popular videos or curated photos.
    public var search: String?
    /// Only searches can be narrowed this way (Pexels' popular and curated lists cannot).
    public var orientation: SourceOrientation?

    public init(kind: SourceMediaKind, search: String? = nil, orientation: SourceOrientation? = nil) {
        self.kind = kind
        let trimmed = search?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.search = trimmed?.isEmpty == false ? trimmed : nil
        self.orientation = orientation
    }
}

/// Who made an item and where it lives, as the catalogue asks it to be credited.
public struct SourceAttribution: Sendable, Equatable, Codable {
    /// The catalogue ("Pexels").
    public var source: String
    /// The photographer or videographer.
    public var author: String?
    /// The author's profile page.
    public var authorURL: String?
    /// The item's own page at the catalogue.
    public var pageURL: String?

    public init(source: String, author: String?, authorURL: String?, pageURL: String?) {
        self.source = source
        self.author = author
        self.authorURL = authorURL
        self.pageURL = pageURL
    }

    /// The story tray name of the author: the catalogue and the author's name as a slug
    /// (`pexels-jane-doe`), ASCII only so it reads the same in every client; `pexels` alone
    /// when the name has nothing to keep.
    public var storyAuthor: String {
        let prefix = Slug.make(source)
        let name = Slug.make(author ?? "")
        return name.isEmpty ? prefix : "\(prefix)-\(name)"
    }
}

/// One item of a catalogue, with the file chosen for a short-form library.
public struct SourceItem: Sendable, Equatable {
    /// The catalogue's id (digits for Pexels).
    public var id: String
    public var kind: SourceMediaKind
    /// The rendition to download: portrait-friendly, HD or less, never 4K.
    public var downloadURL: URL
    /// The file's extension (`mp4`, `jpeg`…), from its type or its URL.
    public var fileExtension: String
    /// Size of the chosen rendition where the catalogue says it.
    public var width: Int?
    public var height: Int?
    /// Seconds (videos).
    public var duration: Double?
    public var attribution: SourceAttribution
    public var tags: [String]
    public var description: String?

    public init(
        id: String, kind: SourceMediaKind, downloadURL: URL, fileExtension: String, width: Int?, height: Int?, duration: Double?,
        attribution: SourceAttribution, tags: [String] = [], description: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.downloadURL = downloadURL
        self.fileExtension = fileExtension
        self.width = width
        self.height = height
        self.duration = duration
        self.attribution = attribution
        self.tags = tags
        self.description = description
    }

    /// A file-name stem made of our own words and the catalogue's id (checked to be plain):
    /// `pexels-video-2499611`.
    public var stem: String {
        "\(Slug.make(attribution.source))-\(kind.rawValue)-\(Slug.make(id))"
    }
}

/// One page of a listing.
public struct SourcePage: Sendable, Equatable {
    public var items: [SourceItem]
    /// The page to ask for next; nil at the end of the listing.
    public var nextPage: Int?
    public var totalResults: Int?
    /// Listed items left out, one line each.
    public var warnings: [String]

    public init(items: [SourceItem], nextPage: Int?, totalResults: Int? = nil, warnings: [String] = []) {
        self.items = items
        self.nextPage = nextPage
        self.totalResults = totalResults
        self.warnings = warnings
    }
}

/// Lowercase ASCII letters and digits joined by single hyphens: other scripts transliterated
/// (`李明` → `li-ming`), accents folded away, everything else a separator.
enum Slug {
    static func make(_ text: String) -> String {
        let latin = text.applyingTransform(.toLatin, reverse: false) ?? text
        let folded = latin.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingHyphen, !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        // Cut at a word boundary so a long name never ends in a hyphen.
        return String(slug.prefix(64)).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }
}
