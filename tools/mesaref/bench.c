//go:build ignore

/*
 * bench runs one of retrogl's standard benchmark scenes (package bench,
 * DESIGN.md "The standard scenes") on Mesa through OSMesa and times its
 * frames, so `rglbench -mesa` can put Mesa's softpipe and llvmpipe beside
 * each simulated chip in the same run.
 *
 *   GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS=1 bench SCENE W H FRAMES MILLIS [OUT.pam]
 *
 * The scene is set up once and one untimed frame is drawn (llvmpipe
 * compiles its shaders then); then frames are drawn until at least FRAMES
 * frames and MILLIS milliseconds have passed. Only those frames are timed.
 * The program prints Mesa's GL_RENDERER, then one line
 *
 *   frames N cpu SECONDS wall SECONDS
 *
 * (cpu is CLOCK_PROCESS_CPUTIME_ID, every thread of the process; wall is
 * CLOCK_MONOTONIC). With OUT.pam it writes the last frame's colour buffer
 * as a PAM image (P7, RGBA, top row first), which the Go tests compare
 * with every backend's image of the same scene.
 *
 * The scenes repeat package bench's GL calls one for one (the same arrays,
 * computed with the same float arithmetic, the same texture, filter, wrap,
 * blend and depth function, a 16-bit depth buffer as the backends have):
 * a change to one side must be made on the other, and the image test in
 * package bench fails until it is.
 */
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die(const char *msg)
{
	fprintf(stderr, "bench: %s\n", msg);
	exit(1);
}

