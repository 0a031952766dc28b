package pica

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
)

// The fixed-function vertex shader generator. The shader is picasso
// assembly; its uniform layout is fixed so that the driver can upload
// values without looking them up:
//
//	c0-c3    model-view-projection rows, with GL's depth folded in
//	         (z' = -(z+w)/2, see driver.go)
//	c4-c7    model-view rows (eye position for lighting)
//	c8-c10   normal matrix rows (inverse transpose of the model-view, with
//	         RESCALE_NORMAL's factor)
//	c11-c22  texture matrix rows, four per unit
//	c23      scene colour: emission + material ambient * scene ambient (or
//	         emission alone with COLOR_MATERIAL)
//	c24      scene ambient (COLOR_MATERIAL), x = shininess in c25
//	c25      (shininess, 0, 0, material diffuse alpha)
//	c26+6i   light i: position or direction, ambient, diffuse, specular,
//	         (spot direction, cos cutoff), (k0, k1, k2, spot exponent);
//	         ambient and diffuse are products with the material unless
//	         COLOR_MATERIAL multiplies by the vertex colour in the shader
//	c74      constants (0, 1, 0.5, 0)
//
// Inputs: v0 position, v1 colour, v2 normal, v3-v5 texture coordinates of
// units 0-2 (v6-v9: see vertices; v10.x the facing sign of two-sided
// lighting). Lighting follows GL ES 1.1 §2.12.1 with an infinite viewer;
// two-sided lighting lights the normal times the facing sign, so a back
// face gets the negated normal.

const (
	uMVP    = 0
	uMV     = 4
	uNormal = 8
	uTex    = 11
	uScene  = 23
	uAmb    = 24
	uMat    = 25
	uLight  = 26
	uConst  = 74
	// Emulated points and lines: c75 = (1/vw, 1/vh, vw/2, vh/2) of the
	// viewport; c76 = (point size or line width in pixels, min size, max
	// size, 0); c77 = point distance attenuation (a, b, c, 0); c78 = the
	// sprite coordinate constants (0.5, -0.5, 0.5, 0.5).
	uView   = 75
	uSize   = 76
	uAtten  = 77
	uSprite = 78
	// c79-c81: (s scale, t scale, 0, 0) of units 0-2 whose texture is
	// under 8 texels (see smallAxis), for sprite coordinates; other
	// coordinates take the scale in the texture matrix.
	uTexScale = 79
	// c82: user clip plane 0 in the PICA's clip space, for points (their
	// centre is tested in the shader); c83-c86: the view volume's x and y
	// planes (GL's -w <= x, y <= w) in the PICA's clip space.
	uClip   = 82
	uVolume = 83
)

// genPoint computes the clip position of one corner of a point's square:
// v6.xy is the corner (+-1, +-1); the square's half side is size/2 pixels,
// size/vw in x and size/vh in y in NDC, scaled by w to stay in clip space.
// With attenuation, size = size0 * sqrt(1/(a + b d + c d^2)) for the eye
// distance d (GL ES 1.1 §3.3), clamped to [min, max].
func genPoint(w func(string, ...any), k ffKey) {
	w("    dp4 r10.x, c%d, v0", uMVP)
	w("    dp4 r10.y, c%d, v0", uMVP+1)
	w("    dp4 r10.z, c%d, v0", uMVP+2)
	w("    dp4 r10.w, c%d, v0", uMVP+3)
	if k.sizeArray {
		w("    mov r11.x, v9.x")
	} else {
		w("    mov r11.x, c%d.x", uSize)
	}
	if k.pointAtten {
		w("    dp4 r13.x, c%d, v0", uMV)
		w("    dp4 r13.y, c%d, v0", uMV+1)
		w("    dp4 r13.z, c%d, v0", uMV+2)
		w("    dp3 r14.x, r13, r13") // d^2
		w("    rsq r14.y, r14.x")    // 1/d
		w("    mul r14.y, r14.x, r14.y")
		w("    mov r15.x, c%d.y", uConst) // (1, d, d^2)
		w("    mov r15.y, r14.y")
		w("    mov r15.z, r14.x")
		w("    dp3 r15.x, c%d, r15", uAtten)
		w("    rsq r15.x, r15.x")
		w("    mul r11.x, r15.x, r11.x")
	}
	w("    max r11.x, c%d.y, r11.x", uSize)
	w("    min r11.x, c%d.z, r11.x", uSize)
	w("    mul r11.xy, c%d, r11.xxxx", uView)
	w("    mul r11.xy, v6, r11")
	// GL ES 1.1 2.11: a point is kept or dropped whole by its centre: the
	// least of its values for the view volume's x and y planes (z needs
	// no test: the corners share the centre's z and w) and the user clip
	// plane. r15.x = 1 if the centre is inside, else every corner moves
	// to (0, 0, 1, 1), beyond the chip's z <= 0 plane, so the clipper
	// drops both triangles; the chip's clipper would cut the square.
	// Few distinct operand descriptors (the table has 128 entries and the
	// lighting code uses many): every scalar step is x = op(x, x).
	w("    dp4 r15.x, c%d, r10", uVolume)
	planes := []int{uVolume + 1, uVolume + 2, uVolume + 3}
	if k.pointClip {
		planes = append(planes, uClip)
	}
	for _, c := range planes {
		w("    dp4 r14.x, c%d, r10", c)
		w("    min r15.x, r14.x, r15.x")
	}
	w("    sge r15.x, r15.x, c%d.x", uConst)
	w("    mad r14.xy, r11, r10.w, r10")
	w("    mov r14.zw, r10")
	w("    add r14, -c%d.xxyy, r14", uConst)
	w("    mad opos, r14, r15.xxxx, c%d.xxyy", uConst)
}

