/*
 * srtctl_schema.c — find, cache and read srtctl's recipe schema (see the header).
 */
#include "model/srtctl_schema.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/json_read.h"
#include "model/cluster.h"
#include "model/fileio.h"
#include "lib/util.h"

/* Set once at start (main) and read by every validation of the process. */
static json_t *g_schema;
static char *g_source;
static json_t *g_any; /* {}: the schema of a value of a free mapping */
/* A schema srt-tui cached itself from `srtctl schema` is read on first use
 * rather than at start: most recipes use only fields the built-in table
 * knows, and reading srtctl's 120 KB of JSON cost more than validating one.
 * While pending, g_source already names it. */
struct pending {
	char *cached, *exe, *ver, *dir;
};
static struct pending g_pending;
static void (*g_report)(const char *msg);

static void pending_release(struct pending *p)
{
	free(p->cached);
	free(p->exe);
	free(p->ver);
	free(p->dir);
	memset(p, 0, sizeof(*p));
}

/* srtctl_schema_child's answers, remembered: the schema never changes once
 * installed, and validation asks the same (node, key) pairs of every recipe,
 * each answer costing several of jansson's hashed lookups. */
struct child_memo {
	json_t *node; /* NULL: an empty slot */
	char *key;
	size_t hash;
	json_t *child; /* may be NULL: no such child */
};
#define CHILD_MEMO_MAX 65536 /* a recipe's own free keys can be many: stop there */
static struct child_memo *g_memo;
static size_t g_memo_n, g_memo_size;

static void memo_clear(void)
{
	for (size_t i = 0; i < g_memo_size; i++)
		free(g_memo[i].key);
	free(g_memo);
	g_memo = NULL;
	g_memo_n = g_memo_size = 0;
}

static struct child_memo *memo_slot(struct child_memo *v, size_t size, json_t *node, const char *key,
				    size_t h)
{
	for (size_t i = h & (size - 1);; i = (i + 1) & (size - 1))
		if (!v[i].node || (v[i].node == node && v[i].hash == h && !strcmp(v[i].key, key)))
			return &v[i];
}

static void memo_put(json_t *node, const char *key, size_t h, json_t *child)
{
	if (g_memo_n >= CHILD_MEMO_MAX)
		return;
	if (2 * (g_memo_n + 1) > g_memo_size) {
		size_t size = g_memo_size ? 2 * g_memo_size : 256;
		struct child_memo *v = xcalloc(size, sizeof(*v));
		for (size_t i = 0; i < g_memo_size; i++)
			if (g_memo[i].node)
				*memo_slot(v, size, g_memo[i].node, g_memo[i].key, g_memo[i].hash) = g_memo[i];
		free(g_memo);
		g_memo = v;
		g_memo_size = size;
	}
	struct child_memo *m = memo_slot(g_memo, g_memo_size, node, key, h);
	m->node = node;
	m->key = xstrdup(key);
	m->hash = h;
	m->child = child;
	g_memo_n++;
}

void srtctl_schema_clear(void)
{
	json_decref(g_schema);
	g_schema = NULL;
	json_decref(g_any);
	g_any = NULL;
	memo_clear();
	pending_release(&g_pending);
	free(g_source);
	g_source = NULL;
}

void srtctl_schema_on_error(void (*report)(const char *msg))
{
	g_report = report;
}

static int install(json_t *j, const char *source, char **err)
{
	if (!json_is_object(j) || (!json_object_get(j, "$defs") && !json_object_get(j, "properties"))) {
		json_decref(j);
		*err = xstrdup("not a recipe JSON Schema (no $defs or properties at its top)");
		return -1;
	}
	srtctl_schema_clear();
	g_schema = j;
	g_any = json_object();
	g_source = xstrdup(source);
	return 0;
}

