//go:build ignore

/*
 * mesaref replays a retrogl GL trace (docs/examples.md) on Mesa through
 * OSMesa and writes the colour buffer as a PAM image (P7, RGBA, top row
 * first), the reference the example tests compare every backend with.
 *
 *   GALLIUM_DRIVER=softpipe mesaref TRACE OUT.pam
 *
 * It prints Mesa's GL_RENDERER and GL_VERSION on stdout. Build:
 *
 *   cc -O2 -o mesaref mesaref.c $(pkg-config --cflags --libs osmesa)
 *
 * OSMesa gives a desktop GL compatibility context, not GL ES 1.1. The ES
 * entry points map onto it one to one (Frustumf onto glFrustum, the OES
 * blend calls onto the GL 1.4/2.0 ones, point sprites onto GL_POINT_SPRITE,
 * whose enums are the same), with three exceptions done here on the CPU, as
 * Mesa's own ES 1.1 front end does them:
 *   - OES_compressed_paletted_texture: each level is expanded to RGB or RGBA
 *     bytes (4-bit indices: first texel in the high nibble, as the
 *     extension's texel diagram shows) and loaded with glTexImage2D;
 *   - OES_point_size_array: a point draw with the array enabled becomes one
 *     glPointSize and one single-point draw per vertex;
 *   - FIXED arrays, and BYTE positions and texture coordinates: converted
 *     to float arrays before each draw (see set_array).
 * The matrix palette and draw-texture extensions have no desktop
 * counterpart and stop the replay with an error; no example uses them.
 * A GL ES 2.0 trace (its Surface line ends with ES2) plays on the same
 * context through the GL 2.0 and framebuffer-object calls; see "GL ES 2.0"
 * below for the shaders.
 *
 * Bad input stops the replay with a message naming the line; it never
 * crashes the tool (every argument is checked before use).
 */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enums_gen.h"

/* The ES enumerants desktop GL lacks or names differently. */
#define ES_POINT_SIZE_ARRAY_OES 0x8B9C
#define ES_MATRIX_PALETTE_OES 0x8840
#define ES_WEIGHT_ARRAY_OES 0x86AD
#define ES_MATRIX_INDEX_ARRAY_OES 0x8844
#define ES_TEXTURE_CROP_RECT_OES 0x8B9D
#define ES_PALETTE4_RGB8_OES 0x8B90
#define ES_PALETTE8_RGB5_A1_OES 0x8B99
#define ES_ETC1_RGB8_OES 0x8D64
#define ES_FIXED 0x140C

static int line_no;

/* msgs receives error messages: stderr, or in batch mode a buffer sent back
 * with the trace's result. In batch mode a fatal error ends the trace, not
 * the process (recover). */
static FILE *msgs;
static FILE *info; /* receives the renderer's name: stdout, or msgs in batch mode */
static int batch;
static jmp_buf recover;

static void die(const char *fmt, ...)
{
	va_list ap;
	fprintf(msgs, "mesaref: line %d: ", line_no);
	va_start(ap, fmt);
	vfprintf(msgs, fmt, ap);
	va_end(ap);
	fputc('\n', msgs);
	if (batch)
		longjmp(recover, 1);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "mesaref: out of memory\n");
		exit(1);
	}
	return p;
}

/* Client arrays must live until the trace ends (GL reads them at draw
 * time); every decoded blob is kept here and freed after the trace. */
static void **kept;
static size_t nkept, capkept;

static void keep(void *p)
{
	if (nkept == capkept) {
		capkept = capkept ? 2 * capkept : 64;
		kept = realloc(kept, capkept * sizeof *kept);
		if (!kept) {
			fprintf(stderr, "mesaref: out of memory\n");
			exit(1);
		}
	}
	kept[nkept++] = p;
}

static void free_kept(void)
{
	for (size_t i = 0; i < nkept; i++)
		free(kept[i]);
	nkept = 0;
}

/* ---- values ---- */

enum kind { K_NUMBER, K_NAME, K_BOOL, K_VECTOR, K_DATA, K_NIL, K_STRING };

struct val {
	enum kind kind;
	char *text;          /* number, name, bool token */
	struct val *elems;   /* vector */
	int nelems;
	unsigned char *data; /* data bytes */
	size_t len;
};

#define MAX_ARGS 16
static struct val args[MAX_ARGS];
static int nargs;

/* Blobs handed to GL as client arrays must live until replaced; they are
 * kept (and freed at exit with the process). */
static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+') return 62;
	if (c == '/') return 63;
	return -1;
}

static unsigned char *b64decode(const char *s, size_t n, size_t want)
{
	if (n % 4 != 0 || n / 4 * 3 < want)
		die("data [%zu]: %zu base64 characters", want, n);
	unsigned char *out = xmalloc(n / 4 * 3);
	keep(out);
	size_t o = 0;
	for (size_t i = 0; i < n; i += 4) {
		int v[4];
		for (int k = 0; k < 4; k++) {
			v[k] = s[i + k] == '=' ? 0 : b64val((unsigned char)s[i + k]);
			if (v[k] < 0)
				die("bad base64 character %c", s[i + k]);
		}
		uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
		out[o++] = w >> 16;
		out[o++] = w >> 8;
		out[o++] = w;
	}
	size_t pad = (n >= 1 && s[n - 1] == '=') + (n >= 2 && s[n - 2] == '=');
	if (o - pad != want)
		die("data [%zu] decodes to %zu bytes", want, o - pad);
	return out;
}

static char *p; /* parse position in the current line */

static void skip_space(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
}

static int at_end(void) { return *p == 0 || *p == '#'; }

