/*
 * lib/rich: Rich's plain-text tables and panels.  Each expected block is
 * written from Rich's layout rules (the comment above it says which) and was
 * checked against python3-rich 13.3.1.
 *
 * With RICH_SPEC_DIR set, every NAME.json spec there (tests/cli/
 * rich_render.py describes the format) is laid out to NAME.c for
 * tests/cli/rich_crosscheck.sh to compare with python3-rich.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rich.h"

/* Lay out a spec (see tests/cli/rich_render.py). */
static char *render_spec(const json_t *spec)
{
	struct strbuf out = STRBUF_INIT;
	int width = (int)json_integer_value(json_object_get(spec, "width"));
	const char *ptitle = json_string_value(json_object_get(spec, "panel_title"));
	const char *kind = json_string_value(json_object_get(spec, "kind"));
	if (kind && !strcmp(kind, "text")) {
		rich_panel_text(&out, json_string_value(json_object_get(spec, "text")), ptitle, width);
	} else if (kind && !strcmp(kind, "print")) {
		rich_print(&out, json_string_value(json_object_get(spec, "text")), width);
	} else if (kind && !strcmp(kind, "syntax")) {
		rich_panel_syntax(&out, json_string_value(json_object_get(spec, "text")), ptitle, width);
	} else {
		struct rich_table *t = rich_table_new(json_string_value(json_object_get(spec, "title")));
		json_t *cols = json_object_get(spec, "columns"), *c, *rows = json_object_get(spec, "rows"), *r;
		size_t i, k;
		json_array_foreach(cols, i, c) {
			const char *j = json_string_value(json_array_get(c, 2));
			rich_table_add_column(t, json_string_value(json_array_get(c, 0)),
					      (int)json_integer_value(json_array_get(c, 1)),
					      j && !strcmp(j, "right") ? RICH_RIGHT : RICH_LEFT);
		}
		json_array_foreach(rows, i, r) {
			const char **cells = calloc(json_array_size(r) + 1, sizeof(*cells));
			json_t *v;
			json_array_foreach(r, k, v)
				cells[k] = json_string_value(v);
			rich_table_add_row(t, cells);
			free(cells);
		}
		rich_panel_table(&out, t, ptitle, width);
		rich_table_free(t);
	}
	return strbuf_detach(&out, NULL);
}

static void dump_specs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".json"))
			continue;
		char *in = xasprintf("%s/%s", dir, e->d_name);
		char *outp = xasprintf("%s/%.*s.c", dir, (int)(l - 5), e->d_name);
		json_error_t err;
		json_t *spec = json_load_file(in, 0, &err);
		assert_non_null(spec);
		char *text = render_spec(spec);
		FILE *f = fopen(outp, "wb");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		free(text);
		json_decref(spec);
		free(in);
		free(outp);
	}
	closedir(d);
}

static void expect(const char *spec_json, const char *want)
{
	json_error_t err;
	json_t *spec = json_loads(spec_json, 0, &err);
	assert_non_null(spec);
	char *got = render_spec(spec);
	if (strcmp(got, want))
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
	assert_string_equal(got, want);
	free(got);
	json_decref(spec);
}

/* A table that fits: each column its widest cell plus padding (fixed width + 2), no padding at the outer edges, the title centred over the table's width, the panel padded to the console. */
static void test_fits(void **state)
{
	(void)state;
	expect("{\"width\": 40, \"kind\": \"table\", \"title\": \"Mounts\", \"columns\": [[\"Src\", 4, \"left\"], [\"Host\", 0, \"left\"], [\"Dst\", 0, \"left\"]], \"rows\": [[\"a\", \"/x\", \"/y\"], [\"bb\", \"/long/er\", \"/z\"]]}",
	       "╭──────────────────────────────────────╮\n"
	       "│          Mounts                      │\n"
	       "│ ┏━━━━━━┳━━━━━━━━━━┳━━━━┓             │\n"
	       "│ ┃Src   ┃ Host     ┃ Dst┃             │\n"
	       "│ ┡━━━━━━╇━━━━━━━━━━╇━━━━┩             │\n"
	       "│ │a     │ /x       │ /y │             │\n"
	       "│ │bb    │ /long/er │ /z │             │\n"
	       "│ └──────┴──────────┴────┘             │\n"
	       "╰──────────────────────────────────────╯\n");
}

