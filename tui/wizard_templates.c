/* Looking up the templates compiled in from examples/ (mk/embed.sh). */
#include <string.h>

#include "tui/wizard.h"

const struct template *wizard_template(const char *name)
{
	for (size_t i = 0; name && i < templates_count; i++)
		if (!strcmp(templates[i].name, name))
			return &templates[i];
	return NULL;
}

const struct template *wizard_default_template(void)
{
	const struct template *t = wizard_template("vllm-lmcache-agg");

	return t ? t : templates_count ? &templates[0] : NULL;
}

char *wizard_template_names(void)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < templates_count; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", templates[i].name);
	if (!templates_count)
		strbuf_addstr(&sb, "(none compiled in)");
	return strbuf_detach(&sb, NULL);
}