static char *word(void)
{
	char *start = p;
	while (*p && !strchr(" \t\r{}=#", *p))
		p++;
	size_t n = p - start;
	char *w = xmalloc(n + 1);
	memcpy(w, start, n);
	w[n] = 0;
	return w;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

/* unquote reads a Go-quoted string (strconv.Quote: the trace's shader
 * sources and names) at p and returns its bytes, NUL-terminated. */
static char *unquote(void)
{
	p++;
	size_t cap = strlen(p) + 1, n = 0;
	char *out = xmalloc(cap + 4);
	while (*p && *p != '"') {
		if (*p != '\\') {
			out[n++] = *p++;
			continue;
		}
		p++;
		int c = *p++, digits = 0;
		switch (c) {
		case 'a': out[n++] = '\a'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'v': out[n++] = '\v'; break;
		case '\\': case '\'': case '"': out[n++] = (char)c; break;
		case 'x': digits = 2; break;
		case 'u': digits = 4; break;
		case 'U': digits = 8; break;
		default:
			if (c >= '0' && c <= '7' && p[0] >= '0' && p[0] <= '7' && p[1] >= '0' && p[1] <= '7') {
				out[n++] = (char)((c - '0') << 6 | (p[0] - '0') << 3 | (p[1] - '0'));
				p += 2;
				break;
			}
			die("bad escape in a string");
		}
		if (!digits)
			continue;
		unsigned long r = 0;
		for (int k = 0; k < digits; k++) {
			int h = hexval((unsigned char)*p);
			if (h < 0)
				die("bad escape in a string");
			r = r << 4 | (unsigned)h, p++;
		}
		if (digits == 2 || r < 0x80) { /* a byte, or ASCII */
			out[n++] = (char)r;
		} else if (r < 0x800) {
			out[n++] = (char)(0xC0 | r >> 6), out[n++] = (char)(0x80 | (r & 0x3F));
		} else if (r < 0x10000) {
			out[n++] = (char)(0xE0 | r >> 12), out[n++] = (char)(0x80 | (r >> 6 & 0x3F)), out[n++] = (char)(0x80 | (r & 0x3F));
		} else if (r <= 0x10FFFF) {
			out[n++] = (char)(0xF0 | r >> 18), out[n++] = (char)(0x80 | (r >> 12 & 0x3F));
			out[n++] = (char)(0x80 | (r >> 6 & 0x3F)), out[n++] = (char)(0x80 | (r & 0x3F));
		} else {
			die("bad escape in a string");
		}
	}
	if (*p != '"')
		die("unterminated string");
	p++;
	out[n] = 0;
	return out;
}

static void parse_value(struct val *v)
{
	memset(v, 0, sizeof *v);
	if (at_end())
		die("missing value");
	if (*p == '{') {
		p++;
		v->kind = K_VECTOR;
		int cap = 8;
		v->elems = xmalloc(cap * sizeof *v->elems);
		for (;;) {
			skip_space();
			if (*p == '}') {
				p++;
				return;
			}
			if (at_end() || *p == '{')
				die("bad vector");
			if (v->nelems == cap) {
				cap *= 2;
				v->elems = realloc(v->elems, cap * sizeof *v->elems);
				if (!v->elems)
					die("out of memory");
			}
			parse_value(&v->elems[v->nelems++]);
		}
	}
	if (*p == '[') {
		char *end;
		errno = 0;
		unsigned long long n = strtoull(p + 1, &end, 10);
		if (errno || *end != ']' || n > (1ull << 30))
			die("bad data size");
		p = end + 1;
		char *start = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		v->kind = K_DATA;
		v->len = n;
		v->data = b64decode(start, p - start, n);
		return;
	}
	if (*p == '"') {
		v->kind = K_STRING;
		v->text = unquote();
		return;
	}
	if (*p == '}' || *p == '=')
		die("unexpected %c", *p);
	v->text = word();
	if (!strcmp(v->text, "true") || !strcmp(v->text, "false"))
		v->kind = K_BOOL;
	else if (!strcmp(v->text, "nil"))
		v->kind = K_NIL;
	else if (isdigit((unsigned char)v->text[0]) || strchr("+-.", v->text[0]) || !strcmp(v->text, "NaN"))
		v->kind = K_NUMBER;
	else
		v->kind = K_NAME;
}

/* ---- argument readers ---- */

static struct val *arg(int i)
{
	if (i >= nargs)
		die("missing argument %d", i + 1);
	return &args[i];
}

static long long num_int(struct val *v)
{
	char *end;
	errno = 0;
	long long n = strtoll(v->text, &end, 0);
	if (errno || *end)
		die("want an integer, got %s", v->text);
	return n;
}

static unsigned lookup_enum(const char *name)
{
	for (size_t i = 0; i < sizeof enum_table / sizeof enum_table[0]; i++)
		if (!strcmp(enum_table[i].name, name))
			return enum_table[i].value;
	char *end;
	errno = 0;
	unsigned long n = strtoul(name, &end, 0);
	if (errno || *end || n > 0xFFFFFFFFul)
		die("unknown enum %s", name);
	return (unsigned)n;
}

static unsigned val_enum(struct val *v)
{
	if (v->kind == K_NUMBER)
		return (unsigned)num_int(v);
	if (v->kind != K_NAME)
		die("want an enum");
	unsigned out = 0;
	char *s = v->text;
	for (;;) {
		char *bar = strchr(s, '|');
		if (bar)
			*bar = 0;
		out |= lookup_enum(s);
		if (!bar)
			break;
		*bar = '|';
		s = bar + 1;
	}
	return out;
}

static GLenum a_enum(int i) { return val_enum(arg(i)); }

static long long a_int(int i)
{
	struct val *v = arg(i);
	if (v->kind == K_NAME)
		return val_enum(v);
	if (v->kind != K_NUMBER)
		die("argument %d: want an integer", i + 1);
	return num_int(v);
}

static float val_float(struct val *v)
{
	if (v->kind != K_NUMBER)
		die("want a number");
	char *end;
	float f = strtof(v->text, &end);
	if (*end)
		die("want a float, got %s", v->text);
	return f;
}

static float a_float(int i) { return val_float(arg(i)); }

static GLboolean a_bool(int i)
{
	struct val *v = arg(i);
	if (v->kind != K_BOOL)
		die("argument %d: want true or false", i + 1);
	return !strcmp(v->text, "true");
}

/* a_floats reads a vector of up to max floats, returning the count. */
static int a_floats(int i, float *out, int max)
{
	struct val *v = arg(i);
	if (v->kind != K_VECTOR)
		die("argument %d: want a vector", i + 1);
	if (v->nelems > max)
		die("argument %d: vector of %d, at most %d", i + 1, v->nelems, max);
	for (int k = 0; k < v->nelems; k++)
		out[k] = val_float(&v->elems[k]);
	return v->nelems;
}

static void need(int n)
{
	if (nargs != n)
		die("%d arguments, want %d", nargs, n);
}

/* ---- object names: the trace's names map onto Mesa's ---- */

struct namemap {
	GLuint from[4096], to[4096];
	int n;
};
static struct namemap texnames, bufnames;
/* The GL ES 2.0 objects: framebuffers, renderbuffers, and shaders and
 * programs (one name space). */
static struct namemap fbnames, rbnames, objnames;

static GLuint mapname(struct namemap *m, long long name)
{
	if (name < 0 || name > 0xFFFFFFFFll)
		die("bad object name %lld", name);
	if (name == 0)
		return 0;
	for (int i = 0; i < m->n; i++)
		if (m->from[i] == (GLuint)name)
			return m->to[i];
	/* A name the trace never generated stands for itself unless Mesa
	 * gave that number to one of the trace's generated names: then it
	 * gets a number of its own (trace/play.go's mapped does the same). */
	GLuint got = (GLuint)name, top = 0;
	int taken = 0;
	for (int i = 0; i < m->n; i++) {
		taken |= m->to[i] == got;
		if (m->to[i] > top)
			top = m->to[i];
		if (m->from[i] > top)
			top = m->from[i];
	}
	if (taken && top < 0xFFFFFFFFu)
		got = top + 1;
	if (m->n == 4096)
		die("too many object names");
	m->from[m->n] = (GLuint)name;
	m->to[m->n++] = got;
	return got;
}

/* setname records that the trace's name from is Mesa's to, replacing an
 * earlier mapping of from. */
static void setname(struct namemap *m, GLuint from, GLuint to)
{
	for (int i = 0; i < m->n; i++)
		if (m->from[i] == from) {
			m->to[i] = to;
			return;
		}
	if (m->n == 4096)
		die("too many object names");
	m->from[m->n] = from;
	m->to[m->n++] = to;
}

typedef void (APIENTRYP namefn)(GLsizei, const GLuint *);
typedef void (APIENTRYP genfn)(GLsizei, GLuint *);

static void gen_names(struct namemap *m, genfn gen, struct val *result)
{
	long long n = a_int(0);
	need(1);
	if (n < 0 || n > 4096)
		die("Gen count %lld", n);
	GLuint got[4096];
	gen((GLsizei)n, got);
	if (!result || result->kind != K_VECTOR)
		return;
	for (int i = 0; i < result->nelems && i < n; i++)
		setname(m, (GLuint)num_int(&result->elems[i]), got[i]);
}

static void delete_names(struct namemap *m, namefn del)
{
	need(1);
	struct val *v = arg(0);
	if (v->kind != K_VECTOR)
		die("want a vector of names");
	for (int i = 0; i < v->nelems; i++) {
		GLuint id = mapname(m, num_int(&v->elems[i]));
		del(1, &id);
	}
}

/* ---- pointers: client bytes or an offset into the bound buffer ---- */

static const void *a_ptr(int i)
{
	struct val *v = arg(i);
	switch (v->kind) {
	case K_DATA:
		return v->data; /* kept alive: see keep */
	case K_NIL:
		return NULL;
	case K_NUMBER:
		return (const void *)(uintptr_t)num_int(v);
	default:
		die("argument %d: want data, an offset or nil", i + 1);
	}
	return NULL;
}

/* a_len returns the byte length of a data argument, 0 for anything else. */
static size_t a_len(int i)
{
	struct val *v = arg(i);
	return v->kind == K_DATA ? v->len : 0;
}

/* The emulated point size array. */
static struct {
	int enabled;
	GLenum type;
	GLsizei stride;
	const void *ptr;
	GLuint buffer;
} psize;

static GLuint bound_array_buffer(void)
{
	GLint b = 0;
	glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &b);
	return (GLuint)b;
}

static float point_size_of(int vertex)
{
	GLsizei stride = psize.stride ? psize.stride : 4;
	const unsigned char *base = psize.ptr;
	if (psize.buffer) {
		GLint size = 0;
		glBindBuffer(GL_ARRAY_BUFFER, psize.buffer);
		glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
		uintptr_t off = (uintptr_t)psize.ptr + (uintptr_t)vertex * stride;
		int32_t raw = 0;
		if (off + 4 <= (uintptr_t)size)
			glGetBufferSubData(GL_ARRAY_BUFFER, off, 4, &raw);
		float f;
		memcpy(&f, &raw, 4);
		return psize.type == ES_FIXED ? raw / 65536.0f : f;
	}
	if (!base)
		die("point size array without data");
	const unsigned char *q = base + (size_t)vertex * stride;
	if (psize.type == ES_FIXED) {
		int32_t x;
		memcpy(&x, q, 4);
		return x / 65536.0f;
	}
	float f;
	memcpy(&f, q, 4);
	return f;
}

/* ---- arrays desktop GL does not take ----
 * GL ES 1.1 takes FIXED for every array and BYTE for positions and texture
 * coordinates (table 2.4); desktop GL takes neither there (Mesa's
 * glVertexPointer and glTexCoordPointer accept SHORT, INT, FLOAT and
 * DOUBLE, and FIXED only through ARB_ES2_compatibility's
 * glVertexAttribPointer). Such an array is remembered and, before each
 * draw, the vertices the draw reads are converted to floats on the CPU
 * (FIXED: x/65536; BYTE: the integer, as ES 1.1 table 2.7 leaves positions
 * and texture coordinates unnormalised) and handed to GL as a client
 * array. The Pointer call itself goes to GL with type FLOAT, so that a bad
 * size or stride raises the error it would. */
enum { EMU_VERTEX, EMU_COLOR, EMU_NORMAL, EMU_TEX0, EMU_MAX = EMU_TEX0 + 8 };
static struct emu {
	int on;
	GLint size;
	GLenum type;
	GLsizei stride;
	const unsigned char *ptr; /* client bytes, or the offset into buffer */
	size_t len;               /* the client bytes' length */
	GLuint buffer;
	float *conv;              /* the converted vertices, live until the next draw */
} emu[EMU_MAX];
static int client_unit; /* CLIENT_ACTIVE_TEXTURE - TEXTURE0 */

