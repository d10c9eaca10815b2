/* panel_preview.c — the preview tabs (Services, Workers, YAML, Diff, Plan,
 * and srtctl's dry-run parts: Sbatch, Mounts, Env) and the scrolling text
 * view they are shown in (widget.h). */
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/fileio.h"
#include "model/textdiff.h"
#include "model/override.h"
#include "lib/rich.h"
#include "render/dryrun.h"
#include "render/plan.h"
#include "render/sbatch.h"
#include "render/service.h"
#include "render/workers.h"
#include "tui/app.h"
#include "tui/app_int.h"
#include "tui/draw.h"
#include "tui/widget.h"

static void services_tab(struct app *a, const struct app_state *st, struct strbuf *out)
{
	render_services_block(out, &st->recipe);
	if (!out->len)
		strbuf_addstr(out, "(no services: the recipe declares none and none are implied)\n");
}

/* The first worker's command of a role, taken from the launch plan (the
 * step "N. <role>_0_<node>" and its "$ command" line). */
static void worker_command(struct app *a, const char *role, struct strbuf *out)
{
	const char *plan = app_preview_text(a, PV_PLAN); /* the steps: not the note */
	char *needle = xasprintf(". %s_0_", role);
	const char *step = strstr(plan, needle);
	free(needle);
	const char *cmd = NULL;
	/* the step's own lines are indented by 7 spaces; its command starts with "$ " */
	for (const char *l = step ? strchr(step, '\n') : NULL; l && !strncmp(l, "\n       ", 8);
	     l = strchr(l + 1, '\n'))
		if (!strncmp(l + 8, "$ ", 2)) {
			cmd = l;
			break;
		}
	if (!cmd) {
		strbuf_addstr(out, "  worker command: (not available: see the Plan tab)\n\n");
		return;
	}
	cmd += 8; /* "\n       " */
	const char *eol = strchr(cmd, '\n');
	size_t len = eol ? (size_t)(eol - cmd) : strlen(cmd);
	strbuf_addf(out, "  worker command (%s_0):\n    %.*s\n\n", role, (int)len, cmd);
}

/* Each role's first worker command follows its preview lines. */
static void worker_command_role(struct strbuf *out, enum role_id role, void *a)
{
	worker_command(a, role_names[role], out);
}

static void workers_tab(struct app *a, const struct app_state *st, struct strbuf *out)
{
	render_workers_block(out, &st->recipe, WORKERS_PANEL, worker_command_role, a);
}

static void diff_tab(struct app *a, struct strbuf *out)
{
	const char *path = app_path(a);
	size_t len;
	const char *text = doc_text(app_doc(a), &len);
	char *disk = NULL, *err = NULL;
	size_t dlen = 0;
	if (!path) {
		strbuf_addstr(out, "(not written yet: the diff shows changes against the file once "
				   "it exists)\n");
		return;
	}
	if (file_read(path, &disk, &dlen, &err)) {
		strbuf_addf(out, "(%s)\n", err);
		free(err);
		return;
	}
	const char *name = path_base(path);
	size_t blen;
	const char *base = app_base(a, &blen);
	if (base && (blen != dlen || memcmp(base, disk, dlen))) {
		/* another writer changed the file since the edits began: the three
		 * versions, as a save's merge sees them */
		strbuf_addstr(out, "The file changed on disk since the edits began "
				   "(then -> disk now):\n\n");
		text_diff(out, name, base, blen, disk, dlen);
		strbuf_addstr(out, "\nThe edits (then -> here):\n\n");
		size_t before = out->len;
		text_diff(out, name, base, blen, text, len);
		if (out->len == before)
			strbuf_addstr(out, "(none)\n");
		strbuf_addstr(out, "\nWhat saving writes over the disk (disk now -> here):\n\n");
		before = out->len;
		text_diff(out, name, disk, dlen, text, len);
		if (out->len == before)
			strbuf_addstr(out, "(nothing: the same text)\n");
		strbuf_addstr(out, "\nF2 asks whether to merge the two changes or overwrite.\n");
		free(disk);
		return;
	}
	text_diff(out, name, disk, dlen, text, len);
	if (!out->len)
		strbuf_addf(out, "(no changes: the recipe matches '%s' on disk)\n", path);
	free(disk);
}

