# For tests: reads `tmux capture-pane -p -e` output and prints each screen row
# as "ROW<TAB>TEXT<TAB> STATE STATE...", one STATE (attributes and colours of
# the SGR escapes in force) per distinct look of its non-space characters.
function reset() { b = 0; d = 0; it = 0; u = 0; r = 0; fg = "d"; bg = "d" }
function sgr(p,   n, a, i, v) {
	n = split(p, a, ";")
	if (p == "") { reset(); return }
	for (i = 1; i <= n; i++) {
		v = a[i] + 0
		if (v == 0) reset()
		else if (v == 1) b = 1
		else if (v == 2) d = 1
		else if (v == 3) it = 1
		else if (v == 4) u = 1
		else if (v == 7) r = 1
		else if (v == 22) { b = 0; d = 0 }
		else if (v == 23) it = 0
		else if (v == 24) u = 0
		else if (v == 27) r = 0
		else if ((v >= 30 && v <= 37) || (v >= 90 && v <= 97)) fg = v
		else if (v == 39) fg = "d"
		else if ((v >= 40 && v <= 47) || (v >= 100 && v <= 107)) bg = v
		else if (v == 49) bg = "d"
		else if (v == 38 || v == 48) {
			if (a[i + 1] == 5) { if (v == 38) fg = "c" a[i + 2]; else bg = "c" a[i + 2]; i += 2 }
			else if (a[i + 1] == 2) { i += 4 }
		}
	}
}
function state() { return (b ? "bold," : "") (d ? "dim," : "") (it ? "italic," : "") (u ? "underline," : "") (r ? "reverse," : "") "fg=" fg ",bg=" bg }
BEGIN { reset(); esc = sprintf("%c", 27) }
{
	line = $0; out = ""; delete seen; txt = ""
	while (length(line) > 0) {
		c = substr(line, 1, 1)
		if (c == esc && substr(line, 2, 1) == "[") {
			rest = substr(line, 3)
			m = match(rest, /[A-Za-z]/)
			if (substr(rest, m, 1) == "m") sgr(substr(rest, 1, m - 1))
			line = substr(rest, m + 1)
			continue
		}
		txt = txt c
		if (c != " ") { s = state(); if (!(s in seen)) { seen[s] = 1; out = out " " s } }
		line = substr(line, 2)
	}
	printf "%d\t%s\t%s\n", NR, txt, out
}
