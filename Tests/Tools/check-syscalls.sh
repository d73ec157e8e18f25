#!/usr/bin/env bash
# The syscall rule (issue 15; docs/ARCHITECTURE.md, the WundercastPOSIX row): nothing outside Sources/WundercastPOSIX calls glibc's
# I/O, process or thread functions. Only a file that imports Glibc can call them (the compiler
# sees to that: no other module re-exports it), so only those files are read; in them a call is
# the function's name followed by "(" that is not a member (".name("), a definition
# ("func name(") or in a comment (a method of the file's own type with such a name is called as
# `self.name(`). Exits 1 and lists the calls.
set -euo pipefail
cd "$(dirname "$0")/../.."
functions=(
  open openat creat close read write pread pwrite readv writev lseek fsync fdatasync ftruncate
  rename renameat unlink unlinkat mkdir mkdirat rmdir chmod fchmod fchown chown link symlink
  readlink stat lstat fstat fstatat access faccessat opendir readdir closedir realpath mkstemp
  dup dup2 dup3 pipe pipe2 fcntl ioctl poll ppoll select pselect epoll_create epoll_create1
  epoll_ctl epoll_wait eventfd signalfd timerfd_create timerfd_settime
  socket socketpair bind listen accept accept4 connect send sendto sendmsg recv recvfrom recvmsg
  shutdown getsockopt setsockopt getsockname getpeername
  mmap munmap mprotect madvise
  fork vfork execv execve execvp posix_spawn posix_spawnp waitpid wait4 kill raise _exit exit
  sigaction sigprocmask pthread_sigmask sigemptyset sigaddset signal alarm
  pthread_create pthread_join pthread_detach pthread_self pthread_setname_np pthread_kill
  sleep usleep nanosleep clock_nanosleep
  getuid geteuid getgid getegid getpid getppid setuid setgid setgroups getgrnam getpwnam getpwuid
  getgrgid getrlimit setrlimit prlimit prctl umask chdir getcwd
  getenv setenv unsetenv isatty
)
pattern="(^|[^.A-Za-z0-9_])($(IFS='|'; echo "${functions[*]}"))\("
status=0
while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest#*:}
  code=$(sed -E 's/"([^"\\]|\\.)*"//g' <<<"${line%%//*}")
  [[ $code =~ $pattern ]] || continue
  [[ $code =~ func[[:space:]]+${BASH_REMATCH[2]}[[:space:]]*\( ]] && continue
  echo "$hit"
  status=1
done < <(grep -rlE '^import (Glibc|Musl)$' Sources --include='*.swift' | grep -v '^Sources/WundercastPOSIX/' |
  xargs -r grep -nHE "$pattern")
if [ $status -ne 0 ]; then
  echo "check-syscalls: the calls above belong in Sources/WundercastPOSIX (the one syscall wrapper)" >&2
fi
exit $status