/* The readable plan runs on the job's own nodes (render/plan), as srtctl's
 * allocation would give them, rather than the snapshot harness's list. */
static void plan_tab(struct app *a, const struct app_state *st, struct strbuf *out,
		     size_t *note_at, struct plan_note **note)
{
	int nodes = plan_job_nodes(&st->recipe);
	if (nodes >= 0)
		strbuf_addf(out, "Nodes requested: %d\n\n", nodes);
	else
		strbuf_addstr(out, "Nodes requested: unknown (fix the topology errors first)\n\n");
	char *err = NULL;
	if (!a->plan_cache)
		a->plan_cache = plan_cache_new();
	int rc = note ? plan_render_text_deferred(out, &st->recipe, NULL, a->plan_cache, note_at,
						  note, &err)
		      : plan_render_text(out, &st->recipe, NULL, &err);
	if (rc) {
		strbuf_addf(out, "(no launch plan: %s)\n", err ? err : "not supported");
		free(err);
	}
}

/* The cluster file as one line, then the sbatch script srtctl would submit. */
static void sbatch_tab(struct app *a, const struct app_state *st, struct strbuf *out)
{
	struct sbatch_opts o;
	char *line = cluster_describe(app_cluster(a));
	strbuf_addf(out, "%s\n", line);
	free(line);
	for (size_t i = 0; i < app_cluster(a)->diags.n; i++) {
		const struct diag *g = &app_cluster(a)->diags.v[i];
		strbuf_addf(out, "  %d:%d: %s\n", g->line, g->col, g->message);
	}
	strbuf_addstr(out, "(the #SBATCH lines and the exports are srtctl's exactly; the body follows "
			   "one srtctl version of its template)\n\n");
	sbatch_opts_init(&o, app_cluster(a), app_path(a) ? app_path(a) : "recipe.yaml");
	sbatch_render(out, &st->recipe, &o);
	sbatch_opts_release(&o);
}

/* The console width the Mounts and Env tables are laid out for: the
 * preview pane's, so that Rich's layout fits what is on screen; before the
 * first draw, the width srtctl uses off a terminal. */
static int rich_tab_width(const struct app *a)
{
	return a->pv_width >= 20 ? a->pv_width : rich_console_width();
}

static void mounts_tab(struct app *a, const struct app_state *st, struct strbuf *out)
{
	dryrun_mounts_text(out, &st->recipe, app_cluster(a), rich_tab_width(a));
}

/* The Environment Variables table, the GPU mask, srun options, values the
 * cluster file set. */
static void env_tab(struct app *a, const struct app_state *st, struct strbuf *out)
{
	dryrun_env_text(out, &st->recipe, rich_tab_width(a));
	strbuf_addf(out, "\nGPU mask of each worker: %s%s\n", st->recipe.visible_devices_env,
		    cluster_str(app_cluster(a), "visible_devices_env", NULL) ? " (cluster: visible_devices_env)" : "");
	if (st->recipe.bash_preamble)
		strbuf_addf(out, "before every container srun: %s (cluster: default_bash_preamble)\n",
			    st->recipe.bash_preamble);
	dryrun_srun_text(out, &st->recipe);
	if (st->provs.n) {
		strbuf_addstr(out, "\nFrom the cluster file:\n");
		for (size_t i = 0; i < st->provs.n; i++)
			strbuf_addf(out, "  %s%s%s  (%s)\n", st->provs.v[i].path,
				    st->provs.v[i].from ? ": " : "", st->provs.v[i].from ? st->provs.v[i].from : "",
				    st->provs.v[i].source);
	}
}

void preview_compute(struct app *a, enum preview_tab tab, struct strbuf *out, size_t *note_at,
		     struct plan_note **note)
{
	if (note)
		*note = NULL;
	const struct app_state *st = app_state(a);
	if (tab == PV_YAML) {
		size_t len;
		const char *t = doc_text(app_doc(a), &len);
		strbuf_add(out, t, len);
		return;
	}
	if (tab == PV_DIFF) {
		diff_tab(a, out);
		return;
	}
	if (!st->root) {
		strbuf_addstr(out, "(the recipe cannot be read as a whole: see Problems)\n");
		return;
	}
	if (st->variant && tab != PV_PLAN) {
		/* which of the file's jobs this is (the Variants screen picks) */
		const struct variant *v = st->variant;
		strbuf_addf(out, "Variant %s: job %s%s\n\n", v->label ? v->label : "?",
			    v->job_name ? v->job_name : "(no name)",
			    v->kind == VARIANT_BASE ? " (base alone: not submitted without :base)" : "");
	}
	switch (tab) {
	case PV_SERVICES:
		services_tab(a, st, out);
		break;
	case PV_WORKERS:
		workers_tab(a, st, out);
		break;
	case PV_PLAN:
		plan_tab(a, st, out, note_at, note);
		break;
	case PV_SBATCH:
		sbatch_tab(a, st, out);
		break;
	case PV_MOUNTS:
		mounts_tab(a, st, out);
		break;
	case PV_ENV:
		env_tab(a, st, out);
		break;
	default:
		break;
	}
}

