/*
 * recover.c — per-session recovery files beside the recipe or in the state
 * folder, written without following links, read only when they are ours
 * (recover.h).
 *
 * The file format, so that a restore knows what the edits started from:
 *   "srt-tui recovery 1\n"
 *   "recipe N\n" N bytes "\n"
 *   "base N\n" N bytes "\n"        or "base none\n" (the recipe did not exist)
 *   "text N\n" N bytes "\n"
 * A file without the first line is an old-format one: all of it is the text.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/fileio.h"
#include "lib/util.h"
#include "tui/recover.h"

#define MAGIC "srt-tui recovery 1\n"
#define SUFFIX ".srt-tui-recover"
/* The part of the recipe's name kept in a state-folder file name. */
#define STATE_NAME_MAX 64

/* The bytes before the text, swapped as one pointer so that a signal handler
 * running recover_save in the middle of recover_set_base sees the old header
 * or the new one, never half of one. */
struct header {
	size_t len;
	char bytes[];
};

struct loc {
	char *final, *tmp;
};

struct recover_session {
	struct loc loc[2]; /* beside the recipe, then the state folder */
	int nloc;
	volatile int where; /* index of the loc last written, -1 for none */
	char *recipe_abs;
	struct header *volatile hdr;
};

/* ---- names ------------------------------------------------------------------ */

/* The recipe's absolute path with its folder's links resolved, so "r.yaml",
 * "./r.yaml" and "/x/r.yaml" name one recipe. */
static char *absolute(const char *recipe)
{
	char *dir = path_dir(recipe), *real = realpath(dir, NULL), *abs;
	if (real)
		abs = xasprintf("%s/%s", strcmp(real, "/") ? real : "", path_base(recipe));
	else if (recipe[0] == '/')
		abs = xstrdup(recipe);
	else {
		char cwd[PATH_MAX];
		abs = getcwd(cwd, sizeof(cwd)) ? xasprintf("%s/%s", cwd, recipe) : xstrdup(recipe);
	}
	free(real);
	free(dir);
	return abs;
}

static unsigned long long fnv64(const char *s)
{
	unsigned long long h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The beginning of the recipe's file names in the state folder. */
static char *state_prefix(const char *abs)
{
	return xasprintf("%.*s-%016llx" SUFFIX, STATE_NAME_MAX, path_base(abs), fnv64(abs));
}

char *recover_state_dir(void)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	/* the XDG spec: a relative path is invalid and must be ignored */
	if (x && x[0] == '/')
		return xasprintf("%s/srt-tui", x);
	if (home && home[0] == '/')
		return xasprintf("%s/.local/state/srt-tui", home);
	return NULL;
}

/* A folder we may keep recovery files in: ours, not a link, and nobody else
 * can add or replace files in it. */
static int dir_trusted(const char *dir)
{
	struct stat st;
	return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       !(st.st_mode & 022);
}

/* mkdir -p with mode 0700 for what we create. */
static void make_dirs(const char *dir)
{
	char *p = xstrdup(dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0700);
		*s = '/';
	}
	mkdir(p, 0700);
	free(p);
}

/* ---- the session ------------------------------------------------------------ */

static void add_num(struct strbuf *sb, const char *field, size_t n)
{
	strbuf_addf(sb, "%s %zu\n", field, n);
}

static struct header *make_header(const char *abs, const char *base, size_t base_len)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, MAGIC);
	add_num(&sb, "recipe", strlen(abs));
	strbuf_addstr(&sb, abs);
	strbuf_addch(&sb, '\n');
	if (base) {
		add_num(&sb, "base", base_len);
		strbuf_add(&sb, base, base_len);
		strbuf_addch(&sb, '\n');
	} else {
		strbuf_addstr(&sb, "base none\n");
	}
	struct header *h = xmalloc(sizeof(*h) + sb.len);
	h->len = sb.len;
	memcpy(h->bytes, sb.buf, sb.len);
	strbuf_release(&sb);
	return h;
}

struct recover_session *recover_open(const char *recipe, const char *base, size_t base_len)
{
	struct recover_session *s = xcalloc(1, sizeof(*s));
	s->where = -1;
	s->recipe_abs = absolute(recipe);
	s->hdr = make_header(s->recipe_abs, base, base_len);
	char id[64];
	snprintf(id, sizeof(id), "-%ld-%lx", (long)getpid(), (unsigned long)time(NULL));

	/* Beside the recipe, when the name fits (".NAME" + suffix + id + ".tmp"). */
	const char *name = path_base(recipe);
	if (strlen(name) + 1 + strlen(SUFFIX) + strlen(id) + 4 <= NAME_MAX) {
		char *dir = path_dir(recipe);
		s->loc[s->nloc].final = xasprintf("%s/.%s" SUFFIX "%s", dir, name, id);
		s->loc[s->nloc].tmp = xasprintf("%s.tmp", s->loc[s->nloc].final);
		s->nloc++;
		free(dir);
	}
	/* The state folder, made now: a signal handler cannot. */
	char *sd = recover_state_dir();
	if (sd) {
		make_dirs(sd);
		if (dir_trusted(sd)) {
			char *pre = state_prefix(s->recipe_abs);
			s->loc[s->nloc].final = xasprintf("%s/%s%s", sd, pre, id);
			s->loc[s->nloc].tmp = xasprintf("%s.tmp", s->loc[s->nloc].final);
			s->nloc++;
			free(pre);
		}
		free(sd);
	}
	return s;
}