// genLine computes the clip position of one corner of a line segment's
// parallelogram (GL ES 1.1 §3.4.2 wide lines): v7 is the other endpoint,
// v6.x the side (+-1); the offset is half the width in pixels along the
// minor axis (y for x-major segments), scaled back to clip space.
func genLine(w func(string, ...any)) {
	w("    dp4 r10.x, c%d, v0", uMVP)
	w("    dp4 r10.y, c%d, v0", uMVP+1)
	w("    dp4 r10.z, c%d, v0", uMVP+2)
	w("    dp4 r10.w, c%d, v0", uMVP+3)
	w("    dp4 r11.x, c%d, v7", uMVP)
	w("    dp4 r11.y, c%d, v7", uMVP+1)
	w("    dp4 r11.w, c%d, v7", uMVP+3)
	w("    rcp r12.x, r10.w")
	w("    rcp r12.y, r11.w")
	w("    mul r13.xy, r10, r12.xxxx")
	w("    mul r14.xy, r11, r12.yyyy")
	w("    add r13.xy, r14, -r13")
	w("    mul r13.xy, c%d.zwzw, r13", uView) // window-space delta
	w("    max r14.xy, r13, -r13")            // |dx|, |dy|
	w("    sge r15.y, r14.x, r14.y")          // x-major: offset in y
	w("    add r15.x, c%d.yyyy, -r15.y", uConst)
	w("    mul r15.xy, c%d, r15", uView)
	w("    mul r15.xy, c%d.xxxx, r15", uSize) // (W/2 pixels) * (2/vw) = W/vw
	w("    mul r15.xy, v6.xxxx, r15")
	w("    mad opos.xy, r15, r10.w, r10")
	w("    mov opos.zw, r10")
}

type lightKey struct {
	on, positional, spot, atten bool
}

// ffKey is the fixed-function state a generated shader depends on.
type ffKey struct {
	lighting  bool
	normalize bool
	colorMat  bool
	lights    [driver.MaxLights]lightKey
	tex       [3]uint8 // 0 off, 1 identity matrix, 2 affine matrix, 3 projective matrix
	// prim is 0 for triangles, primPoint or primLine for the emulated
	// primitives (see expand.go).
	prim       uint8
	flatLight  bool    // lighting reads the provoking vertex's position (v8)
	twoSide    bool    // two-sided lighting: the normal is multiplied by the facing sign in v10.x
	pointAtten bool    // point size distance attenuation
	sizeArray  bool    // point size from v9
	sprite     [3]bool // COORD_REPLACE: texture coordinates from the corner
	// spriteScale: the sprite coordinates are scaled by c79+u (a texture
	// under 8 texels).
	spriteScale [3]bool
	pointClip   bool // points under user clip plane 0: the centre is tested (c82)
}

// proj0 says whether unit 0's coordinates are projective and not sprite
// coordinates: the generated shader then outputs q as texcoord0.w and the
// unit, set to the projection type, divides s and t by it per pixel, as
// GL ES 1.1 (3.8.7) divides the interpolated coordinates. Units 1 and 2
// have no projection type: their shader divides per vertex, exact only
// where q is the same at every vertex of a primitive (listed among the
// emulations).
func (k ffKey) proj0() bool { return k.tex[0] == 3 && !k.sprite[0] }

