/*
 * cmd_expand.c — `srt-tui expand FILE[:SELECTOR]`: the jobs one recipe file
 * becomes (override variants, sweep combinations), each with its job name
 * and one line per value that differs from base, and optionally each written
 * as its own recipe file like `srtctl resolve-override`.
 *
 * Exit status: 0 done, 1 the file does not expand (srtctl's message),
 * 2 bad usage or a file that cannot be read or parsed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/fileio.h"
#include "model/override.h"
#include "model/scalar.h"
#include "lib/util.h"
#include "lib/json.h"
#include "cli/cli_args.h"
#include "cli/cli_load.h"
#include "cli/cmd.h"

enum { OPT_WRITE = 1 };

static const struct cmd_opt expand_opts[] = {
	CLI_FLAG_OPTS,
	{ OPT_WRITE, 0, "write", "DIR",
	  "write each variant (each job of a sweep file) to\n"
	  "DIR/<stem>_<suffix>.yaml, like srtctl resolve-override" },
	{ 0, 0, NULL, NULL, NULL },
};

struct opts {
	const char *write_dir;
	struct cli_flags flags;
	struct strvec args;
};

static int on_opt(void *ctx, int id, const char *value)
{
	struct opts *o = ctx;
	if (id == OPT_WRITE)
		o->write_dir = value;
	else
		cli_flags_add(&o->flags, id, value);
	return 0;
}

static int parse_opts(const struct cmd_entry *c, int argc, char **argv, struct opts *o)
{
	int rc = cmd_parse(c, argc, argv, on_opt, o, &o->args);
	if (rc)
		return rc;
	if (o->args.n > 1) {
		fprintf(stderr, "srt-tui: expand: one FILE at a time (got '%s' and '%s')\n", o->args.v[0],
			o->args.v[1]);
		return 2;
	}
	if (!o->args.n)
		return cmd_usage_short(c);
	return 0;
}

/* The typed tree of FILE, or NULL (reason printed; warnings are validate's
 * business). */
static json_t *load_tree(const char *file)
{
	struct cli_loaded l;
	if (cli_load(file, 0, &l))
		return NULL;
	json_t *root = doc_json(l.doc);
	if (!root)
		fprintf(stderr, "srt-tui: %s: error: the document is too large once aliases are expanded\n",
			file);
	cli_loaded_release(&l);
	return root;
}

/* ---- listing -------------------------------------------------------------- */

static void print_changes(FILE *out, const struct variant *v, const char *indent)
{
	struct change_list cl = CHANGE_LIST_INIT;
	variant_changes(v, &cl);
	size_t shown = 0;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < cl.n; i++) {
		/* the job name is on the heading line already */
		if (!strcmp(cl.v[i].path, "name"))
			continue;
		strbuf_reset(&sb);
		change_format(&sb, &cl.v[i]);
		fprintf(out, "%s%s\n", indent, sb_str(&sb));
		shown++;
	}
	if (!shown)
		fprintf(out, "%s(no changes)\n", indent);
	strbuf_release(&sb);
	change_list_release(&cl);
}

static void print_params(FILE *out, const struct variant *v, const char *indent)
{
	struct strbuf sb = STRBUF_INIT;
	const char *k;
	json_t *val;
	json_object_foreach(v->params, k, val) {
		strbuf_addf(&sb, "%s%s=", sb.len ? ", " : "", k);
		py_str(&sb, val);
	}
	fprintf(out, "%sparameters: %s\n", indent, sb_str(&sb));
	strbuf_release(&sb);
}

static void print_jobs(FILE *out, const struct variant_list *jobs, const char *indent)
{
	char *sub = xasprintf("%s  ", indent);
	for (size_t i = 0; i < jobs->n; i++) {
		fprintf(out, "%s[%zu/%zu] %s\n", indent, i + 1, jobs->n, jobs->v[i].job_name);
		print_params(out, &jobs->v[i], sub);
		print_changes(out, &jobs->v[i], sub);
	}
	free(sub);
}

/* ---- writing -------------------------------------------------------------- */

/*
 * Plain block YAML from a typed tree: the fallback when base's text cannot be
 * edited into the variant (see base_text below).  Base's key order, strings
 * quoted only where PyYAML would misread them; comments are lost.
 */
static void emit_yaml(struct strbuf *out, const json_t *v, int indent);

static int is_scalar(const json_t *v)
{
	return !json_is_object(v) && !json_is_array(v);
}