/* The position array as the trace gave it (for point attenuation). */
static struct {
	GLint size;
	GLenum type;
	GLsizei stride;
	const unsigned char *ptr;
	size_t len;
	GLuint buffer;
} vpos;

/* set_array makes a Pointer call (args size?, type, stride, ptr at index
 * i) for array slot, emulating the types desktop GL lacks. */
static void set_array(int slot, GLint size, GLenum type, GLsizei stride, int i)
{
	const void *ptr = a_ptr(i);
	struct emu *e = &emu[slot];
	if (slot == EMU_VERTEX) {
		vpos.size = size, vpos.type = type, vpos.stride = stride;
		vpos.ptr = ptr, vpos.len = a_len(i), vpos.buffer = bound_array_buffer();
	}
	int fake = type == ES_FIXED || (type == GL_BYTE && (slot == EMU_VERTEX || slot >= EMU_TEX0));
	e->on = 0;
	if (fake) {
		e->on = 1;
		e->size = size, e->type = type, e->stride = stride;
		e->ptr = ptr, e->len = a_len(i), e->buffer = bound_array_buffer();
		type = GL_FLOAT;
	}
	switch (slot) {
	case EMU_VERTEX: glVertexPointer(size, type, stride, ptr); break;
	case EMU_COLOR: glColorPointer(size, type, stride, ptr); break;
	case EMU_NORMAL: glNormalPointer(type, stride, ptr); break;
	default: glTexCoordPointer(size, type, stride, ptr); break;
	}
}

/* emu_prepare converts the emulated arrays' vertices 0..nverts-1. */
static void emu_prepare(long long nverts)
{
	int any = 0;
	for (int s = 0; s < EMU_MAX; s++)
		any |= emu[s].on;
	if (!any || nverts <= 0)
		return;
	if (nverts > (1 << 20))
		die("%lld vertices in an emulated array", nverts);
	GLuint keep = bound_array_buffer();
	for (int s = 0; s < EMU_MAX; s++) {
		struct emu *e = &emu[s];
		if (!e->on)
			continue;
		int comps = s == EMU_NORMAL ? 3 : e->size;
		if (comps < 1 || comps > 4)
			continue; /* the Pointer call raised INVALID_VALUE */
		size_t esize = e->type == GL_BYTE ? 1 : 4;
		size_t stride = e->stride > 0 ? (size_t)e->stride : comps * esize;
		const unsigned char *src = e->ptr;
		size_t srclen = e->len;
		unsigned char *tmp = NULL;
		if (e->buffer) {
			GLint bsize = 0;
			uintptr_t off = (uintptr_t)e->ptr;
			glBindBuffer(GL_ARRAY_BUFFER, e->buffer);
			glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &bsize);
			srclen = off < (uintptr_t)bsize ? (size_t)bsize - off : 0;
			tmp = xmalloc(srclen);
			if (srclen)
				glGetBufferSubData(GL_ARRAY_BUFFER, (GLintptr)off, (GLsizeiptr)srclen, tmp);
			src = tmp;
		}
		free(e->conv);
		e->conv = xmalloc((size_t)nverts * comps * sizeof(float));
		for (long long v = 0; v < nverts; v++)
			for (int c = 0; c < comps; c++) {
				size_t at = (size_t)v * stride + c * esize;
				float x = 0;
				if (src && at + esize <= srclen) {
					if (e->type == GL_BYTE) {
						x = (signed char)src[at];
					} else {
						int32_t r;
						memcpy(&r, src + at, 4);
						x = r / 65536.0f;
					}
				}
				e->conv[v * comps + c] = x;
			}
		free(tmp);
		glBindBuffer(GL_ARRAY_BUFFER, 0);
		switch (s) {
		case EMU_VERTEX: glVertexPointer(comps, GL_FLOAT, 0, e->conv); break;
		case EMU_COLOR: glColorPointer(comps, GL_FLOAT, 0, e->conv); break;
		case EMU_NORMAL: glNormalPointer(GL_FLOAT, 0, e->conv); break;
		default:
			glClientActiveTexture(GL_TEXTURE0 + (s - EMU_TEX0));
			glTexCoordPointer(comps, GL_FLOAT, 0, e->conv);
			glClientActiveTexture(GL_TEXTURE0 + client_unit);
		}
	}
	glBindBuffer(GL_ARRAY_BUFFER, keep);
}

/* ---- specular exponent 0 ----
 * For a material shininess of exactly 0 and a light with distance or spot
 * attenuation, Mesa 22.3's fixed-function vertex program (ffvertex_prog.c,
 * build_lighting) writes n.VP to every component of the vector it hands to
 * LIT, so LIT takes n.VP as n.h and as the exponent: the specular factor is
 * (n.VP)^(n.VP) (0.79 for n.VP = 0.72), where GL ES 1.1 section 2.12.1 has
 * (n.h)^0 = 1 wherever n.VP is positive. Before each draw with one-sided
 * lighting the replayer gives Mesa a shininess of SHININESS_ZERO for a 0
 * (the default included): the general path then gives (n.h)^1e-20, 1 to
 * the last bit while n.h > 0, which holds for every front face whose
 * normal faces the viewer, as the generator's do. With two-sided lighting
 * a back face's negated normal makes n.h <= 0 common, where LIT gives 0 for
 * 1, so there the 0 goes to Mesa as it is. MESAREF_MESA_SHININESS=1 leaves
 * every 0 to Mesa, so that a test can pin the deviation
 * (docs/differential.md lists it). */
#define SHININESS_ZERO 1e-20f

static float shine[2]; /* the trace's front and back shininess */

static void set_shininess(GLenum face, GLenum pname, float v)
{
	if (pname != GL_SHININESS)
		return;
	if (face == GL_FRONT || face == GL_FRONT_AND_BACK)
		shine[0] = v;
	if (face == GL_BACK || face == GL_FRONT_AND_BACK)
		shine[1] = v;
}

/* prepare_shininess gives Mesa the shininess for the next draw. */
static void prepare_shininess(void)
{
	const char *raw = getenv("MESAREF_MESA_SHININESS");
	GLint two = 0;
	glGetIntegerv(GL_LIGHT_MODEL_TWO_SIDE, &two);
	int swap = !(raw && strcmp(raw, "1") == 0) && !two;
	for (int f = 0; f < 2; f++) {
		float v = shine[f];
		if (v == 0 && swap)
			v = SHININESS_ZERO;
		glMaterialf(f ? GL_BACK : GL_FRONT, GL_SHININESS, v);
	}
}

/* Mesa 22.3 (softpipe and llvmpipe) replaces the texture coordinates of
 * every primitive, not only of points, while GL_POINT_SPRITE is enabled
 * with COORD_REPLACE; GL ES 1.1 section 3.3 (OES_point_sprite) and desktop
 * GL replace them for points only. The replayer switches point sprites off
 * around every draw of lines or triangles, so that Mesa draws what the
 * specification says (docs/differential.md lists the deviation). */
static void draw_non_points(GLenum mode, int elements, GLint first, GLsizei count, GLenum type, const void *idx)
{
	int sprite = mode != GL_POINTS && glIsEnabled(GL_POINT_SPRITE);
	prepare_shininess();
	if (sprite)
		glDisable(GL_POINT_SPRITE);
	if (elements)
		glDrawElements(mode, count, type, idx);
	else
		glDrawArrays(mode, first, count);
	if (sprite)
		glEnable(GL_POINT_SPRITE);
}

/* ---- point sizes ----
 * Two Mesa 22.3 deviations in the size of a point, worked around here
 * (docs/differential.md lists both):
 *   - distance attenuation uses |z_eye| as the distance
 *     (ffvertex_prog.c's build_atten_pointsize: "dist = |eyez|"); GL ES 1.1
 *     section 3.3 takes d, "the eye-coordinate distance from the eye,
 *     (0, 0, 0, 1) in eye coordinates, to the vertex", sqrt(x^2 + y^2 +
 *     z^2), as every backend does (driver/swtnl, driver/ffvs, the chips'
 *     vertex stages); off the view axis the sizes differ;
 *   - softpipe truncates the size of an aliased point to a whole pixel
 *     (27.6 draws 27 pixels wide); section 3.3.1 rounds it to the nearest
 *     integer (28), as llvmpipe does.
 * A point draw with attenuation, a size array or a size that is not a whole
 * number therefore goes one point at a time, each with the derived size of
 * section 3.3 computed here (attenuated with the true distance, clamped to
 * the minimum and maximum, and, for aliased points without sprites,
 * rounded), and Mesa's attenuation set to (1, 0, 0). The environment
 * variable MESAREF_MESA_POINT_SIZE=1 leaves both to Mesa, so that a test
 * can pin the deviations. */
static int mesa_point_size(void)
{
	const char *raw = getenv("MESAREF_MESA_POINT_SIZE");
	return raw && strcmp(raw, "1") == 0;
}

/* aliased says whether points are rasterised by section 3.3.1 (rounded to
 * whole pixels): no smooth points, no sprites. */
static int aliased(void)
{
	return !glIsEnabled(GL_POINT_SMOOTH) && !glIsEnabled(GL_POINT_SPRITE);
}

