/*
 * editor.h — the "Fields" screen: a tree of every field of the recipe,
 * driven by model/schema (absent fields shown with their defaults) and by the
 * document (unknown and advanced keys shown and edited as plain YAML values).
 * Static data; the tree's collapsed state lives in the screen's form.
 */
#ifndef SRT_TUI_EDITOR_H
#define SRT_TUI_EDITOR_H

#include "tui/app.h"

extern const struct app_screen editor_screen;

#endif
