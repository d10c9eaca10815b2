/*
 * legacy.c — telling a pre-2.0 recipe from a schema 2 one (see legacy.h).
 */
#include "model/legacy.h"
#include "model/override.h"

int legacy_recipe(json_t *root)
{
	/* an empty document is no recipe at all, reported as such elsewhere */
	return json_is_object(root) && json_object_size(root) && recipe_form(root) == RECIPE_PLAIN &&
	       !json_object_get(root, "schema");
}

void legacy_diag(struct diag_list *l)
{
	diag_list_clear(l);
	diag_add_at(l, DIAG_ERROR, "pre-2.0", 1, 1,
		    "run 'srtctl migrate -f FILE --in-place' (srtctl maps every key), or open it "
		    "with 'srt-tui edit FILE' to migrate it and review the diff before saving",
		    "recipe has no `schema:` key, which marks the pre-2.0 layout; schema 1 recipes "
		    "no longer load");
}