static int attenuated(GLfloat att[3])
{
	glGetFloatv(GL_POINT_DISTANCE_ATTENUATION, att);
	if (mesa_point_size())
		return 0;
	return att[0] != 1 || att[1] != 0 || att[2] != 0;
}

/* vertex_eye sets e to the eye-space x, y, z of vertex v of the position
 * array (x, y, z of the model-view matrix times (x, y, z, w)); it returns 0
 * when the array cannot be read. */
static int vertex_eye(int v, const GLfloat mv[16], float e[3])
{
	float p[4] = {0, 0, 0, 1};
	int comps = vpos.size;
	if (comps < 2 || comps > 4 || v < 0)
		return 0;
	if (emu[EMU_VERTEX].on) {
		if (!emu[EMU_VERTEX].conv)
			return 0;
		memcpy(p, emu[EMU_VERTEX].conv + (size_t)v * comps, (size_t)comps * sizeof(float));
	} else {
		size_t esize = vpos.type == GL_SHORT ? 2 : vpos.type == GL_FLOAT ? 4 : 0;
		if (!esize)
			return 0;
		size_t stride = vpos.stride > 0 ? (size_t)vpos.stride : comps * esize;
		size_t n = comps * esize, at = (size_t)v * stride;
		unsigned char raw[16];
		if (vpos.buffer) {
			GLint bsize = 0;
			GLuint keep = bound_array_buffer();
			uintptr_t off = (uintptr_t)vpos.ptr + at;
			glBindBuffer(GL_ARRAY_BUFFER, vpos.buffer);
			glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &bsize);
			int ok = off + n <= (uintptr_t)bsize;
			if (ok)
				glGetBufferSubData(GL_ARRAY_BUFFER, (GLintptr)off, (GLsizeiptr)n, raw);
			glBindBuffer(GL_ARRAY_BUFFER, keep);
			if (!ok)
				return 0;
		} else {
			if (!vpos.ptr || at + n > vpos.len)
				return 0;
			memcpy(raw, vpos.ptr + at, n);
		}
		for (int c = 0; c < comps; c++) {
			if (esize == 2) {
				int16_t x;
				memcpy(&x, raw + 2 * c, 2);
				p[c] = x;
			} else {
				memcpy(&p[c], raw + 4 * c, 4);
			}
		}
	}
	for (int r = 0; r < 3; r++)
		e[r] = mv[r] * p[0] + mv[4 + r] * p[1] + mv[8 + r] * p[2] + mv[12 + r] * p[3];
	return 1;
}

/* draw_points draws count points one by one, each with its size from the
 * point size array (when enabled) made the derived size of section 3.3. */
static void draw_points(int first, int count, const unsigned *indices)
{
	GLuint keep = bound_array_buffer();
	GLfloat old, att[3], mv[16], lim[2];
	glGetFloatv(GL_POINT_SIZE, &old);
	int atten = attenuated(att), round = aliased() && !mesa_point_size();
	prepare_shininess();
	if (atten) {
		static const GLfloat none[3] = {1, 0, 0};
		glGetFloatv(GL_MODELVIEW_MATRIX, mv);
		glGetFloatv(GL_POINT_SIZE_MIN, &lim[0]);
		glGetFloatv(GL_POINT_SIZE_MAX, &lim[1]);
		glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, none);
	}
	for (int i = 0; i < count; i++) {
		int v = indices ? (int)indices[i] : first + i;
		float size = psize.enabled ? point_size_of(v) : old;
		float e[3];
		if (atten && vertex_eye(v, mv, e)) {
			double d = sqrt((double)e[0] * e[0] + (double)e[1] * e[1] + (double)e[2] * e[2]);
			double den = att[0] + att[1] * d + att[2] * d * d;
			if (den > 0)
				size = (float)(size * sqrt(1 / den));
			size = size < lim[0] ? lim[0] : size > lim[1] ? lim[1] : size;
		}
		if (round)
			size = size < 1.5f ? 1 : floorf(size + 0.5f);
		glPointSize(size > 0 ? size : 1e-6f);
		glBindBuffer(GL_ARRAY_BUFFER, keep);
		glDrawArrays(GL_POINTS, v, 1);
	}
	glPointSize(old);
	if (atten)
		glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, att);
}

/* one_by_one says whether a draw of mode goes through draw_points. */
static int one_by_one(GLenum mode)
{
	GLfloat att[3], size;
	if (mode != GL_POINTS)
		return 0;
	glGetFloatv(GL_POINT_SIZE, &size);
	return psize.enabled || attenuated(att) || (aliased() && !mesa_point_size() && size != floorf(size));
}

/* ---- paletted textures ---- */

static void paletted(GLint level, GLenum fmt, GLsizei w, GLsizei h, const unsigned char *data, size_t len)
{
	static const struct { int bits, bpe, alpha; } info[] = {
		{4, 3, 0}, {4, 4, 1}, {4, 2, 0}, {4, 2, 1}, {4, 2, 1},
		{8, 3, 0}, {8, 4, 1}, {8, 2, 0}, {8, 2, 1}, {8, 2, 1},
	};
	int k = fmt - ES_PALETTE4_RGB8_OES;
	int bits = info[k].bits, bpe = info[k].bpe, alpha = info[k].alpha;
	size_t palsize = (size_t)(1 << bits) * bpe;
	int levels = 1 - level;
	if (level > 0 || levels > 16 || w < 0 || h < 0 || w > 4096 || h > 4096)
		die("paletted level %d, size %dx%d", level, w, h);
	size_t off = palsize;
	for (int l = 0; l < levels; l++) {
		int lw = w >> l > 0 ? w >> l : 1, lh = h >> l > 0 ? h >> l : 1;
		size_t n = ((size_t)lw * lh * bits + 7) / 8;
		if (off + n > len)
			die("paletted data too short");
		unsigned char *rgba = xmalloc((size_t)lw * lh * 4);
		for (int t = 0; t < lw * lh; t++) {
			int idx = bits == 8 ? data[off + t] : (t % 2 == 0 ? data[off + t / 2] >> 4 : data[off + t / 2] & 15);
			const unsigned char *e = data + (size_t)idx * bpe;
			unsigned char *o = rgba + 4 * t;
			unsigned v = e[0] | (unsigned)(bpe == 2 ? e[1] : 0) << 8;
			switch (k % 5) {
			case 0: o[0] = e[0]; o[1] = e[1]; o[2] = e[2]; o[3] = 255; break;
			case 1: o[0] = e[0]; o[1] = e[1]; o[2] = e[2]; o[3] = e[3]; break;
			case 2: /* R5 G6 B5 */
				o[0] = ((v >> 11) & 31) * 255 / 31; o[1] = ((v >> 5) & 63) * 255 / 63;
				o[2] = (v & 31) * 255 / 31; o[3] = 255; break;
			case 3: /* R4 G4 B4 A4 */
				o[0] = ((v >> 12) & 15) * 17; o[1] = ((v >> 8) & 15) * 17;
				o[2] = ((v >> 4) & 15) * 17; o[3] = (v & 15) * 17; break;
			case 4: /* R5 G5 B5 A1 */
				o[0] = ((v >> 11) & 31) * 255 / 31; o[1] = ((v >> 6) & 31) * 255 / 31;
				o[2] = ((v >> 1) & 31) * 255 / 31; o[3] = (v & 1) * 255; break;
			}
		}
		GLint align;
		glGetIntegerv(GL_UNPACK_ALIGNMENT, &align);
		glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
		glTexImage2D(GL_TEXTURE_2D, l, alpha ? GL_RGBA : GL_RGB, lw, lh, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
		glPixelStorei(GL_UNPACK_ALIGNMENT, align);
		free(rgba);
		off += n;
	}
	if (off != len)
		die("paletted data has %zu bytes, want %zu", len, off);
}

/* ---- the calls ---- */

static struct val *result;

static void client_state(int enable)
{
	need(1);
	GLenum a = a_enum(0);
	if (a == ES_POINT_SIZE_ARRAY_OES) {
		psize.enabled = enable;
		return;
	}
	if (a == ES_WEIGHT_ARRAY_OES || a == ES_MATRIX_INDEX_ARRAY_OES)
		die("OES_matrix_palette has no desktop GL counterpart");
	if (enable)
		glEnableClientState(a);
	else
		glDisableClientState(a);
}

static void capability(int enable)
{
	need(1);
	GLenum c = a_enum(0);
	if (c == ES_MATRIX_PALETTE_OES)
		die("OES_matrix_palette has no desktop GL counterpart");
	/* Mesa 22.3 leaves the material as it was when COLOR_MATERIAL is
	 * enabled, until the current colour next changes (a glColor with the
	 * value it already has does not count); GL ES 1.1 section 2.12.3 has
	 * the ambient and diffuse material track the current colour while it
	 * is enabled. The replayer sets the material to the current colour
	 * just before enabling it. */
	if (enable && c == GL_COLOR_MATERIAL && !glIsEnabled(GL_COLOR_MATERIAL)) {
		GLfloat cur[4];
		glGetFloatv(GL_CURRENT_COLOR, cur);
		glMaterialfv(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE, cur);
	}
	if (enable)
		glEnable(c);
	else
		glDisable(c);
}

static void draw_elements(void)
{
	need(4);
	GLenum mode = a_enum(0), type = a_enum(2);
	long long count = a_int(1);
	const void *idx = a_ptr(3);
	if (count < 0 || count > (1 << 24))
		die("count %lld", count);
	int any = one_by_one(mode);
	for (int s = 0; s < EMU_MAX; s++)
		any |= emu[s].on;
	if (!any || count == 0 || (type != GL_UNSIGNED_SHORT && type != GL_UNSIGNED_BYTE)) {
		draw_non_points(mode, 1, 0, (GLsizei)count, type, idx);
		return;
	}
	/* The point size array and the emulated arrays need the indices. */
	unsigned *list = xmalloc((size_t)count * sizeof *list);
	GLint eb = 0;
	glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &eb);
	size_t sz = type == GL_UNSIGNED_SHORT ? 2 : 1;
	unsigned char *tmp = xmalloc((size_t)count * sz);
	memset(tmp, 0, (size_t)count * sz);
	if (eb) {
		GLint bsize = 0;
		glGetBufferParameteriv(GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_SIZE, &bsize);
		if ((uintptr_t)idx + (size_t)count * sz <= (uintptr_t)bsize)
			glGetBufferSubData(GL_ELEMENT_ARRAY_BUFFER, (GLintptr)idx, (GLsizeiptr)(count * sz), tmp);
	} else if (idx && a_len(3) >= (size_t)count * sz) {
		memcpy(tmp, idx, (size_t)count * sz);
	} else {
		die("DrawElements: %lld indices, %zu bytes", count, a_len(3));
	}
	long long maxv = 0;
	for (long long i = 0; i < count; i++) {
		list[i] = sz == 2 ? (unsigned)(tmp[2 * i] | tmp[2 * i + 1] << 8) : tmp[i];
		if (list[i] + 1ll > maxv)
			maxv = list[i] + 1ll;
	}
	emu_prepare(maxv);
	if (one_by_one(mode))
		draw_points(0, (int)count, list);
	else
		draw_non_points(mode, 1, 0, (GLsizei)count, type, idx);
	free(list);
	free(tmp);
}

