/* Placeholder until the wizard screens land (they need the app and form
 * engine); `new --template NAME -o FILE` already works without them. */
#include <stdio.h>

#include "tui/wizard.h"

int wizard_run(const struct wizard_opts *o)
{
	(void)o;
	fprintf(stderr, "srt-tui: the wizard is not built yet; use 'srt-tui new --template NAME -o FILE'\n");
	return 2;
}
