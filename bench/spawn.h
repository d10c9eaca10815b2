/*
 * spawn.h — run a command for a benchmark and say what it cost: the wall
 * time and the CPU time (user + system) the kernel charged to it (wait4), so
 * a figure taken on a loaded machine can be read both ways.  Output goes to
 * /dev/null.  Header only.
 */
#ifndef SRT_BENCH_SPAWN_H
#define SRT_BENCH_SPAWN_H

#include <fcntl.h>
#include <libgen.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"

extern char **environ;

struct run_cost {
	double wall_ms, cpu_ms;
	int status; /* wait status; -1 when it could not start */
};

static inline struct run_cost bench_spawn(char *const *argv)
{
	struct run_cost c = { 0, 0, -1 };
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	double t0 = bench_now_ms();
	pid_t pid;
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return c;
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) < 0)
		return c;
	c.wall_ms = bench_now_ms() - t0;
	c.cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	c.status = st;
	return c;
}

static inline int bench_ok(const struct run_cost *c, int allow_1)
{
	return c->status >= 0 && WIFEXITED(c->status) &&
	       (WEXITSTATUS(c->status) == 0 || (allow_1 && WEXITSTATUS(c->status) == 1));
}

/* The srt-tui binary beside the benchmark's folder (argv0 = B/bench/x). */
static inline char *bench_srt_tui(const char *argv0)
{
	char *self = xstrdup(argv0);
	char *rel = xasprintf("%s/../srt-tui", dirname(self));
	char *abs = realpath(rel, NULL);
	free(self);
	free(rel);
	return abs;
}

/* "load average 1.9 0.7 0.3 on 2 CPUs": every figure says how busy the
 * machine was. */
static inline void bench_load(char *out, size_t size)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double a = 0, b = 0, c = 0;
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &a, &b, &c) != 3)
			a = b = c = 0;
		fclose(f);
	}
	snprintf(out, size, "load average %.2f %.2f %.2f on %ld CPUs", a, b, c,
		 sysconf(_SC_NPROCESSORS_ONLN));
}

static inline int bench_write_file(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fwrite(buf, 1, len, f);
	return fclose(f);
}

#endif