// scaleKey adapts a key to the texture coordinate scales of small
// textures (see smallAxis): an identity texture matrix becomes an affine
// one (ffUniforms folds the scale into it), and sprite coordinates get
// their own scale.
func (c *Context) scaleKey(k *ffKey) {
	for u := range k.tex {
		if k.tex[u] == 0 || c.texScale[u] == [2]float32{1, 1} {
			continue
		}
		if k.sprite[u] {
			k.spriteScale[u] = true
		}
		if k.tex[u] == 1 {
			k.tex[u] = 2
		}
	}
}

// texMatrix is unit u's texture matrix with the small-texture scale
// applied after it.
func (c *Context) texMatrix(st *driver.State, u int) mgl32.Mat4 {
	m := st.Units[u].Matrix
	s := c.texScale[u]
	if s == [2]float32{1, 1} {
		return m
	}
	return mgl32.Scale3D(s[0], s[1], 1).Mul4(m)
}

// Primitive kinds of the generated shader.
const (
	primTriangle = 0
	primPoint    = 1
	primLine     = 2
)

func isIdentity(m mgl32.Mat4) bool { return m == mgl32.Ident4() }

func makeKey(st *driver.State, dc *driver.DrawCall, units int) ffKey {
	var k ffKey
	switch dc.Prim {
	case driver.PrimPoints:
		k.prim = primPoint
		k.pointAtten = st.Point.DistAtten != [3]float32{1, 0, 0}
		k.sizeArray = dc.Arrays != nil && dc.Arrays.PointSize.Enabled
		if st.Point.Sprite {
			for u := 0; u < 3; u++ {
				k.sprite[u] = st.Units[u].CoordReplace && st.Units[u].Texture != nil
			}
		}
	case driver.PrimLines, driver.PrimLineStrip, driver.PrimLineLoop:
		k.prim = primLine
	}
	k.flatLight = st.Shade == driver.ShadeFlat && st.Lighting.Enabled
	if st.Lighting.Enabled {
		k.lighting = true
		k.normalize = st.Normalize
		k.colorMat = st.Lighting.ColorMaterial
		for i, l := range st.Lighting.Lights {
			if !l.Enabled {
				continue
			}
			pos := l.Position[3] != 0
			k.lights[i] = lightKey{on: true, positional: pos,
				spot:  pos && l.SpotCutoff != 180,
				atten: pos && (l.ConstantAtten != 1 || l.LinearAtten != 0 || l.QuadraticAt != 0)}
		}
	}
	for u := 0; u < units && u < 3; u++ {
		if st.Units[u].Texture == nil {
			continue
		}
		m := st.Units[u].Matrix
		// Coordinates with q != 1 (a 4-component array, or a current q
		// other than 1) are projective even under an affine matrix.
		projQ := st.CurrentTexCoord[u][3] != 1
		if dc.Arrays != nil && dc.Arrays.TexCoord[u].Enabled {
			projQ = dc.Arrays.TexCoord[u].Size == 4
		}
		switch {
		case projQ || m.Row(3) != mgl32.Vec4{0, 0, 0, 1}:
			k.tex[u] = 3
		case isIdentity(m):
			k.tex[u] = 1
		default:
			k.tex[u] = 2
		}
	}
	return k
}

func (k ffKey) String() string {
	var b strings.Builder
	b.WriteString("ff")
	if k.lighting {
		b.WriteString("-light")
		if k.normalize {
			b.WriteString("n")
		}
		if k.colorMat {
			b.WriteString("c")
		}
		for i, l := range k.lights {
			if l.on {
				fmt.Fprintf(&b, "%d", i)
				if l.positional {
					b.WriteString("p")
				}
				if l.spot {
					b.WriteString("s")
				}
				if l.atten {
					b.WriteString("a")
				}
			}
		}
	}
	for u, t := range k.tex {
		if t != 0 {
			fmt.Fprintf(&b, "-tex%d.%d", u, t)
		}
		if k.sprite[u] {
			fmt.Fprintf(&b, "s")
		}
		if k.spriteScale[u] {
			fmt.Fprintf(&b, "z")
		}
	}
	switch k.prim {
	case primPoint:
		b.WriteString("-point")
		if k.pointAtten {
			b.WriteString("a")
		}
		if k.sizeArray {
			b.WriteString("s")
		}
		if k.pointClip {
			b.WriteString("c")
		}
	case primLine:
		b.WriteString("-line")
	}
	if k.flatLight {
		b.WriteString("-flat")
	}
	if k.twoSide {
		b.WriteString("-2side")
	}
	return b.String()
}

