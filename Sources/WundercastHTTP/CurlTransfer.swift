#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CCurl
import Synchronization
import WundercastModel
import WundercastProviders

/// `curl_global_init` exactly once per process: a Swift global is initialised once, thread-safely.
enum CurlGlobal {
    static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// One GET: the easy handle, its callbacks' buffers, and a private multi handle that drives it so
/// that a cancellation can wake the transfer up at once (`curl_multi_wakeup`) instead of waiting
/// up to a second for the next progress callback.
///
/// Threads: `run()` and the callbacks it causes happen on one dispatch thread; `cancel()` may be
/// called from any thread and touches only the atomic flag and `curl_multi_wakeup` (documented
/// as callable from any thread). Hence `@unchecked Sendable`.
final class CurlTransfer: @unchecked Sendable {
    let url: String
    let headers: [String: String]
    let userAgent: String
    let connectTimeoutMilliseconds: Int
    let timeoutMilliseconds: Int
    let maxBodySize: Int

    private let cancelled = Atomic<Bool>(false)
    /// Created in `init` and freed in `deinit`, so `cancel()` never sees a dangling handle.
    private let multi: UnsafeMutableRawPointer?

    // Owned by the transfer thread.
    private var body: [UInt8] = []
    private var responseHeaders: [String: String] = [:]
    private var bodyTooLarge = false
    private var headerBytes = 0
    private var headersTooLarge = false
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(
        url: String, headers: [String: String], userAgent: String, connectTimeoutMilliseconds: Int,
        timeoutMilliseconds: Int, maxBodySize: Int
    ) {
        self.url = url
        self.headers = headers
        self.userAgent = userAgent
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxBodySize = maxBodySize
        self.multi = CurlGlobal.initialised ? curl_multi_init() : nil
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let multi { curl_multi_cleanup(multi) }
        errorBuffer.deallocate()
    }

    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        if let multi { curl_multi_wakeup(multi) }
    }

    private var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    /// What one transfer got: the response, and for a redirect (301, 302, 303, 307, 308 with a
    /// `Location`) the absolute URL it points to (libcurl's `CURLINFO_REDIRECT_URL`, resolved
    /// against this transfer's URL), not followed.
    struct Outcome {
        var response: HTTPResponse
        var redirectURL: String?
    }

