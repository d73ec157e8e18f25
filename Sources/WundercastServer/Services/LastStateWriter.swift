import WundercastSupport
import WundercastModel
import WundercastPipeline
import WundercastPOSIX

/// Keeps the last weather on disk (``LastStateFile``): reads every published state and writes
/// the file only when what it keeps changed (``WundercastPipeline/LastStateRecorder``): no timer,
/// no write for a state that changes only in status, error or fix age. The write (two
/// `fsync`s, long on an SD card) runs in this service's own task, never on the reactor, one
/// at a time: it holds at most one cooperative thread for the length of one write. States
/// published meanwhile are not written one by one: each wake-up writes the store's current
/// state, so the latest state wins (the changes buffered behind it find nothing new to
/// keep). A failed write is logged once as a warning (then at debug level), until a write
/// succeeds again (logged too).
///
/// Cancelling ``run()`` stops it after a last look at the current state, written if it changed.
struct LastStateWriter: DaemonService {
    let name = "last state"
    let store: StateStore
    let file: LastStateFile
    let recorder: LastStateRecorder
    let clock: ClockSync
    let logger: Logger

    init(store: StateStore, file: LastStateFile, recorder: LastStateRecorder, clock: ClockSync, logger: Logger) {
        self.store = store
        self.file = file
        self.recorder = recorder
        self.clock = clock
        self.logger = logger
    }

    func run() async {
        var recorder = self.recorder
        var failing = false
        func keep(_ state: WeatherState) {
            guard let record = recorder.record(for: state, clockSynchronized: { clock.isSynchronized }) else { return }
            let result = Result { () throws(Errno) in try file.write(record) }
            switch result {
            case .success:
                recorder.wrote(record)
                if failing { logger.notice("the last weather is kept in \(file.path) again") }
                failing = false
            case .failure(let error):
                // Tried again with the next change; said once (then only at debug level).
                if !failing {
                    logger.warning(
                        "cannot keep the last weather in \(file.path): \(error); it will be lost on a restart")
                } else {
                    logger.debug("still cannot keep the last weather in \(file.path): \(error)")
                }
                failing = true
            }
        }
        for await _ in store.states() {
            keep(store.current)
            if Task.isCancelled { break }
        }
        keep(store.current)
    }
}
