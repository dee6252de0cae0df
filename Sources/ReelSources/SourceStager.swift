import Foundation

/// Fills a folder with up to `limit` items of a catalogue, each file beside a yt-dlp-style
/// `.info.json` carrying its attribution, so the normal import pipeline takes it from there.
///
/// Pages are read until the limit is reached, the listing ends, or `maxPages` were read (a
/// listing of nothing but unusable items must not burn the whole rate limit). An item whose
/// file is gone or fails to download is skipped with a reason; anything that stops the whole
/// run (a refused key, a rate limit too far from its reset, an unreachable API, a full disk)
/// ends it, and what was staged until then is reported with it.
public struct SourceStager: Sendable {
    let source: any ContentSource
    let maxPages: Int

    public init(source: any ContentSource, maxPages: Int = 20) {
        self.source = source
        self.maxPages = max(1, maxPages)
    }

    public func stage(
        _ query: SourceQuery, limit: Int, into folder: URL, onEvent: @Sendable (StagingEvent) -> Void = { _ in }
    ) async -> StagingReport {
        var report = StagingReport()
        guard limit > 0 else { return report }
        // One page size for the whole run: Pexels pages by offset, so changing it would skip
        // or repeat items.
        let perPage = min(limit, source.maxPerPage)
        var seen: Set<String> = []
        var pageNumber: Int? = 1
        var pagesRead = 0
        while let current = pageNumber, report.staged.count < limit, pagesRead < maxPages {
            let page: SourcePage
            do {
                page = try await source.page(query, page: current, perPage: perPage)
            } catch {
                report.stoppedBy = error
                return report
            }
            pagesRead += 1
            onEvent(.listed(page: current, items: page.items.count, total: page.totalResults))
            for warning in page.warnings {
                report.skipped.append(.init(id: nil, reason: warning))
                onEvent(.skipped(id: nil, reason: warning))
            }
            for item in page.items where report.staged.count < limit && seen.insert(item.stem).inserted {
                onEvent(.downloading(item, index: report.staged.count + 1, limit: limit))
                do {
                    report.staged.append(try await stage(item, into: folder))
                } catch where error.skipsItemOnly {
                    report.skipped.append(.init(id: item.id, reason: error.description))
                    onEvent(.skipped(id: item.id, reason: error.description))
                } catch {
                    report.stoppedBy = error
                    return report
                }
            }
            pageNumber = page.nextPage
        }
        return report
    }

    private func stage(_ item: SourceItem, into folder: URL) async throws(SourceError) -> StagedItem {
        let file = folder.appendingPathComponent("\(item.stem).\(item.fileExtension)")
        let sidecar = folder.appendingPathComponent("\(item.stem).info.json")
        try await source.download(item, to: file)
        do {
            try SourceSidecar(item: item).data().write(to: sidecar, options: .atomic)
        } catch {
            // Without its sidecar the file would be imported without credit: remove it too.
            try? FileManager.default.removeItem(at: file)
            throw .storage("writing \(sidecar.lastPathComponent) failed: \((error as NSError).localizedDescription)")
        }
        return StagedItem(item: item, file: file, sidecar: sidecar)
    }
}

public enum StagingEvent: Sendable {
    case listed(page: Int, items: Int, total: Int?)
    case downloading(SourceItem, index: Int, limit: Int)
    case skipped(id: String?, reason: String)
}

public struct StagedItem: Sendable, Equatable {
    public var item: SourceItem
    public var file: URL
    public var sidecar: URL
}

public struct StagingReport: Sendable, Equatable {
    public struct Skip: Sendable, Equatable {
        /// The catalogue's id, when the item got that far.
        public var id: String?
        public var reason: String

        public init(id: String?, reason: String) {
            self.id = id
            self.reason = reason
        }
    }

    public var staged: [StagedItem] = []
    public var skipped: [Skip] = []
    /// Why the run ended early, if it did.
    public var stoppedBy: SourceError?

    public init() {}
}

/// The staged items of one story author, moved into a folder of their own so one import run
/// can file them all as that author's stories.
public struct StoryAuthorBatch: Sendable, Equatable {
    /// `pexels-jane-doe`.
    public var author: String
    public var folder: URL
    public var items: [StagedItem]
}

extension StagingReport {
    /// Moves each staged file and its sidecar into `<folder>/<story author>/` (authors are
    /// ASCII slugs, safe as folder names) and lists the batches in the order their first item
    /// was staged.
    public func batchesByStoryAuthor(in folder: URL) throws(SourceError) -> [StoryAuthorBatch] {
        var batches: [StoryAuthorBatch] = []
        let fileManager = FileManager.default
        do {
            for staged in staged {
                let author = staged.item.attribution.storyAuthor
                let index = batches.firstIndex { $0.author == author } ?? {
                    batches.append(StoryAuthorBatch(author: author, folder: folder.appendingPathComponent(author, isDirectory: true), items: []))
                    return batches.count - 1
                }()
                try fileManager.createDirectory(at: batches[index].folder, withIntermediateDirectories: true)
                var moved = staged
                moved.file = batches[index].folder.appendingPathComponent(staged.file.lastPathComponent)
                moved.sidecar = batches[index].folder.appendingPathComponent(staged.sidecar.lastPathComponent)
                try fileManager.moveItem(at: staged.file, to: moved.file)
                try fileManager.moveItem(at: staged.sidecar, to: moved.sidecar)
                batches[index].items.append(moved)
            }
        } catch {
            throw .storage("sorting the downloads by author failed: \((error as NSError).localizedDescription)")
        }
        return batches
    }
}