void recover_set_base(struct recover_session *s, const char *base, size_t base_len)
{
	struct header *old = s->hdr;
	s->hdr = make_header(s->recipe_abs, base, base_len);
	free(old);
}

/* "text N\n" without stdio (async-signal-safe). */
static size_t text_line(char *out, size_t n)
{
	char digits[24];
	size_t k = 0, o = 0;
	do {
		digits[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	memcpy(out, "text ", 5);
	o = 5;
	while (k)
		out[o++] = digits[--k];
	out[o++] = '\n';
	return o;
}

static int save_at(const struct loc *l, const struct header *h, const char *text, size_t len)
{
	/* O_EXCL|O_NOFOLLOW: never open what someone put at this name; a stale
	 * temp of ours (or a planted link) is removed, not written through. */
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
	int fd = open(l->tmp, flags, 0600);
	if (fd < 0 && errno == EEXIST && unlink(l->tmp) == 0)
		fd = open(l->tmp, flags, 0600);
	if (fd < 0)
		return -1;
	char line[32];
	size_t ll = text_line(line, len);
	int ok = !write_full(fd, h->bytes, h->len) && !write_full(fd, line, ll) &&
		 !write_full(fd, text, len) && !write_full(fd, "\n", 1) && !fsync(fd);
	if (close(fd) < 0)
		ok = 0;
	/* rename replaces a link planted at the final name; it never follows it */
	if (!ok || rename(l->tmp, l->final) < 0) {
		unlink(l->tmp);
		return -1;
	}
	return 0;
}

int recover_save(struct recover_session *s, const char *text, size_t len)
{
	const struct header *h = s->hdr;
	for (int i = 0; i < s->nloc; i++) {
		if (save_at(&s->loc[i], h, text, len) == 0) {
			/* one file per session: drop the copy in the other folder */
			if (s->where >= 0 && s->where != i)
				unlink(s->loc[s->where].final);
			s->where = i;
			return 0;
		}
	}
	return -1;
}

const char *recover_where(const struct recover_session *s)
{
	return s && s->where >= 0 ? s->loc[s->where].final : NULL;
}

void recover_discard(struct recover_session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nloc; i++)
		unlink(s->loc[i].final);
	s->where = -1;
}

void recover_close(struct recover_session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nloc; i++) {
		free(s->loc[i].final);
		free(s->loc[i].tmp);
	}
	free(s->recipe_abs);
	free(s->hdr);
	free(s);
}

/* ---- reading ---------------------------------------------------------------- */

/* "FIELD N\n" then N bytes and "\n"; advances *p.  Returns 0 or -1. */
static int take_field(const char **p, const char *end, const char *field, char **out,
		      size_t *out_len)
{
	size_t fl = strlen(field);
	if ((size_t)(end - *p) < fl + 1 || memcmp(*p, field, fl) || (*p)[fl] != ' ')
		return -1;
	const char *q = *p + fl + 1;
	size_t n = 0;
	if (q == end || *q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (n > ((size_t)-1 - 9) / 10)
			return -1;
		n = n * 10 + (size_t)(*q - '0');
	}
	if (q == end || *q != '\n')
		return -1;
	q++;
	if ((size_t)(end - q) < n + 1 || q[n] != '\n')
		return -1;
	*out = xmalloc(n + 1);
	memcpy(*out, q, n);
	(*out)[n] = '\0';
	*out_len = n;
	*p = q + n + 1;
	return 0;
}

int recover_parse(const char *buf, size_t len, struct recover_file *f)
{
	memset(f, 0, sizeof(*f));
	size_t ml = strlen(MAGIC);
	if (len < ml || memcmp(buf, MAGIC, ml)) {
		f->text = xmalloc(len + 1);
		memcpy(f->text, buf, len);
		f->text[len] = '\0';
		f->len = len;
		return 0;
	}
	const char *p = buf + ml, *end = buf + len;
	size_t rlen;
	if (take_field(&p, end, "recipe", &f->recipe, &rlen) || memchr(f->recipe, '\0', rlen))
		goto bad;
	static const char none[] = "base none\n";
	if ((size_t)(end - p) >= sizeof(none) - 1 && !memcmp(p, none, sizeof(none) - 1)) {
		p += sizeof(none) - 1;
	} else {
		if (take_field(&p, end, "base", &f->base, &f->base_len))
			goto bad;
		f->has_base = 1;
	}
	if (take_field(&p, end, "text", &f->text, &f->len) || p != end)
		goto bad;
	return 0;
bad:
	recover_file_release(f);
	return -1;
}

void recover_file_release(struct recover_file *f)
{
	free(f->path);
	free(f->recipe);
	free(f->base);
	free(f->text);
	memset(f, 0, sizeof(*f));
}