// genVS writes the picasso source for a key.
func genVS(k ffKey) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	w("; generated fixed-function vertex shader %s", k)
	w(".alias zero c%d.xxxx", uConst)
	w(".alias one c%d.yyyy", uConst)
	w(".alias half c%d.zzzz", uConst)
	w(".constf c%d(0.0, 1.0, 0.5, 0.0)", uConst)
	w(".out opos position")
	w(".out oclr color")
	for u, t := range k.tex {
		if t != 0 {
			w(".out otc%d texcoord%d.xy", u, u)
		}
	}
	if k.proj0() {
		w(".out otc0w texcoord0w")
	}
	if k.prim == primPoint && k.sprite != [3]bool{} {
		w(".constf c%d(0.5, -0.5, 0.5, 0.5)", uSprite)
	}
	w(".proc main")
	switch k.prim {
	case primTriangle:
		w("    dp4 opos.x, c%d, v0", uMVP)
		w("    dp4 opos.y, c%d, v0", uMVP+1)
		w("    dp4 opos.z, c%d, v0", uMVP+2)
		w("    dp4 opos.w, c%d, v0", uMVP+3)
	case primPoint:
		genPoint(w, k)
	case primLine:
		genLine(w)
	}
	if !k.lighting {
		w("    mov oclr, v1")
	} else {
		genLighting(w, k)
	}
	for u, t := range k.tex {
		in := fmt.Sprintf("v%d", 3+u)
		m := uTex + 4*u
		if k.sprite[u] {
			// GL ES 1.1 §3.3.1: s runs left to right, t top to bottom.
			w("    mul r12.xy, c%d, v6", uSprite)
			if k.spriteScale[u] {
				w("    add r12.xy, c%d.zwzw, r12", uSprite)
				w("    mul otc%d.xy, c%d, r12", u, uTexScale+u)
			} else {
				w("    add otc%d.xy, c%d.zwzw, r12", u, uSprite)
			}
			continue
		}
		switch t {
		case 1:
			w("    mov otc%d, %s", u, in)
		case 2:
			w("    dp4 otc%d.x, c%d, %s", u, m, in)
			w("    dp4 otc%d.y, c%d, %s", u, m+1, in)
		case 3:
			if u == 0 && k.proj0() {
				// Unit 0 divides per pixel (projection type, see
				// projective).
				w("    dp4 otc0.x, c%d, %s", m, in)
				w("    dp4 otc0.y, c%d, %s", m+1, in)
				w("    dp4 otc0w.x, c%d, %s", m+3, in)
				continue
			}
			w("    dp4 r12.x, c%d, %s", m, in)
			w("    dp4 r12.y, c%d, %s", m+1, in)
			w("    dp4 r12.w, c%d, %s", m+3, in)
			w("    rcp r12.w, r12.w")
			w("    mul otc%d.xy, r12.w, r12.xy", u)
		}
	}
	w("    end")
	w(".end")
	return b.String()
}