/* Too wide for 40 cells: the widest wrapping column shrinks; its text wraps word-wise, a word wider than the column ends in an ellipsis. */
static void test_wrap(void **state)
{
	(void)state;
	expect("{\"width\": 40, \"kind\": \"table\", \"title\": \"Env\", \"columns\": [[\"Scope\", 6, \"left\"], [\"Variable\", 0, \"left\"], [\"Value\", 0, \"left\"]], \"rows\": [[\"global\", \"NOTE\", \"one two three four five six seven\"], [\"global\", \"PATHVAR\", \"/a/very/long/path/without/any/spaces/in/it\"]]}",
	       "╭──────────────────────────────────────╮\n"
	       "│                 Env                  │\n"
	       "│ ┏━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━━━━━┓ │\n"
	       "│ ┃Scope   ┃ Variable ┃ Value        ┃ │\n"
	       "│ ┡━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━━━━━┩ │\n"
	       "│ │global  │ NOTE     │ one two three│ │\n"
	       "│ │        │          │ four five six│ │\n"
	       "│ │        │          │ seven        │ │\n"
	       "│ │global  │ PATHVAR  │ /a/very/long…│ │\n"
	       "│ └────────┴──────────┴──────────────┘ │\n"
	       "╰──────────────────────────────────────╯\n");
}

/* Wide characters count two cells; a right-justified column pads on the left, its header too. */
static void test_wide(void **state)
{
	(void)state;
	expect("{\"width\": 30, \"kind\": \"table\", \"title\": null, \"columns\": [[\"\u540d\u524d\", 0, \"left\"], [\"N\", 3, \"right\"]], \"rows\": [[\"\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\", \"1\"], [\"ab\", \"22\"]]}",
	       "╭────────────────────────────╮\n"
	       "│ ┏━━━━━━━━━━━━━━━━━┳━━━━━┓  │\n"
	       "│ ┃名前             ┃    N┃  │\n"
	       "│ ┡━━━━━━━━━━━━━━━━━╇━━━━━┩  │\n"
	       "│ │日本語のテキスト │    1│  │\n"
	       "│ │ab               │   22│  │\n"
	       "│ └─────────────────┴─────┘  │\n"
	       "╰────────────────────────────╯\n");
}

/* No rows: header, its rule, the bottom border. */
static void test_empty(void **state)
{
	(void)state;
	expect("{\"width\": 40, \"kind\": \"table\", \"title\": \"Nothing\", \"columns\": [[\"Scope\", 14, \"left\"], [\"Variable\", 0, \"left\"], [\"Value\", 0, \"left\"]], \"rows\": []}",
	       "╭──────────────────────────────────────╮\n"
	       "│               Nothing                │\n"
	       "│ ┏━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━┓ │\n"
	       "│ ┃Scope           ┃ Variable ┃ Value┃ │\n"
	       "│ ┡━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━┩ │\n"
	       "│ └────────────────┴──────────┴──────┘ │\n"
	       "╰──────────────────────────────────────╯\n");
}

/* A title wider than the table wraps word-wise at the table's width, each line centred. */
static void test_longtitle(void **state)
{
	(void)state;
	expect("{\"width\": 40, \"kind\": \"table\", \"title\": \"A title much longer than the table\", \"columns\": [[\"A\", 0, \"left\"], [\"B\", 0, \"left\"]], \"rows\": [[\"1\", \"2\"]]}",
	       "╭──────────────────────────────────────╮\n"
	       "│ A title                              │\n"
	       "│  much                                │\n"
	       "│ longer                               │\n"
	       "│  than                                │\n"
	       "│   the                                │\n"
	       "│  table                               │\n"
	       "│ ┏━━┳━━┓                              │\n"
	       "│ ┃A ┃ B┃                              │\n"
	       "│ ┡━━╇━━┩                              │\n"
	       "│ │1 │ 2│                              │\n"
	       "│ └──┴──┘                              │\n"
	       "╰──────────────────────────────────────╯\n");
}

/* A text panel with a title in the top border: " my-job " centred in the ─ run. */
static void test_banner(void **state)
{
	(void)state;
	expect("{\"width\": 40, \"kind\": \"text\", \"panel_title\": \"my-job\", \"text\": \"\\ud83d\\udd0d DRY-RUN (orchestrator mode)\"}",
	       "╭─────────────── my-job ───────────────╮\n"
	       "│ 🔍 DRY-RUN (orchestrator mode)       │\n"
	       "╰──────────────────────────────────────╯\n");
}