    /// The statuses libcurl would follow with `CURLOPT_FOLLOWLOCATION` (a 304 is not one).
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Performs the transfer; blocks until it ends. Any HTTP status is a success here.
    func run() -> Result<Outcome, WeatherError> {
        guard CurlGlobal.initialised else {
            return .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_global_init failed"))
        }
        guard let multi, let easy = curl_easy_init() else {
            return .failure(
                .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "cannot create a libcurl handle"))
        }
        defer { curl_easy_cleanup(easy) }

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(headerList) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            // A line break would smuggle a second header (or a request) into the request.
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }), !name.isEmpty else {
                return .failure(
                    .transport(
                        code: Int(CURLE_BAD_FUNCTION_ARGUMENT.rawValue), message: "invalid request header '\(name)'"))
            }
            guard let appended = curl_slist_append(headerList, "\(name): \(value)") else {
                return .failure(.transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "out of memory"))
            }
            headerList = appended
        }

        let userdata = Unmanaged.passUnretained(self).toOpaque()
        // libcurl copies string options (since 7.17), so Swift's temporary C strings suffice.
        let options: [CURLcode] = [
            ccurl_setopt_string(easy, CURLOPT_URL, url),
            ccurl_setopt_string(easy, CURLOPT_USERAGENT, userAgent),
            ccurl_setopt_long(easy, CURLOPT_HTTPGET, 1),
            // Redirects are CurlHTTPClient's: one transfer per hop, same origin only, each counted.
            ccurl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0),
            // CURLOPT_PROTOCOLS (a bitmask) is deprecated since 7.85; the _STR forms replace it.
            ccurl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            // "" offers every encoding libcurl can decode (gzip, deflate, …) and decodes the body.
            ccurl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMilliseconds),
            ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeoutMilliseconds),
            // A Content-Length over the cap fails at once with CURLE_FILESIZE_EXCEEDED.
            ccurl_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBodySize)),
            // Threads: no SIGALRM-based DNS timeouts.
            ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)),
            ccurl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList),
            ccurl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
            },
            ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata),
            ccurl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            },
            ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata),
            ccurl_setopt_long(easy, CURLOPT_NOPROGRESS, 0),
            ccurl_setopt_xferinfo_function(easy) { userdata, _, _, _, _ in
                // Non-zero aborts the transfer with CURLE_ABORTED_BY_CALLBACK.
                guard let userdata else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().isCancelled ? 1 : 0
            },
            ccurl_setopt_pointer(easy, CURLOPT_XFERINFODATA, userdata),
        ]
        if let failed = options.first(where: { $0 != CURLE_OK }) {
            return .failure(transportError(failed))
        }

        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            return .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: multiError(added)))
        }
        defer { curl_multi_remove_handle(multi, easy) }

        var running: Int32 = 1
        while !isCancelled {
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else {
                return .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: multiError(performed)))
            }
            if running == 0 { break }
            // Returns on socket activity, libcurl's next timeout, or curl_multi_wakeup from cancel().
            let polled = curl_multi_poll(multi, nil, 0, 1000, nil)
            guard polled == CURLM_OK else {
                return .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: multiError(polled)))
            }
        }
        if running != 0 { return .failure(.cancelled) }

        var code = CURLE_FAILED_INIT
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE && message.pointee.easy_handle == easy {
                code = message.pointee.data.result
            }
        }
        if code == CURLE_ABORTED_BY_CALLBACK && isCancelled { return .failure(.cancelled) }
        guard code == CURLE_OK else { return .failure(transportError(code)) }

        var status = 0
        let info = ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        guard info == CURLE_OK, status > 0 else {
            return .failure(.transport(code: Int(info.rawValue), message: "no HTTP status received"))
        }
        var redirectURL: String?
        if Self.redirectStatuses.contains(status) {
            var target: UnsafeMutablePointer<CChar>?
            if ccurl_getinfo_string(easy, CURLINFO_REDIRECT_URL, &target) == CURLE_OK, let target {
                redirectURL = String(cString: target)  // owned by the handle: copied before cleanup
            }
        }
        return .success(
            Outcome(
                response: CurlHTTPClient.response(
                    status: status, headers: responseHeaders, body: body, now: Double(time(nil))),
                redirectURL: redirectURL))
    }

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        guard body.count + chunk.count <= maxBodySize else {
            bodyTooLarge = true
            return 0  // anything but chunk.count: CURLE_WRITE_ERROR
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    /// One header line, CRLF included; returns what libcurl must see as handled (less aborts).
    /// A status line starts a new response (`100 Continue`), so only the final response's headers
    /// remain. All lines together are bounded.
    private func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        headerBytes += line.count
        guard headerBytes <= CurlHTTPClient.maxHeaderBytes else {
            headersTooLarge = true
            return 0  // CURLE_WRITE_ERROR
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            responseHeaders = [:]
            return line.count
        }
        guard let colon = text.firstIndex(of: ":") else { return line.count }
        let name = text[..<colon].trimmingWhitespace().lowercased()
        guard !name.isEmpty else { return line.count }
        responseHeaders[name] = text[text.index(after: colon)...].trimmingWhitespace()
        return line.count
    }

    private func transportError(_ code: CURLcode) -> WeatherError {
        if (code == CURLE_WRITE_ERROR && bodyTooLarge) || code == CURLE_FILESIZE_EXCEEDED {
            return .tooLarge(limit: maxBodySize)
        }
        var message = String(cString: curl_easy_strerror(code))
        if code == CURLE_WRITE_ERROR && headersTooLarge {
            message = "response headers larger than \(CurlHTTPClient.maxHeaderBytes) bytes"
        } else {
            let detail = String(cString: errorBuffer).trimmingWhitespace()
            if !detail.isEmpty && detail != message { message += ": " + detail }
        }
        // Queries go first; nothing is cut here: the text is bounded by libcurl's buffer
        // (CURL_ERROR_SIZE) and its short strerror text, and a cut before the provider's
        // redaction (RedactingHTTPClient) could leave a key's first part where no redaction
        // finds it. Control characters and the 200-character bound come with
        // ``WeatherError/message``, after the redaction.
        return .transport(code: Int(code.rawValue), message: CurlHTTPClient.redactingQueries(message))
    }

    private func multiError(_ code: CURLMcode) -> String {
        "libcurl multi: " + String(cString: curl_multi_strerror(code))
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }
}
