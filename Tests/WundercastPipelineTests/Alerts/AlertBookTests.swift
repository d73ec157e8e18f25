import Foundation
import Testing
import WundercastModel
import WundercastPipeline

/// The book's rules on alerts built in the test (the decoders' own tests use recorded bodies).
@Suite struct AlertBookTests {
    static let t0 = Date(timeIntervalSince1970: 1_736_400_000)

    static func alert(
        _ id: String, _ event: String = "Gale Warning", severity: Alert.Severity = .moderate,
        type: Alert.MessageType = .alert, references: [String] = [], expiresIn: TimeInterval? = 3600,
        area: String = "Coast", headline: String? = nil
    ) -> Alert {
        Alert(
            id: id, source: .nws, authority: "NWS", event: event, severity: severity, messageType: type,
            references: references, expires: expiresIn.map { t0 + $0 }, headline: headline, areaDescription: area)
    }

    @Test func listedAlertsAreIssuedOnceAndEndWhenNoLongerListed() {
        var book = AlertBook()
        let a = Self.alert("a"), b = Self.alert("b", "Flood Watch", severity: .severe)
        #expect(book.answered([a, b], at: Self.t0) == [.issued(b), .issued(a)], "most severe first")
        #expect(book.answered([a, b], at: Self.t0).isEmpty, "the same answer again changes nothing")
        #expect(book.answered([b], at: Self.t0) == [.ended(a, .noLongerListed)])
        #expect(book.ordered == [b])
        #expect(book.answered([], at: Self.t0) == [.ended(b, .noLongerListed)])
    }

    @Test func anAlertExpiresOnItsExpiresWithoutAnAnswer() {
        var book = AlertBook()
        let soon = Self.alert("soon", expiresIn: 600), later = Self.alert("later", expiresIn: 7200)
        _ = book.answered([soon, later], at: Self.t0)
        #expect(book.nextExpiry == Self.t0 + 600)
        #expect(book.expire(at: Self.t0 + 599).isEmpty)
        #expect(book.expire(at: Self.t0 + 600) == [.ended(soon, .expired)])
        #expect(book.ordered == [later])
        #expect(book.nextExpiry == Self.t0 + 7200)
    }

    @Test func anAlertListedAlreadyExpiredIsNotTakenIn() {
        var book = AlertBook()
        #expect(book.answered([Self.alert("old", expiresIn: -1)], at: Self.t0).isEmpty)
        #expect(book.ordered.isEmpty)
    }

    @Test func anUpdateReplacesTheAlertItReferences() {
        var book = AlertBook()
        let first = Self.alert("v1", headline: "gale until noon")
        _ = book.answered([first], at: Self.t0)
        let update = Self.alert("v2", type: .update, references: ["v1"], headline: "gale until evening")
        // The source may still list the original beside its update: the update wins.
        #expect(book.answered([first, update], at: Self.t0) == [.updated(update, replacing: "v1")])
        #expect(book.ordered == [update])
    }

    @Test func anUpdateWithoutAKnownReferenceReplacesTheOneOfTheSameEventAndArea() {
        var book = AlertBook()
        let first = Self.alert("v1")
        let other = Self.alert("x", "Flood Watch")
        _ = book.answered([first, other], at: Self.t0)
        let update = Self.alert("v2", type: .update, references: ["unknown"])
        #expect(book.answered([update, other], at: Self.t0) == [.updated(update, replacing: "v1")])
        #expect(Set(book.ordered.map(\.id)) == ["v2", "x"])
    }

    @Test func aCancelEndsTheAlertItReferences() {
        var book = AlertBook()
        let a = Self.alert("a")
        _ = book.answered([a], at: Self.t0)
        let cancel = Self.alert("c", type: .cancel, references: ["a"])
        #expect(book.answered([a, cancel], at: Self.t0) == [.ended(a, .cancelled)])
        #expect(book.ordered.isEmpty, "a cancel is never an alert in force")
    }

    @Test func anAlertChangedInPlaceIsAnUpdate() {
        var book = AlertBook()
        _ = book.answered([Self.alert("a", severity: .moderate)], at: Self.t0)
        let changed = Self.alert("a", severity: .severe)
        #expect(book.answered([changed], at: Self.t0) == [.updated(changed, replacing: "a")])
    }

    /// An alert without `expires` is not shown for ever while its source is silent: it leaves a
    /// day after the last answer that listed it (found by the hostile review).
    @Test func anAlertWithoutExpiresLeavesADayAfterItWasLastListed() {
        var book = AlertBook()
        let open = Self.alert("open", expiresIn: nil)
        _ = book.answered([open], at: Self.t0)
        _ = book.answered([open], at: Self.t0 + 3600)
        #expect(book.nextExpiry == Self.t0 + 3600 + AlertBook.unconfirmedLimit)
        #expect(book.expire(at: Self.t0 + AlertBook.unconfirmedLimit).isEmpty, "listed again an hour later")
        #expect(book.expire(at: Self.t0 + 3600 + AlertBook.unconfirmedLimit) == [.ended(open, .expired)])
    }
}
