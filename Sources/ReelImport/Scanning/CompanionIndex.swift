import Foundation

/// A file in a scanned folder, with the name the grouping rules work on.
struct FolderEntry {
    let name: String
    let url: URL
}

/// The metadata files of one folder, looked up by the stem they describe, so the grouping
/// rules can ask "is there a sidecar for `x`?" without caring which tool wrote it.
struct CompanionIndex {
    private var sidecarsByStem: [String: [(rank: Int, entry: FolderEntry)]] = [:]
    private var captionsByStem: [String: FolderEntry] = [:]
    /// `clip.en.vtt` is listed under `clip` (tag `en`) and under `clip.en` (tag `und`): which
    /// reading is right depends on which video exists, so both are kept.
    private var subtitlesByStem: [String: [(tag: String, entry: FolderEntry)]] = [:]
    /// Names of companions that some candidate claimed; the rest are reported as orphans.
    private(set) var claimed: Set<String> = []
    let all: [FolderEntry]

    /// Which sidecar suffixes mean what. When several describe one stem, the lowest rank wins:
    /// yt-dlp's `.info.json` is the most specific name, and a plain `.json` beats `.json.xz`
    /// because it needs no decompression.
    private static let sidecarSuffixes: [(suffix: String, rank: Int)] = [
        (".info.json", 0), (".json.xz", 2), (".json", 1),
    ]

    init(_ companions: [FolderEntry]) {
        all = companions
        for entry in companions {
            let lowered = entry.name.lowercased()
            if lowered.hasSuffix(".txt") {
                captionsByStem[String(entry.name.dropLast(4))] = entry
                continue
            }
            if lowered.hasSuffix(".vtt") || lowered.hasSuffix(".srt") {
                let base = entry.name.dropLast(4)
                subtitlesByStem[String(base), default: []].append(("und", entry))
                if let dot = base.lastIndex(of: "."), let tag = SubtitleSidecar.normalizedTag(base[base.index(after: dot)...]) {
                    subtitlesByStem[String(base[..<dot]), default: []].append((tag, entry))
                }
                continue
            }
            guard let match = Self.sidecarSuffixes.first(where: { lowered.hasSuffix($0.suffix) }) else { continue }
            let stem = String(entry.name.dropLast(match.suffix.count))
            sidecarsByStem[stem, default: []].append((match.rank, entry))
        }
        for stem in sidecarsByStem.keys {
            sidecarsByStem[stem]?.sort { ($0.rank, $0.entry.name) < ($1.rank, $1.entry.name) }
        }
    }

    func hasMetadata(forStem stem: String) -> Bool {
        sidecarsByStem[stem] != nil || captionsByStem[stem] != nil
    }

    /// The best sidecar for the first of `stems` that has one (callers list the most
    /// specific name first), claiming it.
    mutating func claimSidecar(forStems stems: [String]) -> URL? {
        for stem in stems {
            if let best = sidecarsByStem[stem]?.first {
                claimed.insert(best.entry.name)
                return best.entry.url
            }
        }
        return nil
    }

    mutating func claimCaption(forStems stems: [String]) -> URL? {
        for stem in stems {
            if let caption = captionsByStem[stem] {
                claimed.insert(caption.name)
                return caption.url
            }
        }
        return nil
    }

    /// The subtitle files of a video with stem `stem`, one per language tag (compared without
    /// case; `.vtt` wins over `.srt`, as it needs no conversion), claiming all of them.
    /// `duplicates` are the files that lost to another of the same language, with the winner.
    mutating func claimSubtitles(forStem stem: String) -> (kept: [SubtitleSidecar], duplicates: [(entry: FolderEntry, winner: String)]) {
        var byTag: [String: SubtitleSidecar] = [:]
        var losers: [(entry: FolderEntry, tag: String)] = []
        for (tag, entry) in (subtitlesByStem[stem] ?? []).sorted(by: { $0.entry.name < $1.entry.name }) where !claimed.contains(entry.name) {
            claimed.insert(entry.name)
            let key = tag.lowercased(), sidecar = SubtitleSidecar(url: entry.url, tag: tag)
            if let existing = byTag[key] {
                guard existing.format != "vtt", sidecar.format == "vtt" else {
                    losers.append((entry, key))
                    continue
                }
                losers.append((FolderEntry(name: existing.url.lastPathComponent, url: existing.url), key))
            }
            byTag[key] = sidecar
        }
        let duplicates = losers.map { ($0.entry, byTag[$0.tag]?.url.lastPathComponent ?? "") }
        return (byTag.values.sorted { $0.tag < $1.tag }, duplicates)
    }

    /// Marks every sidecar of `stem` as belonging to a post without choosing one, so that
    /// e.g. the per-file gallery-dl sidecars of a carousel's later images are not reported
    /// as orphans.
    mutating func claimAll(forStem stem: String) {
        for candidate in sidecarsByStem[stem] ?? [] { claimed.insert(candidate.entry.name) }
        if let caption = captionsByStem[stem] { claimed.insert(caption.name) }
    }
}
