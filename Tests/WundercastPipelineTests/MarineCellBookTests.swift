import Testing
import WundercastModel
import WundercastPipeline

/// `Marine=`'s rule alone, on a monotonic clock of our own.
@Suite struct MarineCellBookTests {
    let rhoen = MarineCell(Coordinate(latitude: 50.54, longitude: 9.96))
    let northSea = MarineCell(Coordinate(latitude: 53.04, longitude: 3.96))

    @Test func cellsAreQuarterDegrees() {
        #expect(MarineCell(Coordinate(latitude: 53.0, longitude: 3.96)) == northSea)
        #expect(MarineCell(Coordinate(latitude: 53.2499, longitude: 3.75)) == northSea)
        #expect(MarineCell(Coordinate(latitude: 53.25, longitude: 3.96)) != northSea)
        #expect(MarineCell(Coordinate(latitude: -0.01, longitude: -0.01)) == MarineCell(row: -1, column: -1))
        #expect(northSea.centre == SeaState.Cell(latitude: 53.125, longitude: 3.875))
    }

    /// The poles and the antimeridian (`Fallback=90,180`): every centre is a valid coordinate,
    /// 180° is −180°'s cell.
    @Test func cellsStayOnTheGlobe() {
        let pole = MarineCell(Coordinate(latitude: 90, longitude: 180))
        #expect(pole.centre == SeaState.Cell(latitude: 89.875, longitude: -179.875))
        #expect(pole == MarineCell(Coordinate(latitude: 89.9, longitude: -180)))
        #expect(
            MarineCell(Coordinate(latitude: -90, longitude: 179.99)).centre
                == SeaState.Cell(latitude: -89.875, longitude: 179.875))
        #expect(MarineCell(row: 400, column: 1440 + 3) == MarineCell(row: 359, column: 3))
        #expect(MarineCell(row: -400, column: -721) == MarineCell(row: -360, column: 719))
    }

    @Test func autoAsksALandCellOnceADay() {
        var book = MarineCellBook(mode: .auto)
        let asked1 = book.shouldAsk(rhoen, at: .zero)
        #expect(asked1)
        book.answered(rhoen, land: true, at: .zero)
        for minutes in stride(from: 15, to: 24 * 60, by: 15) {
            let asked2 = book.shouldAsk(rhoen, at: .seconds(minutes * 60))
            #expect(!asked2, "asked again after \(minutes) min")
        }
        let asked3 = book.shouldAsk(rhoen, at: .seconds(86_400))
        #expect(asked3)
        // Another cell is asked at once.
        let asked4 = book.shouldAsk(northSea, at: .seconds(60))
        #expect(asked4)
    }

    @Test func autoAsksASeaCellAtEveryRefresh() {
        var book = MarineCellBook(mode: .auto)
        for minutes in stride(from: 0, to: 120, by: 15) {
            let asked5 = book.shouldAsk(northSea, at: .seconds(minutes * 60))
            #expect(asked5)
            book.answered(northSea, land: false, at: .seconds(minutes * 60))
        }
        // A cell that turns out sea after land (a coast cell answered again the next day).
        book.answered(rhoen, land: true, at: .zero)
        book.answered(rhoen, land: false, at: .seconds(86_400))
        let asked6 = book.shouldAsk(rhoen, at: .seconds(86_401))
        #expect(asked6)
    }

    @Test func yesAlwaysNoNever() {
        var yes = MarineCellBook(mode: .yes)
        var no = MarineCellBook(mode: .no)
        yes.answered(rhoen, land: true, at: .zero)
        let asked7 = yes.shouldAsk(rhoen, at: .seconds(60))
        #expect(asked7)
        let asked8 = no.shouldAsk(northSea, at: .zero)
        #expect(!asked8)
    }
}

/// The API's `Retry-After` holds every request until it is over; other failures change nothing.
@Suite struct MarineCellBookBackOffTests {
    let cell = MarineCell(Coordinate(latitude: 53.04, longitude: 3.96))

    @Test func retryAfterHoldsRequests() {
        var book = MarineCellBook(mode: .yes)
        book.failed(retryAfter: nil, at: .zero)
        let afterPlainFailure = book.shouldAsk(cell, at: .seconds(1))
        #expect(afterPlainFailure)
        book.failed(retryAfter: 600, at: .seconds(1))
        let during = book.shouldAsk(cell, at: .seconds(600))
        let after = book.shouldAsk(cell, at: .seconds(601))
        #expect(!during && after)
    }
}
