#ifndef NSE_CCURL_SHIM_H
#define NSE_CCURL_SHIM_H

#include <curl/curl.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

// Typed wrappers over curl's variadic calls. Swift cannot call C variadic functions, and a
// wrong argument type passed through `...` is undefined behaviour, so each option kind gets
// its own signature here.

// MARK: curl_easy_setopt

static inline CURLcode nse_easy_setopt_long(CURL *h, CURLoption o, long v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode nse_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode nse_easy_setopt_string(CURL *h, CURLoption o, const char *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode nse_easy_setopt_pointer(CURL *h, CURLoption o, void *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode nse_easy_setopt_write_callback(CURL *h, CURLoption o, curl_write_callback v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode nse_easy_setopt_xferinfo_callback(CURL *h, curl_xferinfo_callback v) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v);
}
static inline CURLcode nse_easy_setopt_opensocket_callback(CURL *h, curl_opensocket_callback v) {
    return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, v);
}

// MARK: curl_easy_getinfo

static inline CURLcode nse_easy_getinfo_long(CURL *h, CURLINFO i, long *out) {
    return curl_easy_getinfo(h, i, out);
}
static inline CURLcode nse_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *out) {
    return curl_easy_getinfo(h, i, out);
}
/// The string stays owned by the handle; copy it before the handle goes away.
static inline CURLcode nse_easy_getinfo_string(CURL *h, CURLINFO i, const char **out) {
    return curl_easy_getinfo(h, i, out);
}
static inline CURLcode nse_easy_getinfo_pointer(CURL *h, CURLINFO i, void **out) {
    return curl_easy_getinfo(h, i, out);
}

// MARK: curl_multi_setopt

static inline CURLMcode nse_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
    return curl_multi_setopt(m, o, v);
}

// MARK: CURLMsg (its `data` member is a union)

static inline CURLcode nse_multi_msg_result(const CURLMsg *msg) {
    return msg->data.result;
}

// MARK: struct curl_sockaddr

/// Copies the raw address of `a` into `out` (4 bytes for IPv4, 16 for IPv6) and returns the
/// family, or 0 for a family that is neither. `addr` is declared as a plain `struct sockaddr`
/// but curl allocates room for the whole address, which Swift cannot see through the type.
static inline int nse_sockaddr_bytes(const struct curl_sockaddr *a, unsigned char out[16], int *port) {
    if (a->family == AF_INET && a->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&a->addr;
        memcpy(out, &in->sin_addr, 4);
        *port = ntohs(in->sin_port);
        return AF_INET;
    }
    if (a->family == AF_INET6 && a->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a->addr;
        memcpy(out, &in6->sin6_addr, 16);
        *port = ntohs(in6->sin6_port);
        return AF_INET6;
    }
    return 0;
}

#endif
