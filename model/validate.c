/*
 * validate.c — the entry points of validate.h: rules over a typed recipe, and
 * the whole pipeline for a loaded document (schema, rules, positions, order).
 * The rules live in validate_roles.c, validate_connectors.c and
 * validate_services.c; the schema check in validate_schema.c.
 */
#include "model/validate.h"

#include "model/validate_int.h"

void validate_recipe(const struct recipe *r, struct diag_list *out)
{
	if (!json_is_object(r->root))
		return;
	validate_roles(r, out);
	validate_connectors(r, out);
	validate_services(r, out);
	validate_engine_args(r, out);
	validate_engine_flags(r, out);
}

void validate_tree(json_t *root, const struct recipe *built, struct diag_list *out)
{
	validate_schema(root, out);
	/* An override file's sections are recipes only once merged over base:
	 * the override layer validates each variant. */
	if (json_is_object(root) && recipe_form(root) != RECIPE_OVERRIDE) {
		if (built) {
			validate_recipe(built, out);
			return;
		}
		struct recipe r;
		recipe_init(&r, root);
		validate_recipe(&r, out);
		recipe_release(&r);
	}
}

void validate_doc(const struct doc *d, struct diag_list *out)
{
	validate_doc_with(d, NULL, out);
}

void validate_doc_with(const struct doc *d, const struct recipe *built, struct diag_list *out)
{
	struct diag_list l = DIAG_LIST_INIT;
	json_t *root = doc_json(d);

	if (!doc_root(d) || !root) {
		if (doc_root(d))
			diag_add(&l, DIAG_ERROR, "too-large", "",
				 "expand the aliases by hand, or split the file",
				 "the file's aliases expand to more than srt-tui reads");
		else
			diag_add(&l, DIAG_ERROR, "empty", "",
				 "start from a template: srt-tui new --list-templates",
				 "the file holds no recipe");
		json_decref(root); /* an empty document still has a (empty) tree */
	} else {
		validate_tree(root, built, &l);
		json_decref(root);
	}
	doc_locate_diags(d, &l);
	diag_sort(&l);
	if (l.n) /* diag_list_move memcpy's from a NULL list otherwise */
		diag_list_move(out, &l);
	diag_list_release(&l);
}
