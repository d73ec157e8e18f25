import WundercastPOSIX

extension SocketServer {
    /// A request answered off the loop — a lookup (`weather`, `around`: the network) or a
    /// decision (`authorize`: the decision file's `fsync`s) — run as a child task of
    /// ``runJobs()``; its line goes back to the client on the loop.
    struct Job: Sendable {
        /// Touched on the loop only (``submit(_:)``, ``finish(_:_:)``); the job's task carries it.
        let client: LoopBound<SocketClient>
        /// The client's later requests wait until this one is answered (answers keep the
        /// order of requests, as for everything answered on the loop); lookups do not wait
        /// for each other (their answers come in the order they finish).
        let holdsInput: Bool
        /// The whole answer line (a missing final newline is added).
        let answer: @Sendable () async -> [UInt8]
    }

    /// Runs the jobs as child tasks until the calling task is cancelled (or the server
    /// stops); then cancels those under way and waits for them. ``SocketService`` runs it for
    /// the daemon: lookups and decisions are structured tasks of the socket service.
    public func runJobs() async {
        // Discarding: a finished job is freed at once (a plain group keeps every child until
        // it is collected, which a server running for months never does).
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask { [self] in
                    var line = await job.answer()
                    if line.last != UInt8(ascii: "\n") { line.append(UInt8(ascii: "\n")) }
                    let answer = line
                    loop.post { [self] in finish(job, answer) }
                }
            }
            group.cancelAll()
        }
    }

    /// Hands `job` to ``runJobs()`` (on the loop).
    func submit(_ job: Job) {
        let client = job.client.value
        client.jobsInFlight += 1
        if job.holdsInput { client.holdInput() }
        jobSink.yield(job)
    }

    /// A job's answer, on the loop: sent if the client is still connected; a held input goes on.
    private func finish(_ job: Job, _ line: [UInt8]) {
        let client = job.client.value
        client.jobsInFlight -= 1
        client.send(line)
        if job.holdsInput { client.releaseInput() }
        client.closeIfDone()
    }
}