/* ---- GL ES 2.0 ----
 *
 * OSMesa's compatibility context runs the ES 2.0 calls as the GL 2.0 and
 * ARB_framebuffer_object ones of the same names. GLSL ES 1.00 shaders
 * compile as they are: Mesa accepts "#version 100" in a desktop context that
 * has ARB_ES2_compatibility, so a source without a #version line gets one
 * (as a first string of its own, so the application's line numbers are
 * those of its strings after the first line). ES 2.0 always honours
 * gl_PointSize and gl_PointCoord: the context enables
 * VERTEX_PROGRAM_POINT_SIZE and POINT_SPRITE. Uniform and attribute
 * locations map through the trace's results like object names.
 */

struct locmap {
	GLuint prog[4096];
	int from[4096], to[4096];
	int n;
};
static struct locmap uniforms, attribs;
static GLuint current_program, attrib_program;

static void add_loc(struct locmap *m, GLuint prog, struct val *res, int got)
{
	if (!res || res->kind != K_NUMBER)
		return;
	if (m->n == 4096)
		die("too many locations");
	long long n = num_int(res);
	if (n < -1 || n > 0x7FFFFFFF)
		die("bad location %lld", n);
	m->prog[m->n] = prog, m->from[m->n] = (int)n, m->to[m->n++] = got;
}

static int find_loc(struct locmap *m, GLuint prog, long long n, int *out)
{
	for (int i = m->n - 1; i >= 0; i--)
		if (m->prog[i] == prog && m->from[i] == n) {
			*out = m->to[i];
			return 1;
		}
	return 0;
}

/* a_uloc reads a uniform location of the program in use. */
static GLint a_uloc(int i)
{
	long long n = a_int(i);
	int got;
	if (n < -1 || n > 0x7FFFFFFF)
		die("bad location %lld", n);
	if (find_loc(&uniforms, current_program, n, &got))
		return got;
	return (GLint)n;
}

/* a_attrib reads a generic attribute index: the location Mesa gave for
 * the trace's, for the program in use or the one last asked. */
static GLuint a_attrib(int i)
{
	long long n = a_int(i);
	int got;
	if (n < 0 || n > 0xFFFF)
		die("bad attribute index %lld", n);
	if (find_loc(&attribs, current_program, n, &got) || find_loc(&attribs, attrib_program, n, &got))
		return (GLuint)got;
	return (GLuint)n;
}

static const char *a_str(int i)
{
	struct val *v = arg(i);
	if (v->kind != K_STRING)
		die("argument %d: want a string", i + 1);
	return v->text;
}

/* a_uniform reads a vector of floats or ints for a Uniform*v call. */
static int a_count(int i, int per)
{
	struct val *v = arg(i);
	if (v->kind != K_VECTOR)
		die("argument %d: want a vector", i + 1);
	if (v->nelems % per)
		die("argument %d: %d values, not a multiple of %d", i + 1, v->nelems, per);
	return v->nelems / per;
}

static void shader_source(void)
{
	need(2);
	GLuint sh = mapname(&objnames, a_int(0));
	struct val *v = arg(1);
	if (v->kind != K_VECTOR)
		die("argument 2: want a vector of strings");
	const char **src = xmalloc((v->nelems + 1) * sizeof *src);
	int n = 0, versioned = 0;
	for (int k = 0; k < v->nelems; k++) {
		if (v->elems[k].kind != K_STRING)
			die("argument 2: want strings");
		const char *t = v->elems[k].text;
		while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
			t++;
		if (k == 0 && !strncmp(t, "#version", 8))
			versioned = 1;
	}
	if (!versioned)
		src[n++] = "#version 100\n#line 0\n";
	for (int k = 0; k < v->nelems; k++)
		src[n++] = v->elems[k].text;
	glShaderSource(sh, n, src, NULL);
	free(src);
}

