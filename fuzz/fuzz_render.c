/* libFuzzer: render the preview of any document that loads: the dry-run
 * services block and the launch plan in both formats. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz/fuzz_common.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/recipe.h"
#include "render/plan.h"
#include "render/service.h"

/* The preview of a loaded document, as the editor shows it; a plan that
 * fails must say why.  name is the recipe's file name in the plan.  Also
 * replayed by tests/unit/test_regress.c on the inputs of fuzz/regress. */
static void fuzz_render_preview(const struct doc *d, const char *name)
{
	json_t *root = doc_json(d);
	if (root && json_is_object(root)) {
		struct recipe r;
		recipe_init(&r, root);
		struct strbuf sb = STRBUF_INIT;
		render_services_block(&sb, &r);
		struct plan_opts po = { name, NULL, 0 };
		char *err = NULL;
		strbuf_reset(&sb);
		if (plan_render_text(&sb, &r, &po, &err) < 0)
			FUZZ_CHECK(err && *err, "a failed plan without a message");
		free(err);
		err = NULL;
		strbuf_reset(&sb);
		if (plan_render_snapshot(&sb, &r, &po, &err) < 0)
			FUZZ_CHECK(err && *err, "a failed snapshot without a message");
		free(err);
		(void)plan_job_nodes(&r);
		strbuf_release(&sb);
		recipe_release(&r);
	}
	json_decref(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *d = doc_load("fuzz.yaml", (const char *)data, size, &diags);
	diag_list_release(&diags);
	if (!d)
		return 0;
	fuzz_render_preview(d, "fuzz.yaml");
	doc_free(d);
	return 0;
}