int srtctl_schema_load_text(const char *text, size_t len, const char *source, char **err)
{
	json_error_t je;
	json_t *j = json_readb(text, len, 0, &je);
	if (!j) {
		*err = xasprintf("%s:%d:%d: %s", source, je.line, je.column, je.text);
		return -1;
	}
	return install(j, source, err);
}

int srtctl_schema_load_file(const char *path, const char *source, char **err)
{
	json_error_t je;
	json_t *j = json_read_file(path, 0, &je);
	if (!j) {
		*err = xasprintf("%s:%d:%d: %s", path, je.line, je.column, je.text);
		return -1;
	}
	char *e = NULL;
	if (install(j, source, &e)) {
		*err = xasprintf("%s: %s", path, e);
		free(e);
		return -1;
	}
	return 0;
}

const char *srtctl_schema_source(void)
{
	return g_schema || g_pending.cached ? g_source : NULL;
}

/* ---- finding it --------------------------------------------------------- */

/* argv's standard output (at most 64 MiB), or NULL when it cannot run or
 * exits non-zero.  No shell: nothing here is ever quoted. */
static char *run_capture(char *const argv[], size_t *len)
{
	int fd[2];
	if (pipe(fd))
		return NULL;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	ssize_t n;
	while ((n = read(fd[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (sb.len + (size_t)n <= (64u << 20))
			strbuf_add(&sb, buf, (size_t)n);
	}
	close(fd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_addstr(&sb, "");
	return strbuf_detach(&sb, len);
}

/* Where execvp would find prog on PATH, malloc'd; NULL when nowhere. */
static char *which(const char *prog)
{
	const char *p = getenv("PATH");
	if (!p)
		return NULL;
	while (*p) {
		size_t n = strcspn(p, ":");
		char *f = xasprintf("%.*s/%s", (int)n, n ? p : ".", prog);
		if (!access(f, X_OK))
			return f;
		free(f);
		p += n;
		if (*p)
			p++;
	}
	return NULL;
}

/* The cache directory ($XDG_CACHE_HOME/srt-tui or ~/.cache/srt-tui), malloc'd. */
static char *cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	if (x && *x == '/')
		return xasprintf("%s/srt-tui", x);
	const char *h = getenv("HOME");
	return h && *h ? xasprintf("%s/.cache/srt-tui", h) : NULL;
}

/* The version text as a file-name part: [A-Za-z0-9._-], others become '_'. */
static char *version_key(const char *v)
{
	char *k = xstrndup(v, strcspn(v, "\n"));
	for (char *s = k; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_'))
			*s = '_';
	return k;
}

/* Write data to path atomically (a temp file in the same folder, then rename);
 * a cache that cannot be written is only slower next time. */
static void cache_write(const char *dir, const char *path, const char *data, size_t len)
{
	char *parent = xstrndup(dir, strrchr(dir, '/') - dir);
	mkdir(parent, 0700);
	free(parent);
	mkdir(dir, 0700);
	char *tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		int ok = write(fd, data, len) == (ssize_t)len && !fsync(fd);
		ok = !close(fd) && ok;
		if (!ok || rename(tmp, path))
			unlink(tmp);
	}
	free(tmp);
}

/* What names one executable file: its place and its inode's identity.  pip,
 * uv and conda write a new file when they install another srtctl. */
static char *exe_identity(const char *exe)
{
	struct stat st;
	if (stat(exe, &st))
		return NULL;
	return xasprintf("%s %ju %ju %jd %jd.%09ld\n", exe, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino,
			 (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
}

/* srtctl's --version line.  srtctl is a Python program that takes longer to
 * start than srt-tui takes to validate, so the line is kept in the cache with
 * the identity of the executable that printed it and asked again only when
 * PATH leads to another file, or this one was rewritten. */
static char *srtctl_version(const char *exe, const char *dir)
{
	char *id = exe_identity(exe);
	char *memo = dir && id ? xasprintf("%s/srtctl-version-%016zx", dir, str_hash(exe, 0)) : NULL;
	char *buf = NULL, *e = NULL, *ver = NULL;
	size_t len, idl = id ? strlen(id) : 0;
	if (memo && !file_read(memo, &buf, &len, &e) && len > idl && !memcmp(buf, id, idl) &&
	    buf[len - 1] == '\n' && !memchr(buf + idl, '\n', len - idl - 1))
		ver = xstrndup(buf + idl, len - idl - 1);
	free(e);
	free(buf);
	if (!ver) {
		char *av[] = { (char *)exe, "--version", NULL };
		size_t vlen;
		char *out = run_capture(av, &vlen);
		if (out) {
			ver = xstrndup(out, strcspn(out, "\n"));
			free(out);
			if (memo) {
				char *rec = xasprintf("%s%s\n", id, ver);
				cache_write(dir, memo, rec, strlen(rec));
				free(rec);
			}
		}
	}
	free(memo);
	free(id);
	return ver;
}

/* Run `srtctl schema`, load what it prints and keep it in cached (may be
 * NULL): 1 when loaded, 0 when srtctl printed none, -1 with *err. */
static int fetch_schema(const char *exe, const char *ver, const char *dir, const char *cached,
			char **err)
{
	char *av[] = { (char *)exe, "schema", NULL };
	size_t len;
	char *text = run_capture(av, &len);
	if (!text)
		return 0;
	char *src = xasprintf("%s (srtctl schema)", ver);
	int rc = srtctl_schema_load_text(text, len, src, err) ? -1 : 1;
	if (rc > 0 && cached)
		cache_write(dir, cached, text, len);
	free(src);
	free(text);
	return rc;
}

/* The pending schema, read now: a cache that no longer reads is made again
 * from `srtctl schema`, and when that fails too there is none (said through
 * the reporter, as main says it at start). */
static void load_pending(void)
{
	/* taken out first: installing a schema clears what is pending */
	struct pending p = g_pending;
	memset(&g_pending, 0, sizeof(g_pending));
	char *src = xstrdup(g_source), *e = NULL;
	if (srtctl_schema_load_file(p.cached, src, &e)) {
		free(e);
		e = NULL;
		int rc = fetch_schema(p.exe, p.ver, p.dir, p.cached, &e);
		if (rc <= 0)
			srtctl_schema_clear();
		if (rc < 0 && g_report)
			g_report(e);
	}
	free(e);
	free(src);
	pending_release(&p);
}

static int from_srtctl(const char *exe, char **err)
{
	char *dir = cache_dir();
	char *ver = srtctl_version(exe, dir);
	if (!ver) {
		free(dir);
		return 0;
	}
	char *key = version_key(ver);
	char *cached = dir ? xasprintf("%s/srtctl-schema-%s.json", dir, key) : NULL;
	free(key);
	if (cached && !access(cached, R_OK)) {
		srtctl_schema_clear();
		g_source = xasprintf("%s (srtctl schema, cached in %s)", ver, cached);
		g_pending.cached = cached;
		g_pending.exe = xstrdup(exe);
		g_pending.ver = ver;
		g_pending.dir = dir;
		return 1;
	}
	int rc = fetch_schema(exe, ver, dir, cached, err);
	free(cached);
	free(dir);
	free(ver);
	return rc;
}

/* The schema file of a checkout, malloc'd; NULL when it cannot be read. */
static char *checkout_schema(const char *dir)
{
	char *f = xasprintf("%s/docs/schema/recipe.schema.json", dir);
	if (!access(f, R_OK))
		return f;
	free(f);
	return NULL;
}

/* The checkout the cluster file srtctl would use from dir names: its
 * srtctl_root when the file loads and sets one, else the folder holding the
 * file (srtslurm.yaml sits at the root of the srt-slurm checkout).  1 when a
 * schema was loaded, 0 when none was found, -1 when it does not parse. */
static int from_cluster(const char *dir, char **err)
{
	struct cluster c = CLUSTER_INIT;
	int rc = 0;
	cluster_discover(&c, dir);
	if (c.state != CLUSTER_NONE && c.path && !access(c.path, R_OK)) {
		const char *root = cluster_str(&c, "srtctl_root", NULL);
		char *f = NULL, *src = NULL;
		if (root && *root) {
			char *r = root[0] == '/' ? xstrdup(root) : xasprintf("%s/%s", c.srtctl_dir, root);
			if ((f = checkout_schema(r)))
				src = xasprintf("%s (srtctl_root of %s)", f, c.path);
			free(r);
		}
		if (!f) {
			const char *slash = strrchr(c.path, '/');
			char *folder = slash ? xstrndup(c.path, (size_t)(slash - c.path)) : xstrdup(".");
			if ((f = checkout_schema(*folder ? folder : "/")))
				src = xasprintf("%s (the srt-slurm checkout holding %s)", f, c.path);
			free(folder);
		}
		if (f)
			rc = srtctl_schema_load_file(f, src, err) ? -1 : 1;
		free(f);
		free(src);
	}
	cluster_release(&c);
	return rc;
}

int srtctl_schema_discover(const char *srtctl_dir, char **err)
{
	if (!srtctl_dir || !*srtctl_dir)
		srtctl_dir = getenv("SRT_TUI_SRTCTL_DIR");
	if (srtctl_dir && *srtctl_dir) {
		/* a named checkout, else the one its cluster file leads to; never
		 * the srtctl on PATH, which may be another version */
		char *f = checkout_schema(srtctl_dir);
		if (f) {
			char *src = xasprintf("%s (srt-slurm checkout)", f);
			int rc = srtctl_schema_load_file(f, src, err) ? -1 : 1;
			free(src);
			free(f);
			return rc;
		}
		int rc = from_cluster(srtctl_dir, err);
		if (rc)
			return rc;
		*err = xasprintf("%s/docs/schema/recipe.schema.json: %s; --srtctl-dir names an srt-slurm checkout, which holds docs/schema/recipe.schema.json (or a folder whose srtslurm.yaml, up to two levels up, sits in one)",
				 srtctl_dir, strerror(ENOENT));
		return -1;
	}
	char *exe = which("srtctl");
	if (exe) {
		int rc = from_srtctl(exe, err);
		free(exe);
		if (rc)
			return rc;
	}
	return from_cluster(NULL, err);
}

/* ---- reading it ---------------------------------------------------------- */

/* Follow a local "$ref": "#/$defs/Name" (up to a few hops). */
static json_t *deref(json_t *n)
{
	for (int hop = 0; n && hop < 16; hop++) {
		const char *ref = json_string_value(json_object_get(n, "$ref"));
		if (!ref || strncmp(ref, "#/", 2))
			return n;
		json_t *cur = g_schema;
		const char *p = ref + 2;
		while (cur && *p) {
			size_t k = strcspn(p, "/");
			cur = json_object_getn(cur, p, k);
			p += k;
			if (*p)
				p++;
		}
		n = cur;
	}
	return n;
}

json_t *srtctl_schema_root(void)
{
	if (g_pending.cached)
		load_pending();
	if (!g_schema)
		return NULL;
	json_t *e = json_object_get(g_schema, "else");
	if (e)
		return deref(e);
	json_t *r = json_object_get(json_object_get(g_schema, "$defs"), "Recipe");
	return r ? r : g_schema;
}

static json_t *branches(json_t *n)
{
	json_t *b = json_object_get(n, "anyOf");
	return b ? b : json_object_get(n, "oneOf");
}

/* The nodes one question has passed through.  A schema is a graph, not a
 * tree: $ref and anyOf may lead back to a node already asked (a recursive
 * type, or a hostile file), so every walk below visits a node at most once
 * and at most WALK_MAX nodes in all (srtctl's own schema needs a few dozen
 * for the deepest question), which bounds both the C stack and the time.
 * A node skipped as seen has already given its answer on the way: "no". */
#define WALK_MAX 512
struct walk {
	json_t *seen[WALK_MAX];
	size_t n;
};

/* Non-zero when node may be visited now (and marks it visited). */
static int walk_enter(struct walk *w, json_t *node)
{
	if (!node || w->n >= WALK_MAX)
		return 0;
	for (size_t i = 0; i < w->n; i++)
		if (w->seen[i] == node)
			return 0;
	w->seen[w->n++] = node;
	return 1;
}

/* A node with anyOf/oneOf answers with its first branch that answers (own
 * is asked of each branch's own node); any other node answers itself. */
static json_t *first_branch(struct walk *w, json_t *node,
			    json_t *(*own)(json_t *node, const char *key),
			    const char *key)
{
	node = deref(node);
	if (!walk_enter(w, node))
		return NULL;
	json_t *b = branches(node);
	if (!b)
		return own(node, key);
	size_t i;
	json_t *br;
	json_array_foreach(b, i, br) {
		json_t *c = first_branch(w, br, own, key);
		if (c)
			return c;
	}
	return NULL;
}

static json_t *own_child(json_t *node, const char *key)
{
	json_t *c = json_object_get(json_object_get(node, "properties"), key);
	if (c)
		return c;
	json_t *ap = json_object_get(node, "additionalProperties");
	if (json_is_object(ap))
		return ap;
	/* a mapping with no properties and no additionalProperties (a role's
	 * args): any key, any value */
	const char *t = json_string_value(json_object_get(node, "type"));
	if (t && !strcmp(t, "object") && !json_object_get(node, "properties") && !json_is_false(ap))
		return g_any;
	return NULL;
}

static json_t *own_item(json_t *node, const char *key)
{
	(void)key;
	json_t *it = json_object_get(node, "items");
	return json_is_object(it) ? it : NULL;
}

/* first_branch with a fresh walk (seen[] needs no clearing: n says how
 * much of it holds). */
static json_t *ask(json_t *node, json_t *(*own)(json_t *node, const char *key),
		   const char *key)
{
	struct walk w;
	w.n = 0;
	return first_branch(&w, node, own, key);
}

json_t *srtctl_schema_child(json_t *node, const char *key)
{
	if (!node || !key)
		return ask(node, own_child, key);
	size_t h = str_hash(key, (size_t)(uintptr_t)node);
	if (g_memo) {
		struct child_memo *m = memo_slot(g_memo, g_memo_size, node, key, h);
		if (m->node)
			return m->child;
	}
	json_t *c = ask(node, own_child, key);
	memo_put(node, key, h, c);
	return c;
}

json_t *srtctl_schema_item(json_t *node)
{
	return ask(node, own_item, NULL);
}

static int type_name_ok(const char *t, json_t *v)
{
	if (!strcmp(t, "string")) return json_is_string(v);
	if (!strcmp(t, "integer")) return json_is_integer(v);
	if (!strcmp(t, "number")) return json_is_number(v);
	if (!strcmp(t, "boolean")) return json_is_boolean(v);
	if (!strcmp(t, "null")) return json_is_null(v);
	if (!strcmp(t, "object")) return json_is_object(v);
	if (!strcmp(t, "array")) return json_is_array(v);
	return 1;
}

static int accepts(struct walk *w, json_t *node, json_t *value)
{
	node = deref(node);
	if (!node)
		return 1;
	if (!walk_enter(w, node))
		return 0;
	json_t *b = branches(node);
	if (b) {
		size_t i;
		json_t *br;
		json_array_foreach(b, i, br)
			if (accepts(w, br, value))
				return 1;
		return 0;
	}
	json_t *en = json_object_get(node, "enum");
	if (json_is_array(en))
		return json_array_has(en, value);
	json_t *cn = json_object_get(node, "const");
	if (cn)
		return json_equal(cn, value);
	json_t *t = json_object_get(node, "type");
	if (json_is_string(t))
		return type_name_ok(json_string_value(t), value);
	if (json_is_array(t)) {
		size_t i;
		json_t *e;
		json_array_foreach(t, i, e)
			if (json_is_string(e) && type_name_ok(json_string_value(e), value))
				return 1;
		return 0;
	}
	return 1;
}

int srtctl_schema_accepts(json_t *node, json_t *value)
{
	struct walk w;
	w.n = 0;
	return accepts(&w, node, value);
}

static int closed(struct walk *w, json_t *node)
{
	node = deref(node);
	if (!walk_enter(w, node))
		return 0;
	json_t *b = branches(node);
	if (b) {
		size_t i, objects = 0;
		json_t *br;
		json_array_foreach(b, i, br) {
			json_t *d = deref(br);
			const char *t = json_string_value(json_object_get(d, "type"));
			if (!t || strcmp(t, "object"))
				continue;
			objects++;
			if (!closed(w, d))
				return 0;
		}
		return objects > 0;
	}
	return json_is_false(json_object_get(node, "additionalProperties"));
}

int srtctl_schema_closed(json_t *node)
{
	struct walk w;
	w.n = 0;
	return closed(&w, node);
}

/* A keyword of node: on it, on what it refers to, or on the first of its
 * anyOf/oneOf branches that has one. */
static json_t *keyword(struct walk *w, json_t *node, const char *key)
{
	json_t *v = json_object_get(node, key);
	if (v)
		return v;
	node = deref(node);
	if ((v = json_object_get(node, key)))
		return v;
	if (!walk_enter(w, node))
		return NULL;
	json_t *b = branches(node);
	size_t i;
	json_t *br;
	json_array_foreach(b, i, br)
		if ((v = keyword(w, br, key)))
			return v;
	return NULL;
}

static json_t *keyword_of(json_t *node, const char *key)
{
	struct walk w;
	w.n = 0;
	return keyword(&w, node, key);
}

const char *srtctl_schema_description(json_t *node)
{
	return json_string_value(keyword_of(node, "description"));
}

json_t *srtctl_schema_default(json_t *node)
{
	return keyword_of(node, "default");
}

/* Non-zero when node's `type` property is a constant (const, or a one-value
 * enum) other than variant. */
static int other_variant(json_t *node, const char *variant)
{
	json_t *t = json_object_get(json_object_get(node, "properties"), "type");
	t = deref(t);
	json_t *c = json_object_get(t, "const");
	json_t *e = json_object_get(t, "enum");
	if (!c && json_is_array(e) && json_array_size(e) == 1)
		c = json_array_get(e, 0);
	return json_is_string(c) && strcmp(json_string_value(c), variant);
}

static void each_key(struct walk *w, json_t *node, const char *variant, json_t *seen,
		     void (*fn)(const char *key, json_t *sub, void *ctx), void *ctx)
{
	node = deref(node);
	if (!walk_enter(w, node))
		return;
	json_t *b = branches(node);
	if (b) {
		size_t i;
		json_t *br;
		json_array_foreach(b, i, br)
			each_key(w, br, variant, seen, fn, ctx);
		return;
	}
	if (variant && other_variant(node, variant))
		return;
	const char *k;
	json_t *sub;
	json_object_foreach(json_object_get(node, "properties"), k, sub) {
		if (json_object_get(seen, k))
			continue;
		json_object_set_new(seen, k, json_true());
		fn(k, sub, ctx);
	}
}

void srtctl_schema_each_key(json_t *node, const char *variant,
			    void (*fn)(const char *key, json_t *sub, void *ctx), void *ctx)
{
	json_t *seen = json_object();
	struct walk w;
	w.n = 0;
	each_key(&w, node, variant, seen, fn, ctx);
	json_decref(seen);
}