static int all_scalars(const json_t *a)
{
	size_t i;
	json_t *x;
	json_array_foreach((json_t *)a, i, x)
		if (!is_scalar(x))
			return 0;
	return 1;
}

static void pad(struct strbuf *out, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_addch(out, ' ');
}

/* The value after "key:" or "- ": inline, or on the next lines. */
static void emit_value(struct strbuf *out, const json_t *v, int indent)
{
	if (is_scalar(v) || (json_is_object(v) && !json_object_size(v)) ||
	    (json_is_array(v) && (!json_array_size(v) || all_scalars(v)))) {
		strbuf_addch(out, ' ');
		scalar_emit_json(out, v, STYLE_ANY, 0);
		strbuf_addch(out, '\n');
		return;
	}
	strbuf_addch(out, '\n');
	emit_yaml(out, v, indent + 2);
}

static void emit_yaml(struct strbuf *out, const json_t *v, int indent)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) {
			pad(out, indent);
			scalar_emit_string(out, k, strlen(k), STYLE_ANY, 0);
			strbuf_addch(out, ':');
			emit_value(out, x, indent);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach((json_t *)v, i, x) {
			pad(out, indent);
			strbuf_addch(out, '-');
			if (json_is_object(x) && json_object_size(x)) {
				/* "- key: value" with the other keys aligned under it */
				struct strbuf item = STRBUF_INIT;
				emit_yaml(&item, x, indent + 2);
				strbuf_addch(out, ' ');
				strbuf_add(out, item.buf + indent + 2, item.len - (size_t)indent - 2);
				strbuf_release(&item);
			} else {
				emit_value(out, x, indent);
			}
		}
	}
}

/*
 * Comment-keeping output, like srtctl's ruamel round trip: take base's text
 * out of the file, dedent it, and edit it into each variant with the doc
 * layer, so base's comments, quoting and layout survive and only changed
 * values are rewritten.
 */
static char *base_text(const char *file_text, size_t len, const char *file)
{
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *d = doc_load(file, file_text, len, &diags);
	diag_list_release(&diags);
	if (!d)
		return NULL;
	struct path p = PATH_INIT;
	path_push_key(&p, "base");
	const struct doc_node *n = doc_lookup(d, &p);
	path_release(&p);
	char *out = NULL;
	if (n && doc_node_kind(n) == DOC_MAP && !doc_node_flow(n)) {
		size_t tlen, s = doc_node_start(n), e = doc_node_end(n);
		const char *t = doc_text(d, &tlen);
		int col = doc_node_col(n) - 1;
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = s; i < e && i < tlen;) {
			const char *nl = memchr(t + i, '\n', e - i);
			size_t end = nl ? (size_t)(nl - t) + 1 : e;
			strbuf_add(&sb, t + i, end - i);
			i = end;
			for (int k = 0; k < col && i < e && t[i] == ' '; k++)
				i++;
		}
		if (!sb.len || sb.buf[sb.len - 1] != '\n')
			strbuf_addch(&sb, '\n');
		out = strbuf_detach(&sb, NULL);
	}
	doc_free(d);
	return out;
}

/* Set (v != NULL) or delete p in d; a non-empty mapping is written in block
 * form.  The doc layer's messages are not needed: a refusal falls back to
 * plain YAML. */
static int put(struct doc *d, struct path *p, const json_t *v)
{
	char *err = NULL, *warn = NULL;
	int rc = !v ? doc_delete(d, p, &err, &warn)
		 : json_is_object(v) && json_object_size(v) ? doc_set_block(d, p, v, &err, &warn)
							    : doc_set(d, p, v, &err, &warn);
	free(err);
	free(warn);
	return rc;
}

/* Edit d (base) into `to`: delete what is gone, set what changed. */
static int edit_into(struct doc *d, const json_t *from, const json_t *to, struct path *p)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)from, k, v) {
		json_t *nv = json_object_get(to, k);
		path_push_key(p, k);
		int rc = 0;
		if (nv && json_is_object(v) && json_is_object(nv) && json_object_size(v))
			rc = edit_into(d, v, nv, p);
		else if (!nv || !json_equal(v, nv))
			rc = put(d, p, nv);
		path_pop(p);
		if (rc)
			return -1;
	}
	json_object_foreach((json_t *)to, k, v) {
		if (json_object_get(from, k))
			continue;
		path_push_key(p, k);
		int rc = put(d, p, v);
		path_pop(p);
		if (rc)
			return -1;
	}
	return 0;
}