static int es2_call(const char *name)
{
	float f[4096];
	GLint iv[4096];
#define IS(s) (!strcmp(name, s))
	if (IS("CreateShader")) {
		need(1);
		GLuint got = glCreateShader(a_enum(0));
		if (result && result->kind == K_NUMBER) {
			setname(&objnames, (GLuint)num_int(result), got);
		}
		return 1;
	}
	if (IS("CreateProgram")) {
		need(0);
		GLuint got = glCreateProgram();
		if (result && result->kind == K_NUMBER) {
			setname(&objnames, (GLuint)num_int(result), got);
		}
		return 1;
	}
	if (IS("ShaderSource")) { shader_source(); return 1; }
	if (IS("CompileShader")) {
		need(1);
		GLuint sh = mapname(&objnames, a_int(0));
		glCompileShader(sh);
		GLint ok = 0;
		glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
		if (!ok) {
			char log[4096];
			glGetShaderInfoLog(sh, sizeof log, NULL, log);
			fprintf(msgs, "mesaref: line %d: CompileShader: %s\n", line_no, log);
		}
		return 1;
	}
	if (IS("LinkProgram")) {
		need(1);
		GLuint pr = mapname(&objnames, a_int(0));
		glLinkProgram(pr);
		GLint ok = 0;
		glGetProgramiv(pr, GL_LINK_STATUS, &ok);
		if (!ok) {
			char log[4096];
			glGetProgramInfoLog(pr, sizeof log, NULL, log);
			fprintf(msgs, "mesaref: line %d: LinkProgram: %s\n", line_no, log);
		}
		return 1;
	}
	if (IS("AttachShader")) { need(2); glAttachShader(mapname(&objnames, a_int(0)), mapname(&objnames, a_int(1))); return 1; }
	if (IS("DetachShader")) { need(2); glDetachShader(mapname(&objnames, a_int(0)), mapname(&objnames, a_int(1))); return 1; }
	if (IS("DeleteShader")) { need(1); glDeleteShader(mapname(&objnames, a_int(0))); return 1; }
	if (IS("DeleteProgram")) { need(1); glDeleteProgram(mapname(&objnames, a_int(0))); return 1; }
	if (IS("ValidateProgram")) { need(1); glValidateProgram(mapname(&objnames, a_int(0))); return 1; }
	if (IS("UseProgram")) { need(1); current_program = mapname(&objnames, a_int(0)); glUseProgram(current_program); return 1; }
	if (IS("BindAttribLocation")) {
		need(3);
		long long idx = a_int(1);
		if (idx < 0 || idx > 0xFFFF) die("bad attribute index %lld", idx);
		glBindAttribLocation(mapname(&objnames, a_int(0)), (GLuint)idx, a_str(2));
		return 1;
	}
	if (IS("GetUniformLocation")) {
		need(2);
		GLuint pr = mapname(&objnames, a_int(0));
		add_loc(&uniforms, pr, result, glGetUniformLocation(pr, a_str(1)));
		return 1;
	}
	if (IS("GetAttribLocation")) {
		need(2);
		GLuint pr = mapname(&objnames, a_int(0));
		attrib_program = pr;
		add_loc(&attribs, pr, result, glGetAttribLocation(pr, a_str(1)));
		return 1;
	}
	if (IS("Uniform1f")) { need(2); glUniform1f(a_uloc(0), a_float(1)); return 1; }
	if (IS("Uniform2f")) { need(3); glUniform2f(a_uloc(0), a_float(1), a_float(2)); return 1; }
	if (IS("Uniform3f")) { need(4); glUniform3f(a_uloc(0), a_float(1), a_float(2), a_float(3)); return 1; }
	if (IS("Uniform4f")) { need(5); glUniform4f(a_uloc(0), a_float(1), a_float(2), a_float(3), a_float(4)); return 1; }
	if (IS("Uniform1i")) { need(2); glUniform1i(a_uloc(0), a_int(1)); return 1; }
	if (IS("Uniform2i")) { need(3); glUniform2i(a_uloc(0), a_int(1), a_int(2)); return 1; }
	if (IS("Uniform3i")) { need(4); glUniform3i(a_uloc(0), a_int(1), a_int(2), a_int(3)); return 1; }
	if (IS("Uniform4i")) { need(5); glUniform4i(a_uloc(0), a_int(1), a_int(2), a_int(3), a_int(4)); return 1; }
	if (!strncmp(name, "Uniform", 7) && name[7] >= '1' && name[7] <= '4' && (!strcmp(name + 8, "fv") || !strcmp(name + 8, "iv"))) {
		need(2);
		int per = name[7] - '0', n = a_count(1, per);
		GLint loc = a_uloc(0);
		if (name[8] == 'f') {
			a_floats(1, f, 4096);
			switch (per) {
			case 1: glUniform1fv(loc, n, f); break;
			case 2: glUniform2fv(loc, n, f); break;
			case 3: glUniform3fv(loc, n, f); break;
			default: glUniform4fv(loc, n, f); break;
			}
		} else {
			struct val *v = arg(1);
			if (v->nelems > 4096) die("too many values");
			for (int k = 0; k < v->nelems; k++)
				iv[k] = (GLint)num_int(&v->elems[k]);
			switch (per) {
			case 1: glUniform1iv(loc, n, iv); break;
			case 2: glUniform2iv(loc, n, iv); break;
			case 3: glUniform3iv(loc, n, iv); break;
			default: glUniform4iv(loc, n, iv); break;
			}
		}
		return 1;
	}
	if (IS("UniformMatrix2fv") || IS("UniformMatrix3fv") || IS("UniformMatrix4fv")) {
		need(3);
		int dim = name[13] - '0', n = a_count(2, dim * dim);
		GLint loc = a_uloc(0);
		GLboolean tr = a_bool(1);
		a_floats(2, f, 4096);
		if (dim == 2) glUniformMatrix2fv(loc, n, tr, f);
		else if (dim == 3) glUniformMatrix3fv(loc, n, tr, f);
		else glUniformMatrix4fv(loc, n, tr, f);
		return 1;
	}
	if (IS("VertexAttribPointer")) {
		need(6);
		glVertexAttribPointer(a_attrib(0), a_int(1), a_enum(2), a_bool(3), a_int(4), a_ptr(5));
		return 1;
	}
	if (IS("EnableVertexAttribArray")) { need(1); glEnableVertexAttribArray(a_attrib(0)); return 1; }
	if (IS("DisableVertexAttribArray")) { need(1); glDisableVertexAttribArray(a_attrib(0)); return 1; }
	if (IS("VertexAttrib1f")) { need(2); glVertexAttrib1f(a_attrib(0), a_float(1)); return 1; }
	if (IS("VertexAttrib2f")) { need(3); glVertexAttrib2f(a_attrib(0), a_float(1), a_float(2)); return 1; }
	if (IS("VertexAttrib3f")) { need(4); glVertexAttrib3f(a_attrib(0), a_float(1), a_float(2), a_float(3)); return 1; }
	if (IS("VertexAttrib4f")) { need(5); glVertexAttrib4f(a_attrib(0), a_float(1), a_float(2), a_float(3), a_float(4)); return 1; }
	if (IS("VertexAttribfv")) {
		need(2);
		float v4[4] = {0, 0, 0, 1};
		a_floats(1, v4, 4);
		glVertexAttrib4fv(a_attrib(0), v4);
		return 1;
	}
	if (IS("GenFramebuffers")) { gen_names(&fbnames, glGenFramebuffers, result); return 1; }
	if (IS("GenRenderbuffers")) { gen_names(&rbnames, glGenRenderbuffers, result); return 1; }
	if (IS("DeleteFramebuffers")) { delete_names(&fbnames, glDeleteFramebuffers); return 1; }
	if (IS("DeleteRenderbuffers")) { delete_names(&rbnames, glDeleteRenderbuffers); return 1; }
	if (IS("BindFramebuffer")) { need(2); glBindFramebuffer(a_enum(0), mapname(&fbnames, a_int(1))); return 1; }
	if (IS("BindRenderbuffer")) { need(2); glBindRenderbuffer(a_enum(0), mapname(&rbnames, a_int(1))); return 1; }
	if (IS("RenderbufferStorage")) { need(4); glRenderbufferStorage(a_enum(0), a_enum(1), a_int(2), a_int(3)); return 1; }
	if (IS("FramebufferRenderbuffer")) { need(4); glFramebufferRenderbuffer(a_enum(0), a_enum(1), a_enum(2), mapname(&rbnames, a_int(3))); return 1; }
	if (IS("FramebufferTexture2D")) { need(5); glFramebufferTexture2D(a_enum(0), a_enum(1), a_enum(2), mapname(&texnames, a_int(3)), a_int(4)); return 1; }
	if (IS("CheckFramebufferStatus")) { need(1); glCheckFramebufferStatus(a_enum(0)); return 1; }
	if (IS("GenerateMipmap")) { need(1); glGenerateMipmap(a_enum(0)); return 1; }
	if (IS("BlendColor")) { need(4); glBlendColor(a_float(0), a_float(1), a_float(2), a_float(3)); return 1; }
	if (IS("BlendEquation")) { need(1); glBlendEquation(a_enum(0)); return 1; }
	if (IS("BlendEquationSeparate")) { need(2); glBlendEquationSeparate(a_enum(0), a_enum(1)); return 1; }
	if (IS("BlendFuncSeparate")) { need(4); glBlendFuncSeparate(a_enum(0), a_enum(1), a_enum(2), a_enum(3)); return 1; }
	if (IS("StencilFuncSeparate")) { need(4); glStencilFuncSeparate(a_enum(0), a_enum(1), a_int(2), (GLuint)a_int(3)); return 1; }
	if (IS("StencilOpSeparate")) { need(4); glStencilOpSeparate(a_enum(0), a_enum(1), a_enum(2), a_enum(3)); return 1; }
	if (IS("StencilMaskSeparate")) { need(2); glStencilMaskSeparate(a_enum(0), (GLuint)a_int(1)); return 1; }
	if (IS("ReleaseShaderCompiler")) return 1;
	if (IS("ShaderBinary")) die("ShaderBinary: no binary formats");
	return 0;
#undef IS
}

