package gles

// Enum is a GL enumerant.
type Enum uint32

// GL ES 1.1 enumerants, with the extensions retrogl exposes. Values are those
// of the Khronos headers (gl.h / glext.h for ES 1.1).
const (
	FALSE Enum = 0
	TRUE  Enum = 1

	DEPTH_BUFFER_BIT   Enum = 0x00000100
	STENCIL_BUFFER_BIT Enum = 0x00000400
	COLOR_BUFFER_BIT   Enum = 0x00004000

	POINTS         Enum = 0x0000
	LINES          Enum = 0x0001
	LINE_LOOP      Enum = 0x0002
	LINE_STRIP     Enum = 0x0003
	TRIANGLES      Enum = 0x0004
	TRIANGLE_STRIP Enum = 0x0005
	TRIANGLE_FAN   Enum = 0x0006

	NEVER    Enum = 0x0200
	LESS     Enum = 0x0201
	EQUAL    Enum = 0x0202
	LEQUAL   Enum = 0x0203
	GREATER  Enum = 0x0204
	NOTEQUAL Enum = 0x0205
	GEQUAL   Enum = 0x0206
	ALWAYS   Enum = 0x0207

	ZERO                     Enum = 0
	ONE                      Enum = 1
	SRC_COLOR                Enum = 0x0300
	ONE_MINUS_SRC_COLOR      Enum = 0x0301
	SRC_ALPHA                Enum = 0x0302
	ONE_MINUS_SRC_ALPHA      Enum = 0x0303
	DST_ALPHA                Enum = 0x0304
	ONE_MINUS_DST_ALPHA      Enum = 0x0305
	DST_COLOR                Enum = 0x0306
	ONE_MINUS_DST_COLOR      Enum = 0x0307
	SRC_ALPHA_SATURATE       Enum = 0x0308
	CONSTANT_COLOR           Enum = 0x8001
	ONE_MINUS_CONSTANT_COLOR Enum = 0x8002
	CONSTANT_ALPHA           Enum = 0x8003
	ONE_MINUS_CONSTANT_ALPHA Enum = 0x8004

	CLIP_PLANE0 Enum = 0x3000
	CLIP_PLANE1 Enum = 0x3001
	CLIP_PLANE2 Enum = 0x3002
	CLIP_PLANE3 Enum = 0x3003
	CLIP_PLANE4 Enum = 0x3004
	CLIP_PLANE5 Enum = 0x3005

	FRONT          Enum = 0x0404
	BACK           Enum = 0x0405
	FRONT_AND_BACK Enum = 0x0408

	FOG                      Enum = 0x0B60
	LIGHTING                 Enum = 0x0B50
	TEXTURE_2D               Enum = 0x0DE1
	CULL_FACE                Enum = 0x0B44
	ALPHA_TEST               Enum = 0x0BC0
	BLEND                    Enum = 0x0BE2
	COLOR_LOGIC_OP           Enum = 0x0BF2
	DITHER                   Enum = 0x0BD0
	STENCIL_TEST             Enum = 0x0B90
	DEPTH_TEST               Enum = 0x0B71
	POINT_SMOOTH             Enum = 0x0B10
	LINE_SMOOTH              Enum = 0x0B20
	SCISSOR_TEST             Enum = 0x0C11
	COLOR_MATERIAL           Enum = 0x0B57
	NORMALIZE                Enum = 0x0BA1
	RESCALE_NORMAL           Enum = 0x803A
	POLYGON_OFFSET_FILL      Enum = 0x8037
	VERTEX_ARRAY             Enum = 0x8074
	NORMAL_ARRAY             Enum = 0x8075
	COLOR_ARRAY              Enum = 0x8076
	TEXTURE_COORD_ARRAY      Enum = 0x8078
	MULTISAMPLE              Enum = 0x809D
	SAMPLE_ALPHA_TO_COVERAGE Enum = 0x809E
	SAMPLE_ALPHA_TO_ONE      Enum = 0x809F
	SAMPLE_COVERAGE          Enum = 0x80A0

	NO_ERROR          Enum = 0
	INVALID_ENUM      Enum = 0x0500
	INVALID_VALUE     Enum = 0x0501
	INVALID_OPERATION Enum = 0x0502
	STACK_OVERFLOW    Enum = 0x0503
	STACK_UNDERFLOW   Enum = 0x0504
	OUT_OF_MEMORY     Enum = 0x0505

	EXP  Enum = 0x0800
	EXP2 Enum = 0x0801

	FOG_DENSITY Enum = 0x0B62
	FOG_START   Enum = 0x0B63
	FOG_END     Enum = 0x0B64
	FOG_MODE    Enum = 0x0B65
	FOG_COLOR   Enum = 0x0B66

	CW  Enum = 0x0900
	CCW Enum = 0x0901

	CURRENT_COLOR                  Enum = 0x0B00
	CURRENT_NORMAL                 Enum = 0x0B02
	CURRENT_TEXTURE_COORDS         Enum = 0x0B03
	POINT_SIZE                     Enum = 0x0B11
	POINT_SIZE_MIN                 Enum = 0x8126
	POINT_SIZE_MAX                 Enum = 0x8127
	POINT_FADE_THRESHOLD_SIZE      Enum = 0x8128
	POINT_DISTANCE_ATTENUATION     Enum = 0x8129
	SMOOTH_POINT_SIZE_RANGE        Enum = 0x0B12
	LINE_WIDTH                     Enum = 0x0B21
	SMOOTH_LINE_WIDTH_RANGE        Enum = 0x0B22
	ALIASED_POINT_SIZE_RANGE       Enum = 0x846D
	ALIASED_LINE_WIDTH_RANGE       Enum = 0x846E
	CULL_FACE_MODE                 Enum = 0x0B45
	FRONT_FACE                     Enum = 0x0B46
	SHADE_MODEL                    Enum = 0x0B54
	DEPTH_RANGE                    Enum = 0x0B70
	DEPTH_WRITEMASK                Enum = 0x0B72
	DEPTH_CLEAR_VALUE              Enum = 0x0B73
	DEPTH_FUNC                     Enum = 0x0B74
	STENCIL_CLEAR_VALUE            Enum = 0x0B91
	STENCIL_FUNC                   Enum = 0x0B92
	STENCIL_VALUE_MASK             Enum = 0x0B93
	STENCIL_FAIL                   Enum = 0x0B94
	STENCIL_PASS_DEPTH_FAIL        Enum = 0x0B95
	STENCIL_PASS_DEPTH_PASS        Enum = 0x0B96
	STENCIL_REF                    Enum = 0x0B97
	STENCIL_WRITEMASK              Enum = 0x0B98
	MATRIX_MODE                    Enum = 0x0BA0
	VIEWPORT                       Enum = 0x0BA2
	MODELVIEW_STACK_DEPTH          Enum = 0x0BA3
	PROJECTION_STACK_DEPTH         Enum = 0x0BA4
	TEXTURE_STACK_DEPTH            Enum = 0x0BA5
	MODELVIEW_MATRIX               Enum = 0x0BA6
	PROJECTION_MATRIX              Enum = 0x0BA7
	TEXTURE_MATRIX                 Enum = 0x0BA8
	ALPHA_TEST_FUNC                Enum = 0x0BC1
	ALPHA_TEST_REF                 Enum = 0x0BC2
	BLEND_DST                      Enum = 0x0BE0
	BLEND_SRC                      Enum = 0x0BE1
	LOGIC_OP_MODE                  Enum = 0x0BF0
	SCISSOR_BOX                    Enum = 0x0C10
	COLOR_CLEAR_VALUE              Enum = 0x0C22
	COLOR_WRITEMASK                Enum = 0x0C23
	UNPACK_ALIGNMENT               Enum = 0x0CF5
	PACK_ALIGNMENT                 Enum = 0x0D05
	MAX_LIGHTS                     Enum = 0x0D31
	MAX_CLIP_PLANES                Enum = 0x0D32
	MAX_TEXTURE_SIZE               Enum = 0x0D33
	MAX_MODELVIEW_STACK_DEPTH      Enum = 0x0D36
	MAX_PROJECTION_STACK_DEPTH     Enum = 0x0D38
	MAX_TEXTURE_STACK_DEPTH        Enum = 0x0D39
	MAX_VIEWPORT_DIMS              Enum = 0x0D3A
	MAX_TEXTURE_UNITS              Enum = 0x84E2
	MAX_ELEMENTS_VERTICES          Enum = 0x80E8
	MAX_ELEMENTS_INDICES           Enum = 0x80E9
	SUBPIXEL_BITS                  Enum = 0x0D50
	RED_BITS                       Enum = 0x0D52
	GREEN_BITS                     Enum = 0x0D53
	BLUE_BITS                      Enum = 0x0D54
	ALPHA_BITS                     Enum = 0x0D55
	DEPTH_BITS                     Enum = 0x0D56
	STENCIL_BITS                   Enum = 0x0D57
	POLYGON_OFFSET_UNITS           Enum = 0x2A00
	POLYGON_OFFSET_FACTOR          Enum = 0x8038
	TEXTURE_BINDING_2D             Enum = 0x8069
	VERTEX_ARRAY_SIZE              Enum = 0x807A
	VERTEX_ARRAY_TYPE              Enum = 0x807B
	VERTEX_ARRAY_STRIDE            Enum = 0x807C
	NORMAL_ARRAY_TYPE              Enum = 0x807E
	NORMAL_ARRAY_STRIDE            Enum = 0x807F
	COLOR_ARRAY_SIZE               Enum = 0x8081
	COLOR_ARRAY_TYPE               Enum = 0x8082
	COLOR_ARRAY_STRIDE             Enum = 0x8083
	TEXTURE_COORD_ARRAY_SIZE       Enum = 0x8088
	TEXTURE_COORD_ARRAY_TYPE       Enum = 0x8089
	TEXTURE_COORD_ARRAY_STRIDE     Enum = 0x808A
	SAMPLE_BUFFERS                 Enum = 0x80A8
	SAMPLES                        Enum = 0x80A9
	SAMPLE_COVERAGE_VALUE          Enum = 0x80AA
	SAMPLE_COVERAGE_INVERT         Enum = 0x80AB
	NUM_COMPRESSED_TEXTURE_FORMATS Enum = 0x86A2
	COMPRESSED_TEXTURE_FORMATS     Enum = 0x86A3

	DONT_CARE                   Enum = 0x1100
	FASTEST                     Enum = 0x1101
	NICEST                      Enum = 0x1102
	PERSPECTIVE_CORRECTION_HINT Enum = 0x0C50
	POINT_SMOOTH_HINT           Enum = 0x0C51
	LINE_SMOOTH_HINT            Enum = 0x0C52
	FOG_HINT                    Enum = 0x0C54
	GENERATE_MIPMAP_HINT        Enum = 0x8192

	LIGHT_MODEL_AMBIENT  Enum = 0x0B53
	LIGHT_MODEL_TWO_SIDE Enum = 0x0B52

	AMBIENT               Enum = 0x1200
	DIFFUSE               Enum = 0x1201
	SPECULAR              Enum = 0x1202
	POSITION              Enum = 0x1203
	SPOT_DIRECTION        Enum = 0x1204
	SPOT_EXPONENT         Enum = 0x1205
	SPOT_CUTOFF           Enum = 0x1206
	CONSTANT_ATTENUATION  Enum = 0x1207
	LINEAR_ATTENUATION    Enum = 0x1208
	QUADRATIC_ATTENUATION Enum = 0x1209

	BYTE           Enum = 0x1400
	UNSIGNED_BYTE  Enum = 0x1401
	SHORT          Enum = 0x1402
	UNSIGNED_SHORT Enum = 0x1403
	INT            Enum = 0x1404
	UNSIGNED_INT   Enum = 0x1405
	FLOAT          Enum = 0x1406
	FIXED          Enum = 0x140C

	CLEAR         Enum = 0x1500
	AND           Enum = 0x1501
	AND_REVERSE   Enum = 0x1502
	COPY          Enum = 0x1503
	AND_INVERTED  Enum = 0x1504
	NOOP          Enum = 0x1505
	XOR           Enum = 0x1506
	OR            Enum = 0x1507
	NOR           Enum = 0x1508
	EQUIV         Enum = 0x1509
	INVERT        Enum = 0x150A
	OR_REVERSE    Enum = 0x150B
	COPY_INVERTED Enum = 0x150C
	OR_INVERTED   Enum = 0x150D
	NAND          Enum = 0x150E
	SET           Enum = 0x150F

	EMISSION            Enum = 0x1600
	SHININESS           Enum = 0x1601
	AMBIENT_AND_DIFFUSE Enum = 0x1602

	MODELVIEW  Enum = 0x1700
	PROJECTION Enum = 0x1701
	TEXTURE    Enum = 0x1702

	ALPHA           Enum = 0x1906
	RGB             Enum = 0x1907
	RGBA            Enum = 0x1908
	LUMINANCE       Enum = 0x1909
	LUMINANCE_ALPHA Enum = 0x190A

	UNSIGNED_SHORT_4_4_4_4 Enum = 0x8033
	UNSIGNED_SHORT_5_5_5_1 Enum = 0x8034
	UNSIGNED_SHORT_5_6_5   Enum = 0x8363

	FLAT   Enum = 0x1D00
	SMOOTH Enum = 0x1D01

	KEEP      Enum = 0x1E00
	REPLACE   Enum = 0x1E01
	INCR      Enum = 0x1E02
	DECR      Enum = 0x1E03
	INCR_WRAP Enum = 0x8507
	DECR_WRAP Enum = 0x8508

	VENDOR                   Enum = 0x1F00
	RENDERER                 Enum = 0x1F01
	VERSION                  Enum = 0x1F02
	EXTENSIONS               Enum = 0x1F03
	SHADING_LANGUAGE_VERSION Enum = 0x8B8C

	MODULATE Enum = 0x2100
	DECAL    Enum = 0x2101
	ADD      Enum = 0x0104

	TEXTURE_ENV_MODE  Enum = 0x2200
	TEXTURE_ENV_COLOR Enum = 0x2201
	TEXTURE_ENV       Enum = 0x2300

	NEAREST                Enum = 0x2600
	LINEAR                 Enum = 0x2601
	NEAREST_MIPMAP_NEAREST Enum = 0x2700
	LINEAR_MIPMAP_NEAREST  Enum = 0x2701
	NEAREST_MIPMAP_LINEAR  Enum = 0x2702
	LINEAR_MIPMAP_LINEAR   Enum = 0x2703

	TEXTURE_MAG_FILTER Enum = 0x2800
	TEXTURE_MIN_FILTER Enum = 0x2801
	TEXTURE_WRAP_S     Enum = 0x2802
	TEXTURE_WRAP_T     Enum = 0x2803
	GENERATE_MIPMAP    Enum = 0x8191

	TEXTURE0              Enum = 0x84C0
	TEXTURE1              Enum = 0x84C1
	TEXTURE2              Enum = 0x84C2
	TEXTURE3              Enum = 0x84C3
	ACTIVE_TEXTURE        Enum = 0x84E0
	CLIENT_ACTIVE_TEXTURE Enum = 0x84E1

	REPEAT          Enum = 0x2901
	CLAMP_TO_EDGE   Enum = 0x812F
	MIRRORED_REPEAT Enum = 0x8370

	LIGHT0 Enum = 0x4000
	LIGHT1 Enum = 0x4001
	LIGHT2 Enum = 0x4002
	LIGHT3 Enum = 0x4003
	LIGHT4 Enum = 0x4004
	LIGHT5 Enum = 0x4005
	LIGHT6 Enum = 0x4006
	LIGHT7 Enum = 0x4007

	ARRAY_BUFFER                       Enum = 0x8892
	ELEMENT_ARRAY_BUFFER               Enum = 0x8893
	ARRAY_BUFFER_BINDING               Enum = 0x8894
	ELEMENT_ARRAY_BUFFER_BINDING       Enum = 0x8895
	VERTEX_ARRAY_BUFFER_BINDING        Enum = 0x8896
	NORMAL_ARRAY_BUFFER_BINDING        Enum = 0x8897
	COLOR_ARRAY_BUFFER_BINDING         Enum = 0x8898
	TEXTURE_COORD_ARRAY_BUFFER_BINDING Enum = 0x889A
	STREAM_DRAW                        Enum = 0x88E0
	STATIC_DRAW                        Enum = 0x88E4
	DYNAMIC_DRAW                       Enum = 0x88E8
	BUFFER_SIZE                        Enum = 0x8764
	BUFFER_USAGE                       Enum = 0x8765

	SUBTRACT       Enum = 0x84E7
	COMBINE        Enum = 0x8570
	COMBINE_RGB    Enum = 0x8571
	COMBINE_ALPHA  Enum = 0x8572
	RGB_SCALE      Enum = 0x8573
	ADD_SIGNED     Enum = 0x8574
	INTERPOLATE    Enum = 0x8575
	CONSTANT       Enum = 0x8576
	PRIMARY_COLOR  Enum = 0x8577
	PREVIOUS       Enum = 0x8578
	OPERAND0_RGB   Enum = 0x8590
	OPERAND1_RGB   Enum = 0x8591
	OPERAND2_RGB   Enum = 0x8592
	OPERAND0_ALPHA Enum = 0x8598
	OPERAND1_ALPHA Enum = 0x8599
	OPERAND2_ALPHA Enum = 0x859A
	ALPHA_SCALE    Enum = 0x0D1C
	SRC0_RGB       Enum = 0x8580
	SRC1_RGB       Enum = 0x8581
	SRC2_RGB       Enum = 0x8582
	SRC0_ALPHA     Enum = 0x8588
	SRC1_ALPHA     Enum = 0x8589
	SRC2_ALPHA     Enum = 0x858A
	DOT3_RGB       Enum = 0x86AE
	DOT3_RGBA      Enum = 0x86AF

	// OES_compressed_paletted_texture.
	PALETTE4_RGB8_OES     Enum = 0x8B90
	PALETTE4_RGBA8_OES    Enum = 0x8B91
	PALETTE4_R5_G6_B5_OES Enum = 0x8B92
	PALETTE4_RGBA4_OES    Enum = 0x8B93
	PALETTE4_RGB5_A1_OES  Enum = 0x8B94
	PALETTE8_RGB8_OES     Enum = 0x8B95
	PALETTE8_RGBA8_OES    Enum = 0x8B96
	PALETTE8_R5_G6_B5_OES Enum = 0x8B97
	PALETTE8_RGBA4_OES    Enum = 0x8B98
	PALETTE8_RGB5_A1_OES  Enum = 0x8B99

	// OES_point_size_array.
	POINT_SIZE_ARRAY_OES                Enum = 0x8B9C
	POINT_SIZE_ARRAY_TYPE_OES           Enum = 0x898A
	POINT_SIZE_ARRAY_STRIDE_OES         Enum = 0x898B
	POINT_SIZE_ARRAY_BUFFER_BINDING_OES Enum = 0x8B9F

	// OES_point_sprite.
	POINT_SPRITE_OES  Enum = 0x8861
	COORD_REPLACE_OES Enum = 0x8862

	// OES_matrix_palette.
	MATRIX_PALETTE_OES          Enum = 0x8840
	MAX_PALETTE_MATRICES_OES    Enum = 0x8842
	CURRENT_PALETTE_MATRIX_OES  Enum = 0x8843
	MATRIX_INDEX_ARRAY_OES      Enum = 0x8844
	WEIGHT_ARRAY_OES            Enum = 0x86AD
	MAX_VERTEX_UNITS_OES        Enum = 0x86A4
	MATRIX_INDEX_ARRAY_SIZE_OES Enum = 0x8846
	WEIGHT_ARRAY_SIZE_OES       Enum = 0x86AB

	// OES_draw_texture.
	TEXTURE_CROP_RECT_OES Enum = 0x8B9D

	// OES_read_format.
	IMPLEMENTATION_COLOR_READ_TYPE_OES   Enum = 0x8B9A
	IMPLEMENTATION_COLOR_READ_FORMAT_OES Enum = 0x8B9B

	// OES_blend_subtract, EXT_blend_minmax, OES_blend_func_separate,
	// OES_blend_equation_separate.
	FUNC_ADD_OES              Enum = 0x8006
	MIN_EXT                   Enum = 0x8007
	MAX_EXT                   Enum = 0x8008
	BLEND_EQUATION_OES        Enum = 0x8009
	FUNC_SUBTRACT_OES         Enum = 0x800A
	FUNC_REVERSE_SUBTRACT_OES Enum = 0x800B
	BLEND_DST_RGB_OES         Enum = 0x80C8
	BLEND_SRC_RGB_OES         Enum = 0x80C9
	BLEND_DST_ALPHA_OES       Enum = 0x80CA
	BLEND_SRC_ALPHA_OES       Enum = 0x80CB
	BLEND_EQUATION_ALPHA_OES  Enum = 0x883D
	BLEND_COLOR               Enum = 0x8005

	// OES_compressed_ETC1_RGB8_texture and EXT_texture_compression_dxt1 /
	// S3TC.
	ETC1_RGB8_OES                 Enum = 0x8D64
	COMPRESSED_RGB_S3TC_DXT1_EXT  Enum = 0x83F0
	COMPRESSED_RGBA_S3TC_DXT1_EXT Enum = 0x83F1
	COMPRESSED_RGBA_S3TC_DXT3_EXT Enum = 0x83F2
	COMPRESSED_RGBA_S3TC_DXT5_EXT Enum = 0x83F3
)