static double now(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the quads of the fill scenes (bench.quadVerts and friends) ---- */

static float quad_pos[8 * 4 * 3], quad_col[8 * 4 * 4], quad_uv[8 * 4 * 2];
static GLushort quad_idx[8 * 6];

static void make_quads(void)
{
	static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
	static const float colors[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
	int p = 0, c = 0, u = 0, n = 0;
	for (int q = 0; q < 8; q++) {
		float z = 1 - 1.8f * (float)q / 8;
		for (int k = 0; k < 4; k++) {
			quad_pos[p++] = corners[k][0];
			quad_pos[p++] = corners[k][1];
			quad_pos[p++] = z;
			quad_col[c++] = colors[k][0];
			quad_col[c++] = colors[k][1];
			quad_col[c++] = colors[k][2];
			quad_col[c++] = 0.8f;
			quad_uv[u++] = corners[k][0] + 1;
			quad_uv[u++] = corners[k][1] + 1;
		}
		GLushort b = (GLushort)(4 * q);
		GLushort ix[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
		for (int k = 0; k < 6; k++)
			quad_idx[n++] = ix[k];
	}
}

/* ---- tiny-tris (bench.setupTiny) ---- */

#define TINY_COUNT 10000
static float tiny_pos[TINY_COUNT * 3 * 3], tiny_col[TINY_COUNT * 3 * 4];

static void make_tiny(int width, int height)
{
	float w = (float)width, h = (float)height;
	int cols = 125, p = 0, c = 0;
	static const float d[3][2] = {{0, 0}, {1.2f, 0}, {0, 1.2f}};
	static const float col[12] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
	for (int i = 0; i < TINY_COUNT; i++) {
		float gx = (float)(i % cols), gy = (float)(i / cols);
		float px = 4 + gx * (w - 8) / (float)cols;
		float py = 4 + gy * (h - 8) / (float)(TINY_COUNT / cols);
		for (int k = 0; k < 3; k++) {
			tiny_pos[p++] = (px + d[k][0]) / w * 2 - 1;
			tiny_pos[p++] = (py + d[k][1]) / h * 2 - 1;
			tiny_pos[p++] = 0;
		}
		memcpy(&tiny_col[c], col, sizeof col);
		c += 12;
	}
}

/* ---- scenes ---- */

static void common(int w, int h)
{
	glViewport(0, 0, w, h);
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glEnableClientState(GL_VERTEX_ARRAY);
	glVertexPointer(3, GL_FLOAT, 0, quad_pos);
	glClearColor(0, 0, 0, 1);
	glClearDepth(1);
}

static void setup_gouraud(int w, int h)
{
	common(w, h);
	glEnableClientState(GL_COLOR_ARRAY);
	glColorPointer(4, GL_FLOAT, 0, quad_col);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LEQUAL);
}

static unsigned char texels[256 * 256 * 4];

static void setup_tex_blend(int w, int h)
{
	setup_gouraud(w, h);
	for (int y = 0; y < 256; y++)
		for (int x = 0; x < 256; x++) {
			unsigned char *t = &texels[(y * 256 + x) * 4];
			t[0] = (unsigned char)x;
			t[1] = (unsigned char)y;
			t[2] = ((x >> 4) ^ (y >> 4)) & 1 ? 255 : 0;
			t[3] = 200;
		}
	GLuint tex;
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 256, 256, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
	glEnable(GL_TEXTURE_2D);
	glEnableClientState(GL_TEXTURE_COORD_ARRAY);
	glTexCoordPointer(2, GL_FLOAT, 0, quad_uv);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

static void setup_flat(int w, int h)
{
	common(w, h);
	glColor4f(0.2f, 0.6f, 0.9f, 1);
}

static void setup_tiny(int w, int h)
{
	common(w, h);
	make_tiny(w, h);
	glVertexPointer(3, GL_FLOAT, 0, tiny_pos);
	glEnableClientState(GL_COLOR_ARRAY);
	glColorPointer(4, GL_FLOAT, 0, tiny_col);
}

static void frame_quads_depth(void)
{
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glDrawElements(GL_TRIANGLES, 8 * 6, GL_UNSIGNED_SHORT, quad_idx);
	glFinish();
}

static void frame_quads(void)
{
	glClear(GL_COLOR_BUFFER_BIT);
	glDrawElements(GL_TRIANGLES, 8 * 6, GL_UNSIGNED_SHORT, quad_idx);
	glFinish();
}

static void frame_tiny(void)
{
	glClear(GL_COLOR_BUFFER_BIT);
	glDrawArrays(GL_TRIANGLES, 0, 3 * TINY_COUNT);
	glFinish();
}

static const struct scene {
	const char *name;
	void (*setup)(int w, int h);
	void (*frame)(void);
} scenes[] = {
	/* fill-tex-blend clears depth each frame (bench.quads(true)). */
	{"fill-tex-blend", setup_tex_blend, frame_quads_depth},
	/* fill-flat: one constant colour, no depth work at all. */
	{"fill-flat", setup_flat, frame_quads},
	{"fill-gouraud", setup_gouraud, frame_quads_depth},
	{"tiny-tris", setup_tiny, frame_tiny},
};

int main(int argc, char **argv)
{
	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: bench SCENE WIDTH HEIGHT FRAMES MILLIS [OUT.pam]\n");
		return 2;
	}
	const struct scene *s = NULL;
	for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++)
		if (!strcmp(scenes[i].name, argv[1]))
			s = &scenes[i];
	if (!s) {
		fprintf(stderr, "bench: unknown scene %s\n", argv[1]);
		return 2;
	}
	int w = atoi(argv[2]), h = atoi(argv[3]), frames = atoi(argv[4]);
	long millis = atol(argv[5]);
	if (w <= 0 || h <= 0 || w > 4096 || h > 4096 || frames < 1 || frames > 1000000 || millis < 0 || millis > 3600000)
		die("bad size, frame count or time");

	OSMesaContext ctx = OSMesaCreateContextExt(OSMESA_RGBA, 16, 0, 0, NULL);
	unsigned char *fb = malloc((size_t)w * h * 4);
	if (!ctx || !fb || !OSMesaMakeCurrent(ctx, fb, GL_UNSIGNED_BYTE, w, h))
		die("cannot create an OSMesa context");
	printf("%s\n", (const char *)glGetString(GL_RENDERER));

	make_quads();
	s->setup(w, h);
	s->frame(); /* warm-up, untimed */
	GLenum err = glGetError();
	if (err != GL_NO_ERROR) {
		fprintf(stderr, "bench: %s: GL error 0x%04x\n", s->name, err);
		return 1;
	}

	double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC), wall = 0;
	int n = 0;
	while (n < frames || wall * 1000 < (double)millis) {
		s->frame();
		n++;
		wall = now(CLOCK_MONOTONIC) - w0;
	}
	double cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
	err = glGetError();
	if (err != GL_NO_ERROR) {
		fprintf(stderr, "bench: %s: GL error 0x%04x\n", s->name, err);
		return 1;
	}
	printf("frames %d cpu %.9f wall %.9f\n", n, cpu, wall);

	if (argc == 7) {
		unsigned char *px = malloc((size_t)w * h * 4);
		if (!px)
			die("out of memory");
		glPixelStorei(GL_PACK_ALIGNMENT, 1);
		glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
		FILE *out = fopen(argv[6], "wb");
		if (!out) {
			perror(argv[6]);
			return 1;
		}
		fprintf(out, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", w, h);
		for (int y = h - 1; y >= 0; y--)
			fwrite(px + (size_t)y * w * 4, 1, (size_t)w * 4, out);
		if (fclose(out)) {
			perror(argv[6]);
			return 1;
		}
	}
	OSMesaDestroyContext(ctx);
	return 0;
}