static void refuse(struct strbuf *why, const char *path, const char *reason)
{
	strbuf_addf(why, "ignored the recovery file '%s': %s\n", path, reason);
}

/* Read NAME in DFD when it is a regular file of ours that only we can write.
 * Returns 0 with the bytes, or -1 with the reason added to *why. */
static int read_trusted(int dfd, const char *name, const char *path, struct strbuf *why,
			char **buf, size_t *len, time_t *mtime)
{
	struct stat ls, st;
	if (fstatat(dfd, name, &ls, AT_SYMLINK_NOFOLLOW) < 0)
		return -1; /* gone meanwhile */
	if (S_ISLNK(ls.st_mode)) {
		refuse(why, path, "it is a symbolic link, not a file srt-tui wrote");
		return -1;
	}
	if (!S_ISREG(ls.st_mode)) {
		refuse(why, path, "it is not a regular file");
		return -1;
	}
	if (ls.st_uid != geteuid()) {
		refuse(why, path, "it belongs to another user, who may have written anything in it");
		return -1;
	}
	if (ls.st_mode & 022) {
		refuse(why, path, "other users can write it, so its content cannot be trusted");
		return -1;
	}
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_dev != ls.st_dev || st.st_ino != ls.st_ino ||
	    (unsigned long long)st.st_size > 2ull * FILE_READ_MAX + 4096) {
		close(fd);
		refuse(why, path, "it changed while it was read, or is too large");
		return -1;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *p = xmalloc(cap + 1);
	for (;;) {
		ssize_t r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n == cap)
			break; /* grew after fstat: what we have is all we trust */
	}
	close(fd);
	p[n] = '\0';
	*buf = p;
	*len = n;
	*mtime = st.st_mtime;
	return 0;
}

static int by_mtime_desc(const void *x, const void *y)
{
	const struct recover_file *a = x, *b = y;
	if (a->mtime != b->mtime)
		return a->mtime < b->mtime ? 1 : -1;
	return strcmp(a->path, b->path);
}

/* Add DIR's files whose names start with PREFIX and go on with "" (only when
 * legacy_ok), or "-" and a session id. */
static void scan(const char *dir, const char *prefix, int legacy_ok, const char *abs,
		 int check_recipe, const struct recover_session *skip, struct recover_file **v,
		 size_t *n, size_t *alloc, struct strbuf *why)
{
	DIR *d = dir_open(dir);
	if (!d)
		return;
	int dfd = dirfd(d);
	size_t pl = strlen(prefix);
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *nm = de->d_name, *rest = nm + pl;
		if (strncmp(nm, prefix, pl))
			continue;
		if (!(*rest == '\0' && legacy_ok) && *rest != '-')
			continue;
		size_t nl = strlen(nm);
		if (nl > 4 && !strcmp(nm + nl - 4, ".tmp"))
			continue; /* a save in progress, or one that was killed */
		char *path = xasprintf("%s/%s", dir, nm);
		int own = 0;
		for (int i = 0; skip && i < skip->nloc; i++)
			own |= !strcmp(skip->loc[i].final, path);
		char *buf;
		size_t len;
		time_t mt;
		if (own || read_trusted(dfd, nm, path, why, &buf, &len, &mt) < 0) {
			free(path);
			continue;
		}
		struct recover_file f;
		if (recover_parse(buf, len, &f) < 0) {
			refuse(why, path, "it is damaged (cut short?)");
			free(buf);
			free(path);
			continue;
		}
		free(buf);
		if (check_recipe && (!f.recipe || strcmp(f.recipe, abs))) {
			recover_file_release(&f);
			free(path);
			continue; /* another recipe's whose name hashed alike */
		}
		f.path = path;
		f.mtime = mt;
		ALLOC_GROW(*v, *n + 1, *alloc);
		(*v)[(*n)++] = f;
	}
	closedir(d);
}

size_t recover_list(const char *recipe, const struct recover_session *skip,
		    struct recover_file **files, char **refused)
{
	struct recover_file *v = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf why = STRBUF_INIT;
	char *abs = absolute(recipe), *dir = path_dir(recipe);
	char *prefix = xasprintf(".%s" SUFFIX, path_base(recipe));
	scan(dir, prefix, 1, abs, 0, skip, &v, &n, &alloc, &why);
	free(prefix);
	free(dir);
	char *sd = recover_state_dir();
	if (sd && dir_trusted(sd)) {
		prefix = state_prefix(abs);
		scan(sd, prefix, 0, abs, 1, skip, &v, &n, &alloc, &why);
		free(prefix);
	}
	free(sd);
	free(abs);
	if (n > 1)
		qsort(v, n, sizeof(*v), by_mtime_desc);
	*files = v;
	if (refused)
		*refused = why.len ? strbuf_detach(&why, NULL) : NULL;
	strbuf_release(&why);
	return n;
}

void recover_list_free(struct recover_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		recover_file_release(&files[i]);
	free(files);
}

void recover_remove_file(const char *path)
{
	/* unlink removes a link itself, never what it points to */
	unlink(path);
}

