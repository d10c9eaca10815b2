#!/bin/sh
# Fields tree and srtctl's own schema (model/srtctl_schema.h): a field only
# srtctl's schema knows shows where it belongs; absent, with srtctl's default;
# its help (F1) is srtctl's description and says srt-tui does not preview it.
# The schema is a stand-in checkout's docs/schema/recipe.schema.json named by
# --srtctl-dir; without it those fields are not in the tree.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/srtctl/uses-new-fields.yaml" "$TMPD/r.yaml"
mkdir -p "$TMPD/checkout/docs/schema"
cat >"$TMPD/checkout/docs/schema/recipe.schema.json" <<'JSON'
{
  "else": { "$ref": "#/$defs/Recipe" },
  "$defs": {
    "Recipe": {
      "type": "object",
      "properties": {
        "schema": { "enum": [2] },
        "name": { "type": "string" },
        "benchmark": { "$ref": "#/$defs/Bench" },
        "tuning": { "$ref": "#/$defs/Tuning", "description": "A section only this stand-in srtctl knows." },
        "reporting_extra": { "type": "object", "description": "Extra reporting only srtctl knows." }
      }
    },
    "Bench": {
      "type": "object",
      "properties": {
        "type": { "type": "string" },
        "pacing": { "type": "string", "description": "How the benchmark client paces requests." },
        "warmup_rounds": { "type": "integer", "default": 3, "description": "Warm-up rounds before measuring." }
      }
    },
    "Tuning": {
      "type": "object",
      "properties": {
        "level": { "type": "integer" },
        "tags": { "type": "array", "items": { "type": "string" } },
        "mode": { "enum": ["auto", "fast"], "default": "auto", "description": "How tuning picks its knobs." }
      }
    }
  }
}
JSON

tui_start 130 40 env PATH=/usr/bin:/bin "$SRT_TUI" --srtctl-dir "$TMPD/checkout" edit r.yaml
wait_for "warning"
keys ']' ']' ']' ']' ']' ']' ']' ']' ']'
wait_for "[Fields]"

# absent, known only to srtctl's schema: under the table's benchmark, with srtctl's default
find_field 'warmup_rounds'
screen | grep -q "warmup_rounds  *(default: 3)" || fail "benchmark.warmup_rounds is not shown with srtctl's default"
keys F1
wait_for "Warm-up rounds before measuring."
wait_for "srt-tui does not preview benchmark.warmup_rounds yet"
keys q
wait_gone "srt-tui does not preview benchmark.warmup_rounds yet"

# absent under a section only srtctl knows, and a top-level one with no default
find_field 'mode'
screen | grep -q "mode  *(default: auto)" || fail "tuning.mode is not shown with srtctl's default"
find_field 'reporting_extra'
screen | grep -q "reporting_extra  *(not set)" || fail "reporting_extra is not shown as absent"

# present, known only to srtctl's schema: srtctl's description as its help
find_field 'pacing'
keys F1
wait_for "How the benchmark client paces requests."
wait_for "srt-tui does not preview benchmark.pacing yet"
keys q
wait_gone "srt-tui does not preview benchmark.pacing yet; only"
keys q
wait_exit

# no srtctl schema: the tree has only srt-tui's own fields
tui_start 130 40 env PATH=/usr/bin:/bin "$SRT_TUI" edit r.yaml
wait_for "error"
keys ']' ']' ']' ']' ']' ']' ']' ']' ']'
wait_for "[Fields]"
keys /
wait_for "Search labels, keys, values and help"
text warmup_rounds
keys Enter
wait_for "'warmup_rounds' not found"
keys q
wait_exit
echo "ok"
