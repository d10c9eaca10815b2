/*
 * gen_recipe — write a large, valid srtctl recipe of an exact line count
 * (see gen_recipe.h for its shape), so the benchmark figures can be repeated
 * by hand:
 *   build/bench/gen_recipe 20000 > big.yaml && srt-tui validate big.yaml
 * Not a benchmark itself: bench/run.sh does not run it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/gen_recipe.h"

int main(int argc, char **argv)
{
	long n = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
	if (n < 120 || n > 10000000) {
		fprintf(stderr, "usage: gen_recipe LINES  (120 to 10000000; the recipe goes to stdout)\n");
		return 2;
	}
	struct strbuf sb = STRBUF_INIT;
	gen_recipe(&sb, (int)n);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	return fflush(stdout) ? 1 : 0;
}
