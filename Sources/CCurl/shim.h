#ifndef WUNDERCAST_CCURL_SHIM_H
#define WUNDERCAST_CCURL_SHIM_H
// libcurl from Debian's libcurl4-openssl-dev (7.88).
#include <curl/curl.h>

// Why: curl_easy_setopt and curl_easy_getinfo are C variadic functions, which Swift cannot
// call. Each wrapper below fixes the type of the third argument, as libcurl documents it
// for the options we use.
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *userdata);
static inline CURLcode ccurl_setopt_write_function(CURL *handle, CURLoption option, ccurl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
typedef int (*ccurl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode ccurl_setopt_xferinfo_function(CURL *handle, ccurl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

// Why: CURLOPT_OPENSOCKETFUNCTION is set through the variadic curl_easy_setopt as well: the
// daemon makes libcurl's sockets itself, so that they keep its descriptor reserve.
typedef curl_socket_t (*ccurl_opensocket_callback)(void *clientp, curlsocktype purpose, struct curl_sockaddr *address);
static inline CURLcode ccurl_setopt_opensocket_function(CURL *handle, ccurl_opensocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, value);
}

// Why: curl_multi_setopt is variadic too. The multi-socket interface (CURLMOPT_SOCKETFUNCTION,
// CURLMOPT_TIMERFUNCTION and their data pointers) lets the daemon's event loop drive libcurl.
typedef int (*ccurl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *userdata, void *socketdata);
static inline CURLMcode ccurl_multi_setopt_socket_function(CURLM *multi, ccurl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}
typedef int (*ccurl_timer_callback)(CURLM *multi, long timeout_ms, void *userdata);
static inline CURLMcode ccurl_multi_setopt_timer_function(CURLM *multi, ccurl_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}
static inline CURLMcode ccurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}
// Why: CURL_SOCKET_TIMEOUT is a macro defined through another (CURL_SOCKET_BAD), which Swift
// does not import.
static const curl_socket_t ccurl_socket_timeout = CURL_SOCKET_TIMEOUT;

#endif