// genLighting emits GL ES 1.1 per-vertex lighting into oclr. Registers:
// r0 eye position, r1 normal, r2 colour sum, r3 VP (unit), r4 (attenuation,
// spot, pow), r5 (N.L, N.H, f), r6 H, r7 light sum, r8 scratch (x: d^2,
// y: 1/d of a positional light), r9 the diffuse colour under
// COLOR_MATERIAL.
func genLighting(w func(string, ...any), k ffKey) {
	lp := "v0"
	if k.flatLight {
		lp = "v8"
	}
	w("    dp4 r0.x, c%d, %s", uMV, lp)
	w("    dp4 r0.y, c%d, %s", uMV+1, lp)
	w("    dp4 r0.z, c%d, %s", uMV+2, lp)
	w("    dp4 r0.w, c%d, %s", uMV+3, lp)
	w("    dp3 r1.x, c%d, v2", uNormal)
	w("    dp3 r1.y, c%d, v2", uNormal+1)
	w("    dp3 r1.z, c%d, v2", uNormal+2)
	if k.normalize {
		w("    dp3 r8.x, r1, r1")
		w("    rsq r8.x, r8.x")
		w("    mul r1.xyz, r8.xxxx, r1")
	}
	if k.twoSide {
		w("    mul r1.xyz, v10.xxxx, r1")
	}
	if k.colorMat {
		w("    mul r2, v1, c%d", uAmb)
		w("    add r2, c%d, r2", uScene)
	} else {
		w("    mov r2, c%d", uScene)
	}
	for i, l := range k.lights {
		if !l.on {
			continue
		}
		base := uLight + 6*i
		w("    ; light %d", i)
		if l.positional {
			w("    add r3.xyz, c%d, -r0", base)
			w("    dp3 r8.x, r3, r3")
			w("    rsq r8.y, r8.x")
			w("    mul r3.xyz, r8.yyyy, r3")
			w("    add r6.xyz, r3, c%d.xxyx", uConst) // + (0, 0, 1)
			w("    dp3 r8.w, r6, r6")
			w("    rsq r8.w, r8.w")
			w("    mul r6.xyz, r8.wwww, r6")
		} else {
			w("    mov r3.xyz, c%d", base)
			w("    mov r6.xyz, c%d", base+4)
		}
		w("    dp3 r5.x, r1, r3")
		w("    max r5.x, zero, r5.x")
		w("    slt r5.z, zero, r5.x")
		w("    dp3 r5.y, r1, r6")
		w("    max r5.y, zero, r5.y")
		w("    lg2 r5.y, r5.y")
		w("    mul r5.y, c%d.xxxx, r5.y", uMat)
		w("    ex2 r5.y, r5.y")
		w("    mul r5.y, r5.z, r5.y")
		if k.colorMat {
			// r9, not r8: r8.xy still hold d^2 and 1/d for the
			// attenuation below.
			w("    mul r7, v1, c%d", base+1)
			w("    mul r9, v1, c%d", base+2)
			w("    mad r7, r5.xxxx, r9, r7")
		} else {
			w("    mov r7, c%d", base+1)
			w("    mad r7, r5.xxxx, c%d, r7", base+2)
		}
		w("    mad r7, r5.yyyy, c%d, r7", base+3)
		if l.atten {
			// (1, d, d^2) . (k0, k1, k2), d = d^2 * 1/d.
			w("    mul r8.z, r8.x, r8.y")
			w("    mov r4.x, one")
			w("    mov r4.y, r8.z")
			w("    mov r4.z, r8.x")
			w("    dp3 r4.x, r4, c%d", base+5)
			w("    rcp r4.x, r4.x")
			w("    mul r7, r4.xxxx, r7")
		}
		if l.spot {
			w("    dp3 r4.y, -r3, c%d", base+4)
			w("    sge r4.z, r4.y, c%d.wwww", base+4)
			w("    lg2 r4.y, r4.y")
			w("    mul r4.y, c%d.wwww, r4.y", base+5)
			w("    ex2 r4.y, r4.y")
			w("    mul r4.y, r4.z, r4.y")
			w("    mul r7, r4.yyyy, r7")
		}
		w("    add r2.xyz, r2, r7")
	}
	if k.colorMat {
		w("    mov r2.w, v1")
	} else {
		w("    mov r2.w, c%d", uMat)
	}
	w("    max r2, zero, r2")
	w("    min oclr, one, r2")
}

// The emulated point size and line width ranges.
const (
	maxPointSize = 64
	maxLineWidth = 64
)

// depthFold is GL's clip space to the PICA's: z' = -(z + w)/2.
var depthFold = mgl32.Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -0.5, 0, 0, 0, -0.5, 1}

func rows(m mgl32.Mat4) [4][4]float32 {
	var r [4][4]float32
	for i := 0; i < 4; i++ {
		r[i] = [4]float32{m[i], m[4+i], m[8+i], m[12+i]}
	}
	return r
}

func mul3(a, b [4]float32) [4]float32 {
	return [4]float32{a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]}
}

func norm3(v [3]float32) [3]float32 {
	l := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	if l == 0 {
		return v
	}
	return [3]float32{v[0] / l, v[1] / l, v[2] / l}
}