static void call(const char *name)
{
	float f[16];
#define IS(s) (!strcmp(name, s))
	if (es2_call(name))
		return;
	/* Queries change nothing a reference shows. */
	if (!strncmp(name, "Get", 3) || !strncmp(name, "Is", 2) || IS("ReadPixels"))
		return;
	if (IS("GenTextures")) { gen_names(&texnames, glGenTextures, result); return; }
	if (IS("GenBuffers")) { gen_names(&bufnames, glGenBuffers, result); return; }
	if (IS("DeleteTextures")) { delete_names(&texnames, glDeleteTextures); return; }
	if (IS("DeleteBuffers")) { delete_names(&bufnames, glDeleteBuffers); return; }
	if (IS("BindTexture")) { need(2); glBindTexture(a_enum(0), mapname(&texnames, a_int(1))); return; }
	if (IS("BindBuffer")) { need(2); glBindBuffer(a_enum(0), mapname(&bufnames, a_int(1))); return; }
	if (IS("BufferData")) {
		need(3);
		struct val *v = arg(1);
		if (v->kind == K_DATA)
			glBufferData(a_enum(0), (GLsizeiptr)v->len, v->data, a_enum(2));
		else
			glBufferData(a_enum(0), (GLsizeiptr)a_int(1), NULL, a_enum(2));
		return;
	}
	if (IS("BufferSubData")) {
		need(3);
		struct val *v = arg(2);
		if (v->kind != K_DATA) die("want data");
		glBufferSubData(a_enum(0), (GLintptr)a_int(1), (GLsizeiptr)v->len, v->data);
		return;
	}
	if (IS("Enable")) { capability(1); return; }
	if (IS("Disable")) { capability(0); return; }
	if (IS("EnableClientState")) { client_state(1); return; }
	if (IS("DisableClientState")) { client_state(0); return; }
	if (IS("ClientActiveTexture")) {
		need(1);
		GLenum u = a_enum(0);
		glClientActiveTexture(u);
		if (u >= GL_TEXTURE0 && u < GL_TEXTURE0 + 8)
			client_unit = u - GL_TEXTURE0;
		return;
	}
	if (IS("ActiveTexture")) { need(1); glActiveTexture(a_enum(0)); return; }
	if (IS("VertexPointer")) { need(4); set_array(EMU_VERTEX, a_int(0), a_enum(1), a_int(2), 3); return; }
	if (IS("ColorPointer")) { need(4); set_array(EMU_COLOR, a_int(0), a_enum(1), a_int(2), 3); return; }
	if (IS("TexCoordPointer")) { need(4); set_array(EMU_TEX0 + client_unit, a_int(0), a_enum(1), a_int(2), 3); return; }
	if (IS("NormalPointer")) { need(3); set_array(EMU_NORMAL, 3, a_enum(0), a_int(1), 2); return; }
	if (IS("PointSizePointerOES")) {
		need(3);
		psize.type = a_enum(0);
		psize.stride = a_int(1);
		psize.ptr = a_ptr(2);
		psize.buffer = bound_array_buffer();
		return;
	}
	if (IS("DrawArrays")) {
		need(3);
		GLenum mode = a_enum(0);
		long long first = a_int(1), count = a_int(2);
		if (first < 0 || count < 0 || first + count > (1 << 24))
			die("first %lld count %lld", first, count);
		emu_prepare(first + count);
		if (one_by_one(mode))
			draw_points((int)first, (int)count, NULL);
		else
			draw_non_points(mode, 0, (GLint)first, (GLsizei)count, 0, NULL);
		return;
	}
	if (IS("DrawElements")) { draw_elements(); return; }
	if (IS("Viewport")) { need(4); glViewport(a_int(0), a_int(1), a_int(2), a_int(3)); return; }
	if (IS("Scissor")) { need(4); glScissor(a_int(0), a_int(1), a_int(2), a_int(3)); return; }
	if (IS("DepthRangef")) { need(2); glDepthRange(a_float(0), a_float(1)); return; }
	if (IS("ClearColor")) { need(4); glClearColor(a_float(0), a_float(1), a_float(2), a_float(3)); return; }
	if (IS("ClearDepthf")) { need(1); glClearDepth(a_float(0)); return; }
	if (IS("ClearStencil")) { need(1); glClearStencil(a_int(0)); return; }
	if (IS("Clear")) { need(1); glClear(a_enum(0)); return; }
	if (IS("DepthFunc")) { need(1); glDepthFunc(a_enum(0)); return; }
	if (IS("DepthMask")) { need(1); glDepthMask(a_bool(0)); return; }
	if (IS("ColorMask")) { need(4); glColorMask(a_bool(0), a_bool(1), a_bool(2), a_bool(3)); return; }
	if (IS("AlphaFunc")) { need(2); glAlphaFunc(a_enum(0), a_float(1)); return; }
	if (IS("StencilFunc")) { need(3); glStencilFunc(a_enum(0), a_int(1), (GLuint)a_int(2)); return; }
	if (IS("StencilOp")) { need(3); glStencilOp(a_enum(0), a_enum(1), a_enum(2)); return; }
	if (IS("StencilMask")) { need(1); glStencilMask((GLuint)a_int(0)); return; }
	if (IS("BlendFunc")) { need(2); glBlendFunc(a_enum(0), a_enum(1)); return; }
	if (IS("BlendFuncSeparateOES")) { need(4); glBlendFuncSeparate(a_enum(0), a_enum(1), a_enum(2), a_enum(3)); return; }
	if (IS("BlendEquationOES")) { need(1); glBlendEquation(a_enum(0)); return; }
	if (IS("BlendEquationSeparateOES")) { need(2); glBlendEquationSeparate(a_enum(0), a_enum(1)); return; }
	if (IS("LogicOp")) { need(1); glLogicOp(a_enum(0)); return; }
	if (IS("SampleCoverage")) { need(2); glSampleCoverage(a_float(0), a_bool(1)); return; }
	if (IS("CullFace")) { need(1); glCullFace(a_enum(0)); return; }
	if (IS("FrontFace")) { need(1); glFrontFace(a_enum(0)); return; }
	if (IS("ShadeModel")) { need(1); glShadeModel(a_enum(0)); return; }
	if (IS("PolygonOffset")) { need(2); glPolygonOffset(a_float(0), a_float(1)); return; }
	if (IS("LineWidth")) { need(1); glLineWidth(a_float(0)); return; }
	if (IS("PointSize")) { need(1); glPointSize(a_float(0)); return; }
	if (IS("PointParameterf")) { need(2); glPointParameterf(a_enum(0), a_float(1)); return; }
	if (IS("PointParameterfv")) { need(2); a_floats(1, f, 16); glPointParameterfv(a_enum(0), f); return; }
	if (IS("Hint")) { need(2); glHint(a_enum(0), a_enum(1)); return; }
	if (IS("PixelStorei")) { need(2); glPixelStorei(a_enum(0), a_int(1)); return; }
	if (IS("Flush")) { need(0); glFlush(); return; }
	if (IS("Finish")) { need(0); glFinish(); return; }
	/* Matrices. */
	if (IS("MatrixMode")) { need(1); glMatrixMode(a_enum(0)); return; }
	if (IS("LoadIdentity")) { need(0); glLoadIdentity(); return; }
	if (IS("LoadMatrixf")) { need(1); if (a_floats(0, f, 16) != 16) die("want 16 floats"); glLoadMatrixf(f); return; }
	if (IS("MultMatrixf")) { need(1); if (a_floats(0, f, 16) != 16) die("want 16 floats"); glMultMatrixf(f); return; }
	if (IS("PushMatrix")) { need(0); glPushMatrix(); return; }
	if (IS("PopMatrix")) { need(0); glPopMatrix(); return; }
	if (IS("Translatef")) { need(3); glTranslatef(a_float(0), a_float(1), a_float(2)); return; }
	if (IS("Scalef")) { need(3); glScalef(a_float(0), a_float(1), a_float(2)); return; }
	if (IS("Rotatef")) { need(4); glRotatef(a_float(0), a_float(1), a_float(2), a_float(3)); return; }
	if (IS("Frustumf")) { need(6); glFrustum(a_float(0), a_float(1), a_float(2), a_float(3), a_float(4), a_float(5)); return; }
	if (IS("Orthof")) { need(6); glOrtho(a_float(0), a_float(1), a_float(2), a_float(3), a_float(4), a_float(5)); return; }
	/* Current attributes. */
	if (IS("Color4f")) { need(4); glColor4f(a_float(0), a_float(1), a_float(2), a_float(3)); return; }
	if (IS("Color4ub")) { need(4); glColor4ub(a_int(0), a_int(1), a_int(2), a_int(3)); return; }
	if (IS("Normal3f")) { need(3); glNormal3f(a_float(0), a_float(1), a_float(2)); return; }
	if (IS("MultiTexCoord4f")) { need(5); glMultiTexCoord4f(a_enum(0), a_float(1), a_float(2), a_float(3), a_float(4)); return; }
	/* Lighting, fog, clip planes. */
	if (IS("Lightf")) { need(3); glLightf(a_enum(0), a_enum(1), a_float(2)); return; }
	if (IS("Lightfv")) { need(3); a_floats(2, f, 16); glLightfv(a_enum(0), a_enum(1), f); return; }
	if (IS("LightModelf")) { need(2); glLightModelf(a_enum(0), a_float(1)); return; }
	if (IS("LightModelfv")) { need(2); a_floats(1, f, 16); glLightModelfv(a_enum(0), f); return; }
	if (IS("Materialf")) { need(3); glMaterialf(a_enum(0), a_enum(1), a_float(2)); set_shininess(a_enum(0), a_enum(1), a_float(2)); return; }
	if (IS("Materialfv")) { need(3); a_floats(2, f, 16); glMaterialfv(a_enum(0), a_enum(1), f); set_shininess(a_enum(0), a_enum(1), f[0]); return; }
	if (IS("Fogf")) { need(2); glFogf(a_enum(0), a_float(1)); return; }
	if (IS("Fogfv")) { need(2); a_floats(1, f, 16); glFogfv(a_enum(0), f); return; }
	if (IS("ClipPlanef")) {
		need(2);
		if (a_floats(1, f, 16) != 4) die("want 4 floats");
		GLdouble d[4] = {f[0], f[1], f[2], f[3]};
		glClipPlane(a_enum(0), d);
		return;
	}
	/* Textures. */
	if (IS("TexImage2D")) {
		need(9);
		struct val *v = arg(8);
		glTexImage2D(a_enum(0), a_int(1), a_enum(2), a_int(3), a_int(4), a_int(5), a_enum(6), a_enum(7),
			     v->kind == K_DATA ? v->data : NULL);
		return;
	}
	if (IS("TexSubImage2D")) {
		need(9);
		struct val *v = arg(8);
		if (v->kind != K_DATA) die("want data");
		glTexSubImage2D(a_enum(0), a_int(1), a_int(2), a_int(3), a_int(4), a_int(5), a_enum(6), a_enum(7), v->data);
		return;
	}
	if (IS("CompressedTexImage2D")) {
		need(7);
		GLenum fmt = a_enum(2);
		struct val *v = arg(6);
		if (v->kind != K_DATA) die("want data");
		if (fmt >= ES_PALETTE4_RGB8_OES && fmt <= ES_PALETTE8_RGB5_A1_OES) {
			paletted(a_int(1), fmt, a_int(3), a_int(4), v->data, v->len);
			return;
		}
		if (fmt == ES_ETC1_RGB8_OES) /* ETC1 is a subset of ETC2 RGB8 */
			fmt = GL_COMPRESSED_RGB8_ETC2;
		glCompressedTexImage2D(a_enum(0), a_int(1), fmt, a_int(3), a_int(4), a_int(5), (GLsizei)v->len, v->data);
		return;
	}
	if (IS("CompressedTexSubImage2D")) {
		need(8);
		struct val *v = arg(7);
		if (v->kind != K_DATA) die("want data");
		glCompressedTexSubImage2D(a_enum(0), a_int(1), a_int(2), a_int(3), a_int(4), a_int(5), a_enum(6), (GLsizei)v->len, v->data);
		return;
	}
	if (IS("CopyTexImage2D")) { need(8); glCopyTexImage2D(a_enum(0), a_int(1), a_enum(2), a_int(3), a_int(4), a_int(5), a_int(6), a_int(7)); return; }
	if (IS("CopyTexSubImage2D")) { need(8); glCopyTexSubImage2D(a_enum(0), a_int(1), a_int(2), a_int(3), a_int(4), a_int(5), a_int(6), a_int(7)); return; }
	if (IS("TexParameteri") || IS("TexParameterf")) {
		need(3);
		GLenum pname = a_enum(1);
		if (pname == ES_TEXTURE_CROP_RECT_OES)
			return;
		if (IS("TexParameteri"))
			glTexParameteri(a_enum(0), pname, a_int(2));
		else
			glTexParameterf(a_enum(0), pname, a_float(2));
		return;
	}
	if (IS("TexParameteriv") || IS("TexParameterfv")) {
		need(3);
		GLenum pname = a_enum(1);
		if (pname == ES_TEXTURE_CROP_RECT_OES)
			return;
		a_floats(2, f, 16);
		glTexParameterfv(a_enum(0), pname, f);
		return;
	}
	if (IS("TexEnvi")) { need(3); glTexEnvi(a_enum(0), a_enum(1), a_int(2)); return; }
	if (IS("TexEnvf")) { need(3); glTexEnvf(a_enum(0), a_enum(1), a_float(2)); return; }
	if (IS("TexEnvfv")) { need(3); a_floats(2, f, 16); glTexEnvfv(a_enum(0), a_enum(1), f); return; }
	die("%s has no desktop GL counterpart in mesaref", name);
#undef IS
}

