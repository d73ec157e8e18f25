import Dispatch
import WundercastSupport
import WundercastModel
import WundercastPipeline
import WundercastPOSIX

/// Keeps the last weather on disk (``LastStateFile``): reads every published state and writes
/// the file only when what it keeps changed (``WundercastPipeline/LastStateRecorder``): no timer,
/// no write for a state that changes only in status, error or fix age. Writes happen on a
/// queue of their own (an `fsync` on an SD card can take long; no Swift concurrency thread
/// waits in it). A failed write is logged once as a warning (then at debug level), until a
/// write succeeds again (logged too).
///
/// Cancelling ``run()`` stops it after a last look at the current state, written if it changed.
struct LastStateWriter: DaemonService {
    let name = "last state"
    let store: StateStore
    let file: LastStateFile
    let recorder: LastStateRecorder
    let clock: ClockSync
    let logger: Logger
    private let queue = DispatchQueue(label: "wundercast.last-state")

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
        func keep(_ state: WeatherState) async {
            guard let record = recorder.record(for: state, clockSynchronized: { clock.isSynchronized }) else { return }
            let file = self.file
            let result: Result<Void, Errno> = await withCheckedContinuation { done in
                queue.async { done.resume(returning: Result { () throws(Errno) in try file.write(record) }) }
            }
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
        for await state in store.states() {
            await keep(state)
            if Task.isCancelled { break }
        }
        await keep(store.current)
    }
}
