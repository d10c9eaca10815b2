/*
 * bench_undo_mem — resident memory of editing: 1,000 value edits of the
 * largest example (goal: under 10 MiB) and of a generated 20,000-line recipe
 * (goal: under 5x its load-time RSS).  Undo keeps patches, so the history
 * grows with what the edits changed, not with the document.
 * Usage: bench_undo_mem [SRCDIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jalloc.h"
#include "bench/bench.h"
#include "lib/util.h"
#include "model/doc.h"


/* A valid recipe of about `lines` lines: role args, many services with a
 * command and env, comment blocks. */
static char *gen(int lines)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "# generated for bench_undo_mem\nname: big\nmodel:\n  path: m\n"
			   "roles:\n  agg:\n    workers: 1\n    gpus: 1\n    args:\n");
	for (int i = 0; i < lines / 20; i++)
		strbuf_addf(&sb, "      flag-%d: %d\n", i, i);
	strbuf_addstr(&sb, "services:\n");
	for (int i = 0, n = 9 + lines / 20; n < lines; i++, n += 8)
		strbuf_addf(&sb,
			    "  # service %d: a comment block\n  # that spans two lines\n"
			    "  - name: svc-%d\n    type: custom\n    command: [run, --port, \"%d\"]\n"
			    "    env:\n      A_%d: \"x\"\n      B_%d: \"y\"\n",
			    i, i, 9000 + i, i, i);
	return strbuf_detach(&sb, NULL);
}

static int edits(struct doc *d, const char *path, int n)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	if (path_parse(&p, path, PATH_NAMES, &err))
		return -1;
	for (int i = 0; i < n; i++) {
		json_t *v = json_integer(i % 7 + 2);
		int r = doc_set(d, &p, v, &err, &warn);
		json_decref(v);
		free(warn);
		if (r) {
			fprintf(stderr, "bench_undo_mem: edit refused: %s\n", err);
			free(err);
			path_release(&p);
			return -1;
		}
	}
	path_release(&p);
	return 0;
}

int main(int argc, char **argv)
{
	jalloc_install(); /* as the binary does: its figures are the binary's */
	const char *src = argc > 1 ? argv[1] : ".";
	int n = bench_runs(1000);
	char *ex = xasprintf("%s/examples/vllm-lmcache-disagg.yaml", src);
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load_file(ex, &dl);
	diag_list_release(&dl);
	if (!d || edits(d, "roles.decode.workers", n))
		return 1;
	long kib = proc_rss_kib(0);
	printf("undo memory: RSS after %d edits of the largest example: %.1f MiB, history %zu bytes %s\n",
	       n, kib / 1024.0, doc_undo_bytes(d), kib < 10 * 1024 ? "ok (goal < 10 MiB)" : "OVER (goal < 10 MiB)");
	doc_free(d);
	free(ex);

	char *text = gen(20000);
	long before = proc_rss_kib(0);
	d = doc_load("big.yaml", text, strlen(text), &dl);
	diag_list_release(&dl);
	free(text);
	long loaded = proc_rss_kib(0);
	if (!d || edits(d, "roles.agg.workers", n))
		return 1;
	long after = proc_rss_kib(0);
	printf("undo memory: 20,000 lines: RSS %.1f MiB before load, %.1f loaded, %.1f after %d edits "
	       "(%.2fx load-time), history %zu bytes %s\n",
	       before / 1024.0, loaded / 1024.0, after / 1024.0, n, (double)after / (double)loaded,
	       doc_undo_bytes(d), after < 5 * loaded ? "ok (goal < 5x)" : "OVER (goal < 5x)");
	doc_free(d);
	return 0;
}
