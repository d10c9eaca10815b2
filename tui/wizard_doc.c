/* Document helpers for the wizard: path-text wrappers over model/doc, and
 * the agg <-> prefill/decode switch; both are model/ops.c's. */
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/ops.h"
#include "tui/wizard.h"

json_t *wiz_get(struct doc *d, const char *text) { return ops_get(d, text); }
const char *wiz_get_str(struct doc *d, const char *text) { return ops_get_str(d, text); }
int wiz_set(struct doc *d, const char *text, const json_t *v, int block, char **err)
{
	return ops_set(d, text, v, block, err);
}
int wiz_set_str(struct doc *d, const char *text, const char *s, char **err)
{
	return ops_set_str(d, text, s, err);
}
int wiz_delete(struct doc *d, const char *text, char **err) { return ops_delete(d, text, err); }
int wiz_insert(struct doc *d, const char *text, size_t index, const json_t *v, char **err)
{
	return ops_insert(d, text, index, v, err);
}
int wiz_rename(struct doc *d, const char *text, const char *new_key, char **err)
{
	return ops_rename(d, text, new_key, err);
}
void wiz_path_key(struct strbuf *sb, const char *key) { ops_path_key(sb, key); }
int wiz_set_disagg(struct doc *d, int disagg, char **err) { return ops_set_layout(d, disagg, err); }