/* The variant as base's text edited, or NULL when the doc layer refused. */
static char *edited_variant(const char *btext, const struct variant *v, const json_t *tree)
{
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *d = doc_load("base", btext, strlen(btext), &diags);
	diag_list_release(&diags);
	if (!d)
		return NULL;
	json_t *from = doc_json(d);
	struct path p = PATH_INIT;
	char *out = NULL;
	if (from && !edit_into(d, from, tree, &p)) {
		json_t *check = doc_json(d);
		/* the edited text must read back as exactly the variant */
		if (check && json_equal(check, (json_t *)tree)) {
			size_t len;
			const char *t = doc_text(d, &len);
			out = xstrndup(t, len);
		}
		json_decref(check);
	}
	json_decref(from);
	path_release(&p);
	doc_free(d);
	return out;
}

static char *file_stem(const char *path)
{
	const char *base = path_base(path);
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? xstrndup(base, (size_t)(dot - base)) : xstrdup(base);
}

static int write_variant(const char *dir, const char *stem, const struct variant *v,
			 const char *btext, int *plain)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *tree = json_deep_copy(v->tree);
	/* srtctl writes a carried schema first, except for zip variants where it
	 * arrives with the merged values (spec 9.10). */
	if (v->schema_carried && v->kind != VARIANT_ZIP) {
		strbuf_addstr(&sb, "schema: ");
		scalar_emit_json(&sb, json_object_get(tree, "schema"), STYLE_ANY, 0);
		strbuf_addch(&sb, '\n');
		json_object_del(tree, "schema");
	}
	char *edited = btext ? edited_variant(btext, v, tree) : NULL;
	if (edited)
		strbuf_addstr(&sb, edited);
	else
		emit_yaml(&sb, tree, 0);
	if (!edited && btext)
		*plain = 1;
	free(edited);
	json_decref(tree);
	char *path = xasprintf("%s/%s_%s.yaml", dir, stem, v->suffix ? v->suffix : "recipe");
	char *err = NULL;
	int rc = file_write_atomic(path, sb_str(&sb), sb.len, WRITE_NOLINK, &err);
	if (rc < 0) {
		fprintf(stderr, "srt-tui: expand: %s\n", err);
		free(err);
	} else {
		printf("Wrote: %s\n", path);
	}
	free(path);
	strbuf_release(&sb);
	return rc < 0 ? -1 : 0;
}

/* Write every variant; the text edited is base's block (override files) or
 * the whole file (sweeps, plain recipes). */
static int write_all(const char *file, const char *dir, const struct variant_list *vl, int is_override)
{
	char *text = NULL, *err = NULL, *btext = NULL;
	size_t len = 0;
	if (file_read(file, &text, &len, &err) == 0)
		btext = is_override ? base_text(text, len, file) : xstrdup(text);
	free(err);
	char *stem = file_stem(file);
	int rc = 0, plain = 0;
	for (size_t i = 0; i < vl->n && !rc; i++)
		if (write_variant(dir, stem, &vl->v[i], btext, &plain))
			rc = 1;
	if (plain || (!btext && !rc))
		fprintf(stderr, "srt-tui: %s: note: some files were written as plain YAML, without "
			"the comments of %s\n", file, is_override ? "base" : "the recipe");
	free(stem);
	free(btext);
	free(text);
	return rc;
}

/* ---- the command ------------------------------------------------------------ */

static int fail1(const char *file, char *err)
{
	fprintf(stderr, "srt-tui: %s: %s\n", file, err);
	free(err);
	return 1;
}

