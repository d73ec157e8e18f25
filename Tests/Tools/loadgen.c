// Load generator for `make bench` (Tests/Tools/bench.sh): one program measures wundercastd and
// gpsd the same way, so their rates can be compared.
//
//   loadgen rate ADDRESS REQUEST SKIP SECONDS CLIENTS fresh|persistent
//     CLIENTS threads each send REQUEST (a C string; "\n" is a newline) and read one line back,
//     for SECONDS; `fresh` connects for every request, `persistent` once per thread. SKIP lines
//     are read after connecting before the first request (gpsd's VERSION banner). ADDRESS is
//     unix:PATH or tcp:HOST:PORT. Prints the answered requests per second.
//
//   loadgen watch PATH WATCHERS ROUNDS
//     WATCHERS connections send `watch` to the wundercastd socket at PATH; then ROUNDS times a
//     control connection decides `authorize denied` / `authorize ask` in turn, and the time
//     from sending the decision to the last watcher reading a state with the new
//     authorization is taken. Prints p50 and p99 of that time in milliseconds.
//
// Exits 1 with a message on the first error.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *address, *request;
static int skip_lines, seconds, persistent;
static double deadline;

static void die(const char *what) {
    fprintf(stderr, "loadgen: %s: %s\n", what, strerror(errno));
    exit(1);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int connect_to(const char *where) {
    int fd;
    if (strncmp(where, "unix:", 5) == 0) {
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        strncpy(a.sun_path, where + 5, sizeof a.sun_path - 1);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) die(where);
    } else {
        char host[64];
        const char *colon = strrchr(where + 4, ':');
        snprintf(host, sizeof host, "%.*s", (int)(colon - (where + 4)), where + 4);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(colon + 1))};
        inet_pton(AF_INET, host, &a.sin_addr);
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        // Close with a reset: thousands of fresh connections would otherwise use up the
        // ephemeral ports in TIME_WAIT.
        struct linger l = {1, 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) die(where);
    }
    return fd;
}

// Reads one line from fd; `buf` keeps what came after it. Returns 0 at EOF.
struct reader { char buf[65536]; size_t len; };

static int read_line(int fd, struct reader *r) {
    for (;;) {
        char *nl = memchr(r->buf, '\n', r->len);
        if (nl) {
            size_t used = nl - r->buf + 1;
            memmove(r->buf, nl + 1, r->len - used);
            r->len -= used;
            return 1;
        }
        if (r->len == sizeof r->buf) r->len = 0;  // a longer line: keep reading to its end
        ssize_t n = read(fd, r->buf + r->len, sizeof r->buf - r->len);
        if (n <= 0) return 0;
        r->len += n;
    }
}

static void *rate_thread(void *arg) {
    long *count = arg;
    struct reader *r = calloc(1, sizeof *r);
    size_t length = strlen(request);
    int fd = -1;
    while (now() < deadline) {
        if (fd < 0) {
            fd = connect_to(address);
            r->len = 0;
            for (int i = 0; i < skip_lines; i++)
                if (!read_line(fd, r)) die("banner");
        }
        if (write(fd, request, length) != (ssize_t)length) die("write");
        if (!read_line(fd, r)) die("answer");
        (*count)++;
        if (!persistent) {
            close(fd);
            fd = -1;
        }
    }
    if (fd >= 0) close(fd);
    free(r);
    return NULL;
}

static int rate(int argc, char **argv) {
    if (argc != 8) return 2;
    address = argv[2];
    static char unescaped[256];
    size_t j = 0;
    for (const char *s = argv[3]; *s && j < sizeof unescaped - 1; s++) {
        if (s[0] == '\\' && s[1] == 'n') { unescaped[j++] = '\n'; s++; } else unescaped[j++] = *s;
    }
    request = unescaped;
    skip_lines = atoi(argv[4]);
    seconds = atoi(argv[5]);
    int clients = atoi(argv[6]);
    persistent = strcmp(argv[7], "persistent") == 0;
    pthread_t threads[64];
    long counts[64] = {0};
    if (clients < 1 || clients > 64) return 2;
    double start = now();
    deadline = start + seconds;
    for (int i = 0; i < clients; i++) pthread_create(&threads[i], NULL, rate_thread, &counts[i]);
    long total = 0;
    for (int i = 0; i < clients; i++) {
        pthread_join(threads[i], NULL);
        total += counts[i];
    }
    printf("%.0f\n", total / (now() - start));
    return 0;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int watch(int argc, char **argv) {
    if (argc != 5) return 2;
    char where[200];
    snprintf(where, sizeof where, "unix:%s", argv[2]);
    int n = atoi(argv[3]), rounds = atoi(argv[4]);
    int *fds = calloc(n, sizeof *fds);
    struct reader *readers = calloc(n, sizeof *readers);
    int *seen = calloc(n, sizeof *seen);
    double *delays = calloc(rounds, sizeof *delays);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < n; i++) {
        fds[i] = connect_to(where);
        if (write(fds[i], "watch\n", 6) != 6) die("watch");
        if (!read_line(fds[i], &readers[i])) die("first state");
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = i};
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &e);
    }
    int control = connect_to(where);
    struct reader *cr = calloc(1, sizeof *cr);
    struct epoll_event events[256];
    for (int round = 0; round < rounds; round++) {
        const char *decide = round % 2 ? "authorize ask\n" : "authorize denied\n";
        const char *marker = round % 2 ? "\"authorization\":\"notDetermined\"" : "\"authorization\":\"denied\"";
        memset(seen, 0, n * sizeof *seen);
        int remaining = n;
        double start = now();
        if (write(control, decide, strlen(decide)) != (ssize_t)strlen(decide)) die("authorize");
        while (remaining > 0) {
            int ready = epoll_wait(ep, events, 256, 10000);
            if (ready <= 0) { fprintf(stderr, "loadgen: %d watchers got nothing in 10 s\n", remaining); exit(1); }
            for (int k = 0; k < ready; k++) {
                int i = events[k].data.u32;
                struct reader *r = &readers[i];
                ssize_t got = read(fds[i], r->buf + r->len, sizeof r->buf - r->len - 1);
                if (got <= 0) die("watcher read");
                r->len += got;
                r->buf[r->len] = 0;
                char *nl;
                while ((nl = memchr(r->buf, '\n', r->len))) {
                    *nl = 0;
                    if (!seen[i] && strstr(r->buf, marker)) { seen[i] = 1; remaining--; }
                    size_t used = nl - r->buf + 1;
                    memmove(r->buf, nl + 1, r->len - used);
                    r->len -= used;
                }
            }
        }
        delays[round] = (now() - start) * 1000;
        if (!read_line(control, cr)) die("authorize answer");
    }
    qsort(delays, rounds, sizeof *delays, compare);
    printf("%.2f %.2f\n", delays[rounds / 2], delays[(int)(rounds * 0.99)]);
    return 0;
}

int main(int argc, char **argv) {
    int status = 2;
    if (argc > 1 && strcmp(argv[1], "rate") == 0) status = rate(argc, argv);
    if (argc > 1 && strcmp(argv[1], "watch") == 0) status = watch(argc, argv);
    if (status == 2) fprintf(stderr, "usage: see the comment at the top of loadgen.c\n");
    return status;
}