/* ---- text view ---- */

/* Counted on every redraw, over a preview that can be megabytes: memchr
 * rather than a loop per character. */
static int count_text_lines(const char *t)
{
	size_t len = strlen(t);
	const char *p = t, *end = t + len;
	int n = 0;
	while ((p = memchr(p, '\n', (size_t)(end - p)))) {
		n++;
		p++;
	}
	return n + (len && end[-1] != '\n');
}

void panel_text_draw(struct app *a, WINDOW *w, int y, int x, int h, int width, const char *text,
		     struct scroll_view *v, int focused, int diff)
{
	if (h <= 0 || width <= 0)
		return;
	int total = count_text_lines(text);
	if (v->top > total - h)
		v->top = total - h;
	if (v->top < 0)
		v->top = 0;
	const char *p = text;
	int line = 0;
	while (*p && line < v->top) {
		const char *nl = strchr(p, '\n');
		if (!nl) {
			p += strlen(p);
			break;
		}
		p = nl + 1;
		line++;
	}
	for (int r = 0; r < h && *p; r++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		attr_t at = app_attr(a, TH_NORMAL);
		if (diff) {
			if (*p == '+' && strncmp(p, "+++", 3))
				at = app_attr(a, TH_DIFF_ADD);
			else if (*p == '-' && strncmp(p, "---", 3))
				at = app_attr(a, TH_DIFF_DEL);
			else if (*p == '@')
				at = app_attr(a, TH_DIFF_HUNK);
		}
		/* the focused step: its rows in the focus colour, a ">" before
		 * its first (the mark must show without colour too) */
		int row = v->top + r;
		int marked = v->mark_n > 0 && row >= v->mark_top && row < v->mark_top + v->mark_n;
		if (marked) {
			at = app_attr(a, TH_FOCUS);
			draw_fill(w, y + r, x, 1, width - 1, at);
		}
		/* horizontal scroll by cells */
		size_t skip = 0;
		if (v->left > 0)
			skip = utf8_fit(p, len, v->left);
		draw_text(w, y + r, x, width, p + skip, len - skip, at, 0);
		if (marked && row == v->mark_top)
			draw_str(w, y + r, x, 1, ">", at);
		p += len + (nl ? 1 : 0);
	}
	if (v->top > 0)
		draw_str(w, y, x + width - 1, 1, "^", app_attr(a, TH_BORDER));
	if (v->top + h < total)
		draw_str(w, y + h - 1, x + width - 1, 1, "v", app_attr(a, TH_BORDER));
	(void)focused;
}

int panel_text_key(struct scroll_view *v, const char *text, int key, int page)
{
	int total = count_text_lines(text);
	switch (key) {
	case K_FN(KEY_UP):
	case 'k':
		if (v->top > 0)
			v->top--;
		return 1;
	case K_FN(KEY_DOWN):
	case 'j':
		if (v->top + 1 < total)
			v->top++;
		return 1;
	case K_FN(KEY_PPAGE):
		v->top = v->top > page ? v->top - page : 0;
		return 1;
	case K_FN(KEY_NPAGE):
	case ' ':
		v->top = v->top + page < total ? v->top + page : v->top;
		return 1;
	case K_FN(KEY_HOME):
	case 'g':
		v->top = 0;
		v->left = 0;
		return 1;
	case K_FN(KEY_END):
	case 'G':
		v->top = total - page > 0 ? total - page : 0;
		return 1;
	case '>':
		v->left += 8;
		return 1;
	case '<':
		v->left = v->left > 8 ? v->left - 8 : 0;
		return 1;
	}
	return 0;
}
