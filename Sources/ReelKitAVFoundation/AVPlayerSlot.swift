#if canImport(AVFoundation)
import AVFoundation
import Foundation
import ReelKit
import ReelModels

/// One `AVPlayer` behind ReelKit's `PlayerSlot`: the `PlayerPool` hands it feed items and it
/// turns the signed master playlist into an `AVPlayerItem`. No `AVAssetResourceLoader`
/// delegate is needed: the media token is part of the URL path, so every relative URI in the
/// playlists (variants, segments, `../key`) carries it and AVPlayer sends no custom header.
///
/// What belongs to the player lives here: a short forward buffer, looping by seeking to zero
/// when an item ends (AVPlayerLooper misbehaves with HLS), the time actually played and the
/// loops (for the feed's watch events), and media failures with the HTTP status AVPlayer's
/// error log reports (a 403/410 on a signed URL means the item needs fresh URLs).
///
/// Not compiled or run on Linux (no AVFoundation there): syntax-checked only.
@MainActor
public final class AVPlayerSlot: PlayerSlot {
    public let player: AVPlayer
    private let baseURL: URL
    private let startPosition: (Int64) -> TimeInterval?
    public private(set) var videoID: Int64?
    /// How often the item on screen played to its end and started over.
    public private(set) var loops = 0
    /// Seconds actually played (stalls and pauses not counted), every loop included.
    public private(set) var playedSeconds: Double = 0
    /// Seconds of media AVPlayer asks for ahead of the playhead.
    public var forwardBuffer: TimeInterval = 4
    /// Data saver: a ceiling on the variant AVPlayer picks (bits per second); 0 lets it choose.
    public var peakBitRate: Double = 0 {
        didSet { player.currentItem?.preferredPeakBitRate = peakBitRate }
    }
    /// The item's media failed; `httpStatus` is the last status AVPlayer's error log saw (403,
    /// 410…), nil when it reported none.
    public var onFailure: ((_ videoID: Int64, _ httpStatus: Int?) -> Void)?
    /// About twice a second while playing: the time played so far and the loops.
    public var onPlayback: ((_ videoID: Int64, _ watchedMs: Int, _ loops: Int) -> Void)?

    private var itemObservers: [any NSObjectProtocol] = []
    private var statusObservation: NSKeyValueObservation?
    private var timeObserver: Any?
    private var lastTime: Double?
    private var reportedFailure = false
    /// What the pool last asked for: a loop that ends after a pause must not start playing.
    private var wantsPlay = false

    /// `startPosition` answers where to resume an item (from `ResumePositions`), nil for 0.
    public init(baseURL: URL, player: AVPlayer = AVPlayer(), startPosition: @escaping (Int64) -> TimeInterval? = { _ in nil }) {
        self.baseURL = baseURL
        self.player = player
        self.startPosition = startPosition
        player.automaticallyWaitsToMinimizeStalling = true
        player.actionAtItemEnd = .pause
        let interval = CMTime(seconds: 0.5, preferredTimescale: 600)
        timeObserver = player.addPeriodicTimeObserver(forInterval: interval, queue: .main) { @Sendable [weak self] time in
            MainActor.assumeIsolated { self?.timePassed(time.seconds) }
        }
    }

    public func load(_ item: APIVideo) {
        // The same item again means fresh signed URLs after a 403/410: keep the position.
        let sameItem = videoID == item.id
        let keep = sameItem ? player.currentTime() : nil
        videoID = item.id
        if !sameItem {
            loops = 0
            playedSeconds = 0
        }
        lastTime = nil
        reportedFailure = false
        guard let master = item.media.master, let url = URL(string: master, relativeTo: baseURL)?.absoluteURL else {
            replace(with: nil)
            return
        }
        let playerItem = AVPlayerItem(url: url)
        // Start small: the lowest rung is what the feed prefetched.
        playerItem.preferredForwardBufferDuration = forwardBuffer
        playerItem.preferredPeakBitRate = peakBitRate
        replace(with: playerItem)
        if let keep, keep.isValid, keep.seconds > 0 {
            player.seek(to: keep, toleranceBefore: .zero, toleranceAfter: .zero)
        } else if let seconds = startPosition(item.id) {
            player.seek(to: CMTime(seconds: seconds, preferredTimescale: 600))
        }
        player.pause()
        wantsPlay = false
    }

    public func unload() {
        wantsPlay = false
        videoID = nil
        loops = 0
        playedSeconds = 0
        replace(with: nil)
    }

    public func play() {
        wantsPlay = true
        player.play()
    }

    public func pause() {
        wantsPlay = false
        player.pause()
    }

    // MARK: Observation

    private func replace(with item: AVPlayerItem?) {
        for observer in itemObservers { NotificationCenter.default.removeObserver(observer) }
        itemObservers = []
        statusObservation = nil
        player.replaceCurrentItem(with: item)
        guard let item else { return }
        let center = NotificationCenter.default
        itemObservers.append(center.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.reachedEnd() }
        })
        itemObservers.append(center.addObserver(forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: item, queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.failed() }
        })
        itemObservers.append(center.addObserver(forName: AVPlayerItem.newErrorLogEntryNotification, object: item, queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.errorLogged() }
        })
        statusObservation = item.observe(\.status, options: [.new]) { @Sendable [weak self] observed, _ in
            guard observed.status == .failed, let self else { return }
            Task { @MainActor in self.failed() }
        }
    }

    /// Loop by seeking: back to zero and on, counting the loop.
    private func reachedEnd() {
        loops += 1
        lastTime = 0
        player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero) { [weak self] finished in
            guard finished, let self else { return }
            Task { @MainActor in if self.wantsPlay { self.player.play() } }
        }
    }

    private func timePassed(_ seconds: Double) {
        guard let videoID, seconds.isFinite else { return }
        defer { lastTime = seconds }
        guard player.timeControlStatus == .playing, let last = lastTime else { return }
        let step = seconds - last
        // A seek or a loop jumps; only ordinary progress counts.
        guard step > 0, step < 2 else { return }
        playedSeconds += step
        onPlayback?(videoID, Int((playedSeconds * 1000).rounded()), loops)
    }

    /// An HTTP failure AVPlayer logged: a signed URL that stopped working is worth reporting at
    /// once (the player may keep retrying other variants meanwhile).
    private func errorLogged() {
        guard let status = lastHTTPStatus, status == 403 || status == 410 else { return }
        failed()
    }

    private func failed() {
        guard let videoID, !reportedFailure else { return }
        reportedFailure = true
        onFailure?(videoID, lastHTTPStatus)
    }

    private var lastHTTPStatus: Int? {
        guard let events = player.currentItem?.errorLog()?.events else { return nil }
        return events.reversed().lazy.map(\.errorStatusCode).first { (400..<600).contains($0) }
    }
}
#endif
