/* The key table (tui/keys.h): one row per binding, read by the dispatch, the
 * key bar and the help screen, so it must be consistent on its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/keys.h"

/* No key (or alias) belongs to two rows: the dispatch would pick the first
 * and the help screen would promise both. */
static void test_keys_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < key_table_n; i++) {
		const struct key_binding *r = &key_table[i];
		for (size_t j = 0; j < KEY_ALTS && r->keys[j]; j++)
			assert_ptr_equal(key_lookup(r->keys[j]), r);
		if (r->alias) {
			assert_null(key_lookup(r->alias));
			assert_int_equal(key_unalias(r->alias), r->keys[0]);
		}
		/* a row with an action has a key; one without has none to dispatch */
		if (r->action != KA_NONE)
			assert_true(r->keys[0] != 0);
		else
			assert_int_equal(r->keys[0], 0);
	}
	assert_null(key_lookup('x'));
	assert_int_equal(key_unalias('x'), 'x');
}

/* Every action is reachable, and the bar's places are 1..n without gaps. */
static void test_actions_and_bar(void **state)
{
	(void)state;
	for (int act = KA_PANE_NEXT; act <= KA_REPAINT; act++) {
		int found = 0;
		for (size_t i = 0; i < key_table_n; i++)
			found |= key_table[i].action == (enum key_action)act;
		assert_true(found);
	}
	int places = 0;
	for (size_t i = 0; i < key_table_n; i++)
		if (key_table[i].bar) {
			places++;
			assert_non_null(key_table[i].bar_key);
			assert_non_null(key_table[i].bar_brief);
			assert_non_null(key_table[i].bar_label);
			assert_true(key_table[i].action != KA_NONE);
		}
	for (int p = 1; p <= places; p++)
		assert_non_null(key_bar_entry(p));
	assert_null(key_bar_entry(places + 1));
	/* the first place is help: a user who knows nothing else finds it */
	assert_int_equal(key_bar_entry(1)->action, KA_HELP);
}

/* The help screen lists the rows with a help line, in order, aligned. */
static void test_help_text(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	key_help_text(&sb);
	const char *s = sb_str(&sb);
	assert_true(!strncmp(s, "Keys\n", 5));
	const char *p = s + 5;
	size_t col = 0;
	for (size_t i = 0; i < key_table_n; i++) {
		if (!key_table[i].help_keys)
			continue;
		assert_true(!strncmp(p, "  ", 2));
		assert_true(!strncmp(p + 2, key_table[i].help_keys, strlen(key_table[i].help_keys)));
		const char *h = strstr(p, key_table[i].help);
		const char *nl = strchr(p, '\n');
		assert_non_null(h);
		assert_true(h < nl);
		if (!col)
			col = (size_t)(h - p);
		assert_int_equal((size_t)(h - p), col);
		p = nl + 1;
	}
	assert_int_equal(*p, 0);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_unique),
		cmocka_unit_test(test_actions_and_bar),
		cmocka_unit_test(test_help_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
