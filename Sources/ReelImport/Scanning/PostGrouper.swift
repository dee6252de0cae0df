import Foundation
import ReelModels

/// Decides which files of ONE folder form which posts. Download tools only ever put a post's
/// files side by side, so grouping never looks across folders.
///
/// The rules, in order:
/// 1. An image with the same stem as a video (`x.jpg` next to `x.mp4`) is that video's
///    thumbnail (yt-dlp `--write-thumbnail`, instaloader's default) and is not a post.
/// 2. Files named `<base>_<N>.<ext>` form one instaloader-style group when `<base>` has a
///    sidecar or caption, or, lacking that, when the indices are exactly 1…n (n ≥ 2) with at
///    least two images. The second condition keeps a phone's `IMG_1234.jpg`, `IMG_1235.jpg`
///    from becoming one giant carousel.
/// 3. In a group, all images form ONE candidate (a carousel when there are two or more) and
///    every video becomes its own `.video` candidate sharing the group's sidecar and caption:
///    a post cannot be half carousel, half video, and losing the metadata would be worse
///    than repeating it.
/// 4. Everything else is a post of its own, with the sidecar found under, in order:
///    `<name>.<ext>.json` (gallery-dl), `<stem>.info.json` (yt-dlp), `<stem>.json`,
///    `<stem>.json.xz` (instaloader, gallery-dl), and caption `<stem>.txt`.
struct PostGrouper {
    private struct MediaFile {
        let entry: FolderEntry
        let type: MediaFileType
        let stem: String
        /// `x` and 3 for `x_3.jpg`.
        let indexed: (base: String, index: Int)?
    }

    private var companions: CompanionIndex
    private let displayPrefix: String
    private(set) var candidates: [ImportCandidate] = []
    private(set) var ignored: [IgnoredFile] = []

    /// `media` are the files to turn into posts; `companions` every `.json`, `.json.xz` and
    /// `.txt` of the folder, which may describe them. `displayPrefix` is the folder's path
    /// relative to the scanned root ("" at the root).
    init(media: [FolderEntry], companions: [FolderEntry], displayPrefix: String) {
        self.companions = CompanionIndex(companions)
        self.displayPrefix = displayPrefix
        group(media.compactMap(Self.describe))
    }

    /// Companions no candidate claimed, to report when the whole folder was scanned.
    var orphanedCompanions: [IgnoredFile] {
        companions.all.filter { !companions.claimed.contains($0.name) }.map { entry in
            switch CompanionKind(fileName: entry.name) {
            case .subtitles: return IgnoredFile(path: display(entry.name), reason: "subtitles without a matching video")
            case .caption: return IgnoredFile(path: display(entry.name), reason: "text file without a matching media file")
            default: return IgnoredFile(path: display(entry.name), reason: "metadata file without a matching media file")
            }
        }
    }

    private mutating func group(_ media: [MediaFile]) {
        var videoByStem: [String: String] = [:]
        for file in media where file.type == .video { videoByStem[file.stem] = videoByStem[file.stem] ?? file.entry.name }
        var remaining: [MediaFile] = []
        for file in media {
            if file.type == .image, let video = videoByStem[file.stem] {
                ignored.append(IgnoredFile(path: display(file.entry.name), reason: "thumbnail of \(video)"))
            } else {
                remaining.append(file)
            }
        }

        var groups: [String: [MediaFile]] = [:]
        for file in remaining { if let base = file.indexed?.base { groups[base, default: []].append(file) } }
        var grouped: Set<String> = []
        for (base, members) in groups.sorted(by: { $0.key < $1.key }) where formsGroup(base: base, members: members) {
            addGroup(base: base, members: members)
            members.forEach { grouped.insert($0.entry.name) }
        }
        for file in remaining where !grouped.contains(file.entry.name) {
            addSingle(file)
        }
        candidates.sort { $0.displayPath < $1.displayPath }
    }

    private func formsGroup(base: String, members: [MediaFile]) -> Bool {
        if companions.hasMetadata(forStem: base) { return true }
        let indices = members.compactMap { $0.indexed?.index }.sorted()
        let images = members.filter { $0.type == .image }.count
        return images >= 2 && indices == Array(1...indices.count)
    }

