import CCurl
import WundercastModel
import WundercastProviders
import WundercastPOSIX

/// One libcurl multi handle driven by an ``EventLoop`` through libcurl's multi-socket interface:
/// libcurl says which sockets to watch for what (`CURLMOPT_SOCKETFUNCTION`) and when it wants to
/// be called back (`CURLMOPT_TIMERFUNCTION`); the loop watches those sockets with its epoll and
/// keeps that one timer, and each event is handed back with `curl_multi_socket_action`. Every
/// transfer of a ``CurlHTTPClient`` runs here, no thread waits for one.
///
/// Confined to the loop's thread (a ``CurlHTTPClient`` holds it in a ``LoopBound``): every method,
/// and every libcurl callback, which libcurl calls only from inside `curl_multi_socket_action`,
/// `curl_multi_add_handle`, `curl_multi_remove_handle` and `curl_multi_cleanup`. None of the
/// callbacks calls libcurl again (libcurl refuses that, `CURLM_RECURSIVE_API_CALL`): answers are
/// given after the call that produced them returns.
///
/// Names: libcurl resolves them with its threaded resolver (Debian's 7.88 is built with
/// AsynchDNS), one short-lived thread per lookup of a name it has not cached; the loop only
/// watches the resolver's wake-up socket. An address (`127.0.0.1`) is used as it is, without one.
///
/// Cancellation (``cancel(_:)``) removes the easy handle: libcurl closes its connection at once.
/// ``close()`` ends every transfer and frees the handle.
final class CurlMulti {
    let loop: EventLoop
    private let handle: UnsafeMutableRawPointer?
    private let probe: CurlHTTPClient.Probe?
    /// The transfers in the multi handle, by their completion (each holds its completion, so an
    /// identifier is not reused while it is here).
    private var transfers: [ObjectIdentifier: CurlTransfer] = [:]
    /// The sockets libcurl asked to watch, by descriptor.
    private var sockets: [curl_socket_t: EventLoop.Registration] = [:]
    private var timer: EventLoop.TimerID?
    private var closed = false

    /// Made on any thread; nothing of the loop is touched before the first transfer starts.
    init(loop: EventLoop, probe: CurlHTTPClient.Probe?) {
        self.loop = loop
        self.probe = probe
        handle = CurlGlobal.initialised ? curl_multi_init() : nil
        guard let handle else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_multi_setopt_socket_function(handle) { _, socket, what, context, socketData in
            guard let context else { return 0 }
            let multi = Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue()
            multi.watch(socket, what: what, known: socketData != nil)
            return 0
        }
        _ = ccurl_multi_setopt_pointer(handle, CURLMOPT_SOCKETDATA, context)
        _ = ccurl_multi_setopt_timer_function(handle) { _, milliseconds, context in
            guard let context else { return 0 }
            Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue().setTimer(milliseconds)
            return 0
        }
        _ = ccurl_multi_setopt_pointer(handle, CURLMOPT_TIMERDATA, context)
    }

    /// Frees the handle if ``close()`` did not (the loop has ended, so the client could not post
    /// it there): no thread serves the loop any more, and without callbacks libcurl touches
    /// nothing of it.
    deinit {
        guard !closed, let handle else { return }
        _ = ccurl_multi_setopt_socket_function(handle, nil)
        _ = ccurl_multi_setopt_timer_function(handle, nil)
        for transfer in transfers.values { remove(transfer) }
        transfers.removeAll()
        curl_multi_cleanup(handle)
    }

    /// Transfers in the multi handle, and sockets the loop watches for it.
    var census: (transfers: Int, sockets: Int) { (transfers.count, sockets.count) }

