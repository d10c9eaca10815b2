/*
 * bench_doc — how long loading + indexing a 2,000-line recipe takes, and one
 * verified `set` on it (median of many runs).  Usage: bench_doc [SRCDIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "model/doc.h"

/* A recipe-shaped document: comments, nested maps, lists, flow lists, quoted
 * strings and a block scalar per section, repeated until `lines` lines. */
static void gen(struct strbuf *sb, int lines)
{
	int n = 0, sec = 0;
	strbuf_addstr(sb, "# generated benchmark recipe\nschema: 2\nname: \"bench\"\n\n");
	n += 4;
	while (n < lines) {
		strbuf_addf(sb,
			    "# section %d\n"
			    "section_%d:\n"
			    "  nodes: %d            # how many\n"
			    "  image: 'registry/img:%d'\n"
			    "  ratio: 0.%d\n"
			    "  flags: [a, b, \"c d\"]\n"
			    "  env:\n"
			    "    VAR_A: \"1\"\n"
			    "    VAR_B: yes\n"
			    "  args:\n"
			    "    - --port\n"
			    "    - \"%d\"\n"
			    "    - name: item\n"
			    "      value: %d\n"
			    "  script: |\n"
			    "    echo start %d\n"
			    "    run --fast\n"
			    "\n",
			    sec, sec, sec % 9 + 1, sec, sec % 10, 8000 + sec, sec, sec);
		n += 18;
		sec++;
	}
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct strbuf sb = STRBUF_INIT;
	gen(&sb, 2000);
	int lines = 0;
	for (size_t i = 0; i < sb.len; i++)
		lines += sb.buf[i] == '\n';
	const int RUNS = bench_runs(200);
	double *load = xcalloc((size_t)RUNS, sizeof(double)), *set = xcalloc((size_t)RUNS, sizeof(double));
	struct path p = PATH_INIT;
	char *err = NULL;
	path_parse(&p, "section_50.nodes", 0, &err);
	for (int r = 0; r < RUNS; r++) {
		struct diag_list dl = DIAG_LIST_INIT;
		double t0 = bench_now_ms();
		struct doc *d = doc_load("bench.yaml", sb.buf, sb.len, &dl);
		double t1 = bench_now_ms();
		if (!d) {
			fprintf(stderr, "bench_doc: load failed\n");
			return 1;
		}
		json_t *v = json_integer(100 + r);
		char *warn = NULL;
		double t2 = bench_now_ms();
		if (doc_set(d, &p, v, &err, &warn) < 0) {
			fprintf(stderr, "bench_doc: set failed: %s\n", err);
			return 1;
		}
		double t3 = bench_now_ms();
		json_decref(v);
		free(warn);
		doc_free(d);
		diag_list_release(&dl);
		load[r] = t1 - t0;
		set[r] = t3 - t2;
	}
	double ml = bench_median(load, (size_t)RUNS), ms = bench_median(set, (size_t)RUNS);
	printf("doc: load+index of a %d-line recipe: median %.2f ms of %d runs  %s (goal < 5 ms)\n",
	       lines, ml, RUNS, bench_verdict(ml < 5.0));
	printf("doc: one verified set on a %d-line recipe: median %.2f ms of %d runs  %s (goal < 5 ms)\n",
	       lines, ms, RUNS, bench_verdict(ms < 5.0));
	free(load);
	free(set);
	path_release(&p);
	strbuf_release(&sb);
	return 0;
}
