import Foundation
import ReelKit
import Testing

@Suite struct StoryPlayerTests {
    let t0 = Date(timeIntervalSince1970: 1_000)
    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    var users: [StoryUser] {
        [
            StoryUser(id: "ana", segments: [StorySegment(id: "a1", duration: 5), StorySegment(id: "a2", duration: 3)]),
            StoryUser(id: "ben", segments: [StorySegment(id: "b1", duration: 4)]),
            StoryUser(id: "cy", segments: [StorySegment(id: "c1", duration: 2), StorySegment(id: "c2", duration: 2)]),
        ]
    }

    @Test func progressRunsOnTheGivenClockAndAutoAdvancesAcrossUsers() {
        var player = StoryPlayer(users: users, now: t0)
        #expect(player.tick(at: at(2.5)).isEmpty)
        #expect(player.progress == 0.5)
        #expect(player.tick(at: at(5)) == [.segmentStarted(user: "ana", segment: "a2")])
        // One late tick covering two segment ends advances over both.
        #expect(player.tick(at: at(12.5)) == [
            .userChanged(from: "ana", to: "ben"), .segmentStarted(user: "ben", segment: "b1"),
            .userChanged(from: "ben", to: "cy"), .segmentStarted(user: "cy", segment: "c1"),
        ])
        #expect(abs(player.elapsed - 0.5) < 1e-9)
        #expect(player.tick(at: at(20)) == [.segmentStarted(user: "cy", segment: "c2"), .finished])
        #expect(player.isFinished && !player.isPlaying)
        #expect(player.seen == ["a1", "a2", "b1", "c1", "c2"])
    }

    @Test func tapsMoveBetweenSegmentsAndUsers() {
        var player = StoryPlayer(users: users, now: t0)
        #expect(player.tapRight(at: at(1)) == [.segmentStarted(user: "ana", segment: "a2")])
        #expect(player.tapRight(at: at(2)) == [.userChanged(from: "ana", to: "ben"), .segmentStarted(user: "ben", segment: "b1")])
        #expect(player.tapLeft(at: at(3)) == [.userChanged(from: "ben", to: "ana"), .segmentStarted(user: "ana", segment: "a2")])
        #expect(player.tapLeft(at: at(4)) == [.segmentStarted(user: "ana", segment: "a1")])
        _ = player.tick(at: at(6))
        #expect(player.tapLeft(at: at(6)).isEmpty && player.elapsed == 0, "the very first segment restarts")
    }

    @Test func nextUserSkipsToTheirFirstUnseenSegment() {
        var player = StoryPlayer(users: users, alreadySeen: ["c1"], now: t0)
        #expect(player.nextUser(at: at(1)) == [.userChanged(from: "ana", to: "ben"), .segmentStarted(user: "ben", segment: "b1")])
        #expect(player.nextUser(at: at(2)) == [.userChanged(from: "ben", to: "cy"), .segmentStarted(user: "cy", segment: "c2")])
        #expect(player.previousUser(at: at(3)) == [.userChanged(from: "cy", to: "ben"), .segmentStarted(user: "ben", segment: "b1")])
        #expect(!player.hasSeenAll(of: "ana"), "a2 was never shown")
        #expect(player.hasSeenAll(of: "cy"))
        _ = player.nextUser(at: at(4))
        #expect(player.nextUser(at: at(5)) == [.finished])
    }

    @Test func longPressAndBufferingPauseIndependently() {
        var player = StoryPlayer(users: users, now: t0)
        _ = player.tick(at: at(1))
        player.pause(.longPress, at: at(1))
        player.pause(.buffering, at: at(1.5))
        #expect(player.tick(at: at(30)).isEmpty)
        #expect(player.elapsed == 1, "no progress while paused")
        player.resume(.longPress, at: at(31))
        #expect(player.tick(at: at(40)).isEmpty && player.elapsed == 1, "still buffering")
        player.resume(.buffering, at: at(41))
        _ = player.tick(at: at(43))
        #expect(player.elapsed == 3)
    }

    @Test func dismissStopsEverything() {
        var player = StoryPlayer(users: users, now: t0)
        #expect(player.dismiss(at: at(1)) == [.dismissed])
        #expect(player.tick(at: at(100)).isEmpty && player.tapRight(at: at(101)).isEmpty)
        #expect(player.dismiss(at: at(102)).isEmpty)
    }

    @Test func waitingForFirstFramesEachSegmentStartsPausedUntilItsOwnFrame() {
        var player = StoryPlayer(users: users, waitForFirstFrame: true, now: t0)
        #expect(!player.isPlaying && player.pauseReasons == [.buffering])
        #expect(player.tick(at: at(60)).isEmpty && player.elapsed == 0)
        let early = player.firstFrameShown(segment: "a2", at: at(60))
        #expect(!early && !player.isPlaying, "not the segment on screen")
        let shown = player.firstFrameShown(segment: "a1", at: at(60))
        #expect(shown && player.isPlaying)
        // One late tick covering a1's end stops at a2, which waits for its own first frame.
        #expect(player.tick(at: at(70)) == [.segmentStarted(user: "ana", segment: "a2")])
        #expect(player.elapsed == 0 && player.pauseReasons == [.buffering])
        player.pause(.longPress, at: at(70))
        player.firstFrameShown(segment: "a2", at: at(71))
        #expect(!player.isPlaying, "a hold still holds")
    }

    @Test func peopleAppendedLaterJoinTheRowOnce() {
        var player = StoryPlayer(users: [users[0]], now: t0)
        player.append([users[0], StoryUser(id: "empty", segments: []), users[2]], alreadySeen: ["c1"])
        #expect(player.users.map(\.id) == ["ana", "cy"])
        #expect(player.nextUser(at: at(1)) == [.userChanged(from: "ana", to: "cy"), .segmentStarted(user: "cy", segment: "c2")])
    }

    @Test func aUserWithAllSegmentsSeenStartsFromTheFirst() {
        let player = StoryPlayer(users: users, startingAt: 2, alreadySeen: ["c1", "c2"], now: t0)
        #expect(player.currentSegment?.id == "c1")
        let empty = StoryPlayer(users: [StoryUser(id: "none", segments: [])], now: t0)
        #expect(empty.isFinished && empty.currentSegment == nil)
    }
}
