package difftest

import (
	"fmt"
	"strings"
)

// Family is one group of GL ES 1.1 state that a scene's draws used. The
// report gives each family's share of scenes within tolerance, so that a
// backend's wrong rendering points at the state that causes it.
type Family uint8

// The families, in report order: primitives and vertex specification,
// texturing, per-vertex state, per-fragment state.
const (
	FamPoints         Family = iota // GL_POINTS
	FamLines                        // LINES, LINE_STRIP, LINE_LOOP
	FamTriangles                    // TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN
	FamDrawElements                 // glDrawElements
	FamBufferObjects                // arrays or indices in buffer objects
	FamClientArrays                 // client-side arrays
	FamByte                         // a BYTE array (positions, normals, texture coordinates)
	FamShort                        // a SHORT array
	FamFixed                        // a FIXED array
	FamFloat                        // a FLOAT array
	FamCurrentAttrib                // colour, normal or texture coordinates from the current values
	FamTexture                      // texturing on one unit
	FamMultitexture                 // texturing on both units
	FamTexRGBA8                     // RGB and RGBA UNSIGNED_BYTE textures
	FamTex16                        // 565, 4444 and 5551 textures
	FamTexLumAlpha                  // LUMINANCE, ALPHA, LUMINANCE_ALPHA textures
	FamTexPaletted                  // OES_compressed_paletted_texture
	FamTexETC1                      // OES_compressed_ETC1_RGB8_texture
	FamTexSmall                     // a texture with a side under 8 texels
	FamMipmap                       // a mipmapped minification filter
	FamGenerateMipmap               // GENERATE_MIPMAP
	FamTexLinear                    // LINEAR magnification or minification
	FamTexClamp                     // CLAMP_TO_EDGE or MIRRORED_REPEAT
	FamTexSubImage                  // TexSubImage2D or CopyTex(Sub)Image2D
	FamTexMatrix                    // a texture matrix other than identity
	FamTexEnv                       // MODULATE, DECAL, BLEND, REPLACE, ADD
	FamCombine                      // GL_COMBINE
	FamCombineDot3                  // DOT3_RGB, DOT3_RGBA
	FamPointSprite                  // OES_point_sprite with COORD_REPLACE
	FamPointSizeArray               // OES_point_size_array
	FamPointParams                  // point size, attenuation, min and max
	FamWideLines                    // line width above 1
	FamLighting                     // lighting
	FamManyLights                   // more than four lights
	FamSpotLights                   // a spot light or a positional light
	FamColorMaterial                // COLOR_MATERIAL
	FamTwoSide                      // two-sided lighting
	FamNormalize                    // NORMALIZE or RESCALE_NORMAL
	FamFog                          // fog
	FamFlatShading                  // ShadeModel FLAT
	FamCull                         // CULL_FACE
	FamClipPlanes                   // a user clip plane
	FamPolygonOffset                // POLYGON_OFFSET_FILL
	FamViewport                     // a viewport or depth range other than the default
	FamScissor                      // SCISSOR_TEST
	FamAlphaTest                    // ALPHA_TEST
	FamStencil                      // STENCIL_TEST
	FamDepthTest                    // DEPTH_TEST with a depth buffer
	FamNoDepthBuffer                // DEPTH_TEST on a surface without a depth buffer
	FamBlend                        // BLEND
	FamBlendExt                     // blend equations and separate factors
	FamLogicOp                      // COLOR_LOGIC_OP
	FamMasks                        // colour, depth or stencil write masks
	FamClear                        // a Clear after a draw (under scissor and masks)
	numFamilies
)

var familyNames = [numFamilies]string{
	"points", "lines", "triangles", "draw-elements", "buffer-objects", "client-arrays",
	"byte", "short", "fixed", "float", "current-attrib",
	"texture", "multitexture", "tex-rgba8", "tex-16bit", "tex-lum-alpha", "tex-paletted", "tex-etc1",
	"tex-small", "mipmap", "generate-mipmap", "tex-linear", "tex-clamp", "tex-subimage", "tex-matrix",
	"texenv", "combine", "combine-dot3",
	"point-sprite", "point-size-array", "point-params", "wide-lines",
	"lighting", "many-lights", "spot-lights", "color-material", "two-side", "normalize",
	"fog", "flat-shading", "cull", "clip-planes", "polygon-offset", "viewport",
	"scissor", "alpha-test", "stencil", "depth-test", "no-depth-buffer", "blend", "blend-ext",
	"logic-op", "masks", "clear",
}

// String returns the family's name.
func (f Family) String() string {
	if f < numFamilies {
		return familyNames[f]
	}
	return fmt.Sprintf("Family(%d)", uint8(f))
}

// AllFamilies lists every family in report order.
func AllFamilies() []Family {
	out := make([]Family, numFamilies)
	for i := range out {
		out[i] = Family(i)
	}
	return out
}

// Families is a set of families.
type Families uint64

// Has reports whether f is in the set.
func (s Families) Has(f Family) bool { return s&(1<<f) != 0 }

// With returns the set with f added.
func (s Families) With(f Family) Families { return s | 1<<f }

// List returns the families of the set in order.
func (s Families) List() []Family {
	var out []Family
	for f := Family(0); f < numFamilies; f++ {
		if s.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// String joins the names with ",".
func (s Families) String() string {
	var names []string
	for _, f := range s.List() {
		names = append(names, f.String())
	}
	return strings.Join(names, ",")
}