// ffUniforms uploads the uniforms of the fixed-function shader.
func (c *Context) ffUniforms(st *driver.State, k ffKey) {
	mvp := c.vpFold.Mul4(depthFold).Mul4(st.Projection).Mul4(st.ModelView)
	for i, r := range rows(mvp) {
		c.uniform(uMVP+i, r)
	}
	for u, t := range k.tex {
		if t >= 2 {
			for i, r := range rows(c.texMatrix(st, u)) {
				c.uniform(uTex+4*u+i, r)
			}
		}
		if k.spriteScale[u] {
			c.uniform(uTexScale+u, [4]float32{c.texScale[u][0], c.texScale[u][1], 0, 0})
		}
	}
	if k.prim != primTriangle {
		v := c.vpPica
		c.uniform(uView, [4]float32{1 / float32(v.W), 1 / float32(v.H), float32(v.W) / 2, float32(v.H) / 2})
		if k.prim == primPoint {
			lo := max(1, st.Point.Min)
			hi := min(maxPointSize, st.Point.Max)
			if hi < lo {
				hi = lo
			}
			c.uniform(uSize, [4]float32{st.Point.Size, lo, hi, 0})
			if k.pointAtten {
				c.uniform(uAtten, [4]float32{st.Point.DistAtten[0], st.Point.DistAtten[1], st.Point.DistAtten[2], 0})
			}
			if k.pointClip {
				c.uniform(uClip, [4]float32(c.clipQ))
			}
			inv := c.vpFold.Inv().Transpose()
			for i, pl := range [4]mgl32.Vec4{{1, 0, 0, 1}, {-1, 0, 0, 1}, {0, 1, 0, 1}, {0, -1, 0, 1}} {
				c.uniform(uVolume+i, [4]float32(inv.Mul4x1(pl)))
			}
		} else {
			lw := max(1, min(maxLineWidth, st.LineWidth))
			c.uniform(uSize, [4]float32{lw, 1, maxLineWidth, 0})
		}
	}
	if k.lighting || k.pointAtten {
		for i, r := range rows(st.ModelView) {
			c.uniform(uMV+i, r)
		}
	}
	if !k.lighting {
		return
	}
	nm := st.ModelView.Mat3().Inv().Transpose()
	scale := float32(1)
	if st.RescaleNormal && !st.Normalize {
		inv := st.ModelView.Mat3().Inv()
		l := math.Sqrt(float64(inv[2]*inv[2] + inv[5]*inv[5] + inv[8]*inv[8]))
		if l != 0 {
			scale = float32(1 / l)
		}
	}
	for i := 0; i < 3; i++ {
		c.uniform(uNormal+i, [4]float32{nm[i] * scale, nm[3+i] * scale, nm[6+i] * scale, 0})
	}
	lt := &st.Lighting
	mat := lt.Material
	if k.colorMat {
		c.uniform(uScene, mat.Emission)
		c.uniform(uAmb, lt.Ambient)
	} else {
		sc := mul3(mat.Ambient, lt.Ambient)
		c.uniform(uScene, [4]float32{mat.Emission[0] + sc[0], mat.Emission[1] + sc[1], mat.Emission[2] + sc[2], 0})
	}
	c.uniform(uMat, [4]float32{mat.Shininess, 0, 0, mat.Diffuse[3]})
	for i, l := range lt.Lights {
		if !k.lights[i].on {
			continue
		}
		base := uLight + 6*i
		if k.lights[i].positional {
			w := l.Position[3]
			c.uniform(base, [4]float32{l.Position[0] / w, l.Position[1] / w, l.Position[2] / w, 1})
		} else {
			d := norm3([3]float32{l.Position[0], l.Position[1], l.Position[2]})
			h := norm3([3]float32{d[0], d[1], d[2] + 1})
			c.uniform(base, [4]float32{d[0], d[1], d[2], 0})
			c.uniform(base+4, [4]float32{h[0], h[1], h[2], 0})
		}
		// A directional light's spot factor is one for all vertices:
		// it scales the light's colours (swtnl.DirectionalSpot).
		spot := swtnl.DirectionalSpot(&lt.Lights[i])
		sp := [4]float32{spot, spot, spot, 1}
		if k.colorMat {
			c.uniform(base+1, mul3(l.Ambient, sp))
			c.uniform(base+2, mul3(l.Diffuse, sp))
		} else {
			c.uniform(base+1, mul3(mul3(l.Ambient, mat.Ambient), sp))
			c.uniform(base+2, mul3(mul3(l.Diffuse, mat.Diffuse), sp))
		}
		c.uniform(base+3, mul3(mul3(l.Specular, mat.Specular), sp))
		if k.lights[i].spot {
			sd := norm3(l.SpotDirection)
			c.uniform(base+4, [4]float32{sd[0], sd[1], sd[2], float32(math.Cos(float64(l.SpotCutoff) * math.Pi / 180))})
		}
		if k.lights[i].atten || k.lights[i].spot {
			c.uniform(base+5, [4]float32{l.ConstantAtten, l.LinearAtten, l.QuadraticAt, l.SpotExponent})
		}
	}
}