    /// Adds the transfer of `request` (unless `completion` was answered already: a cancellation
    /// came first); its answer goes to `completion` when libcurl is done with it.
    func start(_ request: CurlTransfer.Request, _ completion: TransferCompletion) {
        loop.preconditionOnLoop()
        guard !completion.isAnswered else { return }
        guard !closed, let handle else {
            completion.answer(
                .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl multi: closed")))
            return
        }
        let transfer = CurlTransfer(request, completion: completion, loop: loop, probe: probe)
        if let error = transfer.configure() {
            completion.answer(.failure(error))
            return
        }
        // libcurl asks for a timer of 0 ms here (CURLMOPT_TIMERFUNCTION): the transfer begins on
        // the next turn of the loop.
        let added = curl_multi_add_handle(handle, transfer.easy)
        guard added == CURLM_OK else {
            completion.answer(.failure(Self.multiError(added)))
            return
        }
        transfers[ObjectIdentifier(completion)] = transfer
    }

    /// Ends the transfer of `completion`, if it still runs: its easy handle leaves the multi
    /// handle (libcurl closes the connection of a transfer not done) and is freed.
    func cancel(_ completion: TransferCompletion) {
        loop.preconditionOnLoop()
        completion.answer(.failure(.cancelled))
        guard let transfer = transfers.removeValue(forKey: ObjectIdentifier(completion)) else { return }
        remove(transfer)
    }

    /// Ends every transfer (``WeatherError/cancelled``) and frees the handle; its sockets and
    /// timer leave the loop. Idempotent.
    func close() {
        loop.preconditionOnLoop()
        guard !closed else { return }
        closed = true
        for transfer in transfers.values {
            remove(transfer)
            transfer.completion.answer(.failure(.cancelled))
        }
        transfers.removeAll()
        // Closes the cached connections: libcurl says CURL_POLL_REMOVE for each before closing it.
        if let handle { curl_multi_cleanup(handle) }
        for registration in sockets.values { loop.unregister(registration) }
        sockets.removeAll()
        if let timer { loop.cancel(timer) }
        timer = nil
    }

    private func remove(_ transfer: CurlTransfer) {
        if let handle, let easy = transfer.easy { curl_multi_remove_handle(handle, easy) }
    }

    // MARK: libcurl's callbacks

    /// `CURLMOPT_SOCKETFUNCTION`: watch `socket` for `what` (`CURL_POLL_IN`, `_OUT`, `_INOUT`), or
    /// stop (`CURL_POLL_REMOVE`, said before libcurl closes it). `known`: libcurl holds our mark
    /// for the socket (`curl_multi_assign`), so it is the socket registered under that number and
    /// not a new one that got the number of one closed.
    private func watch(_ socket: curl_socket_t, what: Int32, known: Bool) {
        probe?(.socket, loop.isCurrent)
        loop.preconditionOnLoop()
        if what == CURL_POLL_REMOVE {
            if let registration = sockets.removeValue(forKey: socket) { loop.unregister(registration) }
            return
        }
        var events: EventLoop.Events = []
        if what & CURL_POLL_IN != 0 { events.insert(.readable) }
        if what & CURL_POLL_OUT != 0 { events.insert(.writable) }
        if known, let registration = sockets[socket] {
            loop.modify(registration, for: events)
            return
        }
        if let stale = sockets.removeValue(forKey: socket) { loop.unregister(stale) }
        // A descriptor the loop cannot watch (epoll_ctl failed) gets no events: the transfer ends
        // by its own timeout (CURLOPT_TIMEOUT_MS, libcurl's timer).
        guard
            let registration = try? loop.register(
                socket, for: events, handler: { [weak self] happened in self?.socketEvent(socket, happened) })
        else { return }
        sockets[socket] = registration
        if let handle { curl_multi_assign(handle, socket, Unmanaged.passUnretained(self).toOpaque()) }
    }

    /// `CURLMOPT_TIMERFUNCTION`: call back in `milliseconds` (0: on the next turn), or never (-1).
    /// One timer: a new one replaces the last.
    private func setTimer(_ milliseconds: Int) {
        probe?(.timer, loop.isCurrent)
        loop.preconditionOnLoop()
        if let timer { loop.cancel(timer) }
        timer = nil
        guard milliseconds >= 0 else { return }
        timer = loop.schedule(at: .now + .milliseconds(milliseconds)) { [weak self] in
            guard let self else { return }
            timer = nil
            act(on: ccurl_socket_timeout, 0)
        }
    }

    // MARK: The loop's events

    private func socketEvent(_ socket: curl_socket_t, _ events: EventLoop.Events) {
        var mask: Int32 = 0
        if events.contains(.readable) { mask |= CURL_CSELECT_IN }
        if events.contains(.writable) { mask |= CURL_CSELECT_OUT }
        // Hang-up and error are always reported (level-triggered): libcurl must hear of them, or
        // the loop would be woken for them again and again.
        if !events.isDisjoint(with: .hangUp) { mask |= CURL_CSELECT_ERR }
        act(on: socket, mask)
    }

    /// Hands an event to libcurl and answers the transfers it finished.
    private func act(on socket: curl_socket_t, _ mask: Int32) {
        guard !closed, let handle else { return }
        var running: Int32 = 0
        let acted = curl_multi_socket_action(handle, socket, mask, &running)
        // CURLM_BAD_SOCKET: an event of a socket libcurl let go of within the same batch.
        if acted != CURLM_OK && acted != CURLM_BAD_SOCKET {
            // The multi handle itself failed (out of memory, an internal error): no transfer can
            // trust its state any more.
            let error = Self.multiError(acted)
            for transfer in transfers.values {
                remove(transfer)
                transfer.completion.answer(.failure(error))
            }
            transfers.removeAll()
            return
        }
        answerFinished()
    }

    /// Answers every transfer libcurl reports done (`CURLMSG_DONE`), each read before its easy
    /// handle leaves the multi handle (the message is freed with it).
    private func answerFinished() {
        guard let handle else { return }
        var queued: Int32 = 0
        while let message = curl_multi_info_read(handle, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var context: UnsafeMutableRawPointer?
            guard ccurl_getinfo_pointer(easy, CURLINFO_PRIVATE, &context) == CURLE_OK, let context else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let answer = transfer.outcome(code)
            remove(transfer)
            transfers[ObjectIdentifier(transfer.completion)] = nil
            transfer.completion.answer(answer)
        }
    }

    static func multiError(_ code: CURLMcode) -> WeatherError {
        .transport(
            code: Int(CURLE_FAILED_INIT.rawValue),
            message: "libcurl multi: " + String(cString: curl_multi_strerror(code)))
    }
}