static void free_val(struct val *v)
{
	free(v->text);
	for (int i = 0; i < v->nelems; i++)
		free_val(&v->elems[i]);
	free(v->elems);
	/* v->data may be a live client array: kept (see keep). */
}

/* reset forgets everything one trace set up. */
static void reset(void)
{
	memset(&texnames, 0, sizeof texnames);
	memset(&bufnames, 0, sizeof bufnames);
	memset(&fbnames, 0, sizeof fbnames);
	memset(&rbnames, 0, sizeof rbnames);
	memset(&objnames, 0, sizeof objnames);
	memset(&uniforms, 0, sizeof uniforms);
	memset(&attribs, 0, sizeof attribs);
	current_program = attrib_program = 0;
	memset(&psize, 0, sizeof psize);
	shine[0] = shine[1] = 0; /* GL's default shininess */
	for (int s = 0; s < EMU_MAX; s++)
		free(emu[s].conv);
	memset(emu, 0, sizeof emu);
	client_unit = 0;
	line_no = 0;
	free_kept();
}

/* replay plays the trace in and writes the colour buffer to pam; it
 * returns 0, or calls die. */
static int replay(FILE *in, FILE *pam)
{
	static char *buf;
	static size_t cap;
	ssize_t n;
	int w = -1, h = -1, depth = 0, stencil = 0;
	static OSMesaContext ctx;
	static unsigned char *fb, *px;
	static struct val res;
	/* A previous trace that died left these. */
	if (ctx) {
		OSMesaDestroyContext(ctx);
		ctx = NULL;
	}
	free(fb);
	free(px);
	fb = px = NULL;
	reset();
	while ((n = getline(&buf, &cap, in)) >= 0) {
		line_no++;
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			buf[--n] = 0;
		if (line_no == 1) {
			if (strcmp(buf, "retrogl-trace 1"))
				die("not a retrogl trace");
			continue;
		}
		p = buf;
		skip_space();
		if (at_end())
			continue;
		char *name = word();
		nargs = 0;
		result = NULL;
		for (;;) {
			skip_space();
			if (at_end())
				break;
			if (*p == '=') {
				p++;
				skip_space();
				parse_value(&res);
				result = &res;
				break;
			}
			if (nargs == MAX_ARGS)
				die("too many arguments");
			parse_value(&args[nargs++]);
		}
		if (!strcmp(name, "Surface")) {
			int es2 = 0;
			if (nargs == 5 && args[4].kind == K_NAME && !strcmp(args[4].text, "ES2"))
				es2 = 1, nargs = 4, free_val(&args[4]);
			need(4);
			w = a_int(0), h = a_int(1), depth = a_int(2), stencil = a_int(3);
			if (w <= 0 || h <= 0 || w > 4096 || h > 4096 || depth < 0 || depth > 32 || stencil < 0 || stencil > 8)
				die("bad surface %dx%d depth %d stencil %d", w, h, depth, stencil);
			if (ctx)
				die("a second Surface line");
			if (depth > 0 && depth < 24) /* OSMesa's softpipe offers 16, 24 or 32 */
				depth = depth <= 16 ? 16 : 24;
			if (stencil > 0)
				stencil = 8;
			ctx = OSMesaCreateContextExt(OSMESA_RGBA, depth, stencil, 0, NULL);
			fb = xmalloc((size_t)w * h * 4);
			memset(fb, 0, (size_t)w * h * 4); /* a trace without a Clear reads zeros */
			if (!ctx || !OSMesaMakeCurrent(ctx, fb, GL_UNSIGNED_BYTE, w, h))
				die("cannot create an OSMesa context");
			fprintf(info, "%s\n%s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
			if (es2) {
				glEnable(GL_VERTEX_PROGRAM_POINT_SIZE);
				glEnable(GL_POINT_SPRITE);
			}
		} else {
			if (!ctx)
				die("call before Surface");
			call(name);
			GLenum err = glGetError();
			if (err != GL_NO_ERROR)
				fprintf(msgs, "mesaref: line %d: %s: GL error 0x%04x\n", line_no, name, err);
		}
		free(name);
		for (int i = 0; i < nargs; i++)
			free_val(&args[i]);
		if (result)
			free_val(result);
	}
	if (!ctx)
		die("no Surface line");
	glFinish();
	px = xmalloc((size_t)w * h * 4);
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	fprintf(pam, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", w, h);
	for (int y = h - 1; y >= 0; y--)
		fwrite(px + (size_t)y * w * 4, 1, (size_t)w * 4, pam);
	OSMesaDestroyContext(ctx);
	ctx = NULL;
	free(fb);
	free(px);
	fb = px = NULL;
	reset();
	return 0;
}

/* serve is batch mode: it reads requests "T <n>\n" followed by n bytes of
 * trace from stdin and answers each on stdout with "R <status> <ninfo>
 * <nimage>\n", ninfo bytes of text (the renderer's two lines, then any
 * messages) and nimage bytes of PAM. status is ok or fail; a failed trace
 * has no image. One process serves any number of traces, so OSMesa's
 * start-up (most of a small trace's time) is paid once. */
static int serve(void)
{
	batch = 1;
	char hdr[64];
	while (fgets(hdr, sizeof hdr, stdin)) {
		size_t n;
		if (sscanf(hdr, "T %zu", &n) != 1 || n > (1u << 30)) {
			fprintf(stderr, "mesaref: bad request %s", hdr);
			return 1;
		}
		char *text = xmalloc(n);
		if (fread(text, 1, n, stdin) != n) {
			fprintf(stderr, "mesaref: short request\n");
			return 1;
		}
		char *infobuf = NULL, *img = NULL;
		size_t ninfo = 0, nimg = 0;
		FILE *in = fmemopen(text, n, "r");
		msgs = info = open_memstream(&infobuf, &ninfo);
		FILE *pam = open_memstream(&img, &nimg);
		int ok = 0;
		if (!in || !msgs || !pam) {
			fprintf(stderr, "mesaref: out of memory\n");
			return 1;
		}
		if (!setjmp(recover))
			ok = replay(in, pam) == 0;
		fclose(in);
		fclose(msgs);
		fclose(pam);
		if (!ok)
			nimg = 0;
		printf("R %s %zu %zu\n", ok ? "ok" : "fail", ninfo, nimg);
		fwrite(infobuf, 1, ninfo, stdout);
		fwrite(img, 1, nimg, stdout);
		fflush(stdout);
		free(infobuf);
		free(img);
		free(text);
	}
	return 0;
}

int main(int argc, char **argv)
{
	msgs = stderr;
	info = stdout;
	if (argc == 2 && !strcmp(argv[1], "-batch"))
		return serve();
	if (argc != 3) {
		fprintf(stderr, "usage: mesaref TRACE OUT.pam | mesaref -batch\n");
		return 2;
	}
	FILE *in = fopen(argv[1], "rb");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	FILE *out = fopen(argv[2], "wb");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	replay(in, out);
	if (fclose(out)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