static int expand_override(const char *file, json_t *root, const char *sel, const char *dir)
{
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	if (override_expand(root, sel, &vl, &err))
		return fail1(file, err);
	json_t *bn = json_object_get(json_object_get(root, "base"), "name");
	struct strbuf name = STRBUF_INIT;
	if (bn)
		py_str(&name, bn);
	else
		strbuf_addstr(&name, "unnamed");
	printf("Override Config: %s (%zu variant%s%s%s)\n", sb_str(&name), vl.n, vl.n == 1 ? "" : "s",
	       sel ? ", selector: " : "", sel ? sel : "");
	strbuf_release(&name);
	if (!vl.n)
		printf("no variants: the file has only 'base' (select it with %s:base)\n", file);
	int rc = 0;
	for (size_t i = 0; i < vl.n && !rc; i++) {
		const struct variant *v = &vl.v[i];
		printf("[%zu/%zu] %s: %s  (%s:%s)\n", i + 1, vl.n, v->label,
		       v->job_name ? v->job_name : "(no name)", file, v->selector);
		print_changes(stdout, v, "  ");
		if (json_object_get(v->tree, "sweep") && !dir) {
			struct variant_list jobs = VARIANT_LIST_INIT;
			if (sweep_expand(v->tree, v, &jobs, &err)) {
				rc = fail1(file, err);
			} else if (!jobs.n) {
				rc = fail1(file, xasprintf("%s: sweep expanded to zero jobs", v->label));
			} else {
				printf("  sweep: %zu job%s\n", jobs.n, jobs.n == 1 ? "" : "s");
				print_jobs(stdout, &jobs, "    ");
			}
			variant_list_release(&jobs);
		}
	}
	if (!rc && dir)
		rc = write_all(file, dir, &vl, 1);
	variant_list_release(&vl);
	return rc;
}

static int expand_sweep(const char *file, json_t *root, const char *dir)
{
	struct variant_list jobs = VARIANT_LIST_INIT;
	char *err = NULL;
	if (sweep_expand(root, NULL, &jobs, &err))
		return fail1(file, err);
	if (!jobs.n) {
		variant_list_release(&jobs);
		return fail1(file, xstrdup("sweep expanded to zero jobs"));
	}
	struct strbuf name = STRBUF_INIT;
	py_str(&name, json_object_get(root, "name"));
	printf("Sweep: %s (%zu job%s)\n", sb_str(&name), jobs.n, jobs.n == 1 ? "" : "s");
	strbuf_release(&name);
	print_jobs(stdout, &jobs, "");
	int rc = 0;
	if (dir)
		rc = write_all(file, dir, &jobs, 0);
	variant_list_release(&jobs);
	return rc;
}

static int cmd_expand(const struct cmd_entry *self, int argc, char **argv)
{
	struct opts o = { NULL, CLI_FLAGS_INIT, STRVEC_INIT };
	int rc = parse_opts(self, argc, argv, &o);
	char *file = NULL, *sel = NULL;
	json_t *root = NULL;
	if (rc) {
		rc = rc < 0 ? 0 : rc;
		goto out;
	}
	if ((rc = cli_split_target("expand", o.args.v[0], &file, &sel)))
		goto out;
	if (!(root = load_tree(file))) {
		rc = 2;
		goto out;
	}
	if ((rc = cli_apply_flags(file, root, &o.flags)))
		goto out;
	switch (recipe_form(root)) {
	case RECIPE_OVERRIDE:
		rc = expand_override(file, root, sel, o.write_dir);
		break;
	case RECIPE_SWEEP:
		cli_selector_ignored(file, sel);
		rc = expand_sweep(file, root, o.write_dir);
		break;
	case RECIPE_PLAIN:
		cli_selector_ignored(file, sel);
		printf("%s: one job (no override sections, no sweep)\n", file);
		if (o.write_dir) {
			struct variant_list vl = VARIANT_LIST_INIT;
			variant_list_add_plain(&vl, root);
			vl.v[0].suffix = xstrdup("resolved");
			rc = write_all(file, o.write_dir, &vl, 0);
			variant_list_release(&vl);
		}
		break;
	}
out:
	json_decref(root);
	free(file);
	free(sel);
	cli_flags_release(&o.flags);
	strvec_release(&o.args);
	return rc;
}

const struct cmd_entry cmd_expand_entry = {
	.name = "expand",
	.usage = { "FILE[:SELECTOR] [--set KEY=VALUE]... [--unset KEY]... [--write DIR]" },
	.group = CMD_SCRIPTING,
	.brief = { { "FILE", "list the jobs of an override or sweep file" } },
	.about =
		"List the jobs that srtctl would submit for FILE: every variant of an override\n"
		"file (base plus override_* and zip_override_* sections) or every combination\n"
		"of a sweep: block, with its job name and one line per value that differs from\n"
		"base (sweeps: from the template), as `path: old -> new`.\n"
		"\n" CLI_SELECTOR_HELP,
	.opts = expand_opts,
	.footer = "Exit status: 0 done, 1 FILE does not expand, 2 bad usage or unreadable FILE.\n",
	.exec = cmd_expand,
};
