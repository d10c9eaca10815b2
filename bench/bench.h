/*
 * bench.h — what every benchmark needs: a monotonic clock, the median of a
 * set of timings, the example recipes, and one line per figure with its goal
 * beside it.  Header only, so each benchmark stays one .c file.  Returned
 * paths are malloc'd and owned by the caller.
 *
 * Benchmarks print figures, never a verdict: the goals live in the issue
 * tracker and the notes, the numbers here.
 *
 * BENCH_RUNS=N in the environment overrides a benchmark's run count (handy
 * under valgrind --tool=callgrind, where a count of 1 or 2 is enough).
 */
#ifndef SRT_BENCH_H
#define SRT_BENCH_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/util.h"

static inline double bench_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU time of this process: steadier than the clock on a shared machine. */
static inline double bench_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Sorts v in place. */
static inline double bench_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return v[n / 2];
}

static inline int bench_runs(int dflt)
{
	const char *s = getenv("BENCH_RUNS");
	int n = s ? atoi(s) : 0;
	return n > 0 ? n : dflt;
}

/* The *.yaml files of dir, sorted by name; returns how many. */
static inline size_t bench_list_yaml(const char *dir, struct strvec *out)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(ents[i]->d_name);
		if (l > 5 && !strcmp(ents[i]->d_name + l - 5, ".yaml"))
			strvec_pushf(out, "%s/%s", dir, ents[i]->d_name);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	return out->n;
}

/* Index of the largest file in list for which keep(path) holds (keep NULL:
 * any); -1 when none. */
static inline long bench_largest(const struct strvec *list, int (*keep)(const char *path))
{
	long best = -1;
	off_t best_size = -1;
	for (size_t i = 0; i < list->n; i++) {
		struct stat st;
		if (stat(list->v[i], &st) || st.st_size <= best_size)
			continue;
		if (keep && !keep(list->v[i]))
			continue;
		best = (long)i;
		best_size = st.st_size;
	}
	return best;
}

static inline const char *bench_basename(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

#endif