    private mutating func addGroup(base: String, members: [MediaFile]) {
        let ordered = members.sorted { ($0.indexed?.index ?? 0, $0.entry.name) < ($1.indexed?.index ?? 0, $1.entry.name) }
        let baseSidecar = companions.claimSidecar(forStems: [base])
        let baseCaption = companions.claimCaption(forStems: [base])
        companions.claimAll(forStem: base)

        var images: [(file: MediaFile, sidecar: URL?, caption: URL?)] = []
        for file in ordered {
            let ownSidecar = claimOwnSidecar(of: file)
            let ownCaption = companions.claimCaption(forStems: [file.stem])
            guard file.type == .video else {
                images.append((file, ownSidecar, ownCaption))
                continue
            }
            candidates.append(ImportCandidate(
                kind: .video, mediaFiles: [file.entry.url], sidecar: ownSidecar ?? baseSidecar,
                captionFile: ownCaption ?? baseCaption, displayPath: display(file.entry.name),
                subtitles: claimSubtitles(of: file)
            ))
        }
        guard let first = images.first else { return }
        // The group's own sidecar describes the whole post; gallery-dl writes one per file
        // instead, and then the first image's is as good as any.
        candidates.append(ImportCandidate(
            kind: images.count >= 2 ? .carousel : .image, mediaFiles: images.map(\.file.entry.url),
            sidecar: baseSidecar ?? first.sidecar, captionFile: baseCaption ?? first.caption,
            displayPath: display(first.file.entry.name)
        ))
    }

    private mutating func addSingle(_ file: MediaFile) {
        let sidecar = claimOwnSidecar(of: file)
        let caption = companions.claimCaption(forStems: [file.stem])
        candidates.append(ImportCandidate(
            kind: file.type == .video ? .video : .image, mediaFiles: [file.entry.url],
            sidecar: sidecar, captionFile: caption, displayPath: display(file.entry.name),
            subtitles: file.type == .video ? claimSubtitles(of: file) : []
        ))
    }

    /// A video's subtitle files, one per language; the others of a language are reported.
    private mutating func claimSubtitles(of file: MediaFile) -> [SubtitleSidecar] {
        let (kept, duplicates) = companions.claimSubtitles(forStem: file.stem)
        for (entry, winner) in duplicates {
            ignored.append(IgnoredFile(path: display(entry.name), reason: "subtitles in the same language as \(winner)"))
        }
        return kept
    }

    /// gallery-dl names its sidecar after the full file name (`x.jpg.json`), the others after
    /// the stem; any other sidecars under those names are claimed too, so a folder holding
    /// both `x.info.json` and `x.json` does not report one of them as an orphan.
    private mutating func claimOwnSidecar(of file: MediaFile) -> URL? {
        let sidecar = companions.claimSidecar(forStems: [file.entry.name, file.stem])
        companions.claimAll(forStem: file.entry.name)
        companions.claimAll(forStem: file.stem)
        return sidecar
    }

    private func display(_ name: String) -> String {
        displayPrefix.isEmpty ? name : displayPrefix + "/" + name
    }

    private static func describe(_ entry: FolderEntry) -> MediaFile? {
        let name = entry.name as NSString
        guard let type = MediaFileType(pathExtension: name.pathExtension) else { return nil }
        let stem = name.deletingPathExtension
        return MediaFile(entry: entry, type: type, stem: stem, indexed: indexParts(of: stem))
    }

    /// Splits `x_12` into `x` and 12. Leading zeros (`IMG_0001`) and absurdly long numbers
    /// are not instaloader indices, which start at 1 and are written plainly.
    static func indexParts(of stem: String) -> (base: String, index: Int)? {
        guard let underscore = stem.lastIndex(of: "_") else { return nil }
        let base = String(stem[..<underscore])
        let digits = stem[stem.index(after: underscore)...]
        guard !base.isEmpty, (1...4).contains(digits.count), digits.first != "0",
              digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits) else { return nil }
        return (base, index)
    }
}
