/*
 * submit_opts.c — srtctl apply's own options in the Submit dialog (F5): the
 * override variant to submit (FILE:SELECTOR, srtctl's selectors), and
 * --serve-only and --tags.  Only the default command (`srtctl apply -f
 * FILE`) takes them; a --submit-cmd of the user's own is run as written.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/app_int.h"
#include "tui/submit.h"

static int is_srtctl_apply(const struct strvec *argv)
{
	const char *p = argv->n >= 2 ? strrchr(argv->v[0], '/') : NULL;
	const char *prog = argv->n >= 2 ? (p ? p + 1 : argv->v[0]) : NULL;
	return prog && !strcmp(prog, "srtctl") && !strcmp(argv->v[1], "apply");
}

/* The variant choice: the selectors of the file's override variants (one per
 * section or zip element), then "all variants" (no selector). */
static char *pick_variant(struct app *a, const char *cur)
{
	const struct variant_state *vs = app_variants(a);
	struct strvec items = STRVEC_INIT, sels = STRVEC_INIT;
	for (size_t i = 0; i < vs->list.n; i++) {
		const struct variant *v = &vs->list.v[i];
		if (v->kind == VARIANT_SWEEP || !v->selector)
			continue;
		int dup = 0;
		for (size_t k = 0; k < sels.n; k++)
			dup |= !strcmp(sels.v[k], v->selector);
		if (dup)
			continue;
		strvec_push(&sels, v->selector);
		strvec_pushf(&items, "%s:%s%s%s", a->path, v->selector, v->job_name ? "  job " : "",
			     v->job_name ? v->job_name : "");
	}
	strvec_pushf(&items, "%s  (every variant, as srtctl apply -f FILE does)", a->path);
	int current = (int)sels.n;
	for (size_t k = 0; cur && k < sels.n; k++)
		if (!strcmp(sels.v[k], cur))
			current = (int)k;
	int k = app_choose(a, "Submit which variant?", (const char *const *)items.v, NULL, items.n,
			   current);
	char *out = k < 0 ? (cur ? xstrdup(cur) : NULL)
			  : (size_t)k < sels.n ? xstrdup(sels.v[k]) : NULL;
	strvec_release(&items);
	strvec_release(&sels);
	return out;
}

void submit_extra_init(struct app *a, const struct strvec *argv, struct submit_extra *x)
{
	const struct variant_state *vs = app_variants(a);
	memset(x, 0, sizeof(*x));
	x->apply = is_srtctl_apply(argv);
	x->override = vs->form == RECIPE_OVERRIDE;
	/* the variant the previews follow is the one offered */
	if (x->apply && x->override && a->vsel < vs->list.n && vs->list.v[a->vsel].selector &&
	    vs->list.v[a->vsel].kind != VARIANT_BASE)
		x->sel = xstrdup(vs->list.v[a->vsel].selector);
}

void submit_extra_release(struct submit_extra *x)
{
	free(x->sel);
	free(x->tags);
	memset(x, 0, sizeof(*x));
}

void submit_extra_edit(struct app *a, struct submit_extra *x)
{
	int k = 0;
	for (;;) {
		struct strvec items = STRVEC_INIT;
		strvec_push(&items, "Done");
		strvec_pushf(&items, "Serve only (--serve-only, no benchmark): %s", x->serve_only ? "yes" : "no");
		strvec_pushf(&items, "Tags (--tags a,b): %s", x->tags ? x->tags : "(none)");
		if (x->override)
			strvec_pushf(&items, "Variant: %s", x->sel ? x->sel : "every variant");
		k = app_choose(a, "srtctl apply options", (const char *const *)items.v, NULL, items.n, k);
		strvec_release(&items);
		if (k <= 0)
			return;
		if (k == 1) {
			x->serve_only = !x->serve_only;
		} else if (k == 2) {
			char *t = app_prompt(a, "--tags (comma-separated; empty for none)", x->tags ? x->tags : "");
			if (t) {
				free(x->tags);
				x->tags = *t ? t : NULL;
				if (!x->tags)
					free(t);
			}
		} else if (k == 3) {
			char *s = pick_variant(a, x->sel);
			free(x->sel);
			x->sel = s;
		}
	}
}

void submit_extra_apply(struct app *a, const struct submit_extra *x, struct strvec *argv)
{
	if (!x->apply)
		return;
	/* FILE -> FILE:SELECTOR where the file is given, then the options */
	for (size_t i = 0; x->sel && i < argv->n; i++)
		if (!strcmp(argv->v[i], a->path)) {
			char *w = xasprintf("%s:%s", a->path, x->sel);
			free(argv->v[i]);
			argv->v[i] = w;
			break;
		}
	if (x->serve_only)
		strvec_push(argv, "--serve-only");
	if (x->tags) {
		strvec_push(argv, "--tags");
		strvec_push(argv, x->tags);
	}
}