/* Markup tags are not printed; \\[ is a literal bracket. */
static void test_markup(void **state)
{
	(void)state;
	expect("{\"width\": 40, \"kind\": \"table\", \"title\": null, \"columns\": [[\"K\", 0, \"left\"], [\"V\", 0, \"left\"]], \"rows\": [[\"[red]MISSING[/]\", \"a \\\\[b] [c]d\"]]}",
	       "╭──────────────────────────────────────╮\n"
	       "│ ┏━━━━━━━━┳━━━━━━━━┓                  │\n"
	       "│ ┃K       ┃ V      ┃                  │\n"
	       "│ ┡━━━━━━━━╇━━━━━━━━┩                  │\n"
	       "│ │MISSING │ a [b] d│                  │\n"
	       "│ └────────┴────────┘                  │\n"
	       "╰──────────────────────────────────────╯\n");
}

/* Cells: ASCII 1, CJK and emoji 2, combining and control characters 0. */
static void test_cell_len(void **state)
{
	(void)state;
	assert_int_equal(rich_cell_len("abc"), 3);
	assert_int_equal(rich_cell_len("\xe6\x97\xa5\xe6\x9c\xac"), 4);     /* 日本 */
	assert_int_equal(rich_cell_len("\xf0\x9f\x94\x8d"), 2);             /* 🔍 */
	assert_int_equal(rich_cell_len("e\xcc\x81"), 1);                    /* e + combining acute */
	assert_int_equal(rich_cell_len("a\tb\x1b"), 2);
	assert_int_equal(rich_cell_len(""), 0);
}

/* $COLUMNS when it is a positive number, else 80. */
static void test_console_width(void **state)
{
	(void)state;
	setenv("COLUMNS", "132", 1);
	assert_int_equal(rich_console_width(), 132);
	setenv("COLUMNS", "0", 1);
	assert_int_equal(rich_console_width(), 80);
	setenv("COLUMNS", "12x", 1);
	assert_int_equal(rich_console_width(), 80);
	unsetenv("COLUMNS");
	assert_int_equal(rich_console_width(), 80);
}

static void test_markup_plain(void **state)
{
	(void)state;
	char *s = rich_markup_plain("[bold]x[/] [dim](y)[/] a\\[b] \\\\[red]c [1] [A]");
	assert_string_equal(s, "x (y) a[b] \\c [1] [A]");
	free(s);
}

/* console.print: a line broken before the word that does not fit, the
 * space before that word kept on the line it ends (Rich keeps a line's
 * trailing spaces while they fit the width), a word wider than the console
 * folded, markup and control characters gone, nothing padded. */
static void test_print(void **state)
{
	(void)state;
	expect("{\"width\": 9, \"kind\": \"print\", \"text\": \"[dim]srun:[/] aaaa bbbbbb\"}",
	       "srun: \naaaa \nbbbbbb\n");
	expect("{\"width\": 4, \"kind\": \"print\", \"text\": \"abcdefghij\\r\"}", "abcd\nefgh\nij\n");
	/* spaces past the width go; a blank line stays one line */
	expect("{\"width\": 5, \"kind\": \"print\", \"text\": \"abc      def\"}", "abc  \ndef\n");
	expect("{\"width\": 5, \"kind\": \"print\", \"text\": \"\"}", "\n");
}

/* Panel(Syntax(line_numbers=True)): two spaces, the number right-aligned to
 * the digits of the last line (a final newline adds an empty last line),
 * a space, the line cut at the panel's inside (tabs to 4). */
static void test_syntax(void **state)
{
	(void)state;
	expect("{\"width\": 20, \"kind\": \"syntax\", \"panel_title\": \"S\", "
	       "\"text\": \"#!/bin/bash\\n\\tx=1 two three\\n\"}",
	       "╭─────── S ────────╮\n"
	       "│   1 #!/bin/bash  │\n"
	       "│   2     x=1 two  │\n"
	       "│   3              │\n"
	       "╰──────────────────╯\n");
	expect("{\"width\": 14, \"kind\": \"syntax\", \"panel_title\": null, "
	       "\"text\": \"a\\n\\n\\n\\n\\n\\n\\n\\n\\nj\"}",
	       "╭────────────╮\n│    1 a     │\n│    2       │\n│    3       │\n│    4       │\n"
	       "│    5       │\n│    6       │\n│    7       │\n│    8       │\n│    9       │\n"
	       "│   10 j     │\n╰────────────╯\n");
}

int main(void)
{
	const char *dir = getenv("RICH_SPEC_DIR");
	if (dir && *dir) {
		dump_specs(dir);
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),	   cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_wide),	   cmocka_unit_test(test_empty),
		cmocka_unit_test(test_longtitle), cmocka_unit_test(test_banner),
		cmocka_unit_test(test_markup),	   cmocka_unit_test(test_cell_len),
		cmocka_unit_test(test_console_width), cmocka_unit_test(test_markup_plain),
		cmocka_unit_test(test_print),	   cmocka_unit_test(test_syntax),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
